package serve_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/elicitgen/elicitgen/runtime/serve"
)

// GuardHost refuses, on a loopback address, a Host that is not a loopback
// name, and a cross-origin post; anything arriving on another address is
// judged by its origin only.
func TestGuardHost(t *testing.T) {
	h := serve.GuardHost(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	loopback := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}
	public := &net.TCPAddr{IP: net.IPv4(203, 0, 113, 7), Port: 443}
	for _, c := range []struct {
		local        net.Addr
		method, host string
		site, origin string
		want         int
	}{
		{loopback, "GET", "127.0.0.1:8080", "", "", 200},
		{loopback, "GET", "localhost:8080", "", "", 200},
		{loopback, "GET", "LOCALHOST", "", "", 200},
		{loopback, "GET", "[::1]:8080", "", "", 200},
		{loopback, "GET", "127.0.0.2", "", "", 200},
		{loopback, "GET", "evil.example:8080", "", "", 403},
		{loopback, "GET", "localhost.evil.example", "", "", 403},
		{loopback, "POST", "evil.example", "same-origin", "", 403},
		{loopback, "POST", "localhost:8080", "same-origin", "", 200},
		{loopback, "POST", "localhost:8080", "cross-site", "", 403},
		{loopback, "POST", "localhost:8080", "", "http://evil.example", 403},
		{loopback, "POST", "localhost:8080", "", "", 200}, // not a browser
		{public, "GET", "mcp.example.com", "", "", 200},
		{public, "POST", "mcp.example.com", "same-origin", "", 200},
		{public, "POST", "mcp.example.com", "same-site", "", 403},
	} {
		r := httptest.NewRequestWithContext(context.WithValue(context.Background(), http.LocalAddrContextKey, c.local), c.method, "/elicit/x", nil)
		r.Host = c.host
		if c.site != "" {
			r.Header.Set("Sec-Fetch-Site", c.site)
		}
		if c.origin != "" {
			r.Header.Set("Origin", c.origin)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != c.want {
			t.Errorf("%s %s on %s (site %q, origin %q): %d, want %d", c.method, c.host, c.local, c.site, c.origin, w.Code, c.want)
		}
	}
}
