package mcpgo_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/answer"
	"github.com/elicitgen/elicitgen/runtime/seal"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
	"github.com/elicitgen/elicitgen/runtime/mcpgo"
)

// A client running the multi round-trip itself fills inputResponses with
// mcpgo.InputResponses and a typed function per form; the round-1 result
// and the retry pass through JSON as on the wire.
func TestInputResponsesManual(t *testing.T) {
	h := mcpgo.Handle(&mcpgo.Config{Options: adapter.Options{Keys: seal.NewRandomKeyRing()}},
		func(ctx context.Context, req mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
			out, err := testforms.AskDeploy(ctx, ask, "deploy?")
			if err != nil {
				return nil, err
			}
			v, _ := out.Accepted()
			return mcp.NewToolResultText(string(out.Action) + " " + v.Branch), nil
		})
	res, err := h(modern("alice"), toolRequest("", ""))
	if err != nil {
		t.Fatal(err)
	}
	var wire mcp.CallToolResult
	b, _ := json.Marshal(res)
	if err := json.Unmarshal(b, &wire); err != nil || len(wire.InputRequests) != 1 {
		t.Fatalf("round 1 = %s, %v", b, err)
	}
	answers := answer.New(answer.For(testforms.DeploySchema(), testforms.AcceptDeploy,
		func(context.Context, string) (runtime.Outcome[*testforms.Deploy], error) {
			return runtime.Outcome[*testforms.Deploy]{Action: runtime.ActionAccept, Value: &testforms.Deploy{Branch: "feature", Env: testforms.EnvStaging, Replicas: 2}}, nil
		}))
	in, err := mcpgo.InputResponses(context.Background(), answers, wire.InputRequests)
	if err != nil || len(in) != 1 {
		t.Fatalf("InputResponses = %v, %v", in, err)
	}
	rb, _ := json.Marshal(in)
	res, err = h(modern("alice"), toolRequest(wire.RequestState, string(rb)))
	if err != nil || res.IsError || res.Content[0].(mcp.TextContent).Text != "accept feature" {
		t.Fatalf("round 2 = %+v, %v", res, err)
	}
	if wire.Meta != nil && wire.Meta.AdditionalFields[runtime.MetaKeyContentLanguage] != nil {
		t.Errorf("round 1 without a language preference reports one: %s", b)
	}

	// Asked in Japanese (SEP-2792 acceptLanguage), the input_required
	// result and its question report the language of the form's text.
	req := toolRequest("", "")
	req.Params.Meta = mcp.NewMetaFromMap(map[string]any{runtime.MetaKeyAcceptLanguage: "ja-JP, en;q=0.5"})
	res, err = h(modern("alice"), req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(res)
	var ja struct {
		Meta          map[string]any `json:"_meta"`
		InputRequests map[string]struct {
			Params struct {
				Meta map[string]any `json:"_meta"`
			} `json:"params"`
		} `json:"inputRequests"`
	}
	if err := json.Unmarshal(b, &ja); err != nil || ja.Meta[runtime.MetaKeyContentLanguage] != "ja" ||
		ja.InputRequests["Deploy"].Params.Meta[runtime.MetaKeyContentLanguage] != "ja" {
		t.Errorf("round 1 in Japanese = %s, %v; want contentLanguage ja on the result and the question", b, err)
	}
}
