package serve_test

import (
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime/serve"
)

// A client that pipelines requests and never reads its responses is cut
// by bytes, not only by the write deadline: once MaxQueuedBytes sit
// unread, the next write closes the connection.
func TestNonReadingClientCut(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	o := (&serve.Options{WriteTimeout: 20 * time.Second}).Resolved()
	chunk := strings.Repeat("x", 4<<10)
	srv := serve.NewHTTPServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, chunk) }), o)
	go srv.Serve(serve.Listener(ln, o))
	defer srv.Close()
	d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		return c.Control(func(fd uintptr) { syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 16<<10) })
	}}
	c, err := d.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	req := "GET / HTTP/1.1\r\nHost: x\r\n\r\n"
	go func() {
		for range 4000 { // 16 MB of responses, never read
			if _, err := io.WriteString(c, req); err != nil {
				return
			}
		}
	}()
	time.Sleep(1500 * time.Millisecond)
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	n, err := io.Copy(io.Discard, c)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("the connection of a client that never read is still open after %d bytes (only the write deadline would end it)", n)
	}
	if n >= 4000*int64(len(chunk)) {
		t.Errorf("all %d bytes were sent to a client that did not read", n)
	}
}
