package runtime

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unsafe"

	"github.com/elicitgen/elicitgen/runtime/internal/wire"
)

// Action is a client's answer to an elicitation.
type Action string

// The three actions of MCP elicitation.
const (
	// ActionAccept: the user submitted the form (or, in URL mode, agreed
	// to open the link).
	ActionAccept Action = "accept"
	// ActionDecline: the user explicitly said no. Do not ask again.
	ActionDecline Action = "decline"
	// ActionCancel: the user dismissed the request without choosing.
	// Asking again later is fine.
	ActionCancel Action = "cancel"
)

// Valid reports whether a is one of the three protocol actions.
func (a Action) Valid() bool {
	return a == ActionAccept || a == ActionDecline || a == ActionCancel
}

// Mode is the elicitation mode of a request.
type Mode string

// Elicitation modes.
const (
	ModeForm Mode = "form"
	ModeURL  Mode = "url"
)

// Request is one question, as the runtime hands it to an Asker.
type Request struct {
	// Mode is ModeForm or ModeURL.
	Mode Mode
	// Key names the request in a 2026-07-28 inputRequests map, before
	// numbering (see adapter.Exchange): the key given with WithKey, or empty for
	// the default, the form name (Schema.Name) for a form and "url" for
	// a URL-mode request.
	Key string
	// Message is the text shown to the user.
	Message string
	// Schema is the form to render (form mode only). Adapters encode it
	// for the client's protocol version with Schema.AppendJSON.
	Schema *Schema
	// URL is the page to open (URL mode only).
	URL string
	// ElicitationID correlates a URL-mode request with its completion
	// (2025-11-25 only).
	ElicitationID string
	// Language is the BCP 47 tag of the language the form's text is in,
	// when the ask had a language preference (WithLocale or the
	// request's) and the form has translations: the catalog picked, or
	// the source language when none served the preference. Adapters
	// report it as _meta[MetaKeyContentLanguage] (SEP-2792).
	Language string
	// AuditFields names the fields whose accepted values an Observer may
	// see (WithAuditFields); nil means none.
	AuditFields []string
	// AskedFirst: an answer counts only if this server asked the
	// question earlier in the call (WithAskedFirst).
	AskedFirst bool
	// Wait is how long the question stays open for a person (WithWait):
	// its sealed state, its hosted page and the replay store's record of
	// it follow it. Zero means the adapter's default (its StateTTL).
	Wait time.Duration
	// Attempt is 0 for the first ask of a question and n for its n-th
	// re-ask after an invalid answer (WithRetries); a re-ask carries the
	// problems of the last answer in Message.
	Attempt int
	// Retries is the number of re-asks the ask allows (WithRetries). An
	// Asker that counts re-asks across the rounds of a 2026-07-28 call
	// (the adapters' exchange does) refuses an Attempt beyond it with an
	// error matching ErrRetriesUsed.
	Retries int
	// Rendering is the ask's WithRendering (form mode only);
	// RenderingAuto lets the adapter choose.
	Rendering Rendering
	// Approvers is the ask's WithApprovers (form mode only); nil means
	// the requester answers. An Asker that cannot apply it must not ask
	// the question.
	Approvers *Approvers
	// StepUp is the ask's WithStepUp (form mode only): the question is
	// answered only on the hosted page, after a passkey (WebAuthn user
	// verification) bound to the question and the answer. An Asker that
	// cannot apply it must not ask the question.
	StepUp bool
}

// Response is a client's answer, as an Asker returns it.
type Response struct {
	Action Action
	// Content is the submitted form, present only on accept in form mode.
	Content map[string]any
	// Approvers are the people who answered on a hosted page for a
	// question asked with WithApprovers, in the order they answered (the
	// last one decided it); nil when the requester answered.
	Approvers []string
	// Verified says how the people who answered were verified, for a
	// receipt (runtime/receipt's Verified* values: "passkey" when the
	// page checked a passkey step-up); "" when the asker does not say.
	Verified string
}

// Outcome is the typed result of an ask: Action says what the user did,
// and Value holds the answer only when Action is ActionAccept. A generated
// AskT returns an Outcome[*T], whose Value is nil unless the user accepted
// an answer that decoded and validated. Read it with Accepted, or switch
// on Action to tell a decline (do not ask again) from a cancel:
//
//	switch out.Action {
//	case runtime.ActionAccept: // v, _ := out.Accepted()
//	case runtime.ActionDecline:
//	case runtime.ActionCancel:
//	}
//
// A question that expired before its answer arrived (runtime.WithWait)
// comes back as a decline that Expired tells apart.
//
// Outcome has two methods and is not comparable, so that each form's
// instance adds as little as possible to a build.
type Outcome[T any] struct {
	_      [0]func() // not comparable: no equality function per form
	Action Action
	Value  T
}

// Accepted returns the submitted value and true when the user accepted.
//
// Not inlined: each form's Outcome[*T] then compiles a wrapper that calls
// the one shared body instead of a copy of it (about 1 ms of compile time
// a form in a package of 1,000).
//
//go:noinline
func (o *Outcome[T]) Accepted() (T, bool) {
	if o.Action != ActionAccept {
		var zero T
		return zero, false
	}
	return o.Value, true
}

