// Package app is the example MCP server: five tools whose questions to a
// person are generated forms (package forms), served through the go-sdk
// adapter (runtime/gosdk) on every protocol era, plus, on request, the
// fixtures of the official MCP conformance suites.
//
// Every tool returns structured content with an "outcome" field:
// "accepted" (the user answered and the answer was used), "declined",
// "cancelled", or "unavailable" (the client cannot be asked; the result
// is then an isError result whose text tells the model what to ask),
// plus the values it used.
//
// NewServer builds the *mcp.Server; HTTPHandler serves it over
// streamable HTTP at /mcp for every protocol era: a request is routed by
// its era (gosdk.NewHTTPHandler) to a stateful handler (clients that initialize:
// 2025-06-18 and 2025-11-25, which are asked by a pushed
// elicitation/create) or a stateless one (2026-07-28 clients, which are
// asked by returning input_required: go-sdk accepts 2026-07-28 only in
// stateless mode).
package app

import (
	"cmp"
	"errors"
	"net/http"
	"time"

	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/receipt"
	"github.com/elicitgen/elicitgen/runtime/seal"
	"github.com/elicitgen/elicitgen/runtime/serve"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/page"
)

// Outcomes of a tool call, in the "outcome" field of every result.
const (
	// OutcomeAccepted: the user answered and the tool used the answer
	// (or the tool needed no answer).
	OutcomeAccepted = "accepted"
	// OutcomeDeclined: the user said no.
	OutcomeDeclined = "declined"
	// OutcomeCancelled: the user dismissed the question.
	OutcomeCancelled = "cancelled"
	// OutcomeUnavailable: the client cannot be asked (no elicitation
	// capability, or not the mode the tool needs).
	OutcomeUnavailable = "unavailable"
)

// Outcomes lists every outcome value.
var Outcomes = []string{OutcomeAccepted, OutcomeDeclined, OutcomeCancelled, OutcomeUnavailable}

// Tool names.
const (
	ToolDeploy   = "deploy_to_production"
	ToolBook     = "book_table"
	ToolKR       = "kr_dashboard"
	ToolCampaign = "send_campaign"
	ToolConnect  = "connect_account"
)

// Tools lists the example's tools (not the conformance fixtures).
var Tools = []string{ToolDeploy, ToolBook, ToolKR, ToolCampaign, ToolConnect}

// DefaultConnectBase is the page connect_account sends the user to.
const DefaultConnectBase = "https://accounts.example.com/connect"

// Options configure NewServer.
type Options struct {
	// Keys seal the requestState of 2026-07-28 calls. Nil means a fresh
	// random ring: fine for one process, but every instance of a
	// stateless deployment needs the same ring.
	Keys *seal.KeyRing
	// Store holds the server's data; nil means NewStore().
	Store *Store
	// Conformance also registers the fixtures of the official conformance
	// suites (tools test_elicitation*, test_input_required_result_*, prompt
	// test_input_required_result_prompt).
	Conformance bool
	// ConnectBase is the page connect_account sends the user to; the
	// provider and a flow id are added to it. Empty means
	// DefaultConnectBase.
	ConnectBase string
	// Observer receives the events of every question the tools ask
	// (gosdk.Config.Observer); nil means none. The example server sets
	// runtime.NewLogObserver on a JSON handler: the audit log.
	Observer runtime.Observer
	// Replay spends each requestState that carried answers into a tool,
	// so that an approval is used once. Nil means an in-memory store for
	// this process; instances behind one load balancer share one store
	// (runtime/redisstore).
	Replay seal.ReplayStore
	// Logf, when set, records what the tools did (one line per deployment,
	// booking and scheduled campaign).
	Logf func(format string, args ...any)
	// Identity, when set, names the person of an HTTP request (the
	// trusted header of an identity-aware proxy): the principal of every
	// tool call, and the person the hosted pages admit. Nil means the
	// bearer token's user.
	Identity func(*http.Request) (string, bool)
	// Pages, when set, serve every form of every tool as a hosted page
	// to clients that cannot show it (gosdk.Config.Pages); mount them
	// with serve.Options.Pages. The conformance fixtures never use
	// them.
	Pages *page.Pages
	// ProgressInterval is gosdk.Config.ProgressInterval: how often a
	// 2025-era call with a progressToken hears progress while the person
	// answers (zero: the adapter's default).
	ProgressInterval time.Duration
	// PageHold is gosdk.Config.PageHold: how long a 2025-era call whose
	// form went to the hosted page in URL mode waits for the answer
	// before it returns the page's link (zero: 50 s).
	PageHold time.Duration
	// FormApps renders the forms as an MCP App for hosts that declare
	// app-rendered elicitation (SEP-3118, draft; gosdk.Config.FormApps):
	// the server advertises the extension and serves the form app.
	FormApps bool
	// Rendering is the server-wide rendering of the tools' forms
	// (adapter.Options.Rendering): runtime.RenderingURLPage or
	// runtime.RenderingLink sends every person to the hosted page, for a
	// deployment behind a gateway that cannot relay elicitation.
	Rendering runtime.Rendering
	// Tasks advertises the MCP Tasks extension (io.modelcontextprotocol/tasks):
	// set it when the HTTP handler mounts a tasks front
	// (serve.Options.Tasks, with TaskPolicy for the tools).
	Tasks bool
	// Approvers, when set, are the principals who approve
	// deploy_to_production (one of them) and send_campaign (Quorum of
	// them), never the requester (runtime.WithApprovers): the questions
	// go to the hosted page (Pages and Identity must be set), whose link
	// the requester passes on. Nil means the requester answers, as
	// before (ELICIT_APPROVERS in the example server).
	Approvers []string
	// Quorum is how many distinct approvers send_campaign needs; zero
	// means DefaultCampaignQuorum (ELICIT_QUORUM). deploy_to_production
	// always needs one.
	Quorum int
	// StepUp: deploy_to_production's approval needs a passkey step-up
	// on the hosted page (runtime.WithStepUp; Pages with a
	// page.Config.StepUp, and Identity, must be set). ELICIT_PASSKEY in
	// the example server.
	StepUp bool
	// Receipts, when set, is the open log of signed receipts
	// (--receipts FILE --receipt-key KEY.pem; runtime/receipt), for a
	// receipt of every decided question. Nil means no receipts.
	Receipts *receipt.Log
	// Now is the clock of the questions' deadlines (adapter.Options.Now,
	// and the in-memory replay store's); nil means time.Now. Tests set
	// it to an elicittest.Clock to answer days later in no time.
	Now func() time.Time
}

