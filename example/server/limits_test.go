package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime/seal"
	"github.com/elicitgen/elicitgen/runtime/serve"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/example/app"
)

// slowClients are the kinds of connection a slow or hostile client
// holds open.
var slowClients = []string{"idle", "trickle-headers", "trickle-body"}

// serveLimited starts the example's HTTP server under lim on a loopback port
// and returns its address and the peak number of connections it held
// open at once.
func serveLimited(t *testing.T, lim serve.Options) (addr string, peak func() int64) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := newHTTPServer(app.NewServer(app.Options{Keys: seal.NewRandomKeyRing()}), &lim)
	cl := &countingListener{Listener: ln}
	go srv.Serve(limitListener(cl, lim.MaxConns))
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String(), cl.max.Load
}

// countingListener counts the connections accepted and not yet closed,
// beneath the limit, and keeps the peak.
type countingListener struct {
	net.Listener
	open, max atomic.Int64
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	n := l.open.Add(1)
	for m := l.max.Load(); n > m && !l.max.CompareAndSwap(m, n); m = l.max.Load() {
	}
	return &countingConn{Conn: c, l: l}, nil
}

type countingConn struct {
	net.Conn
	l    *countingListener
	once sync.Once
}

func (c *countingConn) Close() error {
	c.once.Do(func() { c.l.open.Add(-1) })
	return c.Conn.Close()
}

// slowClient opens a connection of the given kind to addr and keeps it
// busy until the server closes it or stop is closed; closed is then
// called once.
func slowClient(t *testing.T, addr, kind string, stop <-chan struct{}, closed func()) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Errorf("dial: %v", err)
		closed()
		return
	}
	go func() {
		defer c.Close()
		defer closed()
		// The server closes the connection (after a 408 at most): the read
		// ends.
		done := make(chan struct{})
		go func() {
			_, _ = io.Copy(io.Discard, c)
			close(done)
		}()
		var head, drip string
		switch kind {
		case "trickle-headers":
			head, drip = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n", "X"
		case "trickle-body":
			head, drip = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100000\r\n\r\n{", " "
		}
		if head != "" {
			if _, err := io.WriteString(c, head); err != nil {
				<-done
				return
			}
		}
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-stop:
				return
			case <-tick.C:
				if drip != "" {
					_, _ = io.WriteString(c, drip)
				}
			}
		}
	}()
}

// wellBehaved lists the tools over a 2026-07-28 client session.
func wellBehaved(ctx context.Context, addr string) error {
	c := mcp.NewClient(&mcp.Implementation{Name: "ok", Version: "v0"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp"}, nil)
	if err != nil {
		return err
	}
	defer cs.Close()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		return err
	}
	if len(res.Tools) == 0 {
		return fmt.Errorf("no tools")
	}
	return nil
}

// TestServedUnderSlowClients opens 500 idle or trickling connections
// and checks that a well-behaved request is still served, that the
// server closes every slow connection once its header or body timeout
// passes, and that it never holds more connections than the bound.
func TestServedUnderSlowClients(t *testing.T) {
	const slow = 500
	lim := serve.Options{HeaderTimeout: time.Second, BodyTimeout: time.Second, IdleTimeout: time.Second, MaxHeaderBytes: 8 << 10, MaxConns: 600}
	addr, peak := serveLimited(t, lim)
	stop := make(chan struct{})
	defer close(stop)
	var wg sync.WaitGroup
	wg.Add(slow)
	for i := range slow {
		slowClient(t, addr, slowClients[i%len(slowClients)], stop, wg.Done)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := wellBehaved(ctx, addr); err != nil {
		t.Fatalf("well-behaved request with %d slow connections open: %v", slow, err)
	}
	reaped := make(chan struct{})
	go func() { wg.Wait(); close(reaped) }()
	select {
	case <-reaped:
	case <-ctx.Done():
		t.Fatalf("the server did not close the slow connections (timeouts %v)", lim.HeaderTimeout)
	}
	if p := peak(); p > int64(lim.MaxConns) {
		t.Errorf("%d connections open at once, bound %d", p, lim.MaxConns)
	}
	// Too large a header block: 431.
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: %s\r\n\r\n", strings.Repeat("a", 2*lim.MaxHeaderBytes))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("oversized headers: %s, want 431", resp.Status)
	}
}

// TestConnectionBound holds more slow connections than the bound: the
// server never serves more at once, and a well-behaved request still
// gets through once timeouts free slots.
func TestConnectionBound(t *testing.T) {
	lim := serve.Options{HeaderTimeout: 300 * time.Millisecond, BodyTimeout: 300 * time.Millisecond, IdleTimeout: 300 * time.Millisecond, MaxHeaderBytes: 8 << 10, MaxConns: 8}
	addr, peak := serveLimited(t, lim)
	stop := make(chan struct{})
	defer close(stop)
	for i := range 4 * lim.MaxConns {
		slowClient(t, addr, slowClients[i%len(slowClients)], stop, func() {})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := wellBehaved(ctx, addr); err != nil {
		t.Fatalf("well-behaved request: %v", err)
	}
	if p := peak(); p > int64(lim.MaxConns) || p == 0 {
		t.Errorf("%d connections open at once, bound %d", p, lim.MaxConns)
	}
}
