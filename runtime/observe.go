package runtime

import (
	"context"
	"time"
)

// Observer receives the events of the questions a tool call asks: set one
// in an SDK adapter's options (adapter.Options.Observer, embedded in
// gosdk.Config and mcpgo.Config) to audit, log, trace or count them.
// NewLogObserver writes them to a *slog.Logger; runtime/otelelicit
// records them with OpenTelemetry.
//
// Observe is called synchronously, on the goroutine that asks (the tool
// handler's, or the adapter's around it); other asks of the same call
// may wait for it. It must be safe for concurrent use, should return
// quickly, and must not keep e.Content or e.InvalidFields after it
// returns. A nil Observer costs nothing.
type Observer interface {
	Observe(ctx context.Context, e Event)
}

// ObserverFunc adapts a function to the Observer interface.
type ObserverFunc func(ctx context.Context, e Event)

// Observe calls f(ctx, e).
func (f ObserverFunc) Observe(ctx context.Context, e Event) { f(ctx, e) }

// EventKind says what happened.
type EventKind uint8

const (
	// EventAsked: a question went to the client, as elicitation/create
	// (2025 eras) or as an inputRequests entry of an input_required result
	// (2026-07-28), or as a URL of a -32042 error (2025-11-25).
	EventAsked EventKind = iota + 1
	// EventAnswered: the client answered, and the runtime decided the
	// answer (Decision; Action: accept, decline or cancel, after
	// confirm). An accept whose content failed validation is reported as
	// an accept without Content, followed by EventInvalid.
	EventAnswered
	// EventInvalid: an answer did not decode or validate (InvalidFields,
	// Attempt), or an inputResponses entry was not an elicitation result.
	EventInvalid
	// EventTimedOut: no answer came before the ask's timeout (WithTimeout)
	// or the call's deadline.
	EventTimedOut
	// EventUnavailable: the question could not be asked (Reason): no
	// capability, no URL mode, a form the protocol version cannot express,
	// no session.
	EventUnavailable
	// EventStateRefused: the call's requestState was refused before the
	// handler ran (Reason: one of the Refused* constants).
	EventStateRefused
	// EventFailed: an ask failed otherwise (Reason: the error), e.g. the
	// client cancelled the request or the transport broke.
	EventFailed
	// EventCallEnd: the tool call (one round of a 2026-07-28 call) ended
	// (Reply, RoundTime, CallTime).
	EventCallEnd
)

var eventKindNames = [...]string{
	EventAsked:        "asked",
	EventAnswered:     "answered",
	EventInvalid:      "invalid",
	EventTimedOut:     "timed_out",
	EventUnavailable:  "unavailable",
	EventStateRefused: "state_refused",
	EventFailed:       "failed",
	EventCallEnd:      "call_end",
}

// String returns the kind's stable name: asked, answered, invalid,
// timed_out, unavailable, state_refused, failed, call_end.
func (k EventKind) String() string {
	if int(k) < len(eventKindNames) && eventKindNames[k] != "" {
		return eventKindNames[k]
	}
	return "unknown"
}

