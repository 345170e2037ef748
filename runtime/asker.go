package runtime

import "context"

// Asker sends one elicitation request to the client and returns its answer.
// SDK adapters implement it; elicittest provides a scripted one for tests.
//
// An Asker must return an error (never a zero Response) when the client
// cannot be asked: ErrUnavailable (possibly wrapped in *UnavailableError)
// when the client lacks the capability, *InputRequiredError when a
// 2026-07-28 request must first return input_required to the client.
//
// Every question reaches Ask, a re-ask after an invalid answer included
// (Request.Attempt counts them), so middleware built with Wrap sees each
// one.
//
// An Asker that serves a tool call (adapter.Exchange, and so the SDK
// adapters' Askers; elicittest.Asker) may also tell the runtime what it
// knows about the call, with any of these methods, which the runtime
// finds through any number of wrappers that report what they wrap with
// Unwrap, as http.ResponseController finds a ResponseWriter's:
//
//	// The person's language: a BCP 47 tag or an Accept-Language list, ""
//	// when the request states none. Asks without WithLocale are
//	// translated to it; LanguagePreference returns it.
//	LanguagePreference() string
//	// The client's protocol version. On 2025-06-18, AskChoices asks one
//	// checkbox per option (that era has no multi-select).
//	ProtocolVersion() string
//	// The error Ask would return for req because the client cannot be
//	// asked (matching ErrUnavailable), or nil; CanAsk calls it.
//	CheckAsk(req *Request) error
//	// The flow id the next URL-mode ask with key (Request.Key) will
//	// carry, stable across the rounds of one call, and across the calls
//	// of a flow whose link a tool result carried (AskURLFlow).
//	NextFlowID(ctx context.Context, key string) string
//	// Records digest as the last invalid answer to req's question, across
//	// the rounds of a call, and reports whether it equals the one before:
//	// an ask stops (UnfilledError) when a client sends the same invalid
//	// answer twice, rather than asking until its retries run out.
//	SameInvalidAnswer(req *Request, digest string) bool
//	// Told of the runtime's Decision about each answer, once, before
//	// the handler sees the outcome: accepted, declined, cancelled (after
//	// confirm) or invalid (before the ask is asked again or fails).
//	// The adapters' exchange reports its audit events from it;
//	// elicittest records it. A non-nil error refuses the decision: the
//	// ask fails with it (matching ErrDecisionRefused), and the handler
//	// never gets the answer.
//	Decided(ctx context.Context, d *Decision) error
//
// Without them the runtime assumes no language preference, the latest
// protocol, a client that can be asked, a fresh flow id per ask, and
// repeated answers compared within one call to the ask function only,
// and tells no one its Decisions. The runtime calls the first Decided it
// finds; a wrapper that implements Decided passes the Decision on with
// Decide(ctx, next, d).
type Asker interface {
	Ask(ctx context.Context, req *Request) (*Response, error)
}

// AskerFunc adapts a function to the Asker interface.
//
// An AskerFunc knows nothing of the call it asks for: wrapping an
// adapter's Asker in one hides the person's language, the protocol
// version, the client's capabilities, stable URL flow ids, retries that
// span 2026-07-28 rounds and the Decisions its audit events come from.
// Use Wrap to build middleware that keeps them.
type AskerFunc func(ctx context.Context, req *Request) (*Response, error)

// Ask calls f(ctx, req).
func (f AskerFunc) Ask(ctx context.Context, req *Request) (*Response, error) { return f(ctx, req) }

// Wrapper is an Asker that passes its questions on to another one, which
// Unwrap returns, as http.ResponseController expects of a wrapped
// http.ResponseWriter. The runtime follows Unwrap to find what the
// wrapped Asker knows about the call (see Asker).
type Wrapper interface {
	Asker
	Unwrap() Asker
}

// Wrap returns an Asker whose Ask calls fn with next, and whose Unwrap
// returns next, so that middleware (a log line, a metric, a header) loses
// nothing next knows about the call:
//
//	logged := runtime.Wrap(ask, func(ctx context.Context, req *runtime.Request, next runtime.Asker) (*runtime.Response, error) {
//		resp, err := next.Ask(ctx, req)
//		slog.InfoContext(ctx, "asked", "form", req.Schema.Name, "attempt", req.Attempt, "err", err)
//		return resp, err
//	})
//
// fn should pass req to next unchanged, or a copy with its own changes; a
// nil fn passes every question straight to next.
func Wrap(next Asker, fn func(ctx context.Context, req *Request, next Asker) (*Response, error)) Asker {
	return &wrapped{next: next, fn: fn}
}

type wrapped struct {
	next Asker
	fn   func(ctx context.Context, req *Request, next Asker) (*Response, error)
}

func (w *wrapped) Ask(ctx context.Context, req *Request) (*Response, error) {
	if w.fn == nil {
		return w.next.Ask(ctx, req)
	}
	return w.fn(ctx, req, w.next)
}

func (w *wrapped) Unwrap() Asker { return w.next }

// What an Asker may know about its call (see Asker).
type (
	languagePreferrer interface{ LanguagePreference() string }
	protocolVersioner interface{ ProtocolVersion() string }
	askChecker        interface{ CheckAsk(req *Request) error }
	flowIDer          interface {
		NextFlowID(ctx context.Context, key string) string
	}
	answerMemo interface {
		SameInvalidAnswer(req *Request, digest string) bool
	}
)

// maxUnwrap bounds the wrappers findAs follows, so a cycle of Unwraps
// ends.
const maxUnwrap = 64

// findAs returns the first Asker in the chain a, a.Unwrap(),
// a.Unwrap().Unwrap()... that implements T. It is the one place the
// runtime looks for an Asker's optional interfaces.
func findAs[T any](a Asker) (T, bool) {
	for range maxUnwrap {
		if a == nil {
			break
		}
		if t, ok := a.(T); ok {
			return t, true
		}
		w, ok := a.(Wrapper)
		if !ok {
			break
		}
		a = w.Unwrap()
	}
	var zero T
	return zero, false
}
