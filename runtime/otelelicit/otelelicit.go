// Package otelelicit records the events of elicitgen asks with
// OpenTelemetry: attributes and events on the current span, and metrics.
//
// Set the Observer in an adapter's Config:
//
//	obs, err := otelelicit.New(otelelicit.Options{})
//	cfg := &gosdk.Config{Options: adapter.Options{Keys: keys, Observer: obs}}
//
// Each event becomes a span event named "elicitation.<kind>"
// (elicitation.asked, elicitation.answered, elicitation.invalid,
// elicitation.timed_out, elicitation.unavailable,
// elicitation.state_refused, elicitation.failed, elicitation.call_end) on
// the span in the context the adapter was handed, the tool call's span
// when the server's tracing middleware started one; without a recording
// span only the metrics are recorded. The span also gets the MCP semantic
// convention attributes (mcp.method.name, gen_ai.tool.name,
// mcp.protocol.version, mcp.session.id) and elicitation.call.id and
// elicitation.round, which link the rounds of one 2026-07-28 call: each
// round is its own request, hence its own span, and all of them carry the
// same elicitation.call.id.
//
// The answered and invalid events are read off the runtime's decision
// about the answer (runtime.Event.Decision): the action after the form's
// confirm box (elicitation.unconfirmed when an unticked box made an
// accept a decline), the invalid fields by the form's names, and the
// audit values. No answer value is recorded except the fields an ask
// names with runtime.WithAuditFields (as elicitation.content.<field>, in
// the order named, on the span event only, never on metrics).
package otelelicit

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/elicitgen/elicitgen/runtime"
)

// ScopeName is the instrumentation scope of the meter.
const ScopeName = "github.com/elicitgen/elicitgen/runtime/otelelicit"

// Attribute keys. The MCP ones follow the OpenTelemetry semantic
// conventions for MCP; the others share the prefix "elicitation.".
const (
	// MCP semantic conventions.
	KeyMethod    = attribute.Key("mcp.method.name")      // tools/call, prompts/get
	KeyTool      = attribute.Key("gen_ai.tool.name")     // tool or prompt name
	KeyProtocol  = attribute.Key("mcp.protocol.version") // request's protocol version
	KeySession   = attribute.Key("mcp.session.id")       // session id, when there is one
	KeyErrorType = attribute.Key("error.type")           // class of a failed call (call_end)
	KeyUser      = attribute.Key("user.id")              // the principal, when known

	// Elicitation.
	KeyCallID        = attribute.Key("elicitation.call.id")     // correlates the rounds of one call
	KeyRound         = attribute.Key("elicitation.round")       // 1, 2, ... (2026-07-28 rounds)
	KeyClientName    = attribute.Key("elicitation.client.name") // client software
	KeyClientVersion = attribute.Key("elicitation.client.version")
	KeyForm          = attribute.Key("elicitation.form.name")
	KeyKey           = attribute.Key("elicitation.key")       // question key (inputRequests key)
	KeyMode          = attribute.Key("elicitation.mode")      // form, url
	KeyRendering     = attribute.Key("elicitation.rendering") // form, url-page, link (form questions)
	KeyRenderingWhy  = attribute.Key("elicitation.rendering.reason")
	KeySchema        = attribute.Key("elicitation.schema.digest") // digest of the requestedSchema sent
	KeyAttempt       = attribute.Key("elicitation.attempt")
	KeyAsked         = attribute.Key("elicitation.asked") // answer to a question this server issued in the call
	KeyAction        = attribute.Key("elicitation.action")
	KeyInvalid       = attribute.Key("elicitation.invalid_fields")
	KeyReason        = attribute.Key("elicitation.reason")
	KeyUnconfirmed   = attribute.Key("elicitation.unconfirmed") // an accept the confirm box turned into a decline
	KeyReply         = attribute.Key("elicitation.reply")
	KeyWait          = attribute.Key("elicitation.wait.duration")  // seconds the question waited (answered)
	KeyRoundTime     = attribute.Key("elicitation.round.duration") // seconds of the request (call_end)
	KeyCallTime      = attribute.Key("elicitation.call.duration")  // seconds from the call's first round (call_end)
	KeyContentPrefix = "elicitation.content."                      // + field name: values named with WithAuditFields
)

