package sdktest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime/deliver"
	"github.com/elicitgen/elicitgen/runtime/seal"

	mgclient "github.com/mark3labs/mcp-go/client"
	mgtransport "github.com/mark3labs/mcp-go/client/transport"
	mgmcp "github.com/mark3labs/mcp-go/mcp"
	mgserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/internal/wiretest"
	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
	"github.com/elicitgen/elicitgen/runtime/mcpgo"
)

const (
	goSDK = "go-sdk"
	mcpGo = "mcp-go"
)

var versions = []string{runtime.Version20250618, runtime.Version20251125, runtime.Version20260728}

const stateTTL = 5 * time.Minute

// clock is a settable clock for the server's state expiry.
type clock struct{ off atomic.Int64 }

func (c *clock) Now() time.Time          { return time.Now().Add(time.Duration(c.off.Load())) }
func (c *clock) Advance(d time.Duration) { c.off.Add(int64(d)) }

// question is an elicitation as a client received it, SDK-neutral.
type question struct {
	Mode          string
	Message       string
	URL           string
	ElicitationID string
	Schema        map[string]any
	// Language is params._meta[runtime.MetaKeyContentLanguage].
	Language string
}

// answerer is a client's elicitation handler, SDK-neutral.
type answerer func(ctx context.Context, q question) (*runtime.Response, error)

// server is the system under test: the same tools, on either SDK.
type server struct {
	sdk     string
	keys    *seal.KeyRing
	clock   clock
	policy  runtime.UnavailablePolicy
	askErrs chan error // server-side ask errors of the slow tools
	runs    atomic.Int32
	// asked and reasked count the questions the outermost middleware
	// wrapper saw (see through), re-asks (Request.Attempt > 0) apart.
	asked, reasked atomic.Int32

	gs *mcp.Server
	ms *mgserver.MCPServer
}

type body func(ctx context.Context, ask runtime.Asker) (string, error)

// through wraps an adapter's Asker as middleware would, in two layers of
// runtime.Wrap, so that every case of the matrix runs through wrappers
// (translations, retries across rounds, the repeated-answer stop, flow
// ids, the 2025-06-18 checkbox fallback, CanAsk and the invalid-answer
// event must all survive them), and counts what the outer layer saw.
func (s *server) through(ask runtime.Asker) runtime.Asker {
	return runtime.Wrap(runtime.Wrap(ask, nil), func(ctx context.Context, req *runtime.Request, next runtime.Asker) (*runtime.Response, error) {
		s.asked.Add(1)
		if req.Attempt > 0 {
			s.reasked.Add(1)
		}
		return next.Ask(ctx, req)
	})
}

// completeKey holds, in a handler's context, a func that sends
// notifications/elicitation/complete through the SDK adapter.
type completeKey struct{}

func complete(ctx context.Context, flowID string) error {
	f, _ := ctx.Value(completeKey{}).(func(string) error)
	if f == nil {
		return errors.New("no completion hook")
	}
	return f(flowID)
}

func describeDeploy(v *testforms.Deploy) string {
	return fmt.Sprintf("deployed %s to %s x%d confirm=%t", v.Branch, v.Env, v.Replicas, v.Confirm)
}

const (
	deployMsg    = "Deploy what, where?"
	approveMsg   = "Approve the deploy?"
	notifyMsg    = "Who should hear about it?"
	subscribeMsg = "Where should the digest go?"
	connectMsg   = "Connect your Acme account"
)

