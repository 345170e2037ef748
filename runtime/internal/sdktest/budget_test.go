package sdktest

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	mgserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/mcpgo"
	"github.com/elicitgen/elicitgen/runtime/serve"
)

// headerClient sends every request with X-Client: name.
type headerClient struct {
	name string
	rt   http.RoundTripper
}

func (h headerClient) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("X-Client", h.name)
	return h.rt.RoundTrip(r)
}

// initialize opens one raw 2025-11-25 session as client and returns its
// status and session id.
func initialize(t *testing.T, url, client string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"a","version":"v0"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("X-Client", client)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Mcp-Session-Id")
}

// TestSessionBudgets: clients holding their full session budgets, and
// the table full, do not lock out a newcomer: its initialize sheds the
// oldest idle session of the heaviest client and its approval completes
// over go-sdk's streamable HTTP; a session past its lifetime is closed
// however often it is pinged.
func TestSessionBudgets(t *testing.T) {
	s := newServer(t, goSDK, runtime.UnavailableAuto)
	h := gosdk.NewHTTPHandler(s.gs, &serve.Options{
		MaxSessions: 6, MaxSessionsPerClient: 3, SessionLifetime: 2 * time.Second,
		ClientKey: func(r *http.Request) string { return r.Header.Get("X-Client") },
	})
	srv := httptest.NewServer(h)
	defer srv.Close()
	for i := range 10 { // the attacker tries 10: it keeps 3
		if code, _ := initialize(t, srv.URL, "attacker-a"); code != http.StatusOK {
			t.Fatalf("attacker-a initialize %d: %d", i, code)
		}
	}
	for range 3 {
		initialize(t, srv.URL, "attacker-b")
	}
	time.Sleep(100 * time.Millisecond)
	if n := countSessions(s.gs); n != 6 {
		t.Fatalf("%d sessions, want the table full at 6", n)
	}
	defer newcomerApproves(t, srv.URL).Close() // open while the sessions are counted
	if n := countSessions(s.gs); n > 6 {
		t.Errorf("%d sessions, over the total of 6", n)
	}
	// Lifetime: pings keep the session busy but not alive.
	_, sid := initialize(t, srv.URL, "pinger")
	pingPastLifetime(t, srv.URL, sid)
}

func countSessions(s *mcp.Server) int {
	n := 0
	for ss := range s.Sessions() {
		if ss.ID() != "" {
			n++
		}
	}
	return n
}

// fromAddr is an HTTP client whose connections come from the loopback
// address src (127.0.0.2, ...), a host of its own to the server, each
// request on a connection of its own kept open afterwards.
func fromAddr(src string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}}
	return &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 64}}
}

// TestBudgetsHoldForOthers: two attackers, each from its own address
// and holding its full budgets (every connection slot it may have, kept
// idle, and its sessions), leave the server full; a third client's
// approval still completes, on both eras. The time it takes is logged
// (go test -v -run TestBudgetsHoldForOthers ./runtime/internal/sdktest/).
func TestBudgetsHoldForOthers(t *testing.T) {
	s := newServer(t, goSDK, runtime.UnavailableAuto)
	o := &serve.Options{MaxConns: 8, MaxConnsPerClient: 4, MaxSessions: 6, MaxSessionsPerClient: 3}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", gosdk.NewHTTPHandler(s.gs, o))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve.Serve(ctx, gosdk.NewHTTPServer(mux, o), ln, o.Resolved()) }()
	defer func() { cancel(); <-done }()
	url := "http://" + ln.Addr().String() + "/mcp"
	held := 0
	for _, src := range []string{"127.0.0.2", "127.0.0.3"} {
		for range 6 { // two beyond its connection budget
			hc := fromAddr(src)
			req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"a","version":"v0"}}}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if res, err := hc.Do(req); err == nil {
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				held++
			}
		}
	}
	t.Logf("attackers hold %d initialized connections, %d sessions", held, countSessions(s.gs))
	for _, version := range []string{runtime.Version20251125, runtime.Version20260728} {
		start := time.Now()
		cctx, ccancel := context.WithTimeout(context.Background(), 20*time.Second)
		c := mcp.NewClient(&mcp.Implementation{Name: "victim", Version: "v0"}, &mcp.ClientOptions{
			ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				r, err := scripted(ctx, goQuestion(req.Params))
				if err != nil {
					return nil, err
				}
				return &mcp.ElicitResult{Action: string(r.Action), Content: r.Content}, nil
			},
		})
		cs, err := c.Connect(cctx, &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: version})
		if err != nil {
			ccancel()
			t.Fatalf("%s: the victim could not connect: %v", version, err)
		}
		res, err := cs.CallTool(cctx, &mcp.CallToolParams{Name: "deploy"})
		cs.Close()
		ccancel()
		if err != nil || len(res.Content) == 0 || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "deployed") {
			t.Fatalf("%s: the victim's approval: %+v, %v", version, res, err)
		}
		t.Logf("%s: the victim's approval completed in %v with both attackers at their budgets", version, time.Since(start).Round(time.Millisecond))
	}
}

