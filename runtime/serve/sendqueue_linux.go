package serve

import (
	"syscall"
	"unsafe"
)

// siocoutq is Linux's SIOCOUTQ (TIOCOUTQ): the bytes of a socket's send
// queue.
const siocoutq = 0x5411

// sendQueue returns the bytes in the connection's kernel send queue (not
// yet acknowledged by the peer), and whether the system told.
func sendQueue(rc syscall.RawConn) (int, bool) {
	n, ok := 0, false
	_ = rc.Control(func(fd uintptr) {
		var v int32
		_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, siocoutq, uintptr(unsafe.Pointer(&v)))
		n, ok = int(v), errno == 0
	})
	return n, ok
}