func (s *server) bodies() map[string]body {
	deploy := func(ctx context.Context, ask runtime.Asker, opts ...runtime.AskOption) (string, error) {
		out, err := testforms.AskDeploy(ctx, ask, deployMsg, opts...)
		switch {
		case err != nil:
			return "", err
		case out.Action == runtime.ActionDecline:
			return "declined", nil
		case out.Action == runtime.ActionCancel:
			return "cancelled", nil
		}
		return describeDeploy(out.Value), nil
	}
	return map[string]body{
		"deploy": func(ctx context.Context, ask runtime.Asker) (string, error) { return deploy(ctx, ask) },
		"deploy2": func(ctx context.Context, ask runtime.Asker) (string, error) {
			first, err := testforms.AskDeploy(ctx, ask, deployMsg)
			if err != nil {
				return "", err
			}
			v, ok := first.Accepted()
			if !ok {
				return "not deployed: " + string(first.Action), nil
			}
			second, err := testforms.AskApprove(ctx, ask, approveMsg)
			if err != nil {
				return "", err
			}
			a, ok := second.Accepted()
			if !ok {
				return "not approved: " + string(second.Action), nil
			}
			note := ""
			if a.Note != nil {
				note = *a.Note
			}
			return fmt.Sprintf("%s approved=%t note=%q", describeDeploy(v), a.Approve, note), nil
		},
		"notify": func(ctx context.Context, ask runtime.Asker) (string, error) {
			out, err := testforms.AskNotify(ctx, ask, notifyMsg)
			if err != nil {
				return "", err
			}
			v, ok := out.Accepted()
			if !ok {
				return string(out.Action), nil
			}
			return fmt.Sprintf("notify %v", v.Channels), nil
		},
		"connect": func(ctx context.Context, ask runtime.Asker) (string, error) {
			out, err := runtime.AskURLFlow(ctx, ask, connectMsg, func(id string) string {
				return deliver.PageURL("https://acme.example/connect", "flow", id)
			})
			if err != nil {
				return "", err
			}
			return fmt.Sprintf("url %s flow=%s", out.Action, out.FlowID), nil
		},
		"connect_done": func(ctx context.Context, ask runtime.Asker) (string, error) {
			out, err := runtime.AskURLFlow(ctx, ask, connectMsg, func(id string) string {
				return deliver.PageURL("https://acme.example/connect", "flow", id)
			})
			if err != nil || out.Action != runtime.ActionAccept {
				return fmt.Sprint(out.Action), err
			}
			// The out-of-band step finished (here: at once).
			if err := complete(ctx, out.FlowID); err != nil {
				return "", err
			}
			return "completed flow=" + out.FlowID, nil
		},
		"connect_required": func(ctx context.Context, ask runtime.Asker) (string, error) {
			return "", deliver.RequireURL("Link your Acme account", "https://acme.example/link?flow=f-1", "f-1")
		},
		"slow": func(ctx context.Context, ask runtime.Asker) (string, error) {
			text, err := deploy(ctx, ask)
			if !errors.Is(err, runtime.ErrInputRequired) {
				s.askErrs <- err
			}
			return text, err
		},
		"timeout": func(ctx context.Context, ask runtime.Asker) (string, error) {
			text, err := deploy(ctx, ask, runtime.WithTimeout(150*time.Millisecond))
			if !errors.Is(err, runtime.ErrInputRequired) {
				s.askErrs <- err
			}
			return text, err
		},
	}
}

