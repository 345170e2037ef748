//go:build unix

package gen_test

import (
	"os"
	"syscall"
	"time"
)

// cpuTime returns the CPU time (user + system) of the test process and of
// its children that have been waited for (the go commands packages.Load
// and go build run): benchmarks compare CPU as well as wall time, since
// on a shared machine wall time also counts the other processes' turns,
// and parallel work hides in it.
func cpuTime() time.Duration {
	var self, children syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &self) != nil || syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children) != nil {
		return 0
	}
	return time.Duration(self.Utime.Nano() + self.Stime.Nano() + children.Utime.Nano() + children.Stime.Nano())
}

// peakRSS returns the largest resident set, in bytes, of the exited
// process ps or of any descendant it waited for (the compiler, under go
// build).
func peakRSS(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss * 1024 // kilobytes on Linux
	}
	return 0
}