// TestSessionBudgetsMCPGo is TestSessionBudgets for mcp-go's streamable
// HTTP (mcpgo.NewHTTPHandler), where every initialize registers a session
// until its idle sweep: an attacker initializing again and again holds
// its budget of 3, the table its total of 6; a newcomer's initialize and
// approval still complete; a session past its lifetime is closed (404)
// however often it is pinged.
func TestSessionBudgetsMCPGo(t *testing.T) {
	s := newServer(t, mcpGo, runtime.UnavailableAuto)
	var mu sync.Mutex
	live := map[string]bool{}
	hooks := &mgserver.Hooks{}
	hooks.AddOnRegisterSession(func(_ context.Context, ss mgserver.ClientSession) {
		mu.Lock()
		live[ss.SessionID()] = true
		mu.Unlock()
	})
	hooks.AddOnUnregisterSession(func(_ context.Context, ss mgserver.ClientSession) {
		mu.Lock()
		delete(live, ss.SessionID())
		mu.Unlock()
	})
	mgserver.WithHooks(hooks)(s.ms)
	registered := func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(live)
	}
	h := mcpgo.NewHTTPHandler(s.ms, &serve.Options{
		MaxSessions: 6, MaxSessionsPerClient: 3, SessionLifetime: 2 * time.Second,
		ClientKey: func(r *http.Request) string { return r.Header.Get("X-Client") },
	}, mgserver.WithStreamableHTTPLogger(slog.New(slog.DiscardHandler)))
	srv := httptest.NewServer(h)
	defer srv.Close()
	for i := range 10 { // the attacker tries 10: it keeps 3
		if code, _ := initialize(t, srv.URL, "attacker-a"); code != http.StatusOK {
			t.Fatalf("attacker-a initialize %d: %d", i, code)
		}
	}
	if n := registered(); n != 3 {
		t.Fatalf("attacker-a holds %d sessions, want its budget of 3", n)
	}
	for range 3 {
		initialize(t, srv.URL, "attacker-b")
	}
	if n := registered(); n != 6 {
		t.Fatalf("%d sessions, want the table full at 6", n)
	}
	defer newcomerApproves(t, srv.URL).Close() // open while the sessions are counted
	if n := registered(); n > 6 {
		t.Errorf("%d sessions, over the total of 6", n)
	}
	// Lifetime: pings keep the session used but not alive.
	_, sid := initialize(t, srv.URL, "pinger")
	pingPastLifetime(t, srv.URL, sid)
	mu.Lock()
	stillLive := live[sid]
	mu.Unlock()
	if stillLive {
		t.Error("the session past its lifetime is still registered in mcp-go")
	}
}

// pingPastLifetime pings session sid (of client "pinger") every 200 ms
// for 3 s, and fails unless a ping is answered 404 once the session's 2 s
// lifetime is over: pings keep a session used, not alive.
func pingPastLifetime(t *testing.T, url, sid string) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	code := 0
	for time.Now().Before(deadline) {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":2,"method":"ping"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Session-Id", sid)
		req.Header.Set("MCP-Protocol-Version", runtime.Version20251125)
		req.Header.Set("X-Client", "pinger")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if code = resp.StatusCode; code == http.StatusNotFound {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Errorf("a session pinged every 200ms still answers %d after its 2s lifetime", code)
}

// newcomerApproves connects a go-sdk client ("victim") to url on
// 2025-11-25 and fails unless its deploy approval completes; it returns
// the client's session, still open.
func newcomerApproves(t *testing.T, url string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c := mcp.NewClient(&mcp.Implementation{Name: "victim", Version: "v0"}, &mcp.ClientOptions{
		ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			r, err := scripted(ctx, goQuestion(req.Params))
			if err != nil {
				return nil, err
			}
			return &mcp.ElicitResult{Action: string(r.Action), Content: r.Content}, nil
		},
	})
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url,
		HTTPClient: &http.Client{Transport: headerClient{"victim", http.DefaultTransport}}},
		&mcp.ClientSessionOptions{ProtocolVersion: runtime.Version20251125})
	if err != nil {
		t.Fatalf("the newcomer could not initialize: %v", err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "deploy"})
	if err != nil || len(res.Content) == 0 || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "deployed") {
		cs.Close()
		t.Fatalf("the newcomer's approval: %+v, %v", res, err)
	}
	return cs
}