// Metric names.
const (
	MetricAsks        = "elicitation.asks"            // counter: questions sent, by form, mode, tool, protocol
	MetricAnswers     = "elicitation.answers"         // counter: answers, by form, action, asked, tool
	MetricAnswerTime  = "elicitation.answer.duration" // histogram (s): time to answer, by form, action
	MetricInvalid     = "elicitation.invalid_answers" // counter: invalid answers, by form, tool
	MetricRefused     = "elicitation.state.refusals"  // counter: refused requestStates, by reason, tool
	MetricUnavailable = "elicitation.unavailable"     // counter: questions that could not be asked, by form, mode, tool
	MetricTimeouts    = "elicitation.timeouts"        // counter: questions not answered in time, by form, tool
)

// Options configure New.
type Options struct {
	// MeterProvider creates the meter; nil means otel.GetMeterProvider().
	MeterProvider metric.MeterProvider
	// AnswerBuckets are the histogram boundaries of
	// elicitation.answer.duration, in seconds; nil means a scale fit for
	// people: 0.5 s to 30 min.
	AnswerBuckets []float64
}

// DefaultAnswerBuckets are the default boundaries of
// elicitation.answer.duration, in seconds.
var DefaultAnswerBuckets = []float64{0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1800}

// Observer records events with OpenTelemetry. It implements
// runtime.Observer and is safe for concurrent use.
type Observer struct {
	asks, answers, invalid, refused, unavailable, timeouts metric.Int64Counter
	answerTime                                             metric.Float64Histogram
}

// New returns an Observer whose instruments come from opts.MeterProvider.
func New(opts Options) (*Observer, error) {
	mp := opts.MeterProvider
	if mp == nil {
		mp = otel.GetMeterProvider()
	}
	m := mp.Meter(ScopeName)
	buckets := opts.AnswerBuckets
	if buckets == nil {
		buckets = DefaultAnswerBuckets
	}
	o := &Observer{}
	var err error
	counter := func(dst *metric.Int64Counter, name, unit, desc string) {
		if err == nil {
			*dst, err = m.Int64Counter(name, metric.WithUnit(unit), metric.WithDescription(desc))
		}
	}
	counter(&o.asks, MetricAsks, "{question}", "Questions sent to the client (elicitation/create or inputRequests entries).")
	counter(&o.answers, MetricAnswers, "{answer}", "Answers received, by action.")
	counter(&o.invalid, MetricInvalid, "{answer}", "Answers that did not decode or validate.")
	counter(&o.refused, MetricRefused, "{request}", "Requests whose requestState was refused, by reason.")
	counter(&o.unavailable, MetricUnavailable, "{question}", "Questions that could not be asked.")
	counter(&o.timeouts, MetricTimeouts, "{question}", "Questions not answered in time.")
	if err != nil {
		return nil, fmt.Errorf("otelelicit: %w", err)
	}
	o.answerTime, err = m.Float64Histogram(MetricAnswerTime, metric.WithUnit("s"),
		metric.WithDescription("Time from sending a question to receiving its answer."),
		metric.WithExplicitBucketBoundaries(buckets...))
	if err != nil {
		return nil, fmt.Errorf("otelelicit: %w", err)
	}
	return o, nil
}

// Observe implements runtime.Observer.
func (o *Observer) Observe(ctx context.Context, e runtime.Event) {
	o.record(ctx, &e)
	span := trace.SpanFromContext(ctx)
	if !span.IsRecording() {
		return
	}
	if e.Kind == runtime.EventCallEnd || e.Kind == runtime.EventStateRefused {
		span.SetAttributes(callAttrs(&e)...)
	}
	if e.Kind == runtime.EventAsked && e.Rendering != "" {
		// The span says how the call's last question reached the person.
		span.SetAttributes(KeyRendering.String(string(e.Rendering)), KeyRenderingWhy.String(e.RenderingReason))
	}
	span.AddEvent("elicitation."+e.Kind.String(), trace.WithTimestamp(e.Time), trace.WithAttributes(eventAttrs(&e)...))
}

