package serve_test

import (
	"bufio"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/runtime/serve"
)

// TestClientHeaderCannotBeSent: no client can name itself in
// ClientHeader: net/http refuses the header name before any handler
// runs, and SetClient replaces whatever a request held.
func TestClientHeaderCannotBeSent(t *testing.T) {
	reached := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached = true
	}))
	defer srv.Close()
	c, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte("POST /mcp HTTP/1.1\r\nHost: x\r\n" + serve.ClientHeader + ": principal:victim\r\nContent-Length: 0\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(c).ReadString('\n')
	if !strings.Contains(line, " 400 ") || reached {
		t.Fatalf("a request sending %q: %q (handler reached: %t); want 400", serve.ClientHeader, line, reached)
	}

	r := httptest.NewRequest(http.MethodPost, "/mcp", nil)
	r.Header[serve.ClientHeader] = []string{"principal:victim", "x"}
	serve.SetClient(r, serve.RemoteClient(r))
	if got := serve.ClientFrom(r.Header); got != "addr:192.0.2.1" {
		t.Errorf("ClientFrom after SetClient = %q, want addr:192.0.2.1", got)
	}
	if got := serve.ClientFrom(http.Header{}); got != "" {
		t.Errorf("ClientFrom of no header = %q", got)
	}
}
