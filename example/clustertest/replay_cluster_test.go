package clustertest

import (
	"errors"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/example/internal/exampletest"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/example/app"
)

// deployedLine matches the log line of a deployment that went out.
var deployedLine = regexp.MustCompile(`(?m)^elicitgen-example\[[^\]]+\]: deployed billing@`)

// TestSingleUseAcrossInstances: three instances share one key ring and
// one Redis (ELICIT_REPLAY_STORE) behind the round-robin proxy. One
// approved deploy (a round-1 state and its answer) replayed 50 times at
// once, spread over the three instances, deploys exactly once; the other
// 49 are refused with -32602 telling the client to start again. It needs
// ELICITGEN_REDIS_URL (a running redis-server; .ci/run starts one) and
// is skipped without it, unless ELICITGEN_REQUIRE_REDIS=1.
func TestSingleUseAcrossInstances(t *testing.T) {
	if testing.Short() {
		t.Skip("starts three server processes")
	}
	redisURL := redisURLOrSkip(t)
	cluster, _, mcpURL := startCluster(t, "ELICIT_REPLAY_STORE="+redisURL)
	ctx, cancel := exampletest.Context(t, 60*time.Second)
	defer cancel()
	c := mcp.NewClient(&mcp.Implementation{Name: "replayer", Version: "v0"}, &mcp.ClientOptions{
		Capabilities:   &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}}},
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
	})
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: mcpURL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	args := map[string]any{"service": "billing"}
	first, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: app.ToolDeploy, Arguments: args})
	if err != nil || first.RequestState == "" || len(first.InputRequests) != 1 {
		t.Fatalf("round 1 = %+v, %v; want input_required with one question and a requestState", first, err)
	}
	var key string
	for k := range first.InputRequests {
		key = k
	}
	// Each replay gets its own params: the SDK client writes _meta into
	// them.
	retry := func() *mcp.CallToolParams {
		return &mcp.CallToolParams{Name: app.ToolDeploy, Arguments: args, RequestState: first.RequestState,
			InputResponses: mcp.InputResponseMap{key: &mcp.ElicitResult{Action: "accept",
				Content: map[string]any{"branch": "release/2.4", "environment": "production", "confirmed": true}}}}
	}

	const n = 50
	var wg sync.WaitGroup
	var mu sync.Mutex
	deployed, refused := 0, 0
	start := make(chan struct{})
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			res, err := cs.CallTool(ctx, retry())
			mu.Lock()
			defer mu.Unlock()
			var we *jsonrpc.Error
			switch {
			case err == nil && !res.IsError && res.RequestState == "" && len(res.Content) > 0 &&
				strings.HasPrefix(res.Content[0].(*mcp.TextContent).Text, "Deployed billing@release/2.4"):
				deployed++
			case errors.As(err, &we) && we.Code == jsonrpc.CodeInvalidParams && strings.Contains(we.Message, "already used") &&
				strings.Contains(we.Message, "call the tool again"):
				refused++
			default:
				t.Errorf("replay = %+v, %v", res, err)
			}
		}()
	}
	close(start)
	wg.Wait()
	if deployed != 1 || refused != n-1 {
		t.Errorf("%d replays deployed, %d refused; want 1 and %d", deployed, refused, n-1)
	}
	// The instances' own logs: exactly one deployment went out, and the
	// replays reached every instance.
	var lines int
	for deadline := time.Now().Add(exampletest.Timeout(5 * time.Second)); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if lines = deployments(cluster); lines >= 1 {
			break
		}
	}
	time.Sleep(exampletest.Timeout(200 * time.Millisecond)) // a second deployment would be logged by now
	if lines = deployments(cluster); lines != 1 {
		t.Errorf("the instances logged %d deployments, want 1", lines)
	}
	if served := rounds(cluster, map[string]int{}, app.ToolDeploy); distinct(served) != 3 {
		t.Errorf("the rounds were served by %d instances, want 3", distinct(served))
	}
}

// redisURLOrSkip returns ELICITGEN_REDIS_URL (a running redis-server;
// .ci/run starts one), skipping the test without it, unless
// ELICITGEN_REQUIRE_REDIS=1 makes that a failure.
func redisURLOrSkip(t *testing.T) string {
	t.Helper()
	u := os.Getenv("ELICITGEN_REDIS_URL")
	if u == "" {
		if os.Getenv("ELICITGEN_REQUIRE_REDIS") == "1" {
			t.Fatal("ELICITGEN_REQUIRE_REDIS=1 but ELICITGEN_REDIS_URL is not set")
		}
		t.Skip("set ELICITGEN_REDIS_URL=redis://127.0.0.1:6390/0 (a running redis-server) to run")
	}
	return u
}
