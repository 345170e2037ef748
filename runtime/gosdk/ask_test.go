package gosdk_test

import (
	"context"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/answer"
	"github.com/elicitgen/elicitgen/runtime/seal"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
)

type askOut struct {
	Outcome string `json:"outcome"`
}

// A typed tool (output schema) whose ask fails answers go-sdk's isError
// result with the failure text, not an output-schema error.
func TestHandleForAskFailure(t *testing.T) {
	ctx := context.Background()
	s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "v0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "deploy"}, gosdk.HandleFor(&gosdk.Config{Options: adapter.Options{Keys: seal.NewRandomKeyRing()}},
		func(ctx context.Context, req *mcp.CallToolRequest, in struct{}, ask runtime.Asker) (*mcp.CallToolResult, askOut, error) {
			out, err := testforms.AskDeploy(ctx, ask, "deploy?")
			if err != nil {
				return nil, askOut{}, err
			}
			return nil, askOut{Outcome: string(out.Action)}, nil
		}))
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "v0"}, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"replicas": 2, "bogus": true}}, nil
		},
	})
	cs, err := c.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "deploy", Arguments: map[string]any{}})
	if err != nil || !res.IsError || len(res.Content) == 0 {
		t.Fatalf("call = %+v, %v; want an isError result", res, err)
	}
	if txt := res.Content[0].(*mcp.TextContent).Text; !strings.HasPrefix(txt, "The answer was invalid: bogus: is not a field of this form") {
		t.Errorf("text = %q", txt)
	}
}

// A client running the multi round-trip itself fills inputResponses with
// gosdk.InputResponses and a typed function per form.
func TestInputResponsesManual(t *testing.T) {
	ctx := context.Background()
	s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "v0"}, nil)
	s.AddTool(&mcp.Tool{Name: "deploy", InputSchema: map[string]any{"type": "object"}}, gosdk.Handle(&gosdk.Config{Options: adapter.Options{Keys: seal.NewRandomKeyRing()}},
		func(ctx context.Context, req *mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
			out, err := testforms.AskDeploy(ctx, ask, "deploy?")
			if err != nil {
				return nil, err
			}
			v, _ := out.Accepted()
			return text(string(out.Action) + " " + v.Branch), nil
		}))
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	answers := answer.New(answer.For(testforms.DeploySchema(), testforms.AcceptDeploy,
		func(_ context.Context, msg string) (runtime.Outcome[*testforms.Deploy], error) {
			return runtime.Outcome[*testforms.Deploy]{Action: runtime.ActionAccept, Value: &testforms.Deploy{Branch: "feature", Env: testforms.EnvStaging, Replicas: 2}}, nil
		}))
	c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "v0"}, &mcp.ClientOptions{
		ElicitationHandler: gosdk.ElicitationHandler(answers),
		MultiRoundTrip:     &mcp.MultiRoundTripOptions{Disabled: true},
	})
	cs, err := c.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "deploy", Arguments: map[string]any{}})
	if err != nil || !res.NeedsInput() {
		t.Fatalf("round 1 = %+v, %v; want input_required", res, err)
	}
	in, err := gosdk.InputResponses(ctx, answers, res.InputRequests)
	if err != nil || len(in) != 1 || in["Deploy"] == nil {
		t.Fatalf("InputResponses = %v, %v", in, err)
	}
	if res.Meta[runtime.MetaKeyContentLanguage] != nil {
		t.Errorf("round 1 without a language preference reports one: %v", res.Meta)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "deploy", Arguments: map[string]any{}, InputResponses: in, RequestState: res.RequestState})
	if err != nil || res.IsError || res.Content[0].(*mcp.TextContent).Text != "accept feature" {
		t.Fatalf("round 2 = %+v, %v", res, err)
	}

	// Asked in Japanese (SEP-2792 acceptLanguage), the input_required
	// result and its question report the language of the form's text.
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "deploy", Arguments: map[string]any{},
		Meta: mcp.Meta{runtime.MetaKeyAcceptLanguage: "ja-JP, en;q=0.5"}})
	if err != nil || !res.NeedsInput() {
		t.Fatalf("round 1 in Japanese = %+v, %v; want input_required", res, err)
	}
	q, _ := res.InputRequests["Deploy"].(*mcp.ElicitParams)
	if res.Meta[runtime.MetaKeyContentLanguage] != "ja" || q == nil || q.Meta[runtime.MetaKeyContentLanguage] != "ja" {
		t.Errorf("round 1 in Japanese: result _meta %v, question %+v; want contentLanguage ja on both", res.Meta, q)
	}
}
