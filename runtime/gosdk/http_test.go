package gosdk_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	goruntime "runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/seal"
	"github.com/elicitgen/elicitgen/runtime/serve"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
)

// httpServer serves a server with one tool, "confirm", that asks a yes/no
// question, through gosdk.NewHTTPHandler on a loopback port. returned
// counts the calls of the tool that returned, and how many of those
// returned because their context ended.
func httpServer(t *testing.T, opts *serve.Options) (url string, returned, ctxEnded *atomic.Int64) {
	t.Helper()
	returned, ctxEnded = new(atomic.Int64), new(atomic.Int64)
	s := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "v0"}, nil)
	cfg := &gosdk.Config{Options: adapter.Options{Keys: seal.NewRandomKeyRing()}}
	s.AddTool(&mcp.Tool{Name: "confirm", InputSchema: map[string]any{"type": "object"}},
		gosdk.Handle(cfg, func(ctx context.Context, _ *mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
			defer returned.Add(1)
			out, err := runtime.AskConfirm(ctx, ask, "Go on?")
			if ctx.Err() != nil {
				ctxEnded.Add(1)
			}
			if err != nil {
				return nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(out.Action)}}}, nil
		}))
	big := strings.Repeat("x", 4<<20)
	s.AddTool(&mcp.Tool{Name: "big", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: big}}}, nil
		})
	srv := httptest.NewUnstartedServer(gosdk.NewHTTPHandler(s, opts))
	srv.Config = gosdk.NewHTTPServer(srv.Config.Handler, opts)
	srv.Listener = serve.Listener(srv.Listener, opts.Resolved())
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL, returned, ctxEnded
}

// post sends one JSON-RPC message of a 2025-11-25 client and returns the
// response's session id and body.
func post(t *testing.T, url, session, msg string) (string, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(msg))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode >= 300 {
		t.Fatalf("POST %s: %s: %s", msg, res.Status, b)
	}
	return res.Header.Get("Mcp-Session-Id"), string(b)
}

const initialize = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{"form":{}}},"clientInfo":{"name":"c","version":"v0"}}}`

// openSession initializes a 2025-11-25 session that can be asked.
func openSession(t *testing.T, url string) string {
	t.Helper()
	sid, _ := post(t, url, "", initialize)
	if sid == "" {
		t.Fatal("initialize: no Mcp-Session-Id")
	}
	post(t, url, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return sid
}

// dropAsk calls "confirm" on session sid over a raw connection, waits for
// the pushed elicitation/create, and drops the connection.
func dropAsk(t *testing.T, url, sid string, id int) {
	t.Helper()
	host := strings.TrimPrefix(url, "http://")
	c, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"confirm","arguments":{}}}`, id)
	fmt.Fprintf(c, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Session-Id: %s\r\nMCP-Protocol-Version: 2025-11-25\r\nContent-Length: %d\r\n\r\n%s", host, sid, len(body), body)
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	r := bufio.NewReader(c)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("reading the call's stream: %v", err)
		}
		if strings.Contains(line, "elicitation/create") {
			return // the form is open: drop
		}
	}
}

// settle waits up to 10s for the goroutine count to fall to at most
// want, and returns the last count.
func settle(want int) int {
	n := goruntime.NumGoroutine()
	for deadline := time.Now().Add(10 * time.Second); n > want && time.Now().Before(deadline); n = goruntime.NumGoroutine() {
		time.Sleep(20 * time.Millisecond)
	}
	return n
}

// baseline returns the goroutine count once it has stayed the same for
// 100ms (at most 5s).
func baseline() int {
	n := goruntime.NumGoroutine()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
		m := goruntime.NumGoroutine()
		if m == n {
			break
		}
		n = m
	}
	return n
}

// waitFor waits up to 10s for cond.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("after 10s: %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A 2025-11-25 client that drops its call while the form is open ends
// the ask: the handler returns (its context ended) and nothing it
// started stays, whether each drop has its own session or all share one.
func TestHTTPDroppedAskEnds(t *testing.T) {
	for _, shared := range []bool{false, true} {
		t.Run(fmt.Sprintf("shared session %v", shared), func(t *testing.T) {
			url, returned, ctxEnded := httpServer(t, nil)
			http.DefaultClient.CloseIdleConnections()
			const drops = 40
			sids := make([]string, drops)
			for i := range sids {
				if i == 0 || !shared {
					sids[i] = openSession(t, url)
				} else {
					sids[i] = sids[0]
				}
			}
			http.DefaultClient.CloseIdleConnections()
			base := baseline()
			for i, sid := range sids {
				dropAsk(t, url, sid, i+1)
			}
			waitFor(t, fmt.Sprintf("%d of %d dropped asks returned", returned.Load(), drops), func() bool { return returned.Load() == drops })
			if n := ctxEnded.Load(); n != drops {
				t.Errorf("%d of %d asks returned with their context ended", n, drops)
			}
			if n := settle(base + 2); n > base+2 {
				t.Errorf("goroutines: %d before the drops, %d after", base, n)
			}
		})
	}
}

