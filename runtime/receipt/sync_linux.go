package receipt

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// dataFile is the *os.File FileSink writes, synced with fdatasync(2): it
// writes the data and the file size a read needs, not the modification
// time, so it costs less than fsync for an append.
type dataFile struct{ *os.File }

// Sync implements file.
func (f dataFile) Sync() error {
	for {
		err := unix.Fdatasync(int(f.Fd()))
		if !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}
