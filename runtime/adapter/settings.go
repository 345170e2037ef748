package adapter

import (
	"context"
	"errors"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// Settings are what every SDK adapter's Config holds in common: the key
// ring and clock of the sealed state and the reply policies. An adapter
// copies its Config into Settings and leaves the era rules, the sealing
// and the choice of reply to them, translating only SDK types.
type Settings struct {
	// Keys seal the requestState of 2026-07-28 requests.
	Keys *seal.KeyRing
	// StateTTL bounds how long a sealed state stays valid; zero means
	// DefaultStateTTL.
	StateTTL time.Duration
	// Unavailable chooses what a "cannot ask" failure becomes.
	Unavailable runtime.UnavailablePolicy
	// AskErrors chooses what other ask failures become.
	AskErrors runtime.AskErrorPolicy
	// Now is the clock of state expiry; nil means time.Now.
	Now func() time.Time
	// Observer receives the events of every ask; nil means none (and no
	// cost). See observe.go.
	Observer runtime.Observer
	// Replay spends each requestState that carries answers into a
	// handler (Exchange.Claim). Adapters always set it (their Config's
	// store, or an in-memory one); nil makes such requests fail closed.
	Replay seal.ReplayStore
	// AcceptUnasked counts a 2026-07-28 answer that arrives before this
	// server asked its question (in inputResponses, without a sealed
	// state that asked it). By default such an answer is ignored and the
	// question is asked: a client could otherwise approve before anyone
	// saw the form. runtime.WithAskedFirst still applies per ask.
	AcceptUnasked bool
	// Pages serve the questions whose rendering is a hosted page
	// (runtime.RenderingURLPage, runtime.RenderingLink); nil means no
	// pages, and a client that cannot render a form is not asked.
	Pages *page.Pages
	// FormApps: the adapter renders form requests as an MCP App for
	// clients that declare it (ClientCaps.App); the rendering is then
	// reported as runtime.RenderingApp.
	FormApps bool
}

// Claim spends the state of x in the settings' replay store when it
// carries answers (Exchange.Claim). Adapters call it right after Start,
// with the request's context.
func (s *Settings) Claim(ctx context.Context, x *Exchange) error {
	err := x.Claim(ctx, s.Replay)
	if err != nil {
		x.observeRefused(err)
	}
	return err
}

// Sealer returns the sealer of the settings' key ring, TTL and clock.
func (s *Settings) Sealer() *seal.Sealer {
	return &seal.Sealer{Keys: s.Keys, TTL: s.StateTTL, Now: s.Now}
}

// Start completes c for its era and starts its exchange: on a 2026-07-28
// call it keeps the echoed state and the answers (responses and
// malformed, as the adapter read them from inputResponses) and drops
// push; on an older call it drops those and asks through push. A state
// that fails to open is an error matching ErrInvalidState (JSON-RPC
// -32602, InvalidStateMessage). Arguments with keys equal under
// encoding/json's case folding are refused first, on every era, with an
// error matching ErrAmbiguousArguments (-32602), before any state is
// opened or issued.
func (s *Settings) Start(c *Call, state string, responses map[string]*runtime.Response, malformed map[string]string, push runtime.Asker) (*Exchange, error) {
	if err := CheckArgKeys(c.Args); err != nil {
		return nil, err
	}
	if runtime.EraOf(c.Version).MultiRoundTrip() {
		c.State, c.Responses, c.Malformed, c.Push = state, responses, malformed, nil
	} else {
		c.State, c.Responses, c.Malformed, c.Push = "", nil, nil, push
	}
	x, err := NewExchange(s.Sealer(), c)
	if x != nil {
		x.askedFirst = !s.AcceptUnasked
		x.narrowClaim()
		x.routes.Pages, x.routes.FormApps = s.Pages, s.FormApps
	}
	s.observeStart(c, x, err)
	return x, err
}

// Finish decides what the adapter sends once the handler returned
// handlerErr: Exchange.Reply with the Unavailable policy, then, under
// AskErrorsToolError, an ask failure that is not a protocol error
// (AskFailureText) becomes a tool error the model can act on.
func (s *Settings) Finish(x *Exchange, handlerErr error) Reply {
	r := x.Reply(handlerErr, s.Unavailable)
	defer func() { x.ObserveEnd(r) }()
	if s.AskErrors != runtime.AskErrorsToolError || r.Err == nil || errors.Is(r.Err, runtime.ErrUnavailable) ||
		(r.Kind != ReplyResult && r.Kind != ReplyInvalidParams) {
		return r
	}
	if text := runtime.AskFailureText(r.Err); text != "" {
		r = Reply{Kind: ReplyToolError, Text: text, Err: r.Err}
	}
	return r
}

// InitializeCaps applies the era rules to the elicitation capability a
// client declared in initialize (2025-era connections): declared says an
// "elicitation" object was present, form and url whether it named those
// modes. Versions before 2025-06-18 have no elicitation; 2025-06-18 has
// form mode only; later, {} means form only.
func InitializeCaps(version string, declared, form, url bool) ClientCaps {
	if !declared || !runtime.EraOf(version).CanElicit() {
		return ClientCaps{}
	}
	if !runtime.EraOf(version).ModeMembers() {
		return ClientCaps{Form: true}
	}
	if !form && !url {
		form = true
	}
	return ClientCaps{Form: form, URL: url}
}
