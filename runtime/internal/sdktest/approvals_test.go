package sdktest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	mgmcp "github.com/mark3labs/mcp-go/mcp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
	"github.com/elicitgen/elicitgen/runtime/mcpgo"
)

// deployJSON is the content of an accepted Deploy, as a client sends it.
const deployJSON = `{"branch":"feature","env":"prod","replicas":3,"confirm":true}`

// spentRound runs one deploy call to completion and returns the
// requestState and inputResponses of the round that completed it.
func spentRound(t *testing.T, c *conn) (state string, responses json.RawMessage) {
	t.Helper()
	var mu sync.Mutex
	c.tap.setMutate(func(p map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		state, _ = p["requestState"].(string)
		responses, _ = json.Marshal(p["inputResponses"])
	})
	res, err := c.call(callCtx(t), "deploy", map[string]any{"service": "billing"})
	c.tap.setMutate(nil)
	if err != nil || !strings.HasPrefix(res.Text, "deployed") {
		t.Fatalf("call = %+v, %v", res, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if state == "" || len(responses) < 10 {
		t.Fatalf("no completed round captured (state %q, responses %s)", state, responses)
	}
	return state, responses
}

// unspentRound returns the requestState of a round-1 input_required and
// the answers the client gave for it, without letting that round reach
// the server (its retry is sent with a damaged state, which is refused
// before any claim).
func unspentRound(t *testing.T, c *conn) (state string, responses json.RawMessage) {
	t.Helper()
	var mu sync.Mutex
	c.tap.setMutate(func(p map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		state, _ = p["requestState"].(string)
		responses, _ = json.Marshal(p["inputResponses"])
		p["requestState"] = "v3.k1.damaged"
	})
	_, err := c.call(callCtx(t), "deploy", map[string]any{"service": "billing"})
	c.tap.setMutate(nil)
	if err == nil {
		t.Fatal("the damaged retry was accepted")
	}
	mu.Lock()
	defer mu.Unlock()
	return state, responses
}

// replayWith makes every new tools/call carry state and responses, as a
// client replaying a round would send them.
func replayWith(c *conn, state string, responses json.RawMessage) {
	c.tap.mu.Lock()
	defer c.tap.mu.Unlock()
	c.tap.first = func(p map[string]any) {
		p["requestState"], p["inputResponses"] = state, responses
	}
}

// TestStateSingleUse: a requestState that carried answers into the
// handler is spent; sending the completed round again never reaches the
// handler and tells the client to start again.
func TestStateSingleUse(t *testing.T) {
	for _, sdk := range sdks {
		t.Run(sdk, func(t *testing.T) {
			s := newServer(t, sdk, runtime.UnavailableAuto)
			c := connect(t, s, sdk, clientOpts{answer: scripted})
			state, responses := spentRound(t, c)
			runs := s.runs.Load()
			replayWith(c, state, responses)
			for i := range 3 {
				res, err := c.call(callCtx(t), "deploy", map[string]any{"service": "billing"})
				wantInvalidParams(t, sdk, res, err, "already used")
				if err != nil && !strings.Contains(err.Error(), "call the tool again") {
					t.Errorf("replay %d: %v, want it to tell the client to call the tool again", i, err)
				}
			}
			if got := s.runs.Load(); got != runs {
				t.Errorf("the handler ran %d more times on replays", got-runs)
			}
		})
	}
}

// TestStateSingleUseConcurrent: of many concurrent requests with one
// state and its answers, exactly one runs the handler to completion.
func TestStateSingleUseConcurrent(t *testing.T) {
	const n = 20
	for _, sdk := range sdks {
		t.Run(sdk, func(t *testing.T) {
			s := newServer(t, sdk, runtime.UnavailableAuto)
			c := connect(t, s, sdk, clientOpts{answer: scripted})
			state, responses := unspentRound(t, c)
			runs := s.runs.Load()
			replayWith(c, state, responses)
			var wg sync.WaitGroup
			var mu sync.Mutex
			done, refused := 0, 0
			for range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					res, err := c.call(callCtx(t), "deploy", map[string]any{"service": "billing"})
					mu.Lock()
					defer mu.Unlock()
					switch {
					case err == nil && strings.HasPrefix(res.Text, "deployed"):
						done++
					case err != nil && strings.Contains(err.Error(), "already used"):
						refused++
					default:
						t.Errorf("call = %+v, %v", res, err)
					}
				}()
			}
			wg.Wait()
			if done != 1 || refused != n-1 {
				t.Errorf("%d completed, %d refused; want 1 and %d", done, refused, n-1)
			}
			if got := s.runs.Load() - runs; got != 1 {
				t.Errorf("the handler ran %d times, want 1", got)
			}
		})
	}
}

