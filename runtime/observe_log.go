package runtime

import (
	"context"
	"log/slog"
	"maps"
	"slices"
	"time"
)

// Attribute names of the records NewLogObserver writes: the audit record.
// They are stable: dashboards and log queries may rely on them.
const (
	LogEvent         = "event"          // Event.Kind: asked, answered, invalid, timed_out, unavailable, state_refused, failed, call_end
	LogMethod        = "method"         // tools/call, prompts/get
	LogTool          = "tool"           // tool or prompt name
	LogCallID        = "call_id"        // correlates the events (and rounds) of one call
	LogRound         = "round"          // 1, 2, ... (2026-07-28 rounds)
	LogProtocol      = "protocol"       // protocol version of the request
	LogClient        = "client"         // client software name
	LogClientVersion = "client_version" // client software version
	LogPrincipal     = "principal"      // authenticated user, when known
	LogSession       = "session"        // MCP session id, when there is one
	LogForm          = "form"           // form name
	LogKey           = "key"            // question key (inputRequests key on 2026-07-28)
	LogMode          = "mode"           // form, url
	LogRendering     = "rendering"      // form, url-page, link (form questions)
	LogRenderingWhy  = "rendering_reason"
	LogSchema        = "schema"         // digest of the requestedSchema sent
	LogAttempt       = "attempt"        // 1, then 2, ... after invalid answers
	LogAsked         = "asked"          // the answer was to a question this server issued in the call
	LogAction        = "action"         // accept, decline, cancel
	LogContent       = "content"        // group: the values of the fields named with WithAuditFields
	LogInvalid       = "invalid_fields" // names of the fields of an invalid answer
	LogReason        = "reason"         // why (unavailable, state_refused, failed, timed_out; call_end: error class)
	LogReply         = "reply"          // what the request was answered with (call_end, state_refused)
	LogWaitMS        = "wait_ms"        // time the question waited for its answer, when measurable
	LogRoundMS       = "round_ms"       // duration of the request (call_end)
	LogCallMS        = "call_ms"        // duration of the call from its first round (call_end)
)

// NewLogObserver returns an Observer that writes each event as one record
// of l (nil: slog.Default()) with the message "elicitation.<event>" and
// the Log* attributes, at level Info, or Warn for invalid, timed_out,
// unavailable, state_refused and failed. With slog.NewJSONHandler that
// is one JSON line per event:
//
//	{"time":"...","level":"INFO","msg":"elicitation.answered","event":"answered","tool":"deploy",
//	 "call_id":"9f2c...","round":2,"protocol":"2026-07-28","client":"claude-code",...,
//	 "form":"Deploy","key":"Deploy","mode":"form","schema":"5be1c0d2a4e3f9b7","attempt":1,
//	 "asked":true,"action":"accept","wait_ms":5312.4}
//
// Attributes that do not apply to an event are left out; the question's
// attributes (form through asked) appear on every event about a question.
// No answer value is written except those named with WithAuditFields.
func NewLogObserver(l *slog.Logger) Observer {
	if l == nil {
		l = slog.Default()
	}
	return &logObserver{h: l.Handler()}
}

type logObserver struct{ h slog.Handler }

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Observe implements Observer.
func (o *logObserver) Observe(ctx context.Context, e Event) {
	level := slog.LevelInfo
	switch e.Kind {
	case EventInvalid, EventTimedOut, EventUnavailable, EventStateRefused, EventFailed:
		level = slog.LevelWarn
	}
	if !o.h.Enabled(ctx, level) {
		return
	}
	kind := e.Kind.String()
	t := e.Time
	if t.IsZero() {
		t = time.Now()
	}
	r := slog.NewRecord(t, level, "elicitation."+kind, 0)
	var buf [26]slog.Attr
	a := append(buf[:0],
		slog.String(LogEvent, kind),
		slog.String(LogMethod, e.Method),
		slog.String(LogTool, e.Tool),
		slog.String(LogCallID, e.CallID),
		slog.Int(LogRound, e.Round),
		slog.String(LogProtocol, e.Protocol),
		slog.String(LogClient, e.ClientName),
		slog.String(LogClientVersion, e.ClientVersion),
	)
	if e.Principal != "" {
		a = append(a, slog.String(LogPrincipal, e.Principal))
	}
	if e.Session != "" {
		a = append(a, slog.String(LogSession, e.Session))
	}
	if e.Kind != EventCallEnd && e.Kind != EventStateRefused {
		a = append(a,
			slog.String(LogForm, e.Form),
			slog.String(LogKey, e.Key),
			slog.String(LogMode, string(e.Mode)),
			slog.String(LogSchema, e.SchemaDigest),
			slog.Int(LogAttempt, e.Attempt),
			slog.Bool(LogAsked, e.Asked),
		)
		if e.Rendering != "" {
			a = append(a, slog.String(LogRendering, string(e.Rendering)), slog.String(LogRenderingWhy, e.RenderingReason))
		}
	}
	if e.Action != "" {
		a = append(a, slog.String(LogAction, string(e.Action)))
	}
	if len(e.Content) > 0 {
		c := make([]any, 0, len(e.Content))
		for _, k := range slices.Sorted(maps.Keys(e.Content)) {
			c = append(c, slog.Any(k, e.Content[k]))
		}
		a = append(a, slog.Group(LogContent, c...))
	}
	if len(e.InvalidFields) > 0 {
		a = append(a, slog.Any(LogInvalid, append([]string(nil), e.InvalidFields...)))
	}
	if e.Reason != "" {
		a = append(a, slog.String(LogReason, e.Reason))
	}
	if e.Reply != "" {
		a = append(a, slog.String(LogReply, e.Reply))
	}
	if e.WaitTime > 0 {
		a = append(a, slog.Float64(LogWaitMS, ms(e.WaitTime)))
	}
	if e.Kind == EventCallEnd {
		a = append(a, slog.Float64(LogRoundMS, ms(e.RoundTime)), slog.Float64(LogCallMS, ms(e.CallTime)))
	}
	r.AddAttrs(a...)
	_ = o.h.Handle(ctx, r)
}
