package deliver

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// A Delivery brings one question of a call to the person one way off the
// client's own form, and returns the answer, or the error that ends the
// ask. Each is one file of this package: URLPage (URL mode to a hosted
// page) and Link (the page's link in the tool result). The exchange of a
// call (runtime/adapter) takes the delivery of a question's rendering from
// For and calls Deliver without holding its locks.
type Delivery interface {
	Deliver(ctx context.Context, r *Round, q *Question) (*runtime.Response, error)
}

// For returns the delivery of rendering r on the server's hosted pages,
// or nil when r is asked on the client's own form (form, app, auto).
func For(r runtime.Rendering, pages *page.Pages) Delivery {
	switch r {
	case runtime.RenderingURLPage:
		return &URLPage{Pages: pages}
	case runtime.RenderingLink:
		return &Link{Pages: pages}
	}
	return nil
}

// Question is one question of a call, as its exchange hands it to a
// Delivery.
type Question struct {
	// Key names the question in its call: its inputRequests key.
	Key string
	// Request is the question as asked.
	Request *runtime.Request
	// Call binds the question's pages to its call: the tool, the digest of
	// its arguments and its principal.
	Call seal.Binding
	// Language is the person's language preference for the page's own
	// words.
	Language string
	// Client is the key of the call's client, whose page budget the
	// question counts against.
	Client string
	// Wait is how long the question stays open (runtime.WithWait, capped
	// by the adapter); zero means the pages' own TTL.
	Wait time.Duration
}

// Round is what a Delivery knows of the request that asks: its era, the
// client it can reach, and on 2026-07-28 what the call's sealed state and
// the client's inputResponses say of the question's key.
type Round struct {
	// Era is the rules of the request's protocol version.
	Era runtime.Era
	// Peer is what the adapter can do with the client of the request.
	Peer
	// Unclaimed is the error of reading answers from a state not spent
	// yet (2026-07-28); nil when they may be read.
	Unclaimed error
	// Answer is the key's answer kept by an earlier round; nil for none.
	Answer *runtime.Response
	// Flow is the flow id sealed for the key; "" for none.
	Flow string
	// Asked: the client echoed a state whose last round asked the key.
	Asked bool
	// Reply is the client's answer to the key in this request's
	// inputResponses; nil for none.
	Reply *runtime.Response
	// Record keeps what the delivery decides in the call's state.
	Record Recorder
}

// Peer is the client of a request as a delivery sees it: who it is, and
// what the adapter can do with it besides asking it a form: push a
// URL-mode request, tell it a flow is complete, and keep it waiting while
// a person answers out of band.
type Peer struct {
	// ClientName and ClientVersion are the client's clientInfo, for the
	// known-client profiles that choose a question's rendering
	// (ChooseRendering).
	ClientName, ClientVersion string
	// Push sends one elicitation/create to the client and waits for the
	// answer: used on 2025-06-18 and 2025-11-25 requests only; nil when
	// the adapter has none. The exchange has already checked capabilities
	// and that a form can be expressed in the request's version; Push
	// encodes Request.Schema for SchemaVersion(version) and returns the
	// client's answer.
	Push runtime.Asker
	// Complete sends notifications/elicitation/complete for a URL-mode
	// flow id (2025-11-25), once a hosted page's answer is taken; nil
	// sends nothing.
	Complete func(ctx context.Context, flowID string) error
	// KeepAlive starts sending the client progress while a person answers
	// a hosted page out of band (2025 eras; see KeepAlive) and returns
	// the func that stops it; nil sends nothing.
	KeepAlive func(ctx context.Context) (stop func())
}

// Recorder keeps in the exchange of a call what a Delivery decided, for
// the later rounds of the call (2026-07-28).
type Recorder interface {
	// Keep keeps resp as the answer of key.
	Keep(key string, resp *runtime.Response)
	// Pend records req, a URL-mode request whose ElicitationID is its
	// flow id, as the input request of key, and returns the error the ask
	// returns.
	Pend(key string, req *runtime.Request) error
}

// pageQuestion returns the page question of q (id "": a new page), with
// the person's language preference, counted against the budget of the
// call's client.
func pageQuestion(q *Question, id string) *page.Question {
	pq := page.QuestionFor(q.Request, q.Call)
	pq.Key, pq.ID, pq.Preference, pq.Client, pq.TTL = q.Key, id, q.Language, q.Client, q.Wait
	return pq
}

func pageErr(op string, err error) error {
	if errors.Is(err, page.ErrStore) {
		return fmt.Errorf("%w: %s: %w", ErrPageStore, op, err)
	}
	return fmt.Errorf("elicit: hosted page: %s: %w", op, err)
}

func unavailable(req *runtime.Request, reason string) error {
	return &runtime.UnavailableError{Reason: reason, Mode: req.Mode, Schema: req.Schema, Message: req.Message}
}
