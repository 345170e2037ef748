//go:build unix

package tasks_test

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time (user + system) the test process has
// used: benchmarks report it per op beside wall time, since on a shared
// machine wall time also counts the other processes' turns.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
