// Package gosdk serves elicitgen forms over the official Go MCP SDK
// (github.com/modelcontextprotocol/go-sdk, v1.8 or later), on every
// protocol era, from one handler body.
//
// Wrap a tool handler with Handle (or HandleFor for typed tools, or
// HandlePrompt for a prompt) and ask generated forms with the
// runtime.Asker it receives:
//
//   - on a 2025-06-18 or 2025-11-25 connection, AskT sends
//     elicitation/create and waits for the answer;
//   - on a 2026-07-28 request, AskT finds the answer in the request's
//     inputResponses or sealed requestState, or else reports "input
//     required"; the wrapper then answers the call with resultType
//     input_required, and the client's retry runs the handler again,
//     which now gets its answer.
//
// Earlier answers of a multi-step tool ride in requestState, sealed with
// Config.Keys (AES-256-GCM under the key ring, expiry, bound to the tool, its arguments and
// the token's user). A tampered, expired or foreign state is answered
// with JSON-RPC -32602 before the handler runs. Handlers must therefore
// be safe to run again up to their last ask: do side effects after
// asking.
//
// A state that carried answers into the handler is spent (Config.Replay):
// sent again, it is refused before the handler runs, so an approval is
// used once. Arguments with keys equal under encoding/json's case folding
// are refused, and answers are read with exact keys (see ExactAnswers in
// package adapter).
//
// A stateless deployment (any instance may get the retry) needs the same
// key ring and one shared replay store (runtime/redisstore) on every
// instance.
package gosdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/elicitgen/elicitgen/runtime/deliver"
	"github.com/elicitgen/elicitgen/runtime/seal"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/serve"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Config configures the tool wrappers. One Config serves many tools; it
// must not change once in use.
//
// The settings every adapter shares (the key ring, reply policies, clock,
// observer, replay store, pages, progress and form apps) are the embedded
// adapter.Options, documented there:
//
//	cfg := &gosdk.Config{Options: adapter.Options{Keys: keys, Observer: obs}}
//
// Options.FormApps needs AddFormApp and FormAppCapabilities here.
type Config struct {
	adapter.Options

	// Principal names the authenticated user the state of a tool call is
	// bound to. Nil means the bearer token's user
	// (req.Extra.TokenInfo.UserID).
	Principal func(ctx context.Context, req *mcp.CallToolRequest) string
	// PromptPrincipal is Principal for prompts (HandlePrompt). Nil means
	// the bearer token's user; HandlePrompt panics when Principal is set
	// and PromptPrincipal is not, so that a custom principal is never
	// silently dropped.
	PromptPrincipal func(ctx context.Context, req *mcp.GetPromptRequest) string
	// Locale returns the user's language preference for a tool call or
	// prompt: a BCP 47 tag or an Accept-Language list. Asks without
	// runtime.WithLocale use it to pick a form's translation
	// (elicit.<tag>.json). Nil, or "" returned, means the request's own
	// preference, params._meta["io.modelcontextprotocol/acceptLanguage"]
	// (SEP-2792), when it carries one. See locale.go.
	Locale func(ctx context.Context, req mcp.Request) string

	defaultReplay adapter.DefaultReplay
}

// replayStore returns Replay, or the Config's in-memory store.
func (c *Config) replayStore() seal.ReplayStore {
	return c.defaultReplay.Store(c.Replay, c.Now)
}

// settings returns the Options a call runs with: the Config's, with the
// replay store resolved.
func (c *Config) settings() *adapter.Options {
	o := c.Options
	o.Replay = c.replayStore()
	return &o
}

func (c *Config) principal(ctx context.Context, req *mcp.CallToolRequest) string {
	if c.Principal != nil {
		return c.Principal(ctx, req)
	}
	return tokenUser(req.Extra)
}

// tokenUser returns the bearer token's user, or "".
func tokenUser(extra *mcp.RequestExtra) string {
	if extra != nil && extra.TokenInfo != nil {
		return extra.TokenInfo.UserID
	}
	return ""
}

// Handler is a tool handler that can ask the user through ask.
type Handler func(ctx context.Context, req *mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error)

// HandlerFor is a typed tool handler (see mcp.AddTool) that can ask the
// user through ask.
type HandlerFor[In, Out any] func(ctx context.Context, req *mcp.CallToolRequest, in In, ask runtime.Asker) (*mcp.CallToolResult, Out, error)

