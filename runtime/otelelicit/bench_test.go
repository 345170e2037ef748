package otelelicit_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
	"github.com/elicitgen/elicitgen/runtime/otelelicit"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// BenchmarkObserverCost measures what the observer hook adds to one
// 2026-07-28 call of two rounds (input_required, then the retry with the
// answer), as BenchmarkRuntimeShare in runtime/gosdk does: everything
// gosdk and runtime do, without the transport. Each round runs in a
// recording span of an SDK tracer (as a tracing middleware would start
// it) in every case, so that the cases differ only by the observer:
// "none" (Config.Observer nil), "slog" (runtime.NewLogObserver on a JSON
// handler writing to io.Discard) and "otel" (otelelicit with the SDK's
// meter provider and a manual reader; span events on the recording span).
func BenchmarkObserverCost(b *testing.B) {
	tp := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.AlwaysSample()))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	defer tp.Shutdown(context.Background())
	defer mp.Shutdown(context.Background())
	otelObs, err := otelelicit.New(otelelicit.Options{MeterProvider: mp})
	if err != nil {
		b.Fatal(err)
	}
	tracer := tp.Tracer("bench")
	answer, _ := testforms.AcceptDeploy(testforms.Deploy{Branch: "main", Env: testforms.EnvProd, Replicas: 2})
	raw, _ := json.Marshal(answer.Content)
	var content map[string]any
	_ = json.Unmarshal(raw, &content)
	handler := func(ctx context.Context, req *mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
		out, err := testforms.AskDeploy(ctx, ask, "Deploy which branch, where?")
		if err != nil {
			return nil, err
		}
		v, _ := out.Accepted()
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: v.Branch}}}, nil
	}
	meta := mcp.Meta{
		adapter.MetaKeyProtocolVersion:    runtime.Version20260728,
		adapter.MetaKeyClientCapabilities: map[string]any{"elicitation": map[string]any{"form": map[string]any{}}},
		adapter.MetaKeyClientInfo:         map[string]any{"name": "bench-client", "version": "v1"},
	}
	args := json.RawMessage(`{"project":"alpha"}`)
	keys := seal.NewRandomKeyRing()
	cases := []struct {
		name string
		obs  runtime.Observer
	}{
		{"none", nil},
		{"slog", runtime.NewLogObserver(slog.New(slog.NewJSONHandler(io.Discard, nil)))},
		{"otel", otelObs},
	}
	// call runs the two rounds of one call with observer obs.
	call := func(b *testing.B, obs runtime.Observer) {
		cfg := &gosdk.Config{Options: adapter.Options{Keys: keys, Observer: obs}}
		round := func(req *mcp.CallToolRequest) *mcp.CallToolResult {
			ctx, span := tracer.Start(context.Background(), "tools/call")
			defer span.End()
			a, err := gosdk.NewAsker(ctx, cfg, req)
			if err != nil {
				b.Fatal(err)
			}
			res, err := a.Finish(handler(ctx, req, a))
			if err != nil {
				b.Fatal(err)
			}
			return res
		}
		res := round(&mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Meta: meta, Name: "deploy", Arguments: args}})
		if res.InputRequests == nil {
			b.Fatal("round 1 did not ask")
		}
		res = round(&mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Meta: meta, Name: "deploy", Arguments: args,
			InputResponses: mcp.InputResponseMap{"Deploy": &mcp.ElicitResult{Action: "accept", Content: content}},
			RequestState:   res.RequestState}})
		if res.InputRequests != nil {
			b.Fatal("round 2 asked again")
		}
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				call(b, c.obs)
			}
		})
	}
	// The three interleaved in one loop, so that they share the machine's
	// noise: each iteration runs one call of each, in a rotating order.
	b.Run("interleaved", func(b *testing.B) {
		var took [3]time.Duration
		n := 0
		for b.Loop() {
			for j := range cases {
				i := (j + n) % len(cases)
				start := time.Now()
				call(b, cases[i].obs)
				took[i] += time.Since(start)
			}
			n++
		}
		for i, c := range cases {
			b.ReportMetric(float64(took[i].Nanoseconds())/float64(n), c.name+"-ns/call")
		}
		b.ReportMetric(100*float64(took[1]-took[0])/float64(took[0]), "slog-%")
		b.ReportMetric(100*float64(took[2]-took[0])/float64(took[0]), "otel-%")
	})
}
