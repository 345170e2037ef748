package otelelicit_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
	"github.com/elicitgen/elicitgen/runtime/otelelicit"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// fixture is a go-sdk server whose tools/call requests each get a span
// (as a tracing middleware would start), observed by otelelicit, with an
// in-memory span exporter and a manual metric reader.
type fixture struct {
	spans  *tracetest.InMemoryExporter
	reader *sdkmetric.ManualReader
	cs     *mcp.ClientSession
}

const secretBranch = "zq-branch-7731"

func newFixture(t *testing.T, version string) *fixture {
	t.Helper()
	f := &fixture{spans: tracetest.NewInMemoryExporter(), reader: sdkmetric.NewManualReader()}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(f.spans))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(f.reader))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()); _ = mp.Shutdown(context.Background()) })
	obs, err := otelelicit.New(otelelicit.Options{MeterProvider: mp})
	if err != nil {
		t.Fatal(err)
	}
	tracer := tp.Tracer("test")

	s := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "v0"}, nil)
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != "tools/call" {
				return next(ctx, method, req)
			}
			ctx, span := tracer.Start(ctx, method, trace.WithSpanKind(trace.SpanKindServer))
			defer span.End()
			return next(ctx, method, req)
		}
	})
	// AcceptUnasked: the test sends some answers on a first call, to reach
	// an invalid answer in one round.
	cfg := &gosdk.Config{Options: adapter.Options{Keys: seal.NewRandomKeyRing(), Observer: obs, AcceptUnasked: true}}
	s.AddTool(&mcp.Tool{Name: "deploy", InputSchema: map[string]any{"type": "object"}},
		gosdk.Handle(cfg, func(ctx context.Context, req *mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
			out, err := testforms.AskDeploy(ctx, ask, "Deploy?", runtime.WithAuditFields("env"))
			if err != nil {
				return nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(out.Action)}}}, nil
		}))
	answer, _ := testforms.AcceptDeploy(testforms.Deploy{Branch: secretBranch, Env: testforms.EnvProd, Replicas: 2})
	c := mcp.NewClient(&mcp.Implementation{Name: "cli", Version: "v1"}, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			time.Sleep(2 * time.Millisecond) // a measurable time to answer
			return &mcp.ElicitResult{Action: "accept", Content: answer.Content}, nil
		},
	})
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	if version == runtime.Version20260728 {
		version = "" // the SDK default
	}
	if f.cs, err = c.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.cs.Close() })
	return f
}

func attrs(kvs []attribute.KeyValue) map[attribute.Key]attribute.Value {
	m := make(map[attribute.Key]attribute.Value, len(kvs))
	for _, kv := range kvs {
		m[kv.Key] = kv.Value
	}
	return m
}

// metrics collects the reader's data, by metric name.
func (f *fixture) metrics(t *testing.T) map[string]metricdata.Aggregation {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := f.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	out := map[string]metricdata.Aggregation{}
	for _, sm := range rm.ScopeMetrics {
		if sm.Scope.Name != otelelicit.ScopeName {
			t.Errorf("scope %q, want %q", sm.Scope.Name, otelelicit.ScopeName)
		}
		for _, m := range sm.Metrics {
			out[m.Name] = m.Data
		}
	}
	return out
}

// sum returns the sum of the counter points whose attributes include
// want.
func sum(t *testing.T, data metricdata.Aggregation, want ...attribute.KeyValue) int64 {
	t.Helper()
	s, ok := data.(metricdata.Sum[int64])
	if !ok {
		t.Fatalf("data %T, want an int64 sum", data)
	}
	var n int64
	for _, p := range s.DataPoints {
		match := true
		for _, kv := range want {
			if v, ok := p.Attributes.Value(kv.Key); !ok || v != kv.Value {
				match = false
			}
		}
		if match {
			n += p.Value
		}
	}
	return n
}