func newServer(t testing.TB, sdk string, policy runtime.UnavailablePolicy, opts ...serverOpt) *server {
	var so serverOpts
	for _, o := range opts {
		o(&so)
	}
	keys, err := seal.NewKeyRing(seal.Key{ID: "k1", Secret: bytes.Repeat([]byte{7}, 32)})
	if err != nil {
		t.Fatal(err)
	}
	s := &server{sdk: sdk, keys: keys, policy: policy, askErrs: make(chan error, 4)}
	// Registered before any connection, so it runs after all of their
	// cleanups.
	t.Cleanup(func() { wiretest.CheckNoLeaks(t, "github.com/elicitgen/elicitgen/runtime") })
	switch sdk {
	case goSDK:
		s.gs = mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "v0"}, nil)
		cfg := &gosdk.Config{Options: adapter.Options{Keys: keys, StateTTL: stateTTL, Now: s.clock.Now, Unavailable: policy, AskErrors: so.askErrors, Observer: so.observer, AcceptUnasked: so.acceptUnasked, Replay: so.replay,
			Pages: so.pages, PageHold: so.pageHold, Rendering: so.rendering()}}
		for name, b := range s.allBodies() {
			s.gs.AddTool(&mcp.Tool{Name: name, InputSchema: map[string]any{"type": "object"}},
				gosdk.Handle(cfg, func(ctx context.Context, req *mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
					s.runs.Add(1)
					ctx = context.WithValue(ctx, completeKey{}, func(id string) error { return gosdk.Complete(ctx, req.Session, id) })
					text, err := b(ctx, s.through(ask))
					if err != nil {
						return nil, err
					}
					return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
				}))
		}
		mcp.AddTool(s.gs, &mcp.Tool{Name: bookTool, InputSchema: gosdk.InputSchema[testforms.BookArgs]()}, gosdk.HandleArgs(cfg, bookMissing,
			func(ctx context.Context, _ *mcp.CallToolRequest, in testforms.BookArgs, _ runtime.Asker) (*mcp.CallToolResult, any, error) {
				s.runs.Add(1)
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: booked(in)}}}, nil, nil
			}))
	case mcpGo:
		s.ms = mgserver.NewMCPServer("srv", "v0", mgserver.WithToolCapabilities(false))
		cfg := &mcpgo.Config{Options: adapter.Options{Keys: keys, StateTTL: stateTTL, Now: s.clock.Now, Unavailable: policy, AskErrors: so.askErrors, Observer: so.observer, AcceptUnasked: so.acceptUnasked, Replay: so.replay,
			Pages: so.pages, PageHold: so.pageHold, Rendering: so.rendering()}}
		for name, b := range s.allBodies() {
			s.ms.AddTool(mgmcp.NewTool(name),
				mcpgo.Handle(cfg, func(ctx context.Context, req mgmcp.CallToolRequest, ask runtime.Asker) (*mgmcp.CallToolResult, error) {
					s.runs.Add(1)
					ctx = context.WithValue(ctx, completeKey{}, func(id string) error {
						return mcpgo.Complete(ctx, mgserver.ServerFromContext(ctx), mgserver.ClientSessionFromContext(ctx), id)
					})
					text, err := b(ctx, s.through(ask))
					if err != nil {
						return nil, err
					}
					return mgmcp.NewToolResultText(text), nil
				}))
		}
		s.ms.AddTool(mgmcp.NewTool(bookTool), mcpgo.HandleArgs(cfg, bookMissing,
			func(ctx context.Context, _ mgmcp.CallToolRequest, in testforms.BookArgs, _ runtime.Asker) (*mgmcp.CallToolResult, error) {
				s.runs.Add(1)
				return mgmcp.NewToolResultText(booked(in)), nil
			}))
	default:
		t.Fatalf("unknown sdk %q", sdk)
	}
	return s
}

// clientOpts configure a test client.
type clientOpts struct {
	version string   // "" for the SDK default (2026-07-28)
	answer  answerer // nil: no elicitation capability
	url     bool     // also declare URL mode
	// inProcess joins an mcp-go client to an mcp-go server with mcp-go's
	// in-process transport (no JSON on the legacy elicitation path, no
	// tap) instead of pipes. mcp-go's stdio server is a process-wide
	// singleton, so only one stdio connection may exist at a time.
	inProcess bool
	// goHandler and mgHandler, when set, replace answer as the go-sdk or
	// mcp-go client's elicitation handler.
	goHandler func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error)
	mgHandler mgclient.ElicitationHandler
}

// conn is a connected client, SDK-neutral.
type conn struct {
	sdk     string
	tap     *tap
	gc      *mcp.ClientSession
	mc      *mgclient.Client
	version string
	notes   chan string // elicitationId of notifications/elicitation/complete
}

// callResult is a tool result, SDK-neutral.
type callResult struct {
	Text    string
	IsError bool
}

func (c *conn) call(ctx context.Context, tool string, args map[string]any) (callResult, error) {
	switch c.sdk {
	case goSDK:
		res, err := c.gc.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			return callResult{}, err
		}
		var sb strings.Builder
		for _, ct := range res.Content {
			if tc, ok := ct.(*mcp.TextContent); ok {
				sb.WriteString(tc.Text)
			}
		}
		return callResult{Text: sb.String(), IsError: res.IsError}, nil
	default:
		req := mgmcp.CallToolRequest{}
		req.Params.Name = tool
		req.Params.Arguments = args
		res, err := c.mc.CallTool(ctx, req)
		if err != nil {
			return callResult{}, err
		}
		var sb strings.Builder
		for _, ct := range res.Content {
			if tc, ok := ct.(mgmcp.TextContent); ok {
				sb.WriteString(tc.Text)
			}
		}
		return callResult{Text: sb.String(), IsError: res.IsError}, nil
	}
}

