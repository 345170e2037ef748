package adapter

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/deliver"
	"github.com/elicitgen/elicitgen/runtime/internal/wire"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// This file routes form questions to the hosted pages (runtime/page) when
// the rendering chosen for them is RenderingURLPage or RenderingLink.

// renderChoice is the rendering chosen for a question, and why.
type renderChoice struct {
	r   runtime.Rendering
	why string
}

// route chooses the rendering of the form question req under key and
// records it for the observer. A page rendering (url-page, link) is asked
// by askPage; an override the client cannot take is an unavailable error.
// It runs with x.mu held.
func (x *Exchange) route(key string, req *runtime.Request) (runtime.Rendering, string, error) {
	if req.Mode != runtime.ModeForm || x.pages == nil && req.Rendering == runtime.RenderingAuto && x.obs == nil {
		// Without pages, an override or an observer, the question is
		// asked as before: no choice to make or report.
		return runtime.RenderingAuto, "", nil
	}
	c := x.call
	r, why := deliver.ChooseRendering(deliver.RenderingInput{
		Version: c.Version, Form: c.Caps.Form, URL: c.Caps.URL,
		ClientName: c.ClientName, ClientVersion: c.ClientVersion,
		App: x.formApps && c.Caps.App, Pages: x.pages != nil, Schema: req.Schema, Override: req.Rendering,
	})
	if r == runtime.RenderingAuto && req.Rendering != runtime.RenderingAuto {
		err := x.unavailable(req, why)
		if x.obs != nil {
			x.outcome(x.obs.ctx, x.question(runtime.EventAsked, key, req, x.attempt(key)), req, nil, err)
		}
		return r, why, err
	}
	if x.obs == nil {
		return r, why, nil
	}
	x.rmu.Lock()
	if x.renders == nil {
		x.renders = make(map[string]renderChoice, 1)
	}
	x.renders[key] = renderChoice{r, why}
	x.rmu.Unlock()
	return r, why, nil
}

// rendering returns the rendering recorded for key.
func (x *Exchange) rendering(key string) (runtime.Rendering, string) {
	x.rmu.Lock()
	defer x.rmu.Unlock()
	c := x.renders[key]
	return c.r, c.why
}

func onPage(r runtime.Rendering) bool {
	return r == runtime.RenderingURLPage || r == runtime.RenderingLink
}

// askPage asks req under key on its hosted page. x.mu is not held.
func (x *Exchange) askPage(ctx context.Context, key string, req *runtime.Request, r runtime.Rendering) (*runtime.Response, error) {
	x.mu.Lock()
	b := x.binding()
	x.mu.Unlock()
	var resp *runtime.Response
	var err error
	switch {
	case r == runtime.RenderingLink:
		resp, err = x.askLink(ctx, key, req, b)
	case x.era.MultiRoundTrip():
		resp, err = x.askURLPageModern(ctx, key, req, b)
	default:
		resp, err = x.askURLPagePush(ctx, key, req, b)
	}
	if x.obs != nil {
		x.observePage(ctx, key, req, resp, err)
	}
	return resp, err
}

// pageQuestion returns the page question of req under key for the call b
// (id "": a new page).
func pageQuestion(key string, req *runtime.Request, b seal.Binding, id string) *page.Question {
	q := page.QuestionFor(req, b)
	q.Key, q.ID = key, id
	return q
}

func pageErr(op string, err error) error {
	if errors.Is(err, page.ErrStore) {
		return fmt.Errorf("%w: %s: %w", deliver.ErrPageStore, op, err)
	}
	return fmt.Errorf("elicit: hosted page: %s: %w", op, err)
}

// askLink asks req on a page whose link the tool result carries, or takes
// the answer given on the page an earlier call of the same call (tool,
// arguments, principal) issued.
func (x *Exchange) askLink(ctx context.Context, key string, req *runtime.Request, b seal.Binding) (*runtime.Response, error) {
	p := x.pages
	if req.Attempt == 0 {
		id, err := p.Find(ctx, b, key)
		switch {
		case err == nil:
			resp, terr := p.Take(ctx, id, b)
			switch {
			case terr == nil:
				return resp, nil
			case errors.Is(terr, page.ErrNotAnswered):
				link, ierr := p.Issue(ctx, pageQuestion(key, req, b, id))
				if ierr == nil {
					return nil, x.addLink(&deliver.LinkRequiredError{Key: key, Link: link, Message: req.Message, StillOpen: true})
				}
				if errors.Is(ierr, page.ErrStore) {
					return nil, pageErr("issue", ierr)
				}
			case errors.Is(terr, page.ErrStore):
				return nil, pageErr("take", terr)
			}
			// Taken, expired or gone: a new page.
		case !errors.Is(err, page.ErrNotFound):
			return nil, pageErr("find", err)
		}
	}
	link, err := p.Issue(ctx, pageQuestion(key, req, b, ""))
	if err != nil {
		return nil, pageErr("issue", err)
	}
	return nil, x.addLink(&deliver.LinkRequiredError{Key: key, Link: link, Message: req.Message})
}

func (x *Exchange) addLink(e *deliver.LinkRequiredError) error {
	x.mu.Lock()
	x.links = append(x.links, e)
	x.mu.Unlock()
	return e
}

// stillOpen is added to the message of a URL-mode request sent again
// because its page is not answered yet.
const stillOpen = "The page is still open: answer the form there, then come back and accept."