// Event is one thing that happened to a question of a tool call. Fields
// that do not apply to the kind are zero. It never holds answer content
// except the fields the ask named with WithAuditFields.
type Event struct {
	// Kind says what happened.
	Kind EventKind
	// Time is when it happened.
	Time time.Time

	// Method is the request's method: "tools/call" or "prompts/get".
	Method string
	// Tool is the tool (or prompt) name.
	Tool string
	// CallID correlates the events of one call, across the rounds of a
	// 2026-07-28 call (it rides in the sealed requestState): a random id,
	// the same on every instance that serves a round.
	CallID string
	// Round numbers the requests of a 2026-07-28 call from 1 (the call
	// without requestState); always 1 on the 2025 eras.
	Round int
	// Protocol is the request's protocol version.
	Protocol string
	// ClientName and ClientVersion identify the client software: from
	// initialize (2025 eras) or the request's
	// _meta["io.modelcontextprotocol/clientInfo"] (2026-07-28), when
	// it said.
	ClientName, ClientVersion string
	// Principal is the authenticated user the call is bound to, when
	// known.
	Principal string
	// Session is the MCP session id, when the transport has one.
	Session string

	// Form is the form's name (Schema.Name); "" for a URL-mode question.
	Form string
	// Key is the question's key: its inputRequests key on 2026-07-28
	// ("Deploy", "Deploy#2", "url"), the same key computed on older eras.
	Key string
	// Mode is ModeForm or ModeURL.
	Mode Mode
	// Rendering is how a form question reached the person (form,
	// url-page, link; see deliver.ChooseRendering), and RenderingReason why:
	// "declared form mode", "Codex CLI cannot edit integer fields
	// (replicas); the client declared URL mode". Both are "" for a
	// URL-mode question the handler asked itself.
	Rendering       Rendering
	RenderingReason string
	// SchemaDigest identifies the exact requestedSchema sent: the first
	// 16 hex digits of the SHA-256 of its JSON in the request's protocol
	// version. A reworded or reordered form has another digest.
	SchemaDigest string
	// Attempt numbers the asks of one question from 1; retries after an
	// invalid answer (WithRetries) count up.
	Attempt int
	// Asked reports whether the answer was to a question this server
	// issued in this call. It is false for an inputResponses entry of a
	// 2026-07-28 request without requestState, or for a key the previous
	// round did not ask: a client may answer before it is asked, and the
	// server cannot prove a person saw the form. Always true on the 2025
	// eras, where the server pushes every question.
	Asked bool

	// Action is the answer: accept, decline or cancel (EventAnswered),
	// as the runtime decided it (Decision.Action): an accept that left a
	// box tagged confirm unticked is a decline, with Reason
	// ReasonUnconfirmed.
	Action Action
	// Content holds the validated answer's values of the fields the ask
	// named with WithAuditFields (Decision.Audit), and nothing else; nil
	// by default.
	Content map[string]any
	// InvalidFields names the fields of an invalid answer (EventInvalid),
	// by the form's property names (Decision.Invalid); "" stands for the
	// answer as a whole, and one last entry "(N other keys)" counts the
	// keys the form does not have (Decision.OtherKeys).
	InvalidFields []string
	// Decision is the runtime's decision about the answer (EventAnswered
	// and EventInvalid), which Action, Content, InvalidFields and Reason
	// were taken from; nil for other events, and for an answer no ask
	// function decided (an Asker's Ask called directly). Like Content,
	// it must not be kept after Observe returns.
	Decision *Decision
	// Reason says why: the Refused* reason (EventStateRefused), the
	// reason a question could not be asked (EventUnavailable), the error
	// (EventFailed, EventTimedOut), ReasonUnconfirmed for an accept that
	// left a box tagged confirm unticked (EventAnswered).
	Reason string
	// Reply is what the request was answered with (EventCallEnd; also
	// EventStateRefused): "result", "input_required", "tool_error",
	// "invalid_params", "missing_capability", "url_required" or "error".
	Reply string

	// WaitTime is how long the question waited for its answer, when that
	// can be measured: the elicitation/create round trip (2025 eras), the
	// time from sealing the input_required result to the retry
	// (2026-07-28, wall clock of the instances involved). Zero otherwise.
	WaitTime time.Duration
	// RoundTime is how long this request took (EventCallEnd).
	RoundTime time.Duration
	// CallTime is how long the call took from its first round
	// (EventCallEnd): RoundTime on the 2025 eras; on 2026-07-28 from the
	// start of the round without requestState (wall clock).
	CallTime time.Duration
}

// WithAuditFields names fields of the form whose accepted values may be
// recorded: an Observer's EventAnswered carries them in Event.Content
// (and the log observer writes them). No other answer value ever reaches
// an Observer. Naming a field the form does not have fails the ask
// before anything is sent. Name only what is safe to keep in logs (an
// environment, a ticket id), never free text the user typed.
func WithAuditFields(fields ...string) AskOption {
	return func(c *askConfig) { c.audit = append(c.audit, fields...) }
}

// setAudit checks the WithAuditFields names against req's form and sets
// req.AuditFields.
func setAudit(req *Request, fields []string) error {
	if len(fields) == 0 {
		return nil
	}
	var errs errList
	for _, f := range fields {
		if req.Schema == nil || req.Schema.Property(f) == nil {
			errs.Add(f, "WithAuditFields: no such field")
		}
	}
	name := ""
	if req.Schema != nil {
		name = req.Schema.Name
	}
	if err := errs.Err(name); err != nil {
		return askErr(name, &detailError{label: "bad ask option", fields: err.(*ValidationError)})
	}
	req.AuditFields = fields
	return nil
}