func mustConfig(cfg *Config) {
	if cfg == nil || cfg.Keys == nil {
		panic("gosdk: Config.Keys is required (seal.ParseKeyRing, seal.NewRandomKeyRing)")
	}
}

// Handle wraps h as an mcp.ToolHandler for (*mcp.Server).AddTool. It
// panics if cfg has no key ring.
func Handle(cfg *Config, h Handler) mcp.ToolHandler {
	mustConfig(cfg)
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		a, err := NewAsker(ctx, cfg, req)
		if err != nil {
			return nil, wireError(err)
		}
		res, err := h(ctx, req, a)
		return a.Finish(res, err)
	}
}

// HandleFor wraps h as an mcp.ToolHandlerFor for mcp.AddTool. It panics
// if cfg has no key ring.
func HandleFor[In, Out any](cfg *Config, h HandlerFor[In, Out]) mcp.ToolHandlerFor[In, Out] {
	mustConfig(cfg)
	return func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error) {
		var zero Out
		a, err := NewAsker(ctx, cfg, req)
		if err != nil {
			return nil, zero, wireError(err)
		}
		res, out, err := h(ctx, req, in, a)
		res, toolErr, err := a.finish(res, err)
		switch {
		case toolErr != "":
			// A plain error is go-sdk's isError result, sent without
			// checking the (zero) output against the output schema.
			return nil, zero, errors.New(toolErr)
		case err != nil || res.InputRequests != nil:
			return res, zero, err
		}
		return res, out, nil
	}
}

// Asker asks forms for one tool call: Ask asks, Finish turns the
// handler's result into the era-correct reply, and Handle does both for
// you. Unwrap returns the call's exchange, through which the runtime
// finds what the call knows (the person's language, the protocol
// version, the client's capabilities; see runtime.Asker), also when a
// handler wraps its Asker with runtime.Wrap.
type Asker struct {
	x   *adapter.Exchange
	cfg *Config
}

// NewAsker returns the asker for the tool call req. On a 2026-07-28
// request it opens the echoed requestState; a tampered, expired or
// foreign state fails with an error matching runtime.ErrInvalidState,
// which a raw tool handler may return as is (it carries JSON-RPC code
// -32602).
func NewAsker(ctx context.Context, cfg *Config, req *mcp.CallToolRequest) (*Asker, error) {
	if cfg == nil {
		return nil, errors.New("gosdk: nil Config")
	}
	p := req.Params
	x, err := newExchange(ctx, cfg, req, &adapter.Call{Tool: p.Name, Args: p.Arguments, Principal: cfg.principal(ctx, req), Language: cfg.language(ctx, req),
		Origin: cfg.origin(ctx, "tools/call", p.Name)}, p.RequestState, p.InputResponses)
	if err != nil {
		return nil, err
	}
	return &Asker{x: x, cfg: cfg}, nil
}

// Ask asks req of the client (see runtime.Asker).
func (a *Asker) Ask(ctx context.Context, req *runtime.Request) (*runtime.Response, error) {
	return a.x.Ask(ctx, req)
}

// Unwrap returns the call's exchange (see runtime.Wrapper).
func (a *Asker) Unwrap() runtime.Asker { return a.x }

// InputRequired returns a 2026-07-28 input_required result that asks
// the client for other kinds of input (sampling, roots) than this
// package's forms, with a requestState sealing every answer so far: for
// a handler that mixes them with forms. Call it after Finish returned a
// result without inputRequests.
func (a *Asker) InputRequired(requests mcp.InputRequestMap) (*mcp.CallToolResult, error) {
	if !a.x.Era().MultiRoundTrip() {
		return nil, fmt.Errorf("gosdk: input_required on protocol version %s", a.x.Era().Version())
	}
	state, err := a.x.SealState()
	if err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{}, InputRequests: requests, RequestState: state}, nil
}