// TestSpansAndMetrics: a 2026-07-28 call takes two rounds, two spans
// linked by elicitation.call.id; the events, attributes and metrics are
// recorded, and no unnamed answer value is.
func TestSpansAndMetrics(t *testing.T) {
	f := newFixture(t, runtime.Version20260728)
	ctx := context.Background()
	res, err := f.cs.CallTool(ctx, &mcp.CallToolParams{Name: "deploy", Arguments: map[string]any{"project": "alpha"}})
	if err != nil || res.IsError {
		t.Fatalf("call = %+v, %v", res, err)
	}
	spans := f.spans.GetSpans()
	if len(spans) != 2 {
		t.Fatalf("%d spans, want 2 (one per round)", len(spans))
	}
	var callID attribute.Value
	for i, sp := range spans {
		a := attrs(sp.Attributes)
		if a[otelelicit.KeyMethod].AsString() != "tools/call" || a[otelelicit.KeyTool].AsString() != "deploy" ||
			a[otelelicit.KeyProtocol].AsString() != runtime.Version20260728 || a[otelelicit.KeyClientName].AsString() != "cli" {
			t.Errorf("span %d attributes %v", i, sp.Attributes)
		}
		if got := a[otelelicit.KeyRound].AsInt64(); got != int64(i+1) {
			t.Errorf("span %d: round %d, want %d", i, got, i+1)
		}
		if i == 0 {
			callID = a[otelelicit.KeyCallID]
			if len(callID.AsString()) != 16 {
				t.Errorf("call id %q", callID.AsString())
			}
		} else if a[otelelicit.KeyCallID] != callID {
			t.Errorf("round 2 call id %v, want %v: the rounds must correlate", a[otelelicit.KeyCallID], callID)
		}
	}
	want := [][]string{
		{"elicitation.asked", "elicitation.call_end"},
		{"elicitation.answered", "elicitation.call_end"},
	}
	for i, sp := range spans {
		var names []string
		for _, ev := range sp.Events {
			names = append(names, ev.Name)
		}
		if !slices.Equal(names, want[i]) {
			t.Errorf("span %d events %v, want %v", i, names, want[i])
		}
	}
	asked := attrs(spans[0].Events[0].Attributes)
	if asked[otelelicit.KeyForm].AsString() != "Deploy" || asked[otelelicit.KeyKey].AsString() != "Deploy" ||
		len(asked[otelelicit.KeySchema].AsString()) != 16 || asked[otelelicit.KeyAttempt].AsInt64() != 1 {
		t.Errorf("asked event attributes %v", spans[0].Events[0].Attributes)
	}
	if end := attrs(spans[0].Events[1].Attributes); end[otelelicit.KeyReply].AsString() != "input_required" {
		t.Errorf("round 1 call_end %v", spans[0].Events[1].Attributes)
	}
	answered := attrs(spans[1].Events[0].Attributes)
	if answered[otelelicit.KeyAction].AsString() != "accept" || !answered[otelelicit.KeyAsked].AsBool() ||
		answered[otelelicit.KeyWait].AsFloat64() <= 0 || answered[otelelicit.KeySchema] != asked[otelelicit.KeySchema] {
		t.Errorf("answered event attributes %v", spans[1].Events[0].Attributes)
	}
	if got := answered[attribute.Key(otelelicit.KeyContentPrefix+"env")].AsString(); got != "prod" {
		t.Errorf("audited env = %q, want prod", got)
	}
	for _, sp := range spans {
		for _, kv := range append(slices.Clone(sp.Attributes), allEventAttrs(sp)...) {
			if strings.Contains(kv.Value.String(), secretBranch) {
				t.Errorf("span %q records an answer value not named: %s=%s", sp.Name, kv.Key, kv.Value.String())
			}
		}
	}

	m := f.metrics(t)
	if n := sum(t, m[otelelicit.MetricAsks], otelelicit.KeyForm.String("Deploy"), otelelicit.KeyMode.String("form")); n != 1 {
		t.Errorf("asks = %d, want 1", n)
	}
	if n := sum(t, m[otelelicit.MetricAnswers], otelelicit.KeyForm.String("Deploy"), otelelicit.KeyAction.String("accept"), otelelicit.KeyAsked.Bool(true)); n != 1 {
		t.Errorf("answers{accept} = %d, want 1", n)
	}
	h, ok := m[otelelicit.MetricAnswerTime].(metricdata.Histogram[float64])
	if !ok || len(h.DataPoints) != 1 || h.DataPoints[0].Count != 1 || h.DataPoints[0].Sum <= 0 {
		t.Errorf("answer.duration = %+v, want one positive point", m[otelelicit.MetricAnswerTime])
	}
	if _, ok := m[otelelicit.MetricInvalid]; ok {
		t.Errorf("invalid answers recorded: %+v", m[otelelicit.MetricInvalid])
	}

	// An invalid answer and a refused state are counted too.
	res, err = f.cs.CallTool(ctx, &mcp.CallToolParams{Name: "deploy", InputResponses: mcp.InputResponseMap{
		"Deploy": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"replicas": 2, "bogus": secretBranch}}}})
	if err != nil || !res.IsError {
		t.Fatalf("invalid answer: %+v, %v; want a tool error", res, err)
	}
	if _, err := f.cs.CallTool(ctx, &mcp.CallToolParams{Name: "deploy", RequestState: "v3.k1.AAAA"}); err == nil {
		t.Fatal("a forged requestState was accepted")
	}
	m = f.metrics(t)
	if n := sum(t, m[otelelicit.MetricInvalid], otelelicit.KeyForm.String("Deploy")); n != 1 {
		t.Errorf("invalid answers = %d, want 1", n)
	}
	if n := sum(t, m[otelelicit.MetricRefused], otelelicit.KeyReason.String(seal.RefusedTampered)); n != 1 {
		t.Errorf("refused states = %d, want 1", n)
	}
	if n := sum(t, m[otelelicit.MetricAnswers], otelelicit.KeyAsked.Bool(false)); n != 1 {
		t.Errorf("unasked answers = %d, want 1 (the first call carried inputResponses)", n)
	}
	spans = f.spans.GetSpans()
	last := spans[len(spans)-1]
	if a := attrs(last.Attributes); a[otelelicit.KeyReply].AsString() != "invalid_params" {
		t.Errorf("refused call's span: %v", last.Attributes)
	}
	if len(last.Events) == 0 || last.Events[0].Name != "elicitation.state_refused" {
		t.Errorf("refused call's events: %v", last.Events)
	}
	for _, sp := range spans {
		for _, kv := range allEventAttrs(sp) {
			if strings.Contains(kv.Value.String(), secretBranch) {
				t.Errorf("span %q records an answer value: %s=%s", sp.Name, kv.Key, kv.Value.String())
			}
		}
	}
}

