//go:build !linux

package gen

import "os"

// createTemp returns a named temporary file in dir; a later Write removes
// one that a killed run left behind.
func createTemp(dir, base string) (*os.File, func(string) error, error) {
	return createNamedTemp(dir, base)
}