// DefaultCampaignQuorum is the number of distinct approvers
// send_campaign needs when Options.Approvers is set and Options.Quorum is
// zero.
const DefaultCampaignQuorum = 2

// ReceiptServer names the example server in its signed receipts.
const ReceiptServer = "elicitgen-example"

// App is the server's state: its configuration and store.
type App struct {
	cfg         *gosdk.Config
	store       *Store
	connectBase string
	// fixtures wraps the official conformance suites' tools, which accept
	// an answer the server did not ask for (see addConformance).
	fixtures *gosdk.Config
	logf     func(format string, args ...any)
	tasks    bool // advertise the Tasks extension
	// deployApprovers and campaignApprovers are the ask options of the
	// approvals (Options.Approvers, and Options.StepUp for the deploy);
	// nil when the requester answers.
	deployApprovers, campaignApprovers []runtime.AskOption
}

// New returns the App for opts.
func New(opts Options) *App {
	keys := opts.Keys
	if keys == nil {
		keys = seal.NewRandomKeyRing()
	}
	store := opts.Store
	if store == nil {
		store = NewStore()
	}
	base := opts.ConnectBase
	if base == "" {
		base = DefaultConnectBase
	}
	replay := opts.Replay
	if replay == nil {
		m := seal.NewMemoryReplayStore(0)
		m.SetClock(opts.Now)
		replay = m
	}
	logf := opts.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	cfg := &gosdk.Config{
		Options: adapter.Options{
			Keys:             keys,
			Replay:           replay,
			Observer:         opts.Observer,
			Pages:            opts.Pages,
			ProgressInterval: opts.ProgressInterval,
			PageHold:         opts.PageHold,
			FormApps:         opts.FormApps,
			Rendering:        opts.Rendering,
			Now:              opts.Now,
		},
	}
	verified := receipt.VerifiedNone // a loopback server without authentication
	if opts.Identity != nil {
		cfg.Principal = gosdk.IdentityPrincipal(opts.Identity)
		cfg.PromptPrincipal = gosdk.IdentityPromptPrincipal(opts.Identity)
		verified = receipt.VerifiedTrustedHeader
	}
	if opts.Receipts != nil {
		// Every decided question is signed and stored before the tool
		// sees it; a receipt that cannot be stored keeps the tool from
		// running.
		cfg.Record = receipt.Recorder(opts.Receipts, ReceiptServer, func(adapter.Decided) string { return verified })
	}
	return &App{cfg: cfg, store: store, connectBase: base,
		// The 2026-07-28 suite's basic-elicitation and
		// ignore-extra-params scenarios send a first call that already
		// answers user_name and expect it to complete: the fixtures
		// alone accept unasked answers.
		fixtures: &gosdk.Config{Options: adapter.Options{Keys: keys, Replay: replay, AcceptUnasked: true, Observer: opts.Observer, Now: opts.Now}}, logf: logf,
		tasks: opts.Tasks, deployApprovers: append(approvers(opts.Approvers, 1), stepUp(opts.StepUp)...), campaignApprovers: approvers(opts.Approvers, cmp.Or(opts.Quorum, DefaultCampaignQuorum))}
}

