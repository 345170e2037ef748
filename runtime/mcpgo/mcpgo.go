// Package mcpgo serves elicitgen forms over mcp-go
// (github.com/mark3labs/mcp-go, v1.2 or later), on every protocol era,
// from one handler body.
//
// Wrap a tool handler with Handle and ask generated forms with the
// runtime.Asker it receives:
//
//   - on a 2025-06-18 or 2025-11-25 session, AskT sends
//     elicitation/create (server.MCPServer.RequestElicitation) and waits;
//   - on a 2026-07-28 request, AskT finds the answer in the request's
//     inputResponses or sealed requestState, or else reports "input
//     required"; the wrapper then answers the call with resultType
//     input_required, and the client's retry runs the handler again,
//     which now gets its answer.
//
// Earlier answers of a multi-step tool ride in requestState, sealed with
// Config.Keys (AES-256-GCM under the key ring, expiry, bound to the tool, its arguments and
// Config.Principal). A tampered, expired or foreign state is rejected
// before the handler runs. Handlers must be safe to run again up to their
// last ask: do side effects after asking.
//
// mcp-go v1.2.1 limits: a tool handler's error always reaches the client
// as JSON-RPC -32603 (only its -32042 URL error is special-cased), so an
// invalid requestState or answer is a JSON-RPC error with code -32603 and
// a message starting "invalid requestState:" / "elicit: invalid", not
// -32602; and -32021 with requiredCapabilities cannot be sent, so
// runtime.UnavailableAuto and UnavailableMissingCapability become the tool
// error that tells the model what to ask.
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
package mcpgo

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
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Config configures the tool wrappers. One Config serves many tools; it
// must not change once in use.
//
// The settings every adapter shares (the key ring, reply policies, clock,
// observer, replay store, pages, progress and form apps) are the embedded
// adapter.Options, documented there:
//
//	cfg := &mcpgo.Config{Options: adapter.Options{Keys: keys, Observer: obs}}
//
// mcp-go cannot send -32021 with requiredCapabilities, so an Unavailable
// of runtime.UnavailableAuto or UnavailableMissingCapability becomes the
// tool error that tells the model what to ask, and it always sends a
// handler's error as JSON-RPC -32603 (see the package doc).
// Options.FormApps needs AddFormApp and FormAppExtensions here.
type Config struct {
	adapter.Options

	// Principal names the authenticated user the state is bound to
	// (mcp-go has no notion of one: take it from your auth middleware's
	// context). Nil means none.
	Principal func(ctx context.Context, req mcp.CallToolRequest) string
	// Locale returns the user's language preference for a tool call: a
	// BCP 47 tag or an Accept-Language list. Asks without
	// runtime.WithLocale use it to pick a form's translation
	// (elicit.<tag>.json). Nil, or "" returned, means the request's own
	// preference, params._meta["io.modelcontextprotocol/acceptLanguage"]
	// (SEP-2792), when it carries one. See locale.go.
	Locale func(ctx context.Context, req mcp.CallToolRequest) string

	defaultReplay adapter.DefaultReplay
}

// replayStore returns Replay, or the Config's in-memory store.
func (c *Config) replayStore() seal.ReplayStore {
	return c.defaultReplay.Store(c.Replay, c.Now)
}

// settings returns the adapter settings shared with the other SDK
// adapters. mcp-go cannot send -32021 with data, so UnavailableAuto and
// UnavailableMissingCapability become the tool error that tells the
// model what to ask.
func (c *Config) settings() *adapter.Options {
	o := c.Options
	if o.Unavailable == runtime.UnavailableAuto || o.Unavailable == runtime.UnavailableMissingCapability {
		o.Unavailable = runtime.UnavailableToolError
	}
	o.Replay = c.replayStore()
	return &o
}

// Handler is a tool handler that can ask the user through ask.
type Handler func(ctx context.Context, req mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error)

