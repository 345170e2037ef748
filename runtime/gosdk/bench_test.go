package gosdk_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime/deliver"
	"github.com/elicitgen/elicitgen/runtime/seal"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
)

// BenchmarkAskRoundTrip measures one tools/call whose handler asks the
// Deploy form, through gosdk.Handle + AskDeploy ("askt") and through a
// hand-written raw go-sdk handler doing the same exchange ("raw": Elicit
// on 2025-11-25, an InputRequests/InputResponses handler on 2026-07-28),
// interleaved on the same in-memory connection. overhead-% is the
// runtime's share: (askt - raw) / raw.
func BenchmarkAskRoundTrip(b *testing.B) {
	for _, version := range []string{runtime.Version20251125, runtime.Version20260728} {
		b.Run(version, func(b *testing.B) { benchRoundTrip(b, version) })
	}
}

func benchRoundTrip(b *testing.B, version string) {
	ctx := context.Background()
	schemaJSON, _ := testforms.DeploySchema().JSON(version)
	var rawSchema map[string]any // what a hand-written server would send
	if err := json.Unmarshal(schemaJSON, &rawSchema); err != nil {
		b.Fatal(err)
	}
	const msg = "Deploy which branch, where?"
	s := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "v0"}, nil)
	obj := map[string]any{"type": "object"}
	s.AddTool(&mcp.Tool{Name: "askt", InputSchema: obj}, gosdk.Handle(&gosdk.Config{Options: adapter.Options{Keys: seal.NewRandomKeyRing()}},
		func(ctx context.Context, req *mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
			out, err := testforms.AskDeploy(ctx, ask, msg)
			if err != nil {
				return nil, err
			}
			v, _ := out.Accepted()
			return text(fmt.Sprintf("%s %s %d %t", v.Branch, v.Env, v.Replicas, v.Confirm)), nil
		}))
	rawResult := func(content map[string]any) *mcp.CallToolResult {
		branch, _ := content["branch"].(string)
		env, _ := content["env"].(string)
		replicas, _ := content["replicas"].(float64)
		confirm, _ := content["confirm"].(bool)
		return text(fmt.Sprintf("%s %s %d %t", branch, env, int(replicas), confirm))
	}
	s.AddTool(&mcp.Tool{Name: "raw", InputSchema: obj}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if !runtime.EraOf(version).MultiRoundTrip() {
			res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Mode: "form", Message: msg, RequestedSchema: rawSchema})
			if err != nil {
				return nil, err
			}
			return rawResult(res.Content), nil
		}
		if r, ok := req.Params.InputResponses["Deploy"].(*mcp.ElicitResult); ok {
			return rawResult(r.Content), nil
		}
		return &mcp.CallToolResult{
			InputRequests: mcp.InputRequestMap{"Deploy": &mcp.ElicitParams{Mode: "form", Message: msg, RequestedSchema: rawSchema}},
			RequestState:  "s1",
		}, nil
	})
	answer, _ := testforms.AcceptDeploy(testforms.Deploy{Branch: "main", Env: testforms.EnvProd, Replicas: 2})
	c := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "v0"}, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: answer.Content}, nil
		},
	})
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer ss.Close()
	cs, err := c.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	call := func(tool string) time.Duration {
		start := time.Now()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{"project": "alpha"}})
		d := time.Since(start)
		if err != nil || res.Content[0].(*mcp.TextContent).Text != "main prod 2 false" {
			b.Fatalf("%s: %v %v", tool, res, err)
		}
		return d
	}
	for range 20 { // warm up both paths
		call("askt")
		call("raw")
	}
	var askt, raw time.Duration
	n := 0
	b.ReportAllocs()
	for b.Loop() {
		if n%2 == 0 {
			askt += call("askt")
			raw += call("raw")
		} else {
			raw += call("raw")
			askt += call("askt")
		}
		n++
	}
	b.ReportMetric(float64(askt.Nanoseconds())/float64(n), "askt-ns/op")
	b.ReportMetric(float64(raw.Nanoseconds())/float64(n), "raw-ns/op")
	b.ReportMetric(100*float64(askt-raw)/float64(raw), "overhead-%")
}

