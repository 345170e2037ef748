package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime/seal"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/example/app"
	"github.com/elicitgen/elicitgen/internal/wiretest"
	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
)

// These tests drive the example server in process with a go-sdk client
// on protocol 2026-07-28: every question arrives as an input_required
// result and the client's retry carries the answer (multi round-trip).

// question is an elicitation as the client received it.
type question struct {
	Mode    string
	Message string
	URL     string
	Schema  map[string]any
}

// answerer answers one question.
type answerer func(q question) *mcp.ElicitResult

type clientOpts struct {
	elicit bool // declare elicitation (form) and answer
	url    bool // also declare URL mode
	manual bool // disable the SDK's multi round-trip loop
}

type client struct {
	cs *mcp.ClientSession

	mu        sync.Mutex
	answer    answerer
	questions []question
}

func (c *client) script(a answerer) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.answer, c.questions = a, nil
}

func (c *client) asked() []question {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.questions)
}

func testKeys(t testing.TB) *seal.KeyRing {
	keys, err := seal.NewKeyRing(seal.Key{ID: "test", Secret: bytes.Repeat([]byte{42}, 32)})
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// connect starts a fresh server (fresh store) and connects a client in
// process on 2026-07-28.
func connect(t *testing.T, o clientOpts) (*client, *app.Store) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	store := app.NewStore()
	s := app.NewServer(app.Options{Keys: testKeys(t), Store: store})
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := newClient(t, ctx, ct, o, "")
	t.Cleanup(func() {
		c.cs.Close()
		ss.Close()
		cancel()
		wiretest.CheckNoLeaks(t, "github.com/elicitgen/elicitgen/")
	})
	return c, store
}

// newClient connects a go-sdk client over ct, asking for version ("" is
// the SDK's default, 2026-07-28).
func newClient(t *testing.T, ctx context.Context, ct mcp.Transport, o clientOpts, version string) *client {
	t.Helper()
	c := &client{}
	opts := &mcp.ClientOptions{}
	if o.elicit {
		opts.ElicitationHandler = func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			q := question{Mode: req.Params.Mode, Message: req.Params.Message, URL: req.Params.URL}
			if req.Params.RequestedSchema != nil {
				b, _ := json.Marshal(req.Params.RequestedSchema)
				_ = json.Unmarshal(b, &q.Schema)
			}
			c.mu.Lock()
			c.questions = append(c.questions, q)
			a := c.answer
			c.mu.Unlock()
			if a == nil {
				return nil, errors.New("no answer scripted")
			}
			return a(q), nil
		}
		caps := &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}}
		if o.url {
			caps.URL = &mcp.URLElicitationCapabilities{}
		}
		opts.Capabilities = &mcp.ClientCapabilities{Elicitation: caps}
	}
	if o.manual {
		opts.MultiRoundTrip = &mcp.MultiRoundTripOptions{Disabled: true}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "v0"}, opts).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	want := version
	if want == "" {
		want = runtime.Version20260728
	}
	if v := cs.InitializeResult().ProtocolVersion; v != want {
		t.Fatalf("negotiated %s, want %s", v, want)
	}
	c.cs = cs
	return c
}

func callCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// call calls tool and returns its structured content.
func (c *client) call(t *testing.T, tool string, args map[string]any) (map[string]any, *mcp.CallToolResult) {
	t.Helper()
	res, err := c.cs.CallTool(callCtx(t), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	var out map[string]any
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil || out == nil {
		t.Fatalf("%s: no structured content: %s (%v)", tool, b, err)
	}
	return out, res
}

func accept(content map[string]any) answerer {
	return func(question) *mcp.ElicitResult { return &mcp.ElicitResult{Action: "accept", Content: content} }
}

func reply(action string) answerer {
	return func(question) *mcp.ElicitResult { return &mcp.ElicitResult{Action: action} }
}

// property returns a property of a question's schema.
func property(q question, name string) map[string]any {
	props, _ := q.Schema["properties"].(map[string]any)
	p, _ := props[name].(map[string]any)
	return p
}

// consts returns the const values of a titled enum property.
func consts(p map[string]any) []string {
	var out []string
	oneOf, _ := p["oneOf"].([]any)
	for _, o := range oneOf {
		if m, ok := o.(map[string]any); ok {
			out = append(out, fmt.Sprint(m["const"]))
		}
	}
	return out
}

func want(t *testing.T, out map[string]any, field string, v any) {
	t.Helper()
	if got := out[field]; fmt.Sprint(got) != fmt.Sprint(v) {
		t.Errorf("%s = %v, want %v (result %v)", field, got, v, out)
	}
}

var recipients = []any{"ana@example.com", "bo@example.com", "cy@example.com"}

// toolCase is one tool, its arguments and what accepting its question
// means.
type toolCase struct {
	tool   string
	args   map[string]any
	mode   string
	accept answerer
	// accepted checks the result of an accept and the questions asked.
	accepted func(t *testing.T, out map[string]any, qs []question, store *app.Store)
	// invalid is content that must be refused (form tools).
	invalid map[string]any
}

var toolCases = []toolCase{
	{
		tool: app.ToolDeploy, args: map[string]any{"service": "billing"}, mode: "form",
		accept: func(q question) *mcp.ElicitResult {
			// Keep the pre-filled branch, as a client that shows defaults would.
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{
				"branch": property(q, "branch")["default"], "environment": "production", "confirmed": true}}
		},
		accepted: func(t *testing.T, out map[string]any, qs []question, store *app.Store) {
			if d := property(qs[0], "branch")["default"]; d != "release/2.4" {
				t.Errorf("branch default = %v, want the service's current branch release/2.4", d)
			}
			if got := consts(property(qs[0], "environment")); !slices.Equal(got, []string{"staging", "production"}) {
				t.Errorf("environment options = %v", got)
			}
			want(t, out, "branch", "release/2.4")
			want(t, out, "environment", "production")
			want(t, out, "confirmed", true)
			want(t, out, "deployed", true)
			want(t, out, "deployment", "dep-1")
			if n := len(store.Deployments()); n != 1 {
				t.Errorf("%d deployments, want 1", n)
			}
		},
		invalid: map[string]any{"branch": "main", "environment": "moon", "confirmed": true},
	},
	{
		tool: app.ToolBook, args: map[string]any{"date": "2026-12-24", "party_size": 4}, mode: "form",
		accept: accept(map[string]any{"try_another_date": true}), // preferred_date left to its default
		accepted: func(t *testing.T, out map[string]any, qs []question, store *app.Store) {
			if d := property(qs[0], "preferred_date")["default"]; d != "2026-12-27" {
				t.Errorf("preferred_date default = %v, want the next free date 2026-12-27", d)
			}
			if f := property(qs[0], "preferred_date")["format"]; f != "date" {
				t.Errorf("preferred_date format = %v", f)
			}
			want(t, out, "booked", true)
			want(t, out, "booked_date", "2026-12-27")
			want(t, out, "tried", []any{"2026-12-24", "2026-12-27"})
			if n := len(store.Bookings()); n != 1 {
				t.Errorf("%d bookings, want 1", n)
			}
		},
		invalid: map[string]any{"try_another_date": true, "preferred_date": "27/12/2026"},
	},
	{
		tool: app.ToolKR, args: map[string]any{"org": "acme"}, mode: "form",
		accept: accept(map[string]any{"kr": "kr-churn"}),
		accepted: func(t *testing.T, out map[string]any, qs []question, _ *app.Store) {
			if got := consts(property(qs[0], "kr")); !slices.Equal(got, []string{"kr-activation", "kr-churn", "kr-nps"}) {
				t.Errorf("kr options = %v, want acme's three key results only", got)
			}
			want(t, out, "kr", "kr-churn")
			want(t, out, "title", "Cut monthly churn below 2%")
			if recs, _ := out["records"].([]any); len(recs) != 2 {
				t.Errorf("records = %v, want 2", out["records"])
			}
		},
		invalid: map[string]any{"kr": "kr-latency"}, // globex's, not offered
	},
	{
		tool: app.ToolCampaign, args: map[string]any{"campaign": "Spring sale", "recipients": recipients}, mode: "form",
		accept: accept(map[string]any{"approved": true, "send_window": "tonight"}),
		accepted: func(t *testing.T, out map[string]any, qs []question, store *app.Store) {
			if !strings.Contains(qs[0].Message, "3 recipients") {
				t.Errorf("message %q does not name the count", qs[0].Message)
			}
			if d := property(qs[0], "send_window")["default"]; d != "now" {
				t.Errorf("send_window default = %v", d)
			}
			want(t, out, "recipients", 3)
			want(t, out, "approved", true)
			want(t, out, "send_window", "tonight")
			want(t, out, "scheduled", true)
			if n := len(store.Campaigns()); n != 1 {
				t.Errorf("%d campaigns, want 1", n)
			}
		},
		invalid: map[string]any{"approved": true, "send_window": "yesterday"},
	},
	{
		tool: app.ToolConnect, args: map[string]any{"provider": "github"}, mode: "url",
		accept: reply("accept"),
		accepted: func(t *testing.T, out map[string]any, qs []question, _ *app.Store) {
			if !strings.HasPrefix(qs[0].URL, app.DefaultConnectBase+"/github?flow=") {
				t.Errorf("URL = %q", qs[0].URL)
			}
			want(t, out, "url", qs[0].URL)
			if id, _ := out["flow_id"].(string); id == "" || !strings.HasSuffix(qs[0].URL, id) {
				t.Errorf("flow_id %q does not match URL %q", id, qs[0].URL)
			}
		},
	},
}

