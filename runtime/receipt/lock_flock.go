//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package receipt

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// lockFile takes an exclusive flock(2) on f without waiting: a second
// writer of the same log fails at once. The lock goes with the file's
// close, or with its process.
func lockFile(f *os.File) error {
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, unix.EWOULDBLOCK):
			return errors.New("another process writes this receipt log")
		case !errors.Is(err, unix.EINTR):
			return err
		}
	}
}
