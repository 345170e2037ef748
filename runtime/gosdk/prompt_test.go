package gosdk_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/elicitgen/elicitgen/runtime/seal"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
)

// deployPrompt asks the Deploy form (key "target") and renders the answer.
func deployPrompt(runs *atomic.Int32) gosdk.PromptHandler {
	return func(ctx context.Context, req *mcp.GetPromptRequest, ask runtime.Asker) (*mcp.GetPromptResult, error) {
		runs.Add(1)
		out, err := testforms.AskDeploy(ctx, ask, "deploy "+req.Params.Arguments["project"]+"?", runtime.WithKey("target"))
		if err != nil {
			return nil, err
		}
		v, _ := out.Accepted()
		return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{
			Text: string(out.Action) + " " + v.Branch + "@" + string(v.Env),
		}}}}, nil
	}
}

// promptSession connects a client speaking version (empty: the SDK's
// default, 2026-07-28) to a server with the prompt "deploy", and returns
// the client session and how many times the client was asked.
func promptSession(t *testing.T, version string, mrtr bool, runs *atomic.Int32) (*mcp.ClientSession, *atomic.Int32) {
	t.Helper()
	ctx := context.Background()
	s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "v0"}, nil)
	s.AddPrompt(&mcp.Prompt{Name: "deploy"}, gosdk.HandlePrompt(&gosdk.Config{Options: adapter.Options{Keys: seal.NewRandomKeyRing()}}, deployPrompt(runs)))
	var asked atomic.Int32
	opts := &mcp.ClientOptions{
		ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked.Add(1)
			r, err := testforms.AcceptDeploy(testforms.Deploy{Branch: "main", Env: testforms.EnvProd, Replicas: 1})
			if err != nil {
				return nil, err
			}
			return &mcp.ElicitResult{Action: string(r.Action), Content: r.Content}, nil
		},
	}
	if !mrtr {
		opts.MultiRoundTrip = &mcp.MultiRoundTripOptions{Disabled: true}
	}
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "v0"}, opts).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs, &asked
}

func promptText(res *mcp.GetPromptResult) string {
	if res == nil || len(res.Messages) != 1 {
		return ""
	}
	t, _ := res.Messages[0].Content.(*mcp.TextContent)
	if t == nil {
		return ""
	}
	return t.Text
}

// A prompt asks a form on both eras: pushed on 2025-11-25, by
// input_required and retry on 2026-07-28.
func TestHandlePromptEras(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		version string
		runs    int32
	}{{runtime.Version20251125, 1}, {"", 2}} {
		var runs atomic.Int32
		cs, asked := promptSession(t, tc.version, true, &runs)
		res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "deploy", Arguments: map[string]string{"project": "alpha"}})
		if err != nil {
			t.Fatalf("%q: %v", tc.version, err)
		}
		if got := promptText(res); got != "accept main@prod" || runs.Load() != tc.runs || asked.Load() != 1 {
			t.Errorf("%q: %q after %d runs, %d questions; want accept main@prod after %d runs, 1 question", tc.version, got, runs.Load(), asked.Load(), tc.runs)
		}
	}
}

