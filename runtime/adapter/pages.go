package adapter

import (
	"context"
	"errors"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/deliver"
)

// This file hands questions whose rendering is not the client's own form
// to their delivery (runtime/deliver).

// route chooses the rendering of the form question req under key, records
// it, and returns the delivery that asks it off the client's own form
// (nil: the client's form asks it); an override the client cannot take is
// an unavailable error. It runs with x.mu held.
func (x *Exchange) route(ctx context.Context, key string, req *runtime.Request) (deliver.Delivery, error) {
	if req.Mode == runtime.ModeForm && (req.Approvers != nil || req.StepUp) {
		if d, err := x.routeApproval(ctx, key, req); d != nil || err != nil {
			return d, err
		}
	}
	if req.Mode == runtime.ModeURL && x.routes.Pages != nil {
		// A URL flow the client cannot open goes out as its link.
		var ue *runtime.UnavailableError
		if errors.As(x.checkCaps(req), &ue) {
			return x.routes.FlowLink(key, ue.Reason+"; the tool result carries the flow's link"), nil
		}
	}
	if req.Mode != runtime.ModeForm || x.routes.Pages == nil && req.Rendering == runtime.RenderingAuto && x.routes.Policy == runtime.RenderingAuto && x.obs == nil {
		// Without pages, an override or an observer, the question is
		// asked as before: no choice to make or report.
		return nil, nil
	}
	c := x.call
	d, err := x.routes.Route(key, req, deliver.RenderingInput{
		Version: c.Version, Form: c.Caps.Form, URL: c.Caps.URL,
		ClientName: c.ClientName, ClientVersion: c.ClientVersion,
		App: c.Caps.App, Schema: req.Schema, Override: req.Rendering,
	})
	if err != nil && x.obs != nil {
		x.outcome(x.obs.ctx, x.question(runtime.EventAsked, key, req, x.attempt(key)), req, nil, err)
	}
	return d, err
}

// routeApproval routes a question asked with runtime.WithApprovers. The
// client's own form (and a task update, which reruns the call as its
// requester) answers as the call's principal, so it may answer only when
// the policy's one check (runtime.Approvers.Admit) admits the requester
// and one approval is enough: then it returns nil and the question is
// routed as any other. Otherwise the question goes to the hosted page,
// whose link the tool result carries for the requester to pass on
// (runtime.RenderingLink), and which admits each approver by the same
// check; without pages it is unavailable. A question asked with
// runtime.WithStepUp always goes to the page, where the passkey is
// checked, whoever may answer it. It runs with x.mu held.
func (x *Exchange) routeApproval(ctx context.Context, key string, req *runtime.Request) (deliver.Delivery, error) {
	p := req.Approvers
	var member runtime.MemberFunc
	if x.routes.Pages != nil {
		member = x.routes.Pages.Member()
	}
	admitErr := p.Admit(ctx, x.call.Principal, x.call.Principal, member)
	if admitErr == nil && p.Need() == 1 && !req.StepUp {
		return nil, nil
	}
	why := "WithStepUp: needs a passkey on the hosted page"
	if p != nil {
		why = "WithApprovers: needs " + p.Who()
	}
	if admitErr != nil && x.call.Principal != "" {
		why += "; the requester cannot answer"
	}
	who := "the approvers"
	if p == nil {
		who = "the passkey step-up"
	}
	var err error
	switch {
	case x.routes.Pages == nil:
		err = &approvalUnavailable{x.unavailable(req, why+", and the server serves no hosted pages for "+who).(*runtime.UnavailableError)}
	case x.call.Principal == "":
		err = &approvalUnavailable{x.unavailable(req, why+", and the call names no principal to tell the requester from the approvers").(*runtime.UnavailableError)}
	}
	if err != nil {
		if x.obs != nil {
			x.outcome(x.obs.ctx, x.question(runtime.EventAsked, key, req, x.attempt(key)), req, nil, err)
		}
		return nil, err
	}
	return x.routes.Approval(key, why+"; the tool result carries the page's link"), nil
}

// rendering returns the rendering recorded for key.
func (x *Exchange) rendering(key string) (runtime.Rendering, string) { return x.routes.Rendering(key) }

// deliver asks req under key with d. x.mu is not held.
func (x *Exchange) deliver(ctx context.Context, key string, req *runtime.Request, d deliver.Delivery) (*runtime.Response, error) {
	x.mu.Lock()
	q := &deliver.Question{Key: key, Request: req, Call: x.binding(), Language: x.call.Language, Client: ReplayClient(x.call), Wait: x.wait(req)}
	r := &deliver.Round{Era: x.era, Peer: x.call.Peer, Flow: x.state.Flows[key], Reply: x.call.Responses[key],
		Asked: x.call.State != "" && x.state.WasAsked(key), Record: record{x}}
	if x.needClaim && !x.claimed {
		r.Unclaimed = errUnclaimed
	}
	if a, ok := x.state.Answer(key); ok {
		r.Answer = a
		x.noteReplayed(key)
	}
	x.mu.Unlock()
	resp, err := d.Deliver(ctx, r, q)
	x.routes.Note(err)
	if x.obs == nil {
		return resp, err
	}
	// Report the question asked, and its outcome once there is one.
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
	default:
		x.outcome(ctx, e, req, resp, err)
	}
	return resp, err
}

// record is the deliver.Recorder of an exchange.
type record struct{ x *Exchange }

// Keep implements deliver.Recorder.
func (r record) Keep(key string, resp *runtime.Response) {
	r.x.mu.Lock()
	r.x.state.Answers[key] = resp
	r.x.mu.Unlock()
}

// Pend implements deliver.Recorder.
func (r record) Pend(key string, req *runtime.Request) error {
	r.x.mu.Lock()
	defer r.x.mu.Unlock()
	r.x.state.Flows[key] = req.ElicitationID
	return r.x.addPending(key, req)
}

// Links returns the questions of this call waiting on pages whose links
// the tool result carries (RenderingLink), in the order asked.
func (x *Exchange) Links() []*deliver.LinkRequiredError { return x.routes.Links() }

// approvalUnavailable is the error of a question asked with
// runtime.WithApprovers that no approver can reach: it matches
// runtime.ErrUnavailable and runtime.ErrNotApprover, and is never a
// missing client capability (no capability would let the requester
// approve it).
type approvalUnavailable struct{ *runtime.UnavailableError }

func (e *approvalUnavailable) Unwrap() []error {
	return []error{e.UnavailableError, runtime.ErrNotApprover}
}

// approvalText is the tool result of a call whose approval no approver
// can reach.
func approvalText(err error) string {
	var ue *runtime.UnavailableError
	errors.As(err, &ue)
	reason := "it needs approvers this server cannot reach"
	if ue != nil {
		reason = ue.Reason
	}
	return "Nothing was done: this action needs approval by someone else (" + reason + "). " +
		"Nobody can approve it through this client. Do not answer or guess for the approvers; tell the person who asked.\n"
}