// Handle wraps h as a server.ToolHandlerFunc for
// (*server.MCPServer).AddTool. It panics if cfg has no key ring.
func Handle(cfg *Config, h Handler) server.ToolHandlerFunc {
	if cfg == nil || cfg.Keys == nil {
		panic("mcpgo: Config.Keys is required (seal.ParseKeyRing, seal.NewRandomKeyRing)")
	}
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		a, err := NewAsker(ctx, cfg, req)
		if err != nil {
			return nil, err
		}
		res, err := h(ctx, req, a)
		return a.Finish(res, err)
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

// NewAsker returns the asker for the tool call req, handled with ctx. On
// a 2026-07-28 request it opens the echoed requestState; a tampered,
// expired or foreign state fails with an error matching
// runtime.ErrInvalidState.
func NewAsker(ctx context.Context, cfg *Config, req mcp.CallToolRequest) (*Asker, error) {
	if cfg == nil {
		return nil, errors.New("mcpgo: nil Config")
	}
	version := server.RequestProtocolVersion(ctx)
	call := &adapter.Call{
		Tool:    req.Params.Name,
		Args:    rawArguments(req),
		Version: version,
		Caps:    clientCaps(ctx, req, version),
		Client:  serve.ClientFrom(req.Header), // NewHTTPHandler's client key
	}
	if cfg.Principal != nil {
		call.Principal = cfg.Principal(ctx, req)
	}
	call.Language = cfg.language(ctx, req)
	cfg.observeCall(ctx, req, call)
	if cfg.Pages != nil {
		call.ClientName, call.ClientVersion = clientInfo(ctx)
		if srv, session := server.ServerFromContext(ctx), server.ClientSessionFromContext(ctx); srv != nil && session != nil {
			call.Complete = func(ctx context.Context, flowID string) error { return Complete(ctx, srv, session, flowID) }
			if tok := progressToken(req); tok != nil {
				every := deliver.ProgressInterval(cfg.ProgressInterval)
				call.KeepAlive = func(ctx context.Context) func() {
					return deliver.KeepAlive(ctx, every, func(ctx context.Context, n int) error {
						return srv.SendNotificationToClient(ctx, "notifications/progress", map[string]any{
							"progressToken": tok, "progress": n, "message": deliver.ProgressMessage})
					})
				}
			}
		}
	}
	var answers map[string]*runtime.Response
	var malformed map[string]string
	if runtime.EraOf(version).MultiRoundTrip() {
		// Bounded work per request: the count is checked before any entry
		// is read.
		if err := adapter.CheckInputResponses(len(req.Params.InputResponses)); err != nil {
			return nil, errors.New(adapter.InvalidStateMessage(err))
		}
		answers, malformed = inputResponses(req.Params.InputResponses)
	}
	s := cfg.settings()
	x, err := s.Start(call, req.Params.RequestState, answers, malformed, &pusher{srv: server.ServerFromContext(ctx), version: version,
		progress: progressToken(req), every: deliver.ProgressInterval(cfg.ProgressInterval), app: cfg.FormApps && call.Caps.App})
	if err == nil {
		err = s.Claim(ctx, x)
	}
	if err != nil {
		_, msg := adapter.StartError(err)
		return nil, startError{err: err, msg: msg}
	}
	return &Asker{x: x, cfg: cfg}, nil
}

// Ask asks req of the client (see runtime.Asker).
func (a *Asker) Ask(ctx context.Context, req *runtime.Request) (*runtime.Response, error) {
	return a.x.Ask(ctx, req)
}

// Unwrap returns the call's exchange (see runtime.Wrapper).
func (a *Asker) Unwrap() runtime.Asker { return a.x }

// Finish returns what the tool call must answer, given what the handler
// returned: the handler's own result, an input_required result (with
// inputRequests and fresh sealed requestState), a -32042 URL error on
// 2025-11-25, an error, or a tool error telling the model what to ask the
// user; see adapter.Exchange.Reply.
func (a *Asker) Finish(res *mcp.CallToolResult, err error) (*mcp.CallToolResult, error) {
	r := a.cfg.settings().Finish(a.x, err)
	switch r.Kind {
	case adapter.ReplyInputRequired:
		b := server.NewInputRequestBuilder(r.State)
		for _, p := range r.Requests {
			params, err := elicitParams(p.Request, runtime.Version20260728)
			if err != nil {
				return nil, err
			}
			params.ElicitationID = "" // removed in 2026-07-28; the flow id rides in requestState
			if a.cfg.FormApps && a.x.Caps().App && p.Request.Mode == runtime.ModeForm {
				appMeta(&params, p.Request)
			}
			b.Elicit(p.Key, params)
		}
		res := b.ToolResult()
		if lang := r.Language(); lang != "" {
			res.Meta = mcp.NewMetaFromMap(map[string]any{runtime.MetaKeyContentLanguage: lang})
		}
		return res, nil
	case adapter.ReplyInvalidParams, adapter.ReplyMissingCapability:
		return nil, r.Err
	case adapter.ReplyToolError, adapter.ReplyLink:
		return mcp.NewToolResultError(r.Text), nil
	case adapter.ReplyURLRequired:
		e := mcp.URLElicitationRequiredError{Elicitations: make([]mcp.ElicitationParams, len(r.Requests))}
		for i, p := range r.Requests {
			e.Elicitations[i], _ = elicitParams(p.Request, a.x.Era().Version())
		}
		return nil, e
	}
	if r.Err != nil {
		return nil, r.Err
	}
	if res == nil {
		res = &mcp.CallToolResult{}
	}
	return res, nil
}

// Complete tells the client of a 2025-11-25 session that the URL-mode
// flow flowID (runtime.URLOutcome.FlowID) has finished
// (notifications/elicitation/complete). Keep
// server.ClientSessionFromContext(ctx) to call it after the tool
// returned. It does nothing when ctx is a 2026-07-28 request's or the
// session speaks 2026-07-28 or 2025-06-18.
func Complete(ctx context.Context, srv *server.MCPServer, session server.ClientSession, flowID string) error {
	if srv == nil || session == nil {
		return errors.New("mcpgo: Complete: nil server or session")
	}
	if server.IsModernRequest(ctx) {
		return nil
	}
	if v, ok := session.(server.SessionWithProtocolVersion); ok {
		if pv := v.ProtocolVersion(); !runtime.EraOf(pv).URLRequiredError() {
			return nil
		}
	}
	return srv.SendElicitationComplete(ctx, session, flowID)
}

func rawArguments(req mcp.CallToolRequest) []byte {
	if raw := req.Params.RawArguments; len(raw) > 0 {
		return raw
	}
	if req.Params.Arguments == nil {
		return nil
	}
	b, _ := json.Marshal(req.Params.Arguments)
	return b
}

// clientCaps reads the elicitation modes the client declared: from
// _meta on 2026-07-28 requests, from initialize otherwise.
func clientCaps(ctx context.Context, req mcp.CallToolRequest, version string) adapter.ClientCaps {
	if runtime.EraOf(version).MultiRoundTrip() {
		var raw any
		if m := req.Params.Meta; m != nil {
			raw = m.AdditionalFields[adapter.MetaKeyClientCapabilities]
		}
		if raw == nil {
			if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.ClientCapabilities != nil {
				raw = info.ClientCapabilities
			}
		}
		caps, _ := adapter.ParseClientCaps(version, raw)
		return caps
	}
	s, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo)
	if !ok {
		return adapter.ClientCaps{}
	}
	c := s.GetClientCapabilities()
	e := c.Elicitation
	caps := adapter.InitializeCaps(version, e != nil, e != nil && e.Form != nil, e != nil && e.URL != nil)
	caps.App = caps.Form && runtime.EraOf(version).ModeMembers() && deliver.AppCaps(c.Extensions)
	return caps
}

