package adapter

import (
	"context"
	"errors"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// Options are the settings of an SDK adapter that do not depend on its
// SDK, documented here once: gosdk.Config and mcpgo.Config embed them
// (as slog's handlers share slog.HandlerOptions), and so should the
// Config of an adapter for another SDK. Its methods run the exchange of
// one call (Start, Claim, Finish): an adapter copies its Config's
// Options, sets Replay to the store it resolved (DefaultReplay), and
// translates only its SDK's types.
//
//	cfg := &gosdk.Config{Options: adapter.Options{Keys: keys, Observer: obs}}
//
// Options must not change once a Config that holds them is in use.
type Options struct {
	// Keys seal the requestState of 2026-07-28 requests. Required (the
	// adapters' wrappers panic without it). Every instance of a
	// stateless deployment needs the same ring.
	Keys *seal.KeyRing
	// StateTTL bounds how long a sealed state stays valid; zero means
	// seal.DefaultStateTTL. A question asked with runtime.WithWait stays
	// open that long instead, up to MaxWait.
	StateTTL time.Duration
	// MaxWait caps runtime.WithWait; zero means DefaultMaxWait, and
	// nothing waits longer than DefaultMaxWait.
	MaxWait time.Duration
	// Unavailable chooses what a handler failure matching
	// runtime.ErrUnavailable becomes. The default (UnavailableAuto) is
	// JSON-RPC -32021 with requiredCapabilities on 2026-07-28 requests
	// and a tool error telling the model what to ask on older ones;
	// UnavailablePassThrough returns the handler's error. An adapter
	// whose SDK cannot send -32021 with data (mcpgo) narrows
	// UnavailableAuto and UnavailableMissingCapability to the tool error.
	Unavailable runtime.UnavailablePolicy
	// AskErrors chooses what any other failed ask becomes: by default
	// (AskErrorsToolError) a tool result with isError whose text tells
	// the model what happened and what to do next ("The user did not
	// answer within 2m: ask again later", "The answer was invalid:
	// ..."); AskErrorsJSONRPC makes an invalid answer JSON-RPC -32602
	// and returns other failures as the handler's error. Protocol errors
	// (a bad requestState, malformed inputResponses) are always -32602.
	// Prompts, which have no isError, keep JSON-RPC errors.
	AskErrors runtime.AskErrorPolicy
	// Now is the clock of state expiry; nil means time.Now.
	Now func() time.Time
	// Observer receives the events of every ask of the wrapped tools and
	// prompts (asked, answered, invalid, timed out, unavailable, state
	// refused, call end); nil means none, at no cost.
	// runtime.NewLogObserver writes them as an audit log;
	// runtime/otelelicit records them with OpenTelemetry. See
	// observe.go.
	Observer runtime.Observer
	// Replay spends every 2026-07-28 requestState that carries answers
	// into a handler (Exchange.Claim), so that a state is used once: a
	// second request with it is refused (call the tool again and be
	// asked again), and concurrent ones run the handler at most once. A
	// failing store refuses the request (-32603).
	//
	// Nil in a Config means an in-memory store (seal.NewMemoryReplayStore)
	// shared by the tools of that Config: right for one process; give
	// every instance of a deployment one shared store
	// (runtime/redisstore). An adapter keeps that store in its Config
	// (DefaultReplay) and sets Replay to it in the Options it runs a
	// call with; Claim with a nil Replay fails closed.
	Replay seal.ReplayStore
	// AcceptUnasked counts a 2026-07-28 answer that arrives before this
	// server asked its question (a first call already carrying
	// inputResponses). By default an answer counts only if this server
	// issued the question earlier in the call, in a sealed requestState:
	// otherwise a client could approve before any person saw the form.
	// Set it only where a client is trusted to answer unasked (the
	// official conformance suite's ignore-extra-params scenario expects
	// it); runtime.WithAskedFirst still applies per ask.
	AcceptUnasked bool
	// Pages, when set, serve forms as hosted pages (runtime/page) to the
	// people whose client cannot show them: a client with URL mode only,
	// or one whose known limits cannot fill the form, gets a URL-mode
	// request to the page; a client without elicitation gets a tool
	// result with the page's link, and the same call made again takes
	// the answer (see ChooseRendering). Mount Pages on the server's mux
	// under the path of its BaseURL (the adapters' NewHTTPHandler does,
	// with serve.Options.Pages). Its Identity must read the same person
	// that the adapter's Principal reads (the adapters'
	// IdentityPrincipal builds Principal from it). Nil means no pages:
	// such clients are not asked (Unavailable).
	Pages *page.Pages
	// ProgressInterval is how often a 2025-era call that carries a
	// progressToken is sent notifications/progress while the person
	// answers a form, so that a client which resets its timeout on
	// progress keeps the form open: zero means DefaultProgressInterval,
	// a negative value none (see ProgressInterval, the function).
	ProgressInterval time.Duration
	// PageHold is how long a 2025-era call whose question went to the
	// hosted page in URL mode (runtime.RenderingURLPage) holds its
	// request for the person's answer, from the elicitation/create that
	// sends them there: zero means deliver.DefaultPageHold (50 s, within
	// the 60 s a client times a request out by default), a negative value
	// until the page closes (for clients known to reset their timeout on
	// progress; the call then holds a goroutine and a connection for the
	// person's time). When the hold ends the call returns the page's link
	// and tells the model to call again with the same arguments once the
	// person has answered; the page stays open and keeps the answer, and
	// that call takes it, as for runtime.RenderingLink. A client that
	// gives up earlier leaves the page open the same way.
	PageHold time.Duration
	// FormApps renders forms as an MCP App for clients that declare
	// app-rendered elicitation (SEP-3118, draft; ClientCaps.App): their
	// form requests carry _meta.ui.resourceUri naming the form app,
	// which the adapter serves (gosdk.AddFormApp, mcpgo.AddFormApp), and
	// the server must advertise the extension; the rendering is then
	// reported as runtime.RenderingApp. The answer is validated as any
	// other; a client without the extension gets the same request and
	// shows its own form.
	FormApps bool
	// Rendering is the server-wide rendering of every form question whose
	// ask names none (runtime.WithRendering still wins):
	// runtime.RenderingURLPage or runtime.RenderingLink send every person
	// to the hosted page (Pages must be set), for a deployment behind a
	// gateway that passes the client's elicitation capability on but
	// cannot relay a request to it. A client that cannot take the forced
	// rendering is not asked (Unavailable). runtime.RenderingAuto, the
	// default, chooses per client (deliver.ChooseRendering).
	Rendering runtime.Rendering
	// Record, when set, is called once for every question the runtime
	// decides (accepted, declined or cancelled, confirm applied; not an
	// answer that failed validation), before the handler sees the answer,
	// on every era and rendering: the one place a signed receipt is
	// written (runtime/receipt). An error keeps the answer from the
	// handler: AskT fails with it (matching runtime.ErrDecisionRefused),
	// so nothing runs on an approval whose record was not kept.
	Record func(ctx context.Context, q Decided) error
}

// DefaultMaxWait is the longest a question can stay open
// (runtime.WithWait): 30 days.
const DefaultMaxWait = 30 * 24 * time.Hour

// maxWait returns MaxWait, within DefaultMaxWait.
func (s *Options) maxWait() time.Duration {
	if s.MaxWait <= 0 || s.MaxWait > DefaultMaxWait {
		return DefaultMaxWait
	}
	return s.MaxWait
}

// Claim spends the state of x in the options' replay store when it
// carries answers (Exchange.Claim). Adapters call it right after Start,
// with the request's context.
func (s *Options) Claim(ctx context.Context, x *Exchange) error {
	err := x.Claim(ctx, s.Replay)
	if err != nil {
		x.observeRefused(err)
	}
	return err
}

// clock returns Now, or time.Now without one: the one clock of the
// exchange's deadlines and audit times.
func (s *Options) clock() func() time.Time {
	if s.Now != nil {
		return s.Now
	}
	return time.Now
}

// Sealer returns the sealer of the options' key ring, TTL and clock.
func (s *Options) Sealer() *seal.Sealer {
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
func (s *Options) Start(c *Call, state string, responses map[string]*runtime.Response, malformed map[string]string, push runtime.Asker) (*Exchange, error) {
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
		x.routes.Pages, x.routes.FormApps, x.routes.Policy, x.routes.Hold = s.Pages, s.FormApps, s.Rendering, s.PageHold
		x.recorder, x.started, x.maxWait = s.Record, x.now(), s.maxWait()
	}
	s.observeStart(c, x, err)
	return x, err
}

// Finish decides what the adapter sends once the handler returned
// handlerErr: Exchange.Reply with the Unavailable policy, then, under
// AskErrorsToolError, an ask failure that is not a protocol error
// (AskFailureText) becomes a tool error the model can act on.
func (s *Options) Finish(x *Exchange, handlerErr error) Reply {
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
