//go:build !unix

package gen_test

import (
	"os"
	"time"
)

// cpuTime is not measured on this system; CPU metrics read zero.
func cpuTime() time.Duration { return 0 }

// peakRSS is not measured on this system.
func peakRSS(*os.ProcessState) int64 { return 0 }