// TestAmbiguousArguments: arguments with keys equal under encoding/json's
// case folding are refused before any state is opened or issued, on
// every era.
func TestAmbiguousArguments(t *testing.T) {
	for _, sdk := range sdks {
		for _, version := range []string{runtime.Version20251125, runtime.Version20260728} {
			for _, tc := range []struct {
				args map[string]any
				keys string
			}{
				{map[string]any{"SERVICE": "web", "service": "billing"}, `"service"`},
				{map[string]any{"ſervice": "web", "service": "billing"}, `"ſervice"`},
				{map[string]any{"target": map[string]any{"\u212aind": "web", "kind": "db"}}, "$.target"},
			} {
				t.Run(fmt.Sprintf("%s/%s/%s", sdk, version, tc.keys), func(t *testing.T) {
					s := newServer(t, sdk, runtime.UnavailableAuto)
					c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: scripted})
					res, err := c.call(callCtx(t), "deploy", tc.args)
					wantInvalidParams(t, sdk, res, err, tc.keys)
					if err != nil && !strings.Contains(err.Error(), "invalid arguments") {
						t.Errorf("error %v does not say the arguments are invalid", err)
					}
					if s.runs.Load() != 0 {
						t.Error("the handler ran")
					}
					for _, m := range c.tap.messages(false) {
						if b, _ := json.Marshal(m); strings.Contains(string(b), "requestState") || strings.Contains(string(b), "elicitation/create") {
							t.Errorf("the server asked or issued state: %s", b)
						}
					}
				})
			}
		}
	}
}

// answerVariants are elicitation results whose keys are not exactly
// "action" and "content": each is malformed, never an accept.
var answerVariants = []struct{ name, raw string }{
	{"decline-then-Action", `{"action":"decline","Action":"accept","content":` + deployJSON + `}`},
	{"Action", `{"Action":"accept","content":` + deployJSON + `}`},
	{"ACTION", `{"ACTION":"accept","content":` + deployJSON + `}`},
	{"Content", `{"action":"accept","Content":` + deployJSON + `}`},
	{"action-twice", `{"action":"decline","action":"accept","content":` + deployJSON + `}`},
	{"escaped-Action", `{"action":"decline","\u0041ction":"accept","content":` + deployJSON + `}`},
}

// TestExactAnswerKeys sends each variant as the answer to a Deploy form,
// on every era and adapter: -32602 (mcp-go: -32603) naming the key,
// never a deployment.
func TestExactAnswerKeys(t *testing.T) {
	for _, sdk := range sdks {
		for _, version := range versions {
			for _, v := range answerVariants {
				t.Run(sdk+"/"+version+"/"+v.name, func(t *testing.T) {
					s := newServer(t, sdk, runtime.UnavailableAuto)
					c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: scripted})
					if runtime.EraOf(version).MultiRoundTrip() {
						c.tap.setMutate(func(p map[string]any) { p["inputResponses"] = json.RawMessage(`{"Deploy":` + v.raw + `}`) })
					} else {
						c.tap.mu.Lock()
						c.tap.result = json.RawMessage(v.raw)
						c.tap.mu.Unlock()
					}
					res, err := c.call(callCtx(t), "deploy", nil)
					if err == nil && strings.Contains(res.Text, "deployed") {
						t.Fatalf("answer %s deployed: %+v", v.raw, res)
					}
					wantInvalidParams(t, sdk, res, err, "malformed")
					if err != nil && !strings.Contains(err.Error(), "keys are exact") && !strings.Contains(err.Error(), "appears twice") {
						t.Errorf("error %v does not name the key", err)
					}
					sent := false
					for _, m := range append(c.tap.requests(true, "tools/call"), c.tap.messages(true)...) {
						b, _ := json.Marshal(m)
						sent = sent || strings.Contains(strings.ToLower(string(b)), `"action":"accept"`)
					}
					if !sent {
						t.Error("the variant did not reach the server")
					}
				})
			}
		}
	}
}

