//go:build !linux

package serve

import "syscall"

// sendQueue reports nothing where the system has no SIOCOUTQ: only the
// write deadline bounds a client that does not read there.
func sendQueue(syscall.RawConn) (int, bool) { return 0, false }