// TestEveryToolEveryAction answers each tool's question with accept,
// decline and cancel and checks the outcome and the values used.
func TestEveryToolEveryAction(t *testing.T) {
	for _, tc := range toolCases {
		for _, action := range []string{"accept", "decline", "cancel"} {
			t.Run(tc.tool+"/"+action, func(t *testing.T) {
				c, store := connect(t, clientOpts{elicit: true, url: true})
				if action == "accept" {
					c.script(tc.accept)
				} else {
					c.script(reply(action))
				}
				out, res := c.call(t, tc.tool, tc.args)
				qs := c.asked()
				if len(qs) != 1 || qs[0].Mode != tc.mode {
					t.Fatalf("questions = %+v, want one %s question", qs, tc.mode)
				}
				if res.IsError {
					t.Errorf("isError result: %v", res.Content)
				}
				wantOutcome := map[string]string{"accept": app.OutcomeAccepted, "decline": app.OutcomeDeclined, "cancel": app.OutcomeCancelled}[action]
				want(t, out, "outcome", wantOutcome)
				if action == "accept" {
					tc.accepted(t, out, qs, store)
					return
				}
				if n := len(store.Deployments()) + len(store.Bookings()) + len(store.Campaigns()); n != 0 {
					t.Errorf("a %s answer had side effects (%d)", action, n)
				}
			})
		}
	}
}

// TestInvalidContent answers each form with content that violates it,
// bypassing the SDK client's own checks (manual multi round-trip): the
// server asks once more, saying what was wrong; the same answer again is
// refused with an isError result saying what was invalid, and nothing is
// done.
func TestInvalidContent(t *testing.T) {
	for _, tc := range toolCases {
		if tc.invalid == nil {
			continue
		}
		t.Run(tc.tool, func(t *testing.T) {
			c, store := connect(t, clientOpts{elicit: true, url: true, manual: true})
			ctx := callCtx(t)
			res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args})
			if err != nil {
				t.Fatal(err)
			}
			if !res.NeedsInput() || len(res.InputRequests) != 1 || res.RequestState == "" {
				t.Fatalf("round 1: want input_required with one request and sealed state, got %+v", res)
			}
			responses := mcp.InputResponseMap{}
			for key := range res.InputRequests {
				responses[key] = &mcp.ElicitResult{Action: "accept", Content: tc.invalid}
			}
			res, err = c.cs.CallTool(ctx, &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args, InputResponses: responses, RequestState: res.RequestState})
			if err != nil || !res.NeedsInput() || len(res.InputRequests) != 1 {
				t.Fatalf("round 2 with %v: %+v, %v; want the form asked once more (WithRetries(1))", tc.invalid, res, err)
			}
			for _, ir := range res.InputRequests {
				if msg := ir.(*mcp.ElicitParams).Message; !strings.Contains(msg, "The previous answer was not accepted: ") {
					t.Errorf("re-ask message = %q", msg)
				}
			}
			res, err = c.cs.CallTool(ctx, &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args, InputResponses: responses, RequestState: res.RequestState})
			if err != nil || !res.IsError || len(res.Content) == 0 {
				t.Fatalf("round 3 with %v again: %+v, %v; want an isError result the model can act on", tc.invalid, res, err)
			}
			txt := res.Content[0].(*mcp.TextContent).Text
			if !strings.HasPrefix(txt, "The user's client sent the same invalid answer twice (") {
				t.Errorf("text = %q", txt)
			}
			t.Logf("refused: %s", txt)
			if n := len(store.Deployments()) + len(store.Bookings()) + len(store.Campaigns()); n != 0 {
				t.Errorf("an invalid answer had side effects (%d)", n)
			}
		})
	}
}