// newExchange completes call (whose Tool, Args and Principal bind the
// sealed state) from req, a tools/call or prompts/get request with the
// echoed requestState and inputResponses, and starts its exchange. A
// state that fails to open is a *codedError with -32602.
func newExchange[P mcp.Params](ctx context.Context, cfg *Config, req *mcp.ServerRequest[P], call *adapter.Call, state string, responses mcp.InputResponseMap) (*adapter.Exchange, error) {
	call.Version = req.ProtocolVersion()
	if req.Extra != nil {
		call.Client = serve.ClientFrom(req.Extra.Header) // NewHTTPHandler's client key
	}
	call.Caps = clientCaps(req, call.Version)
	cfg.observeCall(req, call)
	if cfg.Pages != nil {
		call.ClientName, call.ClientVersion = clientInfo(req, call.Version)
		if ss := req.Session; ss != nil {
			call.Complete = func(ctx context.Context, flowID string) error { return Complete(ctx, ss, flowID) }
			if tok := req.Params.GetMeta()["progressToken"]; tok != nil {
				every := deliver.ProgressInterval(cfg.ProgressInterval)
				call.KeepAlive = func(ctx context.Context) func() {
					return deliver.KeepAlive(ctx, every, func(ctx context.Context, n int) error {
						return ss.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: float64(n), Message: deliver.ProgressMessage})
					})
				}
			}
		}
	}
	var answers map[string]*runtime.Response
	var malformed map[string]string
	if runtime.EraOf(call.Version).MultiRoundTrip() {
		// Bounded work per request: the count is checked before any entry
		// is read.
		if err := adapter.CheckInputResponses(len(responses)); err != nil {
			return nil, &codedError{err: err, code: adapter.CodeInvalidParams, msg: adapter.InvalidStateMessage(err)}
		}
		answers, malformed = inputResponses(responses)
	}
	push := &pusher{ss: req.Session, version: call.Version, progress: req.Params.GetMeta()["progressToken"], every: deliver.ProgressInterval(cfg.ProgressInterval),
		app: cfg.FormApps && call.Caps.App}
	if !runtime.EraOf(call.Version).MultiRoundTrip() && sessionless(req.Session) {
		// The client's capabilities are unknown, not absent: let the
		// pusher say why it cannot ask.
		call.Caps = adapter.ClientCaps{Form: true, URL: true}
		push = &pusher{version: call.Version, sessionless: true}
	}
	s := cfg.settings()
	x, err := s.Start(call, state, answers, malformed, push)
	if err == nil {
		err = s.Claim(ctx, x)
	}
	if err != nil {
		code, msg := adapter.StartError(err)
		return nil, &codedError{err: err, code: code, msg: msg}
	}
	return x, nil
}

// Finish returns what the tool call must answer, given what the handler
// returned: the handler's own result, an input_required result (with
// inputRequests and fresh sealed requestState), or a JSON-RPC error
// (-32602 for an invalid answer, -32021 for a missing capability, -32042
// for required URL steps on 2025-11-25), or a tool error telling the
// model what to ask the user; see adapter.Exchange.Reply.
func (a *Asker) Finish(res *mcp.CallToolResult, err error) (*mcp.CallToolResult, error) {
	res, text, err := a.finish(res, err)
	if text != "" {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
	}
	return res, err
}

// finish is Finish, with a tool error returned as its text.
func (a *Asker) finish(res *mcp.CallToolResult, err error) (*mcp.CallToolResult, string, error) {
	r := a.cfg.settings().Finish(a.x, err)
	switch r.Kind {
	case adapter.ReplyInputRequired:
		in, err := inputRequests(r.Requests, a.cfg.FormApps && a.x.Caps().App)
		if err != nil {
			return nil, "", err
		}
		// An empty Content, not nil: go-sdk writes a nil one as
		// "content": null, which an input_required result must not carry.
		res := &mcp.CallToolResult{Content: []mcp.Content{}, InputRequests: in, RequestState: r.State}
		if lang := r.Language(); lang != "" {
			res.Meta = mcp.Meta{runtime.MetaKeyContentLanguage: lang}
		}
		return res, "", nil
	case adapter.ReplyToolError, adapter.ReplyLink:
		return nil, r.Text, nil
	case adapter.ReplyResult:
		if r.Err != nil {
			return nil, "", r.Err
		}
		if res == nil {
			res = &mcp.CallToolResult{}
		}
		return res, "", nil
	}
	return nil, "", replyError(r, a.x.Era().Version())
}

// inputRequests encodes the questions of an input_required result.
func inputRequests(reqs []*runtime.InputRequiredError, app bool) (mcp.InputRequestMap, error) {
	out := make(mcp.InputRequestMap, len(reqs))
	for _, p := range reqs {
		params, err := elicitParams(p.Request, runtime.Version20260728)
		if err != nil {
			return nil, err
		}
		if app && p.Request.Mode == runtime.ModeForm {
			params.Meta = deliver.AppMeta(params.Meta, p.Request)
		}
		params.ElicitationID = "" // removed in 2026-07-28; the flow id rides in requestState
		out[p.Key] = params
	}
	return out, nil
}

