package deliver

import (
	"context"
	"errors"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// FlowLink sends the person to a URL flow's own page (runtime.AskURLFlow,
// runtime.AskURL) by its link in the tool result, for a client that cannot
// open URL-mode requests: the call ends with that result (see LinkText),
// and the same call made again by the same principal goes on as if the
// client had opened the page: accept, with the same flow id (the
// exchange's NextFlowID finds it with OpenFlow). The call after that
// starts a new flow. The flow is kept in the hosted pages' store as a
// page without fields whose own link is never shown.
type FlowLink struct {
	// Pages keep the flow between the calls.
	Pages *page.Pages
}

// Deliver implements Delivery.
func (d *FlowLink) Deliver(ctx context.Context, _ *Round, q *Question) (*runtime.Response, error) {
	req := q.Request
	id, err := d.Pages.Find(ctx, q.Call, q.Key)
	switch {
	case err == nil:
		_, terr := d.Pages.Take(ctx, id, q.Call)
		switch {
		case errors.Is(terr, page.ErrNotAnswered):
			// The link went out with an earlier call, and the call is
			// made again: the flow goes on, once.
			if err := d.Pages.Void(ctx, id, q.Call, runtime.ActionAccept); err != nil {
				return nil, pageErr("void", err)
			}
			return &runtime.Response{Action: runtime.ActionAccept}, nil
		case errors.Is(terr, page.ErrStore):
			return nil, pageErr("take", terr)
		}
		// Gone on, expired or gone: a new flow.
	case !errors.Is(err, page.ErrNotFound):
		return nil, pageErr("find", err)
	}
	flow, err := d.Pages.Issue(ctx, &page.Question{ID: req.ElicitationID, Key: q.Key, Schema: &runtime.Schema{Name: q.Key},
		Message: req.Message, Language: req.Language, Call: q.Call})
	switch {
	case errors.Is(err, page.ErrStore):
		return nil, pageErr("issue", err)
	case err != nil:
		// The flow cannot be kept (no principal to bind it to, a flow id
		// pages do not take): the client cannot be sent there.
		return nil, unavailable(req, "the client cannot open URL-mode requests, and the flow's link cannot be kept: "+err.Error())
	}
	return nil, &LinkRequiredError{Key: q.Key, Link: &page.Link{ID: flow.ID, URL: req.URL, Expires: flow.Expires}, Message: req.Message, Flow: true}
}

// OpenFlow returns the flow id whose link the tool result of an earlier
// call of the call b carried for the question key, while that flow is
// open; "" when there is none, no pages, or the store cannot say.
func (rs *Routes) OpenFlow(ctx context.Context, b seal.Binding, key string) string {
	pages := rs.Pages
	if pages == nil {
		return ""
	}
	id, err := pages.Find(ctx, b, key)
	if err != nil {
		return ""
	}
	if _, err := pages.Take(ctx, id, b); !errors.Is(err, page.ErrNotAnswered) {
		return ""
	}
	return id
}
