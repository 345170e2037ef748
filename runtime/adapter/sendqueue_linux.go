package adapter

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// sendQueue returns the bytes in the connection's kernel send queue (not
// yet acknowledged by the peer), and whether the system told.
func sendQueue(rc syscall.RawConn) (int, bool) {
	n, ok := 0, false
	_ = rc.Control(func(fd uintptr) {
		v, err := unix.IoctlGetInt(int(fd), unix.SIOCOUTQ)
		n, ok = v, err == nil
	})
	return n, ok
}
