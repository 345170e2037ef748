//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package gen

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// lockFile is the lock of a package directory where directories cannot
// be flocked; staleLock is the age after which a lock file is taken to be
// a killed run's.
const (
	lockFile  = ".elicit_gen.lock"
	staleLock = time.Minute
)

// lockDir creates the lock file exclusively, waiting while another run
// holds it; unlock removes it.
func lockDir(dir string) (unlock func(), err error) {
	path := filepath.Join(dir, lockFile)
	for {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			f.Close()
			return func() { _ = os.Remove(path) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		if st, err := os.Stat(path); err == nil && time.Since(st.ModTime()) > staleLock {
			_ = os.Remove(path)
			continue
		}
		time.Sleep(10 * time.Millisecond)
	}
}
