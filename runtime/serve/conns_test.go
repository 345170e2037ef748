package serve_test

import (
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime/serve"
)

// serveLimited serves ok (or block, for /block) on a loopback listener
// bounded to total connections and perClient per host.
func serveLimited(t *testing.T, total, perClient int, block chan struct{}) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := serve.NewHTTPServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/block" {
			<-block
		}
		io.WriteString(w, "ok")
	}), (*serve.Options)(nil).Resolved())
	go srv.Serve(serve.LimitListenerPerClient(ln, total, perClient))
	t.Cleanup(func() { close(block); srv.Close() })
	return "http://" + ln.Addr().String()
}

// get does one request on its own keep-alive connection, left open.
func get(url string) (*http.Client, error) {
	c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}, Timeout: 3 * time.Second}
	res, err := c.Get(url)
	if err != nil {
		return c, err
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return c, nil
}

// Idle keep-alive connections holding every slot do not lock a newcomer
// out for the idle timeout: the oldest idle one is closed early.
func TestIdleConnectionsShed(t *testing.T) {
	url := serveLimited(t, 4, 0, make(chan struct{}))
	for range 4 {
		if _, err := get(url); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(50 * time.Millisecond)
	start := time.Now()
	if _, err := get(url); err != nil {
		t.Fatalf("a newcomer with 4 idle connections holding the 4 slots: %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("the newcomer waited %v", d)
	}
}

// One host holds at most its budget: a connection beyond it, with none
// of the host's idle, is closed at once.
func TestConnectionsPerClient(t *testing.T) {
	block := make(chan struct{})
	url := serveLimited(t, 0, 2, block)
	for range 2 {
		go get(url + "/block")
	}
	time.Sleep(200 * time.Millisecond)
	_, err := get(url)
	// net/http reports a connection the server closed before answering as
	// EOF, a reset, or (when it had been idle in the client's pool) "server
	// closed idle connection".
	if err == nil || !strings.Contains(err.Error(), "EOF") && !strings.Contains(err.Error(), "reset") && !strings.Contains(err.Error(), "closed") {
		t.Errorf("a third busy connection of one host: %v, want it closed", err)
	}
}