// inputResponses converts the elicitation answers of a retry.
func inputResponses(m mcp.InputResponses) (map[string]*runtime.Response, map[string]string) {
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
		// mcp-go keeps the raw JSON of an undecoded entry, which it
		// marshals back verbatim: read its keys exactly, before
		// encoding/json's case-insensitive struct decoding does.
		if raw, err := json.Marshal(v); err == nil {
			if err := adapter.CheckAnswerKeys(raw); err != nil {
				fail(k, strings.TrimPrefix(err.Error(), adapter.ErrAnswerKeys.Error()+": "))
				continue
			}
		}
		r := server.ElicitationResponse(m, k)
		if r == nil {
			fail(k, "not an elicitation result")
			continue
		}
		content, err := contentMap(r.Content)
		if err != nil {
			fail(k, err.Error())
			continue
		}
		if reason, bad := adapter.MalformedAction(string(r.Action)); bad {
			fail(k, reason)
			continue
		}
		out[k] = &runtime.Response{Action: runtime.Action(r.Action), Content: content}
	}
	return out, bad
}

// contentMap normalizes mcp-go's Content (any: a map after JSON, the
// client's own Go value in-process) to a JSON object.
func contentMap(c any) (map[string]any, error) {
	switch c := c.(type) {
	case nil:
		return nil, nil
	case map[string]any:
		return c, nil
	}
	b, err := json.Marshal(c)
	if err != nil {
		return nil, fmt.Errorf("content does not encode: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, errors.New("content must be a JSON object")
	}
	return m, nil
}

// elicitParams encodes req for a client speaking version.
func elicitParams(req *runtime.Request, version string) (mcp.ElicitationParams, error) {
	p := mcp.ElicitationParams{Message: req.Message}
	if req.Mode == runtime.ModeURL {
		p.Mode, p.URL, p.ElicitationID = mcp.ElicitationModeURL, req.URL, req.ElicitationID
		return p, nil
	}
	sv := runtime.EraOf(version).SchemaVersion()
	b, err := req.Schema.AppendJSON(nil, sv)
	if err != nil {
		return p, err
	}
	p.RequestedSchema = json.RawMessage(b)
	if sv != runtime.Version20250618 { // 2025-06-18 has no mode
		p.Mode = mcp.ElicitationModeForm
	}
	if req.Language != "" {
		p.Meta = mcp.NewMetaFromMap(map[string]any{runtime.MetaKeyContentLanguage: req.Language})
	}
	return p, nil
}

// appMeta names the form app in p's _meta (Config.FormApps).
func appMeta(p *mcp.ElicitationParams, req *runtime.Request) {
	var fields map[string]any
	if p.Meta != nil {
		fields = p.Meta.AdditionalFields
	}
	p.Meta = mcp.NewMetaFromMap(deliver.AppMeta(fields, req))
}

// pusher sends elicitation/create on a 2025-era session.
type pusher struct {
	srv     *server.MCPServer
	version string
	// progress is the call's progressToken (nil: none), sent progress
	// every interval while the person answers.
	progress mcp.ProgressToken
	every    time.Duration
	// app: form requests name the form app (Config.FormApps).
	app bool
}

// progressToken returns the call's progressToken, or nil.
func progressToken(req mcp.CallToolRequest) mcp.ProgressToken {
	if req.Params.Meta == nil {
		return nil
	}
	return req.Params.Meta.ProgressToken
}

// Ask sends req as elicitation/create and returns the client's answer.
func (p *pusher) Ask(ctx context.Context, req *runtime.Request) (*runtime.Response, error) {
	if p.srv == nil {
		return nil, &runtime.UnavailableError{Reason: "no mcp-go server in the context", Mode: req.Mode, Schema: req.Schema, Message: req.Message}
	}
	params, err := elicitParams(req, p.version)
	if err != nil {
		return nil, err
	}
	if p.app && req.Mode == runtime.ModeForm {
		appMeta(&params, req)
	}
	if p.progress != nil {
		stop := deliver.KeepAlive(ctx, p.every, func(ctx context.Context, n int) error {
			return p.srv.SendNotificationToClient(ctx, "notifications/progress", map[string]any{
				"progressToken": p.progress, "progress": n, "message": deliver.ProgressMessage})
		})
		defer stop()
	}
	res, err := p.srv.RequestElicitation(ctx, mcp.ElicitationRequest{
		Request: mcp.Request{Method: string(mcp.MethodElicitationCreate)},
		Params:  params,
	})
	if err != nil {
		if errors.Is(err, server.ErrServerInitiatedRequestUnsupported) || errors.Is(err, server.ErrElicitationNotSupported) || errors.Is(err, server.ErrNoActiveSession) {
			return nil, &runtime.UnavailableError{Reason: err.Error(), Mode: req.Mode, Schema: req.Schema, Message: req.Message}
		}
		return nil, err
	}
	if res == nil {
		return nil, fmt.Errorf("%w: empty elicitation result", runtime.ErrInvalidAction)
	}
	name := ""
	if req.Schema != nil {
		name = req.Schema.Name
	}
	if reason, bad := adapter.MalformedAction(string(res.Action)); bad {
		return nil, fmt.Errorf("%w: %w", runtime.ErrMalformedInput, &runtime.ValidationError{Form: name, Fields: []*runtime.FieldError{{Msg: "elicitation result: " + reason}}})
	}
	content, err := contentMap(res.Content)
	if err != nil {
		return nil, &runtime.ValidationError{Form: name, Fields: []*runtime.FieldError{{Msg: err.Error()}}}
	}
	return &runtime.Response{Action: runtime.Action(res.Action), Content: content}, nil
}

// startError is a request refused before its handler ran: its message
// is the wire text (adapter.StartError), and it matches the runtime error.
type startError struct {
	err error
	msg string
}

// Error implements error.
func (e startError) Error() string { return e.msg }

// Unwrap returns the runtime error.
func (e startError) Unwrap() error { return e.err }
