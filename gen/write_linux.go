//go:build linux

package gen

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// createTemp opens an unnamed file in dir (O_TMPFILE): a run killed while
// writing it leaves nothing behind. commit gives it a temporary name and
// renames that over the target, so a name exists only between two
// system calls. Filesystems without O_TMPFILE get a named temporary file.
func createTemp(dir, base string) (*os.File, func(string) error, error) {
	fd, err := unix.Open(dir, unix.O_TMPFILE|unix.O_WRONLY|unix.O_CLOEXEC, 0o644)
	if err != nil {
		return createNamedTemp(dir, base)
	}
	f := os.NewFile(uintptr(fd), "")
	commit := func(path string) error {
		for i := 0; ; i++ {
			name := filepath.Join(dir, fmt.Sprintf(".elicit_gen.%d.%d.tmp", os.Getpid(), i))
			err := unix.Linkat(unix.AT_FDCWD, fmt.Sprintf("/proc/self/fd/%d", fd), unix.AT_FDCWD, name, unix.AT_SYMLINK_FOLLOW)
			if errors.Is(err, unix.EEXIST) && i < 100 {
				continue
			}
			if err != nil {
				return err
			}
			if err := os.Rename(name, path); err != nil {
				os.Remove(name)
				return err
			}
			return nil
		}
	}
	return f, commit, nil
}