// errCode returns the JSON-RPC code of a client-side error, or 0.
func errCode(err error) int {
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		return int(we.Code)
	}
	switch {
	case errors.Is(err, mgmcp.ErrInvalidParams):
		return -32602
	case errors.Is(err, mgmcp.ErrInternalError):
		return -32603
	case mgmcp.IsMissingRequiredClientCapability(err):
		return -32021
	case errors.As(err, new(mgmcp.URLElicitationRequiredError)):
		return -32042
	}
	return 0
}

// checkInvalidParams checks that err is the -32602 error of a protocol
// error (a tampered state, a malformed or invalid answer). mcp-go v1.2.1
// sends every tool-handler error as -32603, so that is what its server
// can give.
func checkInvalidParams(t *testing.T, sdk string, err error) {
	t.Helper()
	want := -32602
	if sdk == mcpGo {
		want = -32603
	}
	if code := errCode(err); code != want {
		t.Errorf("code = %d, want %d (%v)", code, want, err)
	}
}

// errData returns the JSON-RPC error data of a go-sdk client error.
func errData(err error) map[string]any {
	var we *jsonrpc.Error
	if !errors.As(err, &we) || len(we.Data) == 0 {
		return nil
	}
	var m map[string]any
	_ = json.Unmarshal(we.Data, &m)
	return m
}

func goQuestion(p *mcp.ElicitParams) question {
	q := question{Mode: p.Mode, Message: p.Message, URL: p.URL, ElicitationID: p.ElicitationID}
	if p.RequestedSchema != nil {
		b, _ := json.Marshal(p.RequestedSchema)
		_ = json.Unmarshal(b, &q.Schema)
	}
	q.Language, _ = p.Meta[runtime.MetaKeyContentLanguage].(string)
	return q
}

func mgQuestion(p mgmcp.ElicitationParams) question {
	q := question{Mode: p.Mode, Message: p.Message, URL: p.URL, ElicitationID: p.ElicitationID}
	if p.RequestedSchema != nil {
		b, _ := json.Marshal(p.RequestedSchema)
		_ = json.Unmarshal(b, &q.Schema)
	}
	if p.Meta != nil {
		q.Language, _ = p.Meta.AdditionalFields[runtime.MetaKeyContentLanguage].(string)
	}
	return q
}

type mgHandler struct{ answer answerer }

func (h mgHandler) Elicit(ctx context.Context, req mgmcp.ElicitationRequest) (*mgmcp.ElicitationResult, error) {
	r, err := h.answer(ctx, mgQuestion(req.Params))
	if err != nil {
		return nil, err
	}
	res := &mgmcp.ElicitationResult{}
	res.Action = mgmcp.ElicitationResponseAction(r.Action)
	if r.Content != nil {
		res.Content = r.Content
	}
	return res, nil
}