// addUnaskedTool registers name asking Deploy under a Config that
// accepts unasked answers, and with WithAskedFirst when perAsk.
func addUnaskedTool(s *server, name string, perAsk bool) {
	body := func(ctx context.Context, ask runtime.Asker) (string, error) {
		var opts []runtime.AskOption
		if perAsk {
			opts = append(opts, runtime.WithAskedFirst())
		}
		out, err := testforms.AskDeploy(ctx, ask, deployMsg, opts...)
		if err != nil {
			return "", err
		}
		if v, ok := out.Accepted(); ok {
			return describeDeploy(v), nil
		}
		return string(out.Action), nil
	}
	switch s.sdk {
	case goSDK:
		cfg := &gosdk.Config{Options: adapter.Options{Keys: s.keys, StateTTL: stateTTL, Now: s.clock.Now, AcceptUnasked: true}}
		s.gs.AddTool(&mcp.Tool{Name: name, InputSchema: map[string]any{"type": "object"}},
			gosdk.Handle(cfg, func(ctx context.Context, req *mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
				s.runs.Add(1)
				text, err := body(ctx, ask)
				if err != nil {
					return nil, err
				}
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
			}))
	case mcpGo:
		cfg := &mcpgo.Config{Options: adapter.Options{Keys: s.keys, StateTTL: stateTTL, Now: s.clock.Now, AcceptUnasked: true}}
		s.ms.AddTool(mgmcp.NewTool(name),
			mcpgo.Handle(cfg, func(ctx context.Context, req mgmcp.CallToolRequest, ask runtime.Asker) (*mgmcp.CallToolResult, error) {
				s.runs.Add(1)
				text, err := body(ctx, ask)
				if err != nil {
					return nil, err
				}
				return mgmcp.NewToolResultText(text), nil
			}))
	}
}

// TestAskedFirst: by default a first call that arrives carrying an
// answer is asked instead; under Config.AcceptUnasked it completes at
// once (the conformance scenario input-required-result-ignore-extra-params),
// unless the ask itself says WithAskedFirst.
func TestAskedFirst(t *testing.T) {
	pre := json.RawMessage(`{"Deploy":{"action":"accept","content":{"branch":"evil","env":"prod","replicas":3,"confirm":true}}}`)
	for _, sdk := range sdks {
		for _, tc := range []struct {
			tool      string
			perAsk    bool
			wantAsked bool
		}{
			{"deploy", false, true},
			{"deploy_unasked", false, false},
			{"deploy_unasked_ask_first", true, true},
		} {
			t.Run(sdk+"/"+tc.tool, func(t *testing.T) {
				s := newServer(t, sdk, runtime.UnavailableAuto)
				if tc.tool != "deploy" {
					addUnaskedTool(s, tc.tool, tc.perAsk)
				}
				c := connect(t, s, sdk, clientOpts{answer: scripted})
				// The first call carries an answer nobody asked for.
				res, err := c.callWithPreAnswers(callCtx(t), tc.tool, pre)
				if err != nil {
					t.Fatal(err)
				}
				asked := len(c.tap.requestsWithState()) > 0
				switch {
				case tc.wantAsked && (!asked || res.Text != describeDeploy(&accepted)):
					t.Errorf("asked=%t, result %q: want the pre-answer ignored, the question asked and the real answer used", asked, res.Text)
				case !tc.wantAsked && (asked || !strings.Contains(res.Text, "deployed evil")):
					t.Errorf("asked=%t, result %q: want the pre-answer used in one round", asked, res.Text)
				}
			})
		}
	}
}

// callWithPreAnswers sends a first tools/call (no requestState) that
// already carries inputResponses.
func (c *conn) callWithPreAnswers(ctx context.Context, tool string, responses json.RawMessage) (callResult, error) {
	c.tap.mu.Lock()
	c.tap.first = func(p map[string]any) { p["inputResponses"] = responses }
	c.tap.mu.Unlock()
	defer func() {
		c.tap.mu.Lock()
		c.tap.first = nil
		c.tap.mu.Unlock()
	}()
	return c.call(ctx, tool, nil)
}

// requestsWithState returns the tools/call requests that carried a
// requestState.
func (t *tap) requestsWithState() []map[string]any {
	var out []map[string]any
	for _, m := range t.requests(true, "tools/call") {
		if p, _ := m["params"].(map[string]any); p["requestState"] != nil {
			out = append(out, m)
		}
	}
	return out
}
