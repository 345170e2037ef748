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
// 2025-11-25 an elicitation/create the call waits on.
type URLPage struct {
	// Pages issue the page and keep its answer.
	Pages *page.Pages
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
			link, ierr := d.Pages.Issue(ctx, pageQuestion(q, flow))
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
	link, err := d.Pages.Issue(ctx, pageQuestion(q, id))
	if err != nil {
		return nil, pageErr("issue", err)
	}
	return nil, r.Record.Pend(q.Key, &runtime.Request{Mode: runtime.ModeURL, Message: req.Message, URL: link.URL, ElicitationID: id})
}

// pagePoll is how often a 2025-11-25 URL-mode ask looks for its page's
// answer.
const pagePoll = 250 * time.Millisecond

// push asks q through a 2025-11-25 URL-mode elicitation/create, waits for
// the page's answer (bounded by ctx and the page's expiry), then tells the
// client the flow is complete.
func (d *URLPage) push(ctx context.Context, r *Round, q *Question) (*runtime.Response, error) {
	req := q.Request
	if r.Push == nil {
		return nil, unavailable(req, "the adapter has no way to send elicitation/create")
	}
	id := wire.NewID()
	link, err := d.Pages.Issue(ctx, pageQuestion(q, id))
	if err != nil {
		return nil, pageErr("issue", err)
	}
	open, err := r.Push.Ask(ctx, &runtime.Request{Mode: runtime.ModeURL, Message: req.Message, URL: link.URL, ElicitationID: id})
	if err != nil || open.Action != runtime.ActionAccept {
		// The client ended the flow: so is any answer given on the page.
		action := runtime.ActionCancel
		if err == nil {
			action = open.Action
		}
		if verr := d.Pages.Void(context.WithoutCancel(ctx), id, q.Call, action); verr != nil && err == nil {
			return nil, pageErr("void", verr)
		}
		if err != nil {
			return nil, err
		}
		return &runtime.Response{Action: open.Action}, nil
	}
	stop := func() {}
	if r.KeepAlive != nil {
		stop = r.KeepAlive(ctx) // the person's time, not the tool's
	}
	resp, err := d.Pages.Wait(ctx, id, q.Call, pagePoll)
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
	case ctx.Err() != nil:
		// The call ended while the page was open: no later call takes
		// an answer given on it.
		_ = d.Pages.Void(context.WithoutCancel(ctx), id, q.Call, runtime.ActionCancel)
		return nil, ctx.Err()
	}
	return nil, pageErr("take", err)
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
