package sdktest

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/mcpgo"
	"github.com/elicitgen/elicitgen/runtime/seal"
	"github.com/elicitgen/elicitgen/runtime/serve"
)

// serveLoopback serves h on 127.0.0.1 with the listener bounds of o
// until the test ends, and returns its /mcp URL.
func serveLoopback(t *testing.T, h http.Handler, o *serve.Options) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve.Serve(ctx, serve.NewHTTPServer(mux, o.Resolved()), ln, o.Resolved()) }()
	t.Cleanup(func() { cancel(); <-done })
	return "http://" + ln.Addr().String() + "/mcp"
}

// approve runs one deploy approval as a 2026-07-28 go-sdk client whose
// connections come from src: ask, input_required, the accepted answer,
// whose state the server claims. It returns the call's error.
func approve(ctx context.Context, url, src string) error {
	c := mcp.NewClient(&mcp.Implementation{Name: "c-" + src, Version: "v0"}, &mcp.ClientOptions{
		ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			r, err := scripted(ctx, goQuestion(req.Params))
			if err != nil {
				return nil, err
			}
			return &mcp.ElicitResult{Action: string(r.Action), Content: r.Content}, nil
		},
	})
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: fromAddr(src)},
		&mcp.ClientSessionOptions{ProtocolVersion: runtime.Version20260728})
	if err != nil {
		return err
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "deploy"})
	if err != nil {
		return err
	}
	if len(res.Content) == 0 || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "deployed") {
		return &unexpected{res}
	}
	return nil
}

type unexpected struct{ res *mcp.CallToolResult }

func (u *unexpected) Error() string { return "unexpected result" }

// TestReplayBudgetHoldsForOthers: two attacker hosts (127.0.0.2,
// 127.0.0.3) complete real approvals on 2026-07-28 until the in-memory
// replay store refuses them (each holds its budget of 3 claims, the
// store 8 in all); a third client's approval then still completes, over
// real HTTP on loopback, and the attackers' next claim is refused with
// -32603 (the answers not used). Without a budget per client one
// attacker fills the store and every approval on the server is refused.
func TestReplayBudgetHoldsForOthers(t *testing.T) {
	for _, sdk := range []string{goSDK, mcpGo} {
		t.Run(sdk, func(t *testing.T) {
			store := seal.NewMemoryReplayStore(8)
			store.SetPerClient(3)
			s := newServer(t, sdk, runtime.UnavailableAuto, replay(store))
			store.SetClock(s.clock.Now)
			var h http.Handler
			if sdk == goSDK {
				h = gosdk.NewHTTPHandler(s.gs, nil)
			} else {
				h = mcpgo.NewHTTPHandler(s.ms, nil)
			}
			url := serveLoopback(t, h, nil)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			for _, src := range []string{"127.0.0.2", "127.0.0.3"} {
				for i := range 5 { // two beyond its budget
					err := approve(ctx, url, src)
					switch {
					case i < 3 && err != nil:
						t.Fatalf("%s: approval %d within the budget: %v", src, i, err)
					case i >= 3 && err == nil:
						t.Fatalf("%s: approval %d beyond its budget of 3 claims completed", src, i)
					case i >= 3:
						checkReplayRefused(t, err)
					}
				}
			}
			if n := store.Len(); n != 6 {
				t.Fatalf("the store holds %d claims, want 6 (3 per attacker)", n)
			}
			if err := approve(ctx, url, "127.0.0.1"); err != nil {
				t.Fatalf("the second client's approval, with the attackers at their budgets: %v", err)
			}
			checkReplayRefused(t, approve(ctx, url, "127.0.0.2"))
			// Claims expire with their states: the attacker's budget frees.
			s.clock.Advance(stateTTL + seal.MaxClockSkew + time.Second)
			if err := approve(ctx, url, "127.0.0.2"); err != nil {
				t.Fatalf("after its claims expired, the attacker's approval: %v", err)
			}
		})
	}
}

// checkReplayRefused checks that err is the -32603 refusal of a claim
// over its client's budget.
func checkReplayRefused(t *testing.T, err error) {
	t.Helper()
	if code := errCode(err); code != -32603 || !strings.Contains(err.Error(), "this client's budget") {
		t.Errorf("want -32603 for a claim beyond the client's budget, got %d: %v", code, err)
	}
}