// BenchmarkRuntimeShare isolates what the runtime adds to one AskT round
// trip: everything gosdk and runtime do (caps, keys, state open/seal,
// schema encoding, decode and validation, the input_required result),
// without the SDK transport. Divide its ns/op by raw-ns/op of
// BenchmarkAskRoundTrip for the runtime's share of a round trip (the
// head-to-head difference there is within the transport's noise).
func BenchmarkRuntimeShare(b *testing.B) {
	ctx := context.Background()
	keys := seal.NewRandomKeyRing()
	answer, _ := testforms.AcceptDeploy(testforms.Deploy{Branch: "main", Env: testforms.EnvProd, Replicas: 2})
	// Content as it arrives from JSON.
	raw, _ := json.Marshal(answer.Content)
	var content map[string]any
	_ = json.Unmarshal(raw, &content)
	handler := func(ctx context.Context, req *mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
		out, err := testforms.AskDeploy(ctx, ask, "Deploy which branch, where?")
		if err != nil {
			return nil, err
		}
		v, _ := out.Accepted()
		return text(fmt.Sprintf("%s %s %d %t", v.Branch, v.Env, v.Replicas, v.Confirm)), nil
	}
	meta := mcp.Meta{
		adapter.MetaKeyProtocolVersion:    runtime.Version20260728,
		adapter.MetaKeyClientCapabilities: map[string]any{"elicitation": map[string]any{"form": map[string]any{}}},
	}
	b.Run(runtime.Version20260728, func(b *testing.B) {
		b.ReportAllocs()
		// A config per run: -count repeats this function, and each round
		// spends a state id in the config's bounded replay store.
		cfg := &gosdk.Config{Options: adapter.Options{Keys: keys}}
		args := json.RawMessage(`{"project":"alpha"}`)
		for b.Loop() {
			// Round 1: no answer, input_required with sealed state.
			req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Meta: meta, Name: "deploy", Arguments: args}}
			a, err := gosdk.NewAsker(ctx, cfg, req)
			if err != nil {
				b.Fatal(err)
			}
			res, err := a.Finish(handler(ctx, req, a))
			if err != nil || res.InputRequests == nil {
				b.Fatal(res, err)
			}
			// Round 2: the retry carries the answer and the state.
			req = &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Meta: meta, Name: "deploy", Arguments: args,
				InputResponses: mcp.InputResponseMap{"Deploy": &mcp.ElicitResult{Action: "accept", Content: content}},
				RequestState:   res.RequestState}}
			if a, err = gosdk.NewAsker(ctx, cfg, req); err != nil {
				b.Fatal(err)
			}
			if res, err = a.Finish(handler(ctx, req, a)); err != nil || res.InputRequests != nil {
				b.Fatal(res, err)
			}
		}
	})
	b.Run(runtime.Version20251125, func(b *testing.B) {
		b.ReportAllocs()
		push := runtime.AskerFunc(func(ctx context.Context, req *runtime.Request) (*runtime.Response, error) {
			if _, err := req.Schema.AppendJSON(nil, runtime.Version20251125); err != nil { // what the adapter sends
				return nil, err
			}
			return &runtime.Response{Action: runtime.ActionAccept, Content: content}, nil
		})
		for b.Loop() {
			x, err := adapter.NewExchange(nil, &adapter.Call{Tool: "deploy", Version: runtime.Version20251125, Caps: adapter.ClientCaps{Form: true}, Peer: deliver.Peer{Push: push}})
			if err != nil {
				b.Fatal(err)
			}
			out, err := testforms.AskDeploy(ctx, x, "Deploy which branch, where?")
			if err != nil || !out.Action.Valid() {
				b.Fatal(err)
			}
			_ = x.Reply(nil, runtime.UnavailableAuto)
		}
	})
}
