//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package gen

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// lockDir takes an exclusive flock(2) on the directory itself, held until
// unlock: no lock file is left in the package. A lock belongs to its open
// file, so two runs, or two Writes of one process, exclude each other; a
// killed run's lock goes with its process.
func lockDir(dir string) (unlock func(), err error) {
	d, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	for {
		err = unix.Flock(int(d.Fd()), unix.LOCK_EX)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	if err != nil {
		d.Close()
		return nil, err
	}
	return func() {
		_ = unix.Flock(int(d.Fd()), unix.LOCK_UN)
		d.Close()
	}, nil
}