func allEventAttrs(sp tracetest.SpanStub) []attribute.KeyValue {
	var out []attribute.KeyValue
	for _, ev := range sp.Events {
		out = append(out, ev.Attributes...)
	}
	return out
}

// TestPushEra: on 2025-11-25 one span holds the whole exchange, and the
// time to answer is the elicitation/create round trip.
func TestPushEra(t *testing.T) {
	f := newFixture(t, runtime.Version20251125)
	res, err := f.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "deploy"})
	if err != nil || res.IsError {
		t.Fatalf("call = %+v, %v", res, err)
	}
	spans := f.spans.GetSpans()
	if len(spans) != 1 {
		t.Fatalf("%d spans, want 1", len(spans))
	}
	var names []string
	for _, ev := range spans[0].Events {
		names = append(names, ev.Name)
	}
	if want := []string{"elicitation.asked", "elicitation.answered", "elicitation.call_end"}; !slices.Equal(names, want) {
		t.Errorf("events %v, want %v", names, want)
	}
	if a := attrs(spans[0].Attributes); a[otelelicit.KeyProtocol].AsString() != runtime.Version20251125 {
		t.Errorf("span attributes %v, want protocol 2025-11-25", spans[0].Attributes)
	}
	h := f.metrics(t)[otelelicit.MetricAnswerTime].(metricdata.Histogram[float64])
	if p := h.DataPoints[0]; p.Count != 1 || p.Sum < 0.002 {
		t.Errorf("answer.duration %+v, want one point of at least 2ms", p)
	}
}

// TestSpanReadsTheDecision: the span event of an answer is read off the
// runtime's Decision: an accept whose confirm box was unticked is the
// decline the runtime decided, marked elicitation.unconfirmed, and the
// audited values come in the order the ask named them.
func TestSpanReadsTheDecision(t *testing.T) {
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()); _ = mp.Shutdown(context.Background()) })
	obs, err := otelelicit.New(otelelicit.Options{MeterProvider: mp})
	if err != nil {
		t.Fatal(err)
	}
	d := &runtime.Decision{
		Request: &runtime.Request{Mode: runtime.ModeForm, Schema: testforms.ReleaseSchema()},
		Action:  runtime.ActionDecline, Unconfirmed: true,
		Audit: []runtime.AuditValue{{Field: "ticket", Value: "CHG-1234"}, {Field: "approve", Value: false}},
	}
	ctx, span := tp.Tracer("test").Start(context.Background(), "tools/call")
	for range 3 { // the order must not depend on a map's
		obs.Observe(ctx, runtime.Event{Kind: runtime.EventAnswered, Form: "Release", Key: "Release",
			Action: d.Action, Reason: runtime.ReasonUnconfirmed, Content: d.AuditMap(), Decision: d})
	}
	span.End()
	got := spans.GetSpans()
	if len(got) != 1 || len(got[0].Events) != 3 {
		t.Fatalf("spans %+v, want one with three events", got)
	}
	for _, ev := range got[0].Events {
		a := attrs(ev.Attributes)
		if a[otelelicit.KeyAction].AsString() != "decline" || !a[otelelicit.KeyUnconfirmed].AsBool() ||
			a[otelelicit.KeyReason].AsString() != runtime.ReasonUnconfirmed {
			t.Errorf("answered event %v, want the Decision's decline, unconfirmed", ev.Attributes)
		}
		var content []string
		for _, kv := range ev.Attributes {
			if f, ok := strings.CutPrefix(string(kv.Key), otelelicit.KeyContentPrefix); ok {
				content = append(content, f+"="+kv.Value.String())
			}
		}
		if want := []string{"ticket=CHG-1234", "approve=false"}; !slices.Equal(content, want) {
			t.Errorf("content attributes %v, want the Decision's audit values %v in order", content, want)
		}
	}
}