// A session ended by DELETE while its form is open ends the ask, and the
// DELETE itself completes (go-sdk's session Close waits for the calls in
// flight).
func TestHTTPDeleteEndsAsk(t *testing.T) {
	url, returned, _ := httpServer(t, nil)
	sid := openSession(t, url)
	host := strings.TrimPrefix(url, "http://")
	c, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	body := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"confirm","arguments":{}}}`
	fmt.Fprintf(c, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Session-Id: %s\r\nMCP-Protocol-Version: 2025-11-25\r\nContent-Length: %d\r\n\r\n%s", host, sid, len(body), body)
	r := bufio.NewReader(c)
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(line, "elicitation/create") {
			break
		}
	}
	done := make(chan error, 1)
	go func() {
		req, _ := http.NewRequest("DELETE", url, nil)
		req.Header.Set("Mcp-Session-Id", sid)
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		res, err := http.DefaultClient.Do(req)
		if err == nil {
			res.Body.Close()
			if res.StatusCode != http.StatusNoContent {
				err = fmt.Errorf("DELETE: %s", res.Status)
			}
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("DELETE of a session with an open form did not complete within 10s")
	}
	waitFor(t, "the ask of the deleted session returned", func() bool { return returned.Load() == 1 })
}

// Sessions are bounded: beyond MaxSessions an initialize sheds the oldest
// idle session of the heaviest client (here the only one) instead of
// being refused, and idle sessions are closed after SessionTimeout,
// which frees their slots and their goroutines.
func TestHTTPSessionsBounded(t *testing.T) {
	const max = 50
	url, _, _ := httpServer(t, &serve.Options{MaxSessions: max, SessionTimeout: 3 * time.Second})
	http.DefaultClient.CloseIdleConnections()
	base := baseline()
	init := func() int {
		req, _ := http.NewRequest("POST", url, strings.NewReader(initialize))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode
	}
	refused := 0
	for range 2 * max {
		if init() == http.StatusServiceUnavailable {
			refused++
		}
	}
	if refused != 0 {
		t.Errorf("%d of %d initialize refused, want none: a full table sheds the oldest idle session of the heaviest client (MaxSessions %d)", refused, 2*max, max)
	}
	http.DefaultClient.CloseIdleConnections()
	if n := settle(base + 2); n > base+2 {
		t.Errorf("goroutines: %d before %d idle sessions, %d after their timeout", base, max, n)
	}
	if code := init(); code != http.StatusOK {
		t.Errorf("initialize after the idle sessions ended: %d", code)
	}
}

// A body beyond MaxBodyBytes is refused with 413, whatever its era, and
// whether or not it states its length.
func TestHTTPBodyLimit(t *testing.T) {
	url, _, _ := httpServer(t, &serve.Options{MaxBodyBytes: 64 << 10})
	big := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"confirm","arguments":{"pad":"` + strings.Repeat("x", 70<<10) + `"}}}`
	for _, tc := range []struct {
		name    string
		header  string
		chunked bool
	}{{"2026 header", "2026-07-28", false}, {"no header", "", false}, {"no header, chunked", "", true}} {
		t.Run(tc.name, func(t *testing.T) {
			var body io.Reader = strings.NewReader(big)
			if tc.chunked {
				body = io.MultiReader(strings.NewReader(big)) // no length: chunked
			}
			req, _ := http.NewRequest("POST", url, body)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if tc.header != "" {
				req.Header.Set("MCP-Protocol-Version", tc.header)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusRequestEntityTooLarge {
				t.Errorf("%s: %s", res.Status, bytes.TrimSpace(b))
			}
		})
	}
}

// Readers too slow for the write timeout cannot hold the connections: a
// well-behaved request is served while as many slow readers as MaxConns
// read a large response a byte at a time: their writes are cut, which
// frees their connections.
func TestHTTPSlowReadersCut(t *testing.T) {
	const conns = 4
	url, _, _ := httpServer(t, &serve.Options{MaxConns: conns, WriteTimeout: 300 * time.Millisecond})
	sid := openSession(t, url)
	http.DefaultClient.CloseIdleConnections()
	host := strings.TrimPrefix(url, "http://")
	for i := range conns {
		d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
			return c.Control(func(fd uintptr) { _ = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 1024) })
		}}
		c, err := d.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"big","arguments":{}}}`, i+1)
		fmt.Fprintf(c, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Session-Id: %s\r\nMCP-Protocol-Version: 2025-11-25\r\nContent-Length: %d\r\n\r\n%s", host, sid, len(body), body)
		go func() {
			var b [1]byte
			for {
				if _, err := c.Read(b[:]); err != nil {
					return
				}
				time.Sleep(100 * time.Millisecond)
			}
		}()
	}
	time.Sleep(200 * time.Millisecond) // the slow readers hold every slot
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", url, strings.NewReader(initialize))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("well-behaved request with %d slow readers holding %d connections: %v", conns, conns, err)
	}
	res.Body.Close()
}
