package example

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/example/internal/exampletest"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/example/app"
	"github.com/elicitgen/elicitgen/runtime"
)

// fromHost is an HTTP client whose connections come from the loopback
// address src (127.0.0.2, ...: a remote host of its own to the server),
// kept open once idle.
func fromHost(src string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}}
	return &http.Client{Timeout: exampletest.Timeout(20 * time.Second), Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 64}}
}

// deployApproval runs one approval of the example's deploy tool as a
// go-sdk client on version from src: it connects (initialize on the
// 2025 eras), calls deploy, and the person accepts the form (pushed, or in
// an input_required round whose state the server then claims). It returns
// the call's error.
func deployApproval(ctx context.Context, mcpURL, src, version string) error {
	c := mcp.NewClient(&mcp.Implementation{Name: "budget-" + src, Version: "v0"}, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"branch": "release/2.4", "environment": "production", "confirmed": true}}, nil
		},
	})
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: mcpURL, HTTPClient: fromHost(src)}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: app.ToolDeploy, Arguments: map[string]any{"service": "billing"}})
	if err != nil {
		return err
	}
	if res.IsError || len(res.Content) == 0 || !strings.HasPrefix(res.Content[0].(*mcp.TextContent).Text, "Deployed billing@release/2.4") {
		return fmt.Errorf("not deployed: %+v", res)
	}
	return nil
}

// isReplayBudgetRefusal reports whether err is the -32603 refusal of a
// claim beyond its client's replay budget.
func isReplayBudgetRefusal(err error) bool {
	var we *jsonrpc.Error
	return errors.As(err, &we) && we.Code == jsonrpc.CodeInternalError && strings.Contains(we.Message, "this client's budget")
}

// TestBudgetsHoldForOthers runs the example server with its limits
// scaled down by its flags (8 connections, 4 per host; 6 sessions, 3 per
// client; 8 replay claims, 3 per client). Two attacker hosts (127.0.0.2,
// 127.0.0.3) each take their full budgets: 3 real approvals on
// 2026-07-28, whose states the server claims, until the fourth is
// refused; then more initialized 2025-11-25 sessions, each on a
// connection of its own kept open, than their session and connection
// budgets allow. The connection slots, the session table and the
// attackers' replay budgets are then full; a second client's deploy
// approval still completes on 2025-11-25 and on 2026-07-28, and the
// attackers' claims are still refused. The time each approval takes is
// logged, not asserted (BENCHMARKS.md):
//
//	go test -v -run TestBudgetsHoldForOthers ./example
func TestBudgetsHoldForOthers(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the example server")
	}
	ctx, cancel := exampletest.Context(t, 2*time.Minute)
	defer cancel()
	mcpURL := exampletest.StartHTTPExampleWith(ctx, t, nil,
		"--max-conns", "8", "--max-conns-per-client", "4",
		"--max-sessions", "6", "--max-sessions-per-client", "3",
		"--replay-limit", "8", "--replay-per-client", "3")
	attackers := []string{"127.0.0.2", "127.0.0.3"}
	for _, src := range attackers {
		for i := range 4 {
			err := deployApproval(ctx, mcpURL, src, runtime.Version20260728)
			switch {
			case i < 3 && err != nil:
				t.Fatalf("%s: approval %d within its replay budget: %v", src, i, err)
			case i == 3 && !isReplayBudgetRefusal(err):
				t.Fatalf("%s: approval %d beyond its replay budget of 3: %v; want -32603", src, i, err)
			}
		}
	}
	held := 0
	for _, src := range attackers {
		for range 6 { // beyond both its session (3) and connection (4) budgets
			req, _ := http.NewRequest(http.MethodPost, mcpURL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"attacker","version":"v0"}}}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			res, err := fromHost(src).Do(req)
			if err != nil {
				continue // the host's oldest connection was closed to make room: expected
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				held++
			}
		}
	}
	t.Logf("%d of the attackers' 12 initializes succeeded, each on a connection kept open (the server keeps 3 sessions and 4 connections of each); they hold 6 replay claims", held)
	for _, version := range []string{runtime.Version20251125, runtime.Version20260728} {
		start := time.Now()
		if err := deployApproval(ctx, mcpURL, "127.0.0.1", version); err != nil {
			t.Fatalf("%s: the second client's approval with both attackers at their budgets: %v", version, err)
		}
		t.Logf("%s: the second client's deploy approval completed in %v with both attackers at their budgets", version, time.Since(start).Round(time.Millisecond))
	}
	if err := deployApproval(ctx, mcpURL, attackers[0], runtime.Version20260728); !isReplayBudgetRefusal(err) {
		t.Errorf("an attacker's claim after the second client's approvals: %v; want -32603", err)
	}
}