// replyError returns the JSON-RPC error of a reply that is one:
// ReplyInvalidParams, ReplyMissingCapability or ReplyURLRequired (for a
// client speaking version); otherwise r.Err.
func replyError(r adapter.Reply, version string) error {
	switch r.Kind {
	case adapter.ReplyInvalidParams:
		return &jsonrpc.Error{Code: adapter.CodeInvalidParams, Message: r.Message}
	case adapter.ReplyMissingCapability:
		data, _ := json.Marshal(r.Data)
		return &jsonrpc.Error{Code: adapter.CodeMissingRequiredClientCapability, Message: r.Message, Data: data}
	case adapter.ReplyURLRequired:
		params := make([]*mcp.ElicitParams, len(r.Requests))
		for i, p := range r.Requests {
			params[i], _ = elicitParams(p.Request, version)
		}
		return mcp.URLElicitationRequiredError(params)
	}
	return r.Err
}

// Complete tells the client of a 2025-11-25 session that the URL-mode
// flow flowID (runtime.URLOutcome.FlowID) has finished
// (notifications/elicitation/complete). Keep req.Session to call it after
// the tool returned. On a 2026-07-28 session it does nothing: the client
// learns the outcome when it retries.
func Complete(ctx context.Context, ss *mcp.ServerSession, flowID string) error {
	if ss == nil {
		return errors.New("gosdk: Complete: nil session")
	}
	if p := ss.InitializeParams(); p == nil || !runtime.EraOf(p.ProtocolVersion).URLRequiredError() {
		return nil
	}
	return ss.NotifyElicitationComplete(ctx, &mcp.ElicitationCompleteParams{ElicitationID: flowID})
}

// clientCaps reads the elicitation modes the client declared for req:
// from _meta on 2026-07-28 requests, from initialize otherwise.
func clientCaps[P mcp.Params](req *mcp.ServerRequest[P], version string) adapter.ClientCaps {
	if runtime.EraOf(version).MultiRoundTrip() {
		var raw any
		if m := req.Params.GetMeta(); m != nil {
			raw = m[adapter.MetaKeyClientCapabilities]
		}
		caps, _ := adapter.ParseClientCaps(version, raw)
		return caps
	}
	c := req.ClientCapabilities()
	if c == nil || c.Elicitation == nil {
		return adapter.ClientCaps{}
	}
	caps := adapter.InitializeCaps(version, true, c.Elicitation.Form != nil, c.Elicitation.URL != nil)
	caps.App = caps.Form && runtime.EraOf(version).ModeMembers() && deliver.AppCaps(c.Extensions)
	return caps
}

// inputResponses converts the elicitation answers of a retry.
func inputResponses(m mcp.InputResponseMap) (map[string]*runtime.Response, map[string]string) {
	if len(m) == 0 {
		return nil, nil
	}
	out := make(map[string]*runtime.Response, len(m))
	var bad map[string]string
	fail := func(k, reason string) {
		if bad == nil {
			bad = map[string]string{}
		}
		bad[k] = reason
	}
	for k, v := range m {
		r, ok := v.(*mcp.ElicitResult)
		if !ok || r == nil {
			fail(k, fmt.Sprintf("not an elicitation result (%T)", v))
			continue
		}
		if reason, bad := adapter.MalformedAction(r.Action); bad {
			fail(k, reason)
			continue
		}
		out[k] = &runtime.Response{Action: runtime.Action(r.Action), Content: r.Content}
	}
	return out, bad
}

// elicitParams encodes req for a client speaking version.
func elicitParams(req *runtime.Request, version string) (*mcp.ElicitParams, error) {
	p := &mcp.ElicitParams{Message: req.Message}
	if req.Mode == runtime.ModeURL {
		p.Mode, p.URL, p.ElicitationID = "url", req.URL, req.ElicitationID
		return p, nil
	}
	b, err := req.Schema.AppendJSON(nil, runtime.EraOf(version).SchemaVersion())
	if err != nil {
		return nil, err
	}
	p.Mode, p.RequestedSchema = "form", sentSchema(b)
	if runtime.EraOf(version).MultiRoundTrip() {
		// An input request's schema is only written out: go-sdk re-reads
		// a requestedSchema to validate the answer in ServerSession.Elicit
		// alone (2025 eras), so sentSchema's look at its callers is spared.
		p.RequestedSchema = json.RawMessage(b)
	}
	if req.Language != "" {
		p.Meta = mcp.Meta{runtime.MetaKeyContentLanguage: req.Language}
	}
	return p, nil
}