// Expired reports whether the outcome is the decline of a question that
// expired before it was answered (see Action.Expired): do not act on
// it; ask again if the action is still wanted.
//
//go:noinline
func (o *Outcome[T]) Expired() bool { return o.Action.Expired() }

// expiredDecline is the action of an expired question: ActionDecline in
// a string of its own, which Action.Expired recognizes. It is never
// modified.
var expiredDecline = Action(strings.Clone(string(ActionDecline)))

// ExpiredDecline is the answer an adapter gives a question whose time ran
// out (runtime.WithWait) before its answer arrived: a decline (its
// Action equals ActionDecline) whose Action.Expired is true. Audit
// records give it Reason ReasonExpired.
func ExpiredDecline() *Response { return &Response{Action: expiredDecline} }

// ReasonExpired is the Event.Reason of the EventAnswered of an expired
// question (ExpiredDecline).
const ReasonExpired = "expired"

// Expired reports whether a is the decline of an expired question
// (ExpiredDecline). It equals ActionDecline, so code that only tells
// the three actions apart reads it as a decline; Expired tells it apart.
// The mark is the runtime's own string, kept by copies of a: an action
// re-created from text (a JSON round trip) is a plain decline.
func (a Action) Expired() bool {
	return len(a) == len(expiredDecline) && unsafe.StringData(string(a)) == unsafe.StringData(string(expiredDecline))
}

// The errors to match (errors.Is) when an ask, or a request, fails.
var (
	// ErrUnavailable means the client cannot be asked this question: it did
	// not declare the elicitation capability, not for this mode, or its
	// protocol version cannot express the form. Never read it as consent.
	ErrUnavailable = errors.New("elicit: client cannot answer this elicitation")
	// ErrInvalidContent means an accepted answer did not decode or validate.
	ErrInvalidContent = errors.New("elicit: invalid content")
	// ErrInvalidAction means a client answered with an unknown action.
	ErrInvalidAction = errors.New("elicit: invalid action")
	// ErrInputRequired is matched by *InputRequiredError: the answer is not
	// available yet and the request must return input_required.
	ErrInputRequired = errors.New("elicit: input required")
	// ErrMissingOptions means a form with ask-time options was asked
	// without supplying them.
	ErrMissingOptions = errors.New("elicit: options not supplied")
	// ErrInvalidKey means a question's inputRequests key (WithKey) is
	// empty, too long or has characters outside [A-Za-z0-9_.:-].
	ErrInvalidKey = wire.ErrInvalidKey
	// ErrInvalidState is matched (errors.Is) by every refusal of a
	// requestState: tampered, expired, foreign, spent (the seal package's
	// ErrState* errors name each way; seal.RefusalReason names it for an
	// audit record). Such a state must not be trusted; adapters answer it
	// with JSON-RPC -32602.
	ErrInvalidState = errors.New("elicit: invalid request state")
	// ErrMalformedInput is matched by a 2026-07-28 answer that is not an
	// elicitation result at all (an inputResponses entry of the wrong shape):
	// a protocol error, answered with JSON-RPC -32602, never asked again.
	ErrMalformedInput = errors.New("elicit: malformed inputResponses")
	// ErrRetriesUsed is returned by an Asker for a re-ask (Request.Attempt)
	// beyond Request.Retries: the question's retries are used up.
	ErrRetriesUsed = errors.New("elicit: retries used up")
	// ErrTimeout means the per-ask timeout set with WithTimeout elapsed before
	// the user answered. It is never an accept.
	ErrTimeout = errors.New("elicit: no answer in time")
	// ErrUnsafeURL is returned for a URL-mode URL that must not be sent.
	ErrUnsafeURL = wire.ErrUnsafeURL
	// ErrArgsNotGiven is matched by the error of MissingArgs.Complete when the
	// person declined or dismissed the question for the missing arguments.
	ErrArgsNotGiven = errors.New("elicit: the missing arguments were not given")
	// ErrInvalidSchema is matched (errors.Is) by every error of ParseSchema.
	ErrInvalidSchema = errors.New("elicit: invalid requestedSchema")
)

// UnavailableError says why a client cannot be asked, and what the tool
// would have needed. It matches ErrUnavailable with errors.Is.
type UnavailableError struct {
	// Reason is a short human explanation.
	Reason string
	// Mode is the mode that was needed.
	Mode Mode
	// Schema is the form that could not be asked (form mode).
	Schema *Schema
	// Message is the question that could not be asked.
	Message string
}

func (e *UnavailableError) Error() string {
	return "elicit: cannot ask the user: " + e.Reason
}

// Is reports whether target is ErrUnavailable.
func (e *UnavailableError) Is(target error) bool { return target == ErrUnavailable }

// InputRequiredError is returned by a 2026-07-28 Asker when the answer is
// not in the request's inputResponses: the tool wrapper turns it into an
// input_required result. Handlers must return it unchanged.
type InputRequiredError struct {
	// Key names the request in the inputRequests map.
	Key string
	// Request is the question to send.
	Request *Request
}

func (e *InputRequiredError) Error() string {
	return fmt.Sprintf("elicit: input required (%s)", e.Key)
}

// Is reports whether target is ErrInputRequired.
func (e *InputRequiredError) Is(target error) bool { return target == ErrInputRequired }