// TestUnavailable calls every tool from a client that cannot be asked
// (no elicitation at all; for connect_account, form mode only): outcome
// unavailable, as an isError result that tells the model what to ask.
func TestUnavailable(t *testing.T) {
	for _, tc := range toolCases {
		t.Run(tc.tool, func(t *testing.T) {
			c, store := connect(t, clientOpts{elicit: tc.mode == "url"})
			c.script(reply("accept"))
			out, res := c.call(t, tc.tool, tc.args)
			want(t, out, "outcome", app.OutcomeUnavailable)
			if !res.IsError || len(res.Content) == 0 {
				t.Fatalf("want an isError result with text, got %+v", res)
			}
			if txt := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(txt, "cannot ask") {
				t.Errorf("text = %q", txt)
			}
			if qs := c.asked(); len(qs) != 0 {
				t.Errorf("asked %+v", qs)
			}
			if n := len(store.Deployments()) + len(store.Bookings()) + len(store.Campaigns()); n != 0 {
				t.Errorf("side effects (%d)", n)
			}
		})
	}
}

// TestDeployNotConfirmed: an accept with the confirm box unticked is a
// decline (forms.Deploy.Confirmed is tagged confirm) and deploys nothing.
func TestDeployNotConfirmed(t *testing.T) {
	c, store := connect(t, clientOpts{elicit: true})
	c.script(accept(map[string]any{"branch": "hotfix", "environment": "staging", "confirmed": false}))
	out, _ := c.call(t, app.ToolDeploy, map[string]any{"service": "search"})
	want(t, out, "outcome", app.OutcomeDeclined)
	want(t, out, "deployed", false)
	if n := len(store.Deployments()); n != 0 {
		t.Errorf("%d deployments, want 0", n)
	}
}

// TestBookTableGivesUp: three more fully booked dates, then no table;
// each round is another input_required whose answers ride in the sealed
// state.
func TestBookTableGivesUp(t *testing.T) {
	c, store := connect(t, clientOpts{elicit: true})
	dates := []string{"2026-12-25", "2026-12-26", "2026-12-31"}
	var n int
	var mu sync.Mutex
	c.script(func(question) *mcp.ElicitResult {
		mu.Lock()
		defer mu.Unlock()
		d := dates[n%len(dates)]
		n++
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"try_another_date": true, "preferred_date": d}}
	})
	out, _ := c.call(t, app.ToolBook, map[string]any{"date": "2026-12-24", "party_size": 2})
	want(t, out, "outcome", app.OutcomeAccepted)
	want(t, out, "booked", false)
	want(t, out, "tried", []any{"2026-12-24", "2026-12-25", "2026-12-26", "2026-12-31"})
	if qs := c.asked(); len(qs) != app.MaxRebooks {
		t.Errorf("asked %d times, want %d", len(qs), app.MaxRebooks)
	}
	if len(store.Bookings()) != 0 {
		t.Error("booked")
	}
}

// TestBookTableNoRetry: the user accepts but does not want another date.
func TestBookTableNoRetry(t *testing.T) {
	c, _ := connect(t, clientOpts{elicit: true})
	c.script(accept(map[string]any{"try_another_date": false}))
	out, _ := c.call(t, app.ToolBook, map[string]any{"date": "2026-12-31", "party_size": 2})
	want(t, out, "outcome", app.OutcomeAccepted)
	want(t, out, "booked", false)
	want(t, out, "tried", []any{"2026-12-31"})
}

// TestBookTableFreeDate: nothing to ask.
func TestBookTableFreeDate(t *testing.T) {
	c, _ := connect(t, clientOpts{elicit: true})
	out, _ := c.call(t, app.ToolBook, map[string]any{"date": "2026-12-27", "party_size": 6})
	want(t, out, "outcome", app.OutcomeAccepted)
	want(t, out, "booked_date", "2026-12-27")
	if qs := c.asked(); len(qs) != 0 {
		t.Errorf("asked %+v", qs)
	}
}

