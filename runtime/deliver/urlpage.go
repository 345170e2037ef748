package deliver

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/internal/wire"
	"github.com/elicitgen/elicitgen/runtime/page"
)

// URLPage asks a question on a hosted page through a URL-mode request
// (runtime.RenderingURLPage): on 2026-07-28 an input request, whose retry
// takes the page's answer by the flow id sealed in requestState; on
// 2025-11-25 an elicitation/create the call waits on for a bounded time
// (Hold), after which the page keeps the answer for the same call made
// again.
type URLPage struct {
	// Pages issue the page and keep its answer.
	Pages *page.Pages
	// Hold is how long a 2025-era ask holds its call for the page's
	// answer (see push): DefaultPageHold when zero; a negative Hold
	// holds until the page closes (for clients known to reset their
	// timeout on progress).
	Hold time.Duration
}

// Deliver implements Delivery.
func (d *URLPage) Deliver(ctx context.Context, r *Round, q *Question) (*runtime.Response, error) {
	if r.Era.MultiRoundTrip() {
		return d.modern(ctx, r, q)
	}
	return d.push(ctx, r, q)
}

// stillOpen is added to the message of a URL-mode request sent again
// because its page is not answered yet.
const stillOpen = "The page is still open: answer the form there, then come back and accept."

// modern asks q through a 2026-07-28 URL-mode input request, and on the
// retry takes the page's answer by the flow id sealed in requestState.
func (d *URLPage) modern(ctx context.Context, r *Round, q *Question) (*runtime.Response, error) {
	switch {
	case r.Unclaimed != nil:
		return nil, r.Unclaimed
	case r.Answer != nil:
		return r.Answer, nil
	}
	req, flow := q.Request, r.Flow
	if flow != "" && r.Asked && req.Attempt == 0 {
		if r.Reply != nil && r.Reply.Action != runtime.ActionAccept {
			// The person would not open the page: the flow is over, and
			// so is any answer given on the page.
			if err := d.Pages.Void(ctx, flow, q.Call, r.Reply.Action); err != nil {
				return nil, pageErr("void", err)
			}
			r.Record.Keep(q.Key, &runtime.Response{Action: r.Reply.Action})
			return &runtime.Response{Action: r.Reply.Action}, nil
		}
		resp, err := d.Pages.Take(ctx, flow, q.Call)
		switch {
		case err == nil:
			r.Record.Keep(q.Key, resp)
			return resp, nil
		case errors.Is(err, page.ErrNotAnswered):
			link, ierr := d.Pages.Issue(ctx, continued(q, flow))
			if ierr != nil {
				return nil, pageErr("issue", ierr)
			}
			msg := stillOpen
			if req.Message != "" {
				msg = req.Message + "\n\n" + stillOpen
			}
			return nil, r.Record.Pend(q.Key, &runtime.Request{Mode: runtime.ModeURL, Message: msg, URL: link.URL, ElicitationID: flow})
		case errors.Is(err, page.ErrTaken):
			return nil, fmt.Errorf("%w (flow %s)", ErrPageAnswerTaken, flow)
		case errors.Is(err, page.ErrStore):
			return nil, pageErr("take", err)
		}
		// Expired or gone: a new page.
	}
	id := wire.NewID()
	link, err := d.Pages.Issue(ctx, continued(q, id))
	if err != nil {
		return nil, pageErr("issue", err)
	}
	return nil, r.Record.Pend(q.Key, &runtime.Request{Mode: runtime.ModeURL, Message: req.Message, URL: link.URL, ElicitationID: id})
}

// continued returns the page question of q for a 2026-07-28 URL-mode
// request: the person's client goes on with the call when they return.
func continued(q *Question, id string) *page.Question {
	pq := pageQuestion(q, id)
	pq.ClientContinues = true
	return pq
}

// pagePoll is how often a 2025-11-25 URL-mode ask looks for its page's
// answer.
const pagePoll = 250 * time.Millisecond

// DefaultPageHold is how long a 2025-era URL-mode ask holds its call for
// the page's answer when URLPage.Hold is zero: from the elicitation/create
// that sends the person to the page until the answer, within the 60 s
// request timeout clients apply by default (the TypeScript SDK's, without
// resetTimeoutOnProgress), so that the model hears what to do next
// instead of a timeout.
const DefaultPageHold = 50 * time.Second

// hold returns how long an ask holds its call: Hold, DefaultPageHold for
// zero, and 0 (until the page closes) for a negative Hold.
func (d *URLPage) hold() time.Duration {
	switch {
	case d.Hold == 0:
		return DefaultPageHold
	case d.Hold < 0:
		return 0
	}
	return d.Hold
}

