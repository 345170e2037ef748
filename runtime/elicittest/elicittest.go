// Package elicittest provides a scripted runtime.Asker for unit tests of
// tool handlers that ask generated forms.
//
// New(answers...) gives the answers in order and records every request,
// and every runtime.Decision about an answer (Decisions).
// The answers are the generated client-side functions' results, passed
// to Respond as they are:
//
//	ask := elicittest.New(
//		elicittest.Respond(AcceptDeploy(Deploy{Branch: "main"})),
//		elicittest.Respond(DeclineDeploy()),
//		elicittest.Respond(CancelDeploy()),
//	)
//
// Accept sends raw content (invalid on purpose, say), Unavailable plays
// a client that cannot be asked, Block a person who never answers, and
// Client answers with a answer.Answerer as a Go MCP client would
// (answer.ForMissing answers a missing-arguments ask, which sends
// only part of its form).
//
// Answers pass through JSON on their way back, so a handler sees content
// exactly as it would arrive from a real client (numbers as float64,
// arrays as []any).
package elicittest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/answer"
)

// Answer produces the reply to one request.
type Answer func(req *runtime.Request) (*runtime.Response, error)

// Respond answers with resp and errs (joined with errors.Join when
// there are several; none or nil ones are no error).
// It takes the results of the generated client-side functions as they
// are: Respond(AcceptT(v)), Respond(DeclineT()) and Respond(CancelT()).
func Respond(resp *runtime.Response, errs ...error) Answer {
	err := errors.Join(errs...)
	if len(errs) == 1 {
		err = errs[0]
	}
	return func(*runtime.Request) (*runtime.Response, error) { return resp, err }
}

// Accept answers accept with raw content, which may be invalid on
// purpose.
func Accept(content map[string]any) Answer {
	return Respond(&runtime.Response{Action: runtime.ActionAccept, Content: content}, nil)
}

// Decline answers decline.
func Decline() Answer { return Respond(&runtime.Response{Action: runtime.ActionDecline}, nil) }

// Cancel answers cancel.
func Cancel() Answer { return Respond(&runtime.Response{Action: runtime.ActionCancel}, nil) }

// Client answers as a Go MCP client with the Answerer a would: the
// request's schema is encoded as sent on the latest protocol version and
// matched to a's forms (answer.For, answer.ForMissing), so a
// test answers with the generated AcceptT functions whatever subset of a
// form the server asked.
func Client(a *answer.Answerer) Answer {
	return func(req *runtime.Request) (*runtime.Response, error) {
		if req.Mode == runtime.ModeURL {
			return a.AnswerURL(context.Background(), req.Message, req.URL)
		}
		b, err := req.Schema.JSON(runtime.LatestVersion)
		if err != nil {
			return nil, err
		}
		return a.Answer(context.Background(), req.Message, b)
	}
}

// Unavailable fails as a client without the elicitation capability does.
func Unavailable() Answer {
	return func(req *runtime.Request) (*runtime.Response, error) {
		return nil, &runtime.UnavailableError{Reason: "client did not declare elicitation", Mode: req.Mode, Schema: req.Schema, Message: req.Message}
	}
}

// Block waits until the asking context is done, like a user who never
// answers.
func Block() Answer { return nil }

// ErrNoAnswer is returned when the script has run out of answers.
var ErrNoAnswer = errors.New("elicittest: no scripted answer left")

// Asker replays scripted answers in order and records every request,
// and every Decision the runtime reports about the answers (Decisions).
type Asker struct {
	mu        sync.Mutex
	answers   []Answer
	requests  []*runtime.Request
	decisions []*runtime.Decision
	// Version is the protocol version whose schema encoding requests are
	// checked with ("" for the latest).
	Version string
	// Language is the user's language preference the asker carries, as an
	// adapter's does for a request (a BCP 47 tag or an Accept-Language
	// list): asks without runtime.WithLocale are translated to it, and
	// runtime.LanguagePreference returns it.
	Language string
	// Refuse, when set, is the error Decided returns for a Decision it
	// reports true for: a test plays a hook that refuses to let an
	// answer through (the ask then fails with runtime.ErrDecisionRefused,
	// and the handler gets no answer).
	Refuse func(d *runtime.Decision) error
}

// Decided records d (see runtime.Asker), and returns Refuse's error when
// Refuse is set.
func (a *Asker) Decided(_ context.Context, d *runtime.Decision) error {
	a.mu.Lock()
	a.decisions = append(a.decisions, d)
	refuse := a.Refuse
	a.mu.Unlock()
	if refuse != nil {
		return refuse(d)
	}
	return nil
}

// Decisions returns the runtime's decisions about the answers so far, in
// order: one per answer, accepted, declined, cancelled or invalid. A
// test asserts on them what an audit record or a receipt would say:
// Decision.Action after confirm, Unconfirmed, Invalid by the form's
// property names, Audit.
func (a *Asker) Decisions() []*runtime.Decision {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]*runtime.Decision(nil), a.decisions...)
}

// LanguagePreference returns Language (see runtime.Asker).
func (a *Asker) LanguagePreference() string { return a.Language }

// New returns an Asker that gives the answers in order.
func New(answers ...Answer) *Asker { return &Asker{answers: answers} }

// Requests returns the requests asked so far.
func (a *Asker) Requests() []*runtime.Request {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]*runtime.Request(nil), a.requests...)
}

// ProtocolVersion returns Version, or the latest version when it is
// empty (see runtime.Asker): AskChoices asks a 2025-06-18 Asker
// with one checkbox per option, as it would a real client.
func (a *Asker) ProtocolVersion() string {
	if a.Version == "" {
		return runtime.LatestVersion
	}
	return a.Version
}

// CheckAsk reports whether a form request can be encoded for Version
// (see runtime.Asker), so that runtime.CanAsk sees what Ask would.
func (a *Asker) CheckAsk(req *runtime.Request) error {
	if req == nil || req.Mode != runtime.ModeForm || req.Schema == nil {
		return nil
	}
	_, err := req.Schema.JSON(a.ProtocolVersion())
	return err
}

// Ask implements runtime.Asker.
func (a *Asker) Ask(ctx context.Context, req *runtime.Request) (*runtime.Response, error) {
	if req.Mode == runtime.ModeForm {
		if req.Schema == nil {
			return nil, errors.New("elicittest: form request without schema")
		}
		b, err := req.Schema.JSON(a.ProtocolVersion())
		if err != nil {
			return nil, err
		}
		if !json.Valid(b) {
			return nil, fmt.Errorf("elicittest: schema encodes to invalid JSON: %s", b)
		}
	}
	a.mu.Lock()
	a.requests = append(a.requests, req)
	if len(a.answers) == 0 {
		a.mu.Unlock()
		return nil, ErrNoAnswer
	}
	next := a.answers[0]
	a.answers = a.answers[1:]
	a.mu.Unlock()
	if next == nil {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	resp, err := next(req)
	if err != nil || resp == nil {
		return resp, err
	}
	return roundTrip(resp)
}

// roundTrip passes resp through JSON as a client's reply would.
func roundTrip(resp *runtime.Response) (*runtime.Response, error) {
	b, err := json.Marshal(struct {
		Action  runtime.Action `json:"action"`
		Content map[string]any `json:"content,omitempty"`
	}{resp.Action, resp.Content})
	if err != nil {
		return nil, fmt.Errorf("elicittest: answer does not encode: %w", err)
	}
	var out struct {
		Action  runtime.Action `json:"action"`
		Content map[string]any `json:"content"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, err
	}
	return &runtime.Response{Action: out.Action, Content: out.Content}, nil
}