// TestTamperedState: a retry whose requestState was altered is refused
// with -32602 before the tool runs.
func TestTamperedState(t *testing.T) {
	c, store := connect(t, clientOpts{elicit: true, manual: true})
	ctx := callCtx(t)
	args := map[string]any{"service": "billing"}
	res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: app.ToolDeploy, Arguments: args})
	if err != nil || !res.NeedsInput() {
		t.Fatalf("round 1: %+v, %v", res, err)
	}
	answer := mcp.InputResponseMap{"Deploy": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"branch": "main", "environment": "staging", "confirmed": true}}}
	_, err = c.cs.CallTool(ctx, &mcp.CallToolParams{Name: app.ToolDeploy, Arguments: args, InputResponses: answer, RequestState: res.RequestState + "x"})
	var we *jsonrpc.Error
	if !errors.As(err, &we) || we.Code != adapter.CodeInvalidParams {
		t.Fatalf("tampered: err = %v, want -32602", err)
	}
	// The same state for other arguments is foreign.
	_, err = c.cs.CallTool(ctx, &mcp.CallToolParams{Name: app.ToolDeploy, Arguments: map[string]any{"service": "web"}, InputResponses: answer, RequestState: res.RequestState})
	if !errors.As(err, &we) || we.Code != adapter.CodeInvalidParams {
		t.Fatalf("foreign: err = %v, want -32602", err)
	}
	if len(store.Deployments()) != 0 {
		t.Error("deployed")
	}
}

// TestBadArguments: wrong arguments are tool errors, nothing is asked.
func TestBadArguments(t *testing.T) {
	c, _ := connect(t, clientOpts{elicit: true, url: true})
	for tool, args := range map[string]map[string]any{
		app.ToolDeploy:   {"service": "nope"},
		app.ToolKR:       {"org": "initech"},
		app.ToolCampaign: {"campaign": "x", "recipients": []any{}},
		app.ToolConnect:  {"provider": "Git Hub"},
	} {
		res, err := c.cs.CallTool(callCtx(t), &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil || !res.IsError {
			t.Errorf("%s(%v) = %+v, %v; want an isError result", tool, args, res, err)
		}
	}
	if qs := c.asked(); len(qs) != 0 {
		t.Errorf("asked %+v", qs)
	}
}

// TestHTTPEndpoints serves the app over streamable HTTP on loopback and
// runs deploy_to_production from clients of every era on both URLs: a
// 2025 client's question is pushed as elicitation/create on its session
// (one tools/call), a 2026-07-28 client's rides in input_required (two
// tools/call). A router that sent a 2025 client to the stateless handler
// would answer "unavailable"; one that sent a 2026-07-28 client to the
// stateful handler would be refused.
func TestHTTPEndpoints(t *testing.T) {
	store := app.NewStore()
	srv := httptest.NewServer(app.HTTPHandler(app.NewServer(app.Options{Keys: testKeys(t), Store: store})))
	defer srv.Close()
	for _, tc := range []struct {
		path, version string
		pushed        bool
	}{
		{"/mcp", runtime.Version20251125, true},
		{"/mcp", runtime.Version20250618, true},
		{"/mcp", runtime.Version20260728, false},
		{"/mcp/stateless", runtime.Version20251125, true},
		{"/mcp/stateless", runtime.Version20260728, false},
	} {
		t.Run(tc.path+"/"+tc.version, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var posts []string
			var mu sync.Mutex
			hc := &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
				if r.Method == http.MethodPost {
					mu.Lock()
					posts = append(posts, r.Header.Get("Mcp-Method"))
					mu.Unlock()
				}
				return http.DefaultTransport.RoundTrip(r)
			})}
			c := newClient(t, ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL + tc.path, HTTPClient: hc}, clientOpts{elicit: true}, tc.version)
			defer c.cs.Close()
			c.script(accept(map[string]any{"branch": "main", "environment": "staging", "confirmed": true}))
			out, _ := c.call(t, app.ToolDeploy, map[string]any{"service": "web"})
			want(t, out, "outcome", app.OutcomeAccepted)
			want(t, out, "deployed", true)
			if qs := c.asked(); len(qs) != 1 {
				t.Errorf("asked %d questions", len(qs))
			}
			// Stateless: the tools/call is posted twice (question, then answer).
			mu.Lock()
			calls := 0
			for _, m := range posts {
				if m == "tools/call" {
					calls++
				}
			}
			mu.Unlock()
			t.Logf("POSTs by Mcp-Method header: %q", posts)
			if tc.pushed && calls > 1 || !tc.pushed && calls != 2 {
				t.Errorf("%d tools/call posts (headers %v)", calls, posts)
			}
		})
	}
	if n := len(store.Deployments()); n != 5 {
		t.Errorf("%d deployments, want 5", n)
	}
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