// connect joins a client of clientSDK to s and registers its cleanup.
func connect(t *testing.T, s *server, clientSDK string, o clientOpts) *conn {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	tp := &tap{}
	c := &conn{sdk: clientSDK, tap: tp, notes: make(chan string, 4)}
	var cleanups []func()
	t.Cleanup(func() {
		for i := len(cleanups) - 1; i >= 0; i-- {
			cleanups[i]()
		}
		cancel()
	})

	// Transport: go-sdk on both sides uses the in-memory transport; any
	// other pair goes over pipes.
	var (
		gClientTransport mcp.Transport
		mClientTransport mgtransport.Interface
	)
	switch {
	case o.inProcess:
		if s.sdk != mcpGo || clientSDK != mcpGo {
			t.Fatal("inProcess needs mcp-go on both sides")
		}
	case s.sdk == goSDK && clientSDK == goSDK:
		ct, st := mcp.NewInMemoryTransports()
		ss, err := s.gs.Connect(ctx, gosdk.ExactAnswers(st), nil)
		if err != nil {
			t.Fatal(err)
		}
		cleanups = append(cleanups, func() { ss.Close() })
		gClientTransport = tp.transport(ct)
	default:
		p := newPipes(tp)
		cleanups = append(cleanups, p.Close)
		switch s.sdk {
		case goSDK:
			ss, err := s.gs.Connect(ctx, gosdk.ExactAnswers(&mcp.IOTransport{Reader: p.serverIn, Writer: p.serverOut}), nil)
			if err != nil {
				t.Fatal(err)
			}
			cleanups = append(cleanups, func() { ss.Close() })
		case mcpGo:
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				ss := mgserver.NewStdioServer(s.ms)
				mgserver.WithErrorLogger(log.New(io.Discard, "", 0))(ss)
				_ = ss.Listen(ctx, adapter.ExactAnswersReader(p.serverIn), p.serverOut)
			}()
			cleanups = append(cleanups, func() { cancel(); p.Close(); wg.Wait() })
		}
		if clientSDK == goSDK {
			gClientTransport = tp.transport(&mcp.IOTransport{Reader: p.clientIn, Writer: p.clientOut})
		} else {
			tr := mgtransport.NewIO(p.clientIn, p.clientOut, io.NopCloser(strings.NewReader("")))
			mgtransport.WithCommandLogger(slog.New(slog.DiscardHandler))(tr) // closing the pipes is not an error here
			mClientTransport = tr
		}
	}

	switch clientSDK {
	case goSDK:
		opts := &mcp.ClientOptions{
			ElicitationCompleteHandler: func(_ context.Context, r *mcp.ElicitationCompleteNotificationRequest) {
				c.notes <- r.Params.ElicitationID
			},
		}
		if o.answer != nil || o.goHandler != nil {
			answer := o.answer
			opts.ElicitationHandler = func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				r, err := answer(ctx, goQuestion(req.Params))
				if err != nil {
					return nil, err
				}
				return &mcp.ElicitResult{Action: string(r.Action), Content: r.Content}, nil
			}
			if o.goHandler != nil {
				opts.ElicitationHandler = o.goHandler
			}
			if o.url {
				opts.Capabilities = &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{
					Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{}}}
			}
		}
		cl := mcp.NewClient(&mcp.Implementation{Name: "cli", Version: "v0"}, opts)
		cs, err := cl.Connect(ctx, gClientTransport, &mcp.ClientSessionOptions{ProtocolVersion: o.version})
		if err != nil {
			t.Fatal(err)
		}
		cleanups = append(cleanups, func() { cs.Close() })
		c.gc = cs
		c.version = cs.InitializeResult().ProtocolVersion
	case mcpGo:
		var copts []mgclient.ClientOption
		if o.answer != nil || o.mgHandler != nil {
			var h mgclient.ElicitationHandler = mgHandler{o.answer}
			if o.mgHandler != nil {
				h = o.mgHandler
			}
			copts = append(copts, mgclient.WithElicitationHandler(h))
			if o.url {
				copts = append(copts, mgclient.WithClientCapabilities(mgmcp.ClientCapabilities{
					Elicitation: &mgmcp.ElicitationCapability{Form: &struct{}{}, URL: &struct{}{}}}))
			}
		}
		if o.version != "" {
			copts = append(copts, mgclient.WithProtocolVersion(o.version))
		}
		var cl *mgclient.Client
		if o.inProcess {
			var err error
			if cl, err = mgclient.NewInProcessClientWithOptions(s.ms, copts...); err != nil {
				t.Fatal(err)
			}
		} else {
			cl = mgclient.NewClient(mClientTransport, copts...)
		}
		if err := cl.Start(ctx); err != nil {
			t.Fatal(err)
		}
		cleanups = append(cleanups, func() { cl.Close() })
		cl.OnNotification(func(n mgmcp.JSONRPCNotification) {
			if n.Method == string(mgmcp.MethodNotificationElicitationComplete) {
				id, _ := n.Params.AdditionalFields["elicitationId"].(string)
				c.notes <- id
			}
		})
		init := mgmcp.InitializeRequest{}
		init.Params.ClientInfo = mgmcp.Implementation{Name: "cli", Version: "v0"}
		if _, err := cl.Initialize(ctx, init); err != nil {
			t.Fatal(err)
		}
		c.mc = cl
		c.version = cl.ProtocolVersion()
	}
	want := o.version
	if want == "" {
		want = runtime.Version20260728
	}
	if c.version != want {
		t.Fatalf("negotiated %q, want %q", c.version, want)
	}
	return c
}