// sessionless reports whether ss is the per-request session go-sdk's
// stateless HTTP handler (StreamableHTTPOptions.Stateless) makes for a
// 2025-era request: no initialize was seen (its parameters are
// synthesized, without clientInfo and capabilities, which a real
// initialize always carries) and nothing can be sent back to the client.
func sessionless(ss *mcp.ServerSession) bool {
	if ss == nil {
		return false
	}
	p := ss.InitializeParams()
	return p != nil && p.ClientInfo == nil && p.Capabilities == nil
}

// SessionlessReason is why a 2025-era request served by a stateless HTTP
// handler cannot be asked: the text of its runtime.UnavailableError.
const SessionlessReason = "this request reached a stateless HTTP endpoint, which has no session: " +
	"the server never saw the client's initialize and cannot send it elicitation/create; " +
	"connect to the server's stateful endpoint (one that answers initialize with an Mcp-Session-Id), " +
	"or use protocol 2026-07-28, whose questions ride in input_required results"

// pusher sends elicitation/create on a 2025-era session.
type pusher struct {
	ss          *mcp.ServerSession
	version     string
	sessionless bool // served by a stateless HTTP handler: SessionlessReason
	// progress is the call's progressToken (nil: none), sent progress
	// every interval while the person answers.
	progress any
	every    time.Duration
	// app: form requests name the form app (Config.FormApps).
	app bool
}

// Ask sends req as elicitation/create and returns the client's answer.
func (p *pusher) Ask(ctx context.Context, req *runtime.Request) (*runtime.Response, error) {
	if p.sessionless {
		return nil, &runtime.UnavailableError{Reason: SessionlessReason, Mode: req.Mode, Schema: req.Schema, Message: req.Message}
	}
	if p.ss == nil {
		return nil, &runtime.UnavailableError{Reason: "no session to send elicitation/create on", Mode: req.Mode, Schema: req.Schema, Message: req.Message}
	}
	params, err := elicitParams(req, p.version)
	if err != nil {
		return nil, err
	}
	if p.app && req.Mode == runtime.ModeForm {
		params.Meta = deliver.AppMeta(params.Meta, req)
	}
	if p.progress != nil {
		stop := deliver.KeepAlive(ctx, p.every, func(ctx context.Context, n int) error {
			return p.ss.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: p.progress, Progress: float64(n), Message: deliver.ProgressMessage})
		})
		defer stop()
	}
	res, err := p.ss.Elicit(ctx, params)
	if err != nil {
		msg := err.Error()
		switch {
		case strings.Contains(msg, "client does not support"), strings.Contains(msg, "cannot be sent while serving"):
			return nil, &runtime.UnavailableError{Reason: msg, Mode: req.Mode, Schema: req.Schema, Message: req.Message}
		case strings.Contains(msg, "does not match requested schema"):
			// A go-sdk client checked its own answer and did not send it
			// (schema.go).
			return nil, clientRefused(req.Schema, msg)
		}
		return nil, err
	}
	if res == nil {
		return nil, fmt.Errorf("%w: empty elicitation result", runtime.ErrInvalidAction)
	}
	if reason, bad := adapter.MalformedAction(res.Action); bad {
		return nil, malformedResult(req, reason)
	}
	return &runtime.Response{Action: runtime.Action(res.Action), Content: res.Content}, nil
}

// codedError is a runtime error (a requestState failure, a client that
// cannot be asked) that carries a JSON-RPC code and message for the SDK:
// errors.Is still matches the runtime error.
type codedError struct {
	err  error
	code int64
	msg  string
}

// Error implements error.
func (e *codedError) Error() string { return e.msg }

// Unwrap returns the runtime error and the JSON-RPC error.
func (e *codedError) Unwrap() []error {
	return []error{e.err, &jsonrpc.Error{Code: e.code, Message: e.msg}}
}

// wireError returns err as the *jsonrpc.Error go-sdk sends verbatim.
func wireError(err error) error {
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		return &jsonrpc.Error{Code: we.Code, Message: err.Error(), Data: we.Data}
	}
	return err
}