// askURLPageModern asks req on its page through a 2026-07-28 URL-mode
// input request, and on the retry takes the page's answer by the flow id
// sealed in requestState.
func (x *Exchange) askURLPageModern(ctx context.Context, key string, req *runtime.Request, b seal.Binding) (*runtime.Response, error) {
	x.mu.Lock()
	if x.needClaim && !x.claimed {
		x.mu.Unlock()
		return nil, errUnclaimed
	}
	if r, ok := x.state.Answer(key); ok {
		x.mu.Unlock()
		return r, nil
	}
	flow := x.state.Flows[key]
	asked := x.call.State != "" && x.state.WasAsked(key)
	reply := x.call.Responses[key]
	x.mu.Unlock()
	if flow != "" && asked && req.Attempt == 0 {
		if reply != nil && reply.Action != runtime.ActionAccept {
			// The person would not open the page.
			x.keepAnswer(key, &runtime.Response{Action: reply.Action})
			return &runtime.Response{Action: reply.Action}, nil
		}
		resp, err := x.pages.Take(ctx, flow, b)
		switch {
		case err == nil:
			x.keepAnswer(key, resp)
			return resp, nil
		case errors.Is(err, page.ErrNotAnswered):
			link, ierr := x.pages.Issue(ctx, pageQuestion(key, req, b, flow))
			if ierr != nil {
				return nil, pageErr("issue", ierr)
			}
			msg := stillOpen
			if req.Message != "" {
				msg = req.Message + "\n\n" + stillOpen
			}
			return nil, x.pendingURL(key, msg, link, flow)
		case errors.Is(err, page.ErrTaken):
			return nil, fmt.Errorf("%w (flow %s)", deliver.ErrPageAnswerTaken, flow)
		case errors.Is(err, page.ErrStore):
			return nil, pageErr("take", err)
		}
		// Expired or gone: a new page.
	}
	id := wire.NewID()
	link, err := x.pages.Issue(ctx, pageQuestion(key, req, b, id))
	if err != nil {
		return nil, pageErr("issue", err)
	}
	return nil, x.pendingURL(key, req.Message, link, id)
}

// keepAnswer keeps the page's answer under key in the sealed state, for
// the later rounds of the call.
func (x *Exchange) keepAnswer(key string, resp *runtime.Response) {
	x.mu.Lock()
	x.state.Answers[key] = resp
	x.mu.Unlock()
}

// pendingURL records the URL-mode request that opens link under key.
func (x *Exchange) pendingURL(key, message string, link *page.Link, flow string) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.state.Flows[key] = flow
	return x.addPending(key, &runtime.Request{Mode: runtime.ModeURL, Message: message, URL: link.URL, ElicitationID: flow})
}

// pagePoll is how often a 2025-11-25 URL-mode ask looks for its page's
// answer.
const pagePoll = 250 * time.Millisecond

// askURLPagePush asks req on its page through a 2025-11-25 URL-mode
// elicitation/create, waits for the page's answer (bounded by ctx and the
// page's expiry), then tells the client the flow is complete.
func (x *Exchange) askURLPagePush(ctx context.Context, key string, req *runtime.Request, b seal.Binding) (*runtime.Response, error) {
	if x.call.Push == nil {
		return nil, x.unavailable(req, "the adapter has no way to send elicitation/create")
	}
	id := wire.NewID()
	link, err := x.pages.Issue(ctx, pageQuestion(key, req, b, id))
	if err != nil {
		return nil, pageErr("issue", err)
	}
	open, err := x.call.Push.Ask(ctx, &runtime.Request{Mode: runtime.ModeURL, Message: req.Message, URL: link.URL, ElicitationID: id})
	if err != nil {
		return nil, err
	}
	if open.Action != runtime.ActionAccept {
		return &runtime.Response{Action: open.Action}, nil
	}
	stop := func() {}
	if x.call.KeepAlive != nil {
		stop = x.call.KeepAlive(ctx) // the person's time, not the tool's
	}
	resp, err := x.pages.Wait(ctx, id, b, pagePoll)
	stop()
	switch {
	case err == nil:
		if x.call.Complete != nil {
			// The answer is taken: a failed notification changes nothing
			// the handler gets.
			_ = x.call.Complete(ctx, id)
		}
		return resp, nil
	case errors.Is(err, page.ErrExpired):
		return nil, fmt.Errorf("%w: the page closed at %s unanswered", runtime.ErrTimeout, link.Expires.UTC().Format(time.RFC3339))
	case ctx.Err() != nil:
		return nil, ctx.Err()
	}
	return nil, pageErr("take", err)
}

// observePage reports a question asked on its page and its outcome.
func (x *Exchange) observePage(ctx context.Context, key string, req *runtime.Request, resp *runtime.Response, err error) {
	x.mu.Lock()
	attempt := x.attempt(key)
	x.mu.Unlock()
	e := x.question(runtime.EventAsked, key, req, attempt)
	e.Asked = true
	var le *deliver.LinkRequiredError
	var ire *runtime.InputRequiredError
	switch {
	case errors.As(err, &le), errors.As(err, &ire):
		x.obs.obs.Observe(ctx, e)
		if ire != nil {
			x.obs.mu.Lock()
			x.obs.emitted++
			x.obs.mu.Unlock()
		}
		return
	}
	x.outcome(ctx, e, req, resp, err)
}

// Links returns the questions of this call waiting on pages whose links
// the tool result carries (RenderingLink), in the order asked.
func (x *Exchange) Links() []*deliver.LinkRequiredError {
	x.mu.Lock()
	defer x.mu.Unlock()
	return append([]*deliver.LinkRequiredError(nil), x.links...)
}
