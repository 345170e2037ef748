package runtime

import (
	"context"

	"github.com/elicitgen/elicitgen/runtime/internal/wire"
)

// URLOutcome is the answer to a URL-mode question.
type URLOutcome struct {
	// Action: accept means the user agreed to open the page, not that the
	// out-of-band step finished.
	Action Action
	// FlowID identifies the out-of-band flow: sent as elicitationId on
	// 2025-11-25 (use it with the adapter's Complete helper), and kept in
	// the sealed requestState on 2026-07-28, so it is the same in every
	// round of one tool call.
	FlowID string
}

// AskURLFlow asks the user to open the page that page builds from a flow
// id, for steps that must not pass through the client (secrets, OAuth,
// payments). Unlike AskURL, the flow id is known to the handler and,
// through an adapter's Asker, stable across the rounds of a 2026-07-28
// call, so the page and the tool can correlate the flow. The URL must
// pass the URL-mode rules (see AskURL).
func AskURLFlow(ctx context.Context, a Asker, message string, page func(flowID string) string, opts ...AskOption) (URLOutcome, error) {
	cfg, err := newAskConfig(opts)
	if err == nil && cfg.approvers != nil {
		err = errApproversURL
	}
	if err == nil && cfg.stepUp {
		err = errStepUpURL
	}
	if err != nil {
		return URLOutcome{}, askErr("url", err)
	}
	if a == nil {
		return URLOutcome{}, &UnavailableError{Reason: "no asker (nil)", Mode: ModeURL, Message: message}
	}
	var id string
	if f, ok := findAs[flowIDer](a); ok {
		id = f.NextFlowID(ctx, cfg.key)
	} else {
		id = wire.NewID()
	}
	rawURL := page(id)
	if err := wire.CheckURL(rawURL); err != nil {
		return URLOutcome{}, err
	}
	req := &Request{Mode: ModeURL, Key: cfg.key, Message: message, URL: rawURL, ElicitationID: id, AskedFirst: cfg.askedFirst, Wait: cfg.wait}
	resp, err := ask(ctx, a, req, cfg.timeout)
	if err != nil {
		return URLOutcome{}, askErr("url", err)
	}
	if err := report(ctx, a, decideAnswer(req, resp)); err != nil {
		return URLOutcome{}, askErr("url", err)
	}
	return URLOutcome{Action: resp.Action, FlowID: id}, nil
}
