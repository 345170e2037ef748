//go:build !linux

package receipt

import "os"

// dataFile is the *os.File FileSink writes, synced with (*os.File).Sync.
type dataFile struct{ *os.File }