// On 2026-07-28 the question rides in input_required under its key, with
// sealed state; a tampered or foreign state is -32602 before the handler
// runs.
func TestHandlePromptState(t *testing.T) {
	ctx := context.Background()
	var runs atomic.Int32
	cs, _ := promptSession(t, "", false, &runs)
	args := map[string]string{"project": "alpha"}
	res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "deploy", Arguments: args})
	if err != nil || !res.NeedsInput() || res.InputRequests["target"] == nil || res.RequestState == "" {
		t.Fatalf("round 1 = %+v, %v; want input_required with key target", res, err)
	}
	answer, _ := testforms.AcceptDeploy(testforms.Deploy{Branch: "b", Env: testforms.EnvStaging, Replicas: 3})
	responses := mcp.InputResponseMap{"target": &mcp.ElicitResult{Action: string(answer.Action), Content: answer.Content}}

	state := []byte(res.RequestState)
	state[len(state)/2] ^= 1
	for name, p := range map[string]*mcp.GetPromptParams{
		"tampered":        {Name: "deploy", Arguments: args, RequestState: string(state), InputResponses: responses},
		"other arguments": {Name: "deploy", Arguments: map[string]string{"project": "beta"}, RequestState: res.RequestState, InputResponses: responses},
	} {
		runs.Store(0)
		_, err := cs.GetPrompt(ctx, p)
		var we *jsonrpc.Error
		if !errors.As(err, &we) || we.Code != adapter.CodeInvalidParams || !strings.Contains(we.Message, "invalid requestState") || runs.Load() != 0 {
			t.Errorf("%s state: %v after %d runs, want -32602 before the handler", name, err, runs.Load())
		}
	}

	res, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "deploy", Arguments: args, RequestState: res.RequestState, InputResponses: responses})
	if err != nil || promptText(res) != "accept b@staging" {
		t.Fatalf("retry = %q, %v", promptText(res), err)
	}
}

// Errors returned in process keep matching the runtime's sentinels, and
// a client that cannot be asked gets the text of what to ask.
func TestHandlePromptErrors(t *testing.T) {
	ctx := context.Background()
	var runs atomic.Int32
	cfg := &gosdk.Config{Options: adapter.Options{Keys: seal.NewRandomKeyRing()}}
	h := gosdk.HandlePrompt(cfg, deployPrompt(&runs))
	modern := func(state string) *mcp.GetPromptRequest {
		return &mcp.GetPromptRequest{Params: &mcp.GetPromptParams{
			Meta:         mcp.Meta{adapter.MetaKeyProtocolVersion: runtime.Version20260728, adapter.MetaKeyClientCapabilities: formCaps},
			Name:         "deploy",
			Arguments:    map[string]string{"project": "alpha"},
			RequestState: state,
		}}
	}
	res, err := h(ctx, modern(""))
	if err != nil || res.InputRequests["target"] == nil {
		t.Fatalf("round 1 = %+v, %v", res, err)
	}
	// The state of a tool with the same name, arguments and keys does not
	// open for the prompt.
	tool, err := gosdk.Handle(cfg, askDeploy)(ctx, modernRequest("", formCaps, "", nil))
	if err != nil || tool.RequestState == "" {
		t.Fatalf("tool round 1 = %+v, %v", tool, err)
	}
	for state, want := range map[string]error{res.RequestState + "x": seal.ErrStateTampered, tool.RequestState: seal.ErrStateForeign} {
		_, err = h(ctx, modern(state))
		var we *jsonrpc.Error
		if !errors.Is(err, want) || !errors.Is(err, runtime.ErrInvalidState) || !errors.As(err, &we) || we.Code != adapter.CodeInvalidParams {
			t.Errorf("state %.20q…: %v, want %v and -32602", state, err, want)
		}
	}

	// No session, no capabilities: treated as 2025-06-18 without elicitation.
	_, err = h(ctx, &mcp.GetPromptRequest{Params: &mcp.GetPromptParams{Name: "deploy"}})
	var we *jsonrpc.Error
	if !errors.Is(err, runtime.ErrUnavailable) || !errors.As(err, &we) || we.Code != adapter.CodeInternalError || !strings.Contains(we.Message, "- replicas: required") {
		t.Errorf("unavailable: %v", err)
	}

	defer func() {
		if recover() == nil {
			t.Error("HandlePrompt with Principal but no PromptPrincipal did not panic")
		}
	}()
	gosdk.HandlePrompt(&gosdk.Config{Options: adapter.Options{Keys: seal.NewRandomKeyRing()}, Principal: func(context.Context, *mcp.CallToolRequest) string { return "u" }}, deployPrompt(&runs))
}