// push asks q through a 2025-11-25 URL-mode elicitation/create and waits
// for the page's answer, at most the hold (URLPage.Hold) from the request,
// then tells the client the flow is complete.
//
// The page outlives the call: when the hold ends, or the client gives up
// (its request ends, or the elicitation/create fails), the page stays
// open for its wait and keeps the answer, as a link's page does. The same
// call made again (tool, arguments, principal) takes an answer given
// meanwhile at once, or sends the person back to the same open page and
// waits again. A hold that ends with the client still there ends the call
// with the page's link (a *LinkRequiredError, Waited), whose text tells
// the model that the person can still answer and that calling again with
// the same arguments continues. Only a client that declines or cancels
// the URL-mode request ends the page (Void).
func (d *URLPage) push(ctx context.Context, r *Round, q *Question) (*runtime.Response, error) {
	req := q.Request
	if r.Push == nil {
		return nil, unavailable(req, "the adapter has no way to send elicitation/create")
	}
	id := ""
	if req.Attempt == 0 {
		// An earlier call of the same call may have sent the person to a
		// page: take its answer, or send them back to it.
		found, err := d.Pages.Find(ctx, q.Call, q.Key)
		switch {
		case err == nil:
			resp, terr := d.Pages.Take(ctx, found, q.Call)
			switch {
			case terr == nil:
				if r.Complete != nil {
					_ = r.Complete(ctx, found)
				}
				return resp, nil
			case errors.Is(terr, page.ErrNotAnswered):
				id = found
			case errors.Is(terr, page.ErrStore):
				return nil, pageErr("take", terr)
			}
			// Taken, expired or gone: a new page.
		case !errors.Is(err, page.ErrNotFound):
			return nil, pageErr("find", err)
		}
	}
	var link *page.Link
	var err error
	if id != "" {
		if link, err = d.Pages.Issue(ctx, pageQuestion(q, id)); err != nil && errors.Is(err, page.ErrStore) {
			return nil, pageErr("issue", err)
		}
		// Answered or closed since: a new page.
	}
	again := link != nil
	if link == nil {
		id = wire.NewID()
		if link, err = d.Pages.Issue(ctx, pageQuestion(q, id)); err != nil {
			return nil, pageErr("issue", err)
		}
	}
	hctx, cancel := ctx, context.CancelFunc(func() {})
	if h := d.hold(); h > 0 {
		hctx, cancel = context.WithTimeout(ctx, h)
	}
	defer cancel()
	release := d.Pages.Hold(ctx, id) // the page says the answer goes to this call
	defer release()
	held := func() (*runtime.Response, error) {
		// The hold ended, the client gave up, or its request failed: the
		// page stays open and keeps its answer for the same call made
		// again. An answer given meanwhile is this call's.
		if ctx.Err() == nil {
			switch resp, err := d.Pages.Take(ctx, id, q.Call); {
			case err == nil:
				if r.Complete != nil {
					_ = r.Complete(ctx, id)
				}
				return resp, nil
			case errors.Is(err, page.ErrExpired):
				return nil, fmt.Errorf("%w: the page closed at %s unanswered", runtime.ErrTimeout, link.Expires.UTC().Format(time.RFC3339))
			case errors.Is(err, page.ErrTaken):
				return nil, fmt.Errorf("%w (flow %s)", ErrPageAnswerTaken, id)
			case !errors.Is(err, page.ErrNotAnswered):
				return nil, pageErr("take", err)
			}
			return nil, &LinkRequiredError{Key: q.Key, Link: link, Message: req.Message, StillOpen: true, Waited: true}
		}
		return nil, ctx.Err()
	}
	msg := req.Message
	if again {
		msg = joinMessage(msg, stillOpen2025)
	}
	open, err := r.Push.Ask(hctx, &runtime.Request{Mode: runtime.ModeURL, Message: msg, URL: link.URL, ElicitationID: id})
	if err != nil {
		return held()
	}
	if open.Action != runtime.ActionAccept {
		// The person would not open the page: the flow is over, and so
		// is any answer given on it.
		if verr := d.Pages.Void(context.WithoutCancel(ctx), id, q.Call, open.Action); verr != nil {
			return nil, pageErr("void", verr)
		}
		return &runtime.Response{Action: open.Action}, nil
	}
	stop := func() {}
	if r.KeepAlive != nil {
		stop = r.KeepAlive(hctx) // the person's time, not the tool's
	}
	resp, err := d.Pages.Wait(hctx, id, q.Call, pagePoll)
	stop()
	switch {
	case err == nil:
		if r.Complete != nil {
			// The answer is taken: a failed notification changes nothing
			// the handler gets.
			_ = r.Complete(ctx, id)
		}
		return resp, nil
	case errors.Is(err, page.ErrExpired):
		return nil, fmt.Errorf("%w: the page closed at %s unanswered", runtime.ErrTimeout, link.Expires.UTC().Format(time.RFC3339))
	case errors.Is(err, page.ErrTaken):
		// The same call made at once by another request took it.
		return nil, fmt.Errorf("%w (flow %s)", ErrPageAnswerTaken, id)
	case hctx.Err() != nil:
		return held()
	}
	return nil, pageErr("take", err)
}

// stillOpen2025 is added to the message of a URL-mode request that sends
// the person back to a page an earlier call opened.
const stillOpen2025 = "The page is still open from before: answer the form there."

func joinMessage(msg, more string) string {
	if msg == "" {
		return more
	}
	return msg + "\n\n" + more
}

// PageURL adds the query parameter name=value to base (handy to put a
// flow id into a URL-mode page). It returns base unchanged if it does not
// parse.
func PageURL(base, name, value string) string {
	u, err := url.Parse(base)
	if err != nil {
		return base
	}
	q := u.Query()
	q.Set(name, value)
	u.RawQuery = q.Encode()
	return u.String()
}