// record updates the metrics.
func (o *Observer) record(ctx context.Context, e *runtime.Event) {
	tool := KeyTool.String(e.Tool)
	form := KeyForm.String(e.Form)
	switch e.Kind {
	case runtime.EventAsked:
		o.asks.Add(ctx, 1, metric.WithAttributes(form, KeyMode.String(string(e.Mode)), tool, KeyProtocol.String(e.Protocol)))
	case runtime.EventAnswered:
		action := KeyAction.String(string(e.Action))
		o.answers.Add(ctx, 1, metric.WithAttributes(form, action, KeyAsked.Bool(e.Asked), tool))
		if e.WaitTime > 0 {
			o.answerTime.Record(ctx, e.WaitTime.Seconds(), metric.WithAttributes(form, action))
		}
	case runtime.EventInvalid:
		o.invalid.Add(ctx, 1, metric.WithAttributes(form, tool))
	case runtime.EventStateRefused:
		o.refused.Add(ctx, 1, metric.WithAttributes(KeyReason.String(e.Reason), tool))
	case runtime.EventUnavailable:
		o.unavailable.Add(ctx, 1, metric.WithAttributes(form, KeyMode.String(string(e.Mode)), tool))
	case runtime.EventTimedOut:
		o.timeouts.Add(ctx, 1, metric.WithAttributes(form, tool))
	}
}

// callAttrs are the span attributes of the request.
func callAttrs(e *runtime.Event) []attribute.KeyValue {
	a := make([]attribute.KeyValue, 0, 11)
	a = append(a,
		KeyMethod.String(e.Method),
		KeyTool.String(e.Tool),
		KeyProtocol.String(e.Protocol),
		KeyCallID.String(e.CallID),
		KeyRound.Int(e.Round),
		KeyReply.String(e.Reply),
	)
	if e.Session != "" {
		a = append(a, KeySession.String(e.Session))
	}
	if e.ClientName != "" {
		a = append(a, KeyClientName.String(e.ClientName), KeyClientVersion.String(e.ClientVersion))
	}
	if e.Principal != "" {
		a = append(a, KeyUser.String(e.Principal))
	}
	if e.Kind == runtime.EventCallEnd && e.Reason != "" {
		a = append(a, KeyErrorType.String(e.Reason))
	}
	return a
}

// eventAttrs are the attributes of the span event of e.
func eventAttrs(e *runtime.Event) []attribute.KeyValue {
	a := make([]attribute.KeyValue, 0, 13+len(e.Content))
	a = append(a, KeyCallID.String(e.CallID), KeyRound.Int(e.Round))
	if e.Kind != runtime.EventCallEnd && e.Kind != runtime.EventStateRefused {
		a = append(a,
			KeyForm.String(e.Form),
			KeyKey.String(e.Key),
			KeyMode.String(string(e.Mode)),
			KeySchema.String(e.SchemaDigest),
			KeyAttempt.Int(e.Attempt),
			KeyAsked.Bool(e.Asked),
		)
		if e.Rendering != "" {
			a = append(a, KeyRendering.String(string(e.Rendering)), KeyRenderingWhy.String(e.RenderingReason))
		}
	}
	if e.Action != "" {
		a = append(a, KeyAction.String(string(e.Action)))
	}
	if d := e.Decision; d != nil && d.Unconfirmed && e.Kind == runtime.EventAnswered {
		a = append(a, KeyUnconfirmed.Bool(true))
	}
	if len(e.InvalidFields) > 0 {
		a = append(a, KeyInvalid.StringSlice(e.InvalidFields))
	}
	if e.Reason != "" {
		a = append(a, KeyReason.String(e.Reason))
	}
	if e.Reply != "" {
		a = append(a, KeyReply.String(e.Reply))
	}
	if e.WaitTime > 0 {
		a = append(a, KeyWait.Float64(e.WaitTime.Seconds()))
	}
	if e.Kind == runtime.EventCallEnd {
		a = append(a, KeyRoundTime.Float64(e.RoundTime.Seconds()), KeyCallTime.Float64(e.CallTime.Seconds()))
	}
	switch {
	case e.Decision != nil:
		if e.Kind == runtime.EventAnswered {
			for _, v := range e.Decision.Audit {
				a = append(a, contentAttr(v.Field, v.Value))
			}
		}
	default:
		for _, k := range slices.Sorted(maps.Keys(e.Content)) {
			a = append(a, contentAttr(k, e.Content[k]))
		}
	}
	return a
}

// contentAttr is the attribute of an audited field's value.
func contentAttr(field string, v any) attribute.KeyValue {
	k := attribute.Key(KeyContentPrefix + field)
	switch v := v.(type) {
	case string:
		return k.String(v)
	case bool:
		return k.Bool(v)
	case float64:
		return k.Float64(v)
	case []any:
		s := make([]string, len(v))
		for i, x := range v {
			s[i] = fmt.Sprint(x)
		}
		return k.StringSlice(s)
	}
	return k.String(fmt.Sprint(v))
}

var _ runtime.Observer = (*Observer)(nil)
