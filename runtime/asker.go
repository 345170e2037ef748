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
// one. What an Asker knows about its call beyond Ask (the person's
// language, the protocol version, whether the client can be asked at
// all) it offers through the optional interfaces below (LanguagePreferrer,
// ProtocolVersioner, Checker, FlowIDer, AnswerMemo,
// InvalidAnswerReporter); the runtime finds them through any number of
// wrappers that report what they wrap with Unwrap.
type Asker interface {
	Ask(ctx context.Context, req *Request) (*Response, error)
}

// AskerFunc adapts a function to the Asker interface.
//
// An AskerFunc knows nothing of the call it asks for: wrapping an
// adapter's Asker in one hides the person's language, the protocol
// version, the client's capabilities, stable URL flow ids, retries that
// span 2026-07-28 rounds and the invalid-answer audit event. Use Wrap to
// build middleware that keeps them.
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