// stepUp returns the ask option of a passkey step-up when on.
func stepUp(on bool) []runtime.AskOption {
	if !on {
		return nil
	}
	return []runtime.AskOption{runtime.WithStepUp()}
}

// approvers returns the ask option of an approval by quorum of
// principals, never the requester; nil when principals is empty.
func approvers(principals []string, quorum int) []runtime.AskOption {
	if len(principals) == 0 {
		return nil
	}
	return []runtime.AskOption{runtime.WithApprovers(runtime.Approvers{Principals: principals, ExcludeRequester: true, Quorum: quorum})}
}

// Store returns the app's store.
func (a *App) Store() *Store { return a.store }

// NewServer returns the example MCP server for opts.
func NewServer(opts Options) *mcp.Server {
	return New(opts).Server(opts.Conformance)
}

// Server returns a new *mcp.Server with the app's tools and, when
// conformance is set, the conformance fixtures.
func (a *App) Server(conformance bool) *mcp.Server {
	opts := &mcp.ServerOptions{
		Instructions: "Tools that ask the user through MCP elicitation forms. Every result has an outcome: accepted, declined, cancelled or unavailable.",
	}
	if a.cfg.FormApps {
		opts.Capabilities = gosdk.FormAppCapabilities(nil)
	}
	if a.tasks {
		opts.Capabilities = gosdk.TaskCapabilities(opts.Capabilities)
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "elicitgen-example", Title: "elicitgen example server", Version: "v0.1.0"}, opts)
	if a.cfg.FormApps {
		gosdk.AddFormApp(s)
	}
	a.addTools(s)
	if conformance {
		a.addConformance(s)
	}
	gosdk.EraFields(s) // each client gets only its era's result fields
	return s
}

// HTTPHandler serves s over streamable HTTP, every protocol era on one
// URL, /mcp, with the library's production defaults (HTTPHandlerWith
// with nil options).
func HTTPHandler(s *mcp.Server) http.Handler { return HTTPHandlerWith(s, nil) }

// HTTPHandlerWith serves s over streamable HTTP, every protocol era on
// one URL, /mcp (gosdk.NewHTTPHandler, bounded by opts): 2025-06-18 and
// 2025-11-25 clients initialize a session and are asked by a pushed
// elicitation/create; 2026-07-28 clients send self-contained requests
// and are asked by input_required results. /mcp/stateless is the same
// handler, kept for clients configured with it. Requests whose Host
// header is not a loopback name are rejected when they arrive on a
// loopback address (go-sdk's DNS-rebinding protection).
func HTTPHandlerWith(s *mcp.Server, opts *serve.Options) http.Handler {
	h := gosdk.NewHTTPHandler(s, opts)
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	mux.Handle("/mcp/stateless", h)
	if opts != nil && opts.Pages != nil {
		mux.Handle(opts.PagesPath, h) // the hosted form pages
	}
	return mux
}

// outputSchema is the output schema of a result type T whose "outcome"
// property is one of Outcomes.
func outputSchema[T any]() *jsonschema.Schema {
	s := gosdk.InputSchema[T]() // no ["null", ...] types: clients validate results against it
	if p := s.Properties["outcome"]; p != nil {
		p.Enum = make([]any, len(Outcomes))
		for i, o := range Outcomes {
			p.Enum[i] = o
		}
	}
	return s
}

// text is a result's text content.
func text(s string) []mcp.Content { return []mcp.Content{&mcp.TextContent{Text: s}} }

// askFailed turns the error of an ask into the tool's reply. A client
// that cannot be asked gets res (whose outcome the caller set to
// "unavailable") as an isError result whose text tells the model exactly
// what to ask the user; any other error (input required on a 2026-07-28
// request, an invalid answer, a transport failure) goes back to the
// adapter unchanged, which answers it the right way for the era.
func askFailed[Out any](err error, res Out) (*mcp.CallToolResult, Out, error) {
	if errors.Is(err, runtime.ErrUnavailable) && !errors.Is(err, runtime.ErrNotApprover) {
		return &mcp.CallToolResult{IsError: true, Content: text(runtime.AskUserText(err))}, res, nil
	}
	var zero Out
	return nil, zero, err
}

// outcome maps an answer's action to the tool outcome.
func outcome(a runtime.Action) string {
	switch a {
	case runtime.ActionAccept:
		return OutcomeAccepted
	case runtime.ActionDecline:
		return OutcomeDeclined
	}
	return OutcomeCancelled
}
