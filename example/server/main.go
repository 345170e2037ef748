// Command server runs the elicitgen example MCP server: five tools whose
// questions to a person are generated forms (see package app).
//
//	go run ./example/server                          # stdio
//	go run ./example/server --http 127.0.0.1:8080    # streamable HTTP
//
// Over HTTP it serves every protocol era on one URL, /mcp (and the same
// router at /mcp/stateless, for clients configured with it): a 2025-06-18
// or 2025-11-25 client initializes a session, a 2026-07-28 client sends
// self-contained requests (see gosdk.NewHTTPHandler). It listens on loopback
// addresses only: the example has no authentication; put it behind a
// reverse proxy to serve others (see the README's Deployment section).
//
// The HTTP server bounds what a slow or hostile client can hold, with
// the library's defaults (serve.Options): request headers must
// arrive within --header-timeout and a request body within
// --body-timeout, each write of a response must reach the client within
// --write-timeout (a 2025-era call that waits for a person writes
// nothing meanwhile and is not cut), an idle keep-alive connection is
// closed after --idle-timeout, an idle 2025-era session after
// --session-timeout, at most --max-sessions sessions are held, bodies are
// limited to --max-body-bytes and headers to --max-header-bytes, and at
// most --max-conns connections are served at once (more wait in the
// listen backlog).
//
// --conformance adds the fixtures of the official MCP conformance suites
// (see example/conformance/run.sh). ELICIT_STATE_KEYS, as
// "id:base64-secret[,id:base64-secret...]" (seal.ParseKeyRing; the
// first key seals, every key opens), sets the key ring that seals the
// requestState of 2026-07-28 calls (default: a random key per process);
// every instance behind one load balancer needs the same ring. With a
// Redis replay store the server records the ring there and does not
// start with a ring that drops a key under which questions still open
// were sealed (a key stays for the longest wait, 30 days, after it
// stops sealing), unless ELICIT_ALLOW_KEY_DROP gives the reason.
// ELICIT_REPLAY_STORE chooses where spent request states are recorded
// (each state that carried answers into a tool is used once): empty or
// "memory" for this process's memory (the default; at most
// --replay-limit unexpired claims, --replay-per-client of one client), or
// redis://HOST:PORT/DB for a Redis that every instance behind one load
// balancer shares (runtime/redisstore); the server does not start when
// that Redis does not answer or may evict claims (maxmemory-policy other
// than noeviction) unless ELICIT_REDIS_ALLOW_EVICTION gives the reason.
// ELICIT_REDIS_CLOCK_SKEW bounds how far the instances' clocks and
// Redis's may differ (default 1m; see docs/limits.md).
// ELICIT_TEST_CLOCK is a test hook, never for a deployment: the path of a
// file holding an offset in libfaketime's syntax ("+72h") that moves
// every clock of the server (see testclock.go); its start is logged as a
// warning.
// --instance names this process in its log lines (default: host-pid);
// every MCP request is logged with it, and every deployment and
// scheduled campaign.
//
// Hosted form pages: --pages (or ELICIT_PAGES=1), with --http, serves
// every form of every tool as a page under /elicit/ on the same handler,
// for clients that cannot show it: a client with URL mode only (or one
// whose known limits cannot fill the form) is sent there in URL mode, a
// client without elicitation gets a tool result with the page's link.
// ELICIT_TRUSTED_USER_HEADER names the header an identity-aware proxy
// (oauth2-proxy: X-Forwarded-User) sets with the person's identity: it
// names the principal of every MCP call and the person a page admits.
// Without it the server listens on loopback only, and its pages admit
// whoever holds the link. ELICIT_PAGE_BASE_URL is the pages' public URL
// (behind a proxy, https://.../elicit/); by default the listen address.
// With ELICIT_REPLAY_STORE=redis://..., the pages' answers are kept in
// the same Redis, so any instance serves any page.
//
// Approvers: ELICIT_APPROVERS (comma-separated principals, with --pages
// and ELICIT_TRUSTED_USER_HEADER) makes deploy_to_production need one of
// them and send_campaign ELICIT_QUORUM of them (default 2), never the
// requester: the requester's client gets the page's link, saying who must
// answer, to pass on; one decline ends the question. Refused answers on
// the page are logged.
// Each approver's inbox is /elicit/inbox. With ELICIT_NOTIFY_URL and
// ELICIT_NOTIFY_SECRET (whsec_...), each approver of a new approval page
// also gets a one-time link to it by a webhook signed as Standard
// Webhooks says.
//
// Passkey step-up: ELICIT_PASSKEY=1 (with --http, --pages and
// ELICIT_TRUSTED_USER_HEADER) makes deploy_to_production's approval need
// a passkey on the hosted page (runtime.WithStepUp): the person registers
// one at /elicit/passkey/register (kept in memory), and the receipt
// records the approver as verified by passkey.
//
// Signed receipts: --receipts FILE --receipt-key KEY.pem (a PKCS#8 PEM
// Ed25519 private key) opens a receipt log (runtime/receipt): a JSONL
// file this process alone writes, or with --receipts redis://HOST:PORT/DB
// a Redis list every instance shares. The server does not start when
// receipts are asked for and the key is missing, unreadable or not
// Ed25519, or the log cannot be written. Check a log with elicitgen
// verify --key PUB.pem FILE; see docs/receipts.md.
//
// The audit log: every question a tool asks and every answer is written
// to stderr as one JSON line per event (runtime.NewLogObserver on a
// slog JSON handler, with the instance's name), beside the plain request
// lines, each of which is one line whatever a client sent (line breaks
// escaped, client-chosen names quoted unless plain); see the README's
// Observability section for the attributes.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/example/app"
	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/redisstore"
	"github.com/elicitgen/elicitgen/runtime/seal"
	"github.com/elicitgen/elicitgen/runtime/serve"
)

// KeysEnv names the environment variable that holds the key ring.
const KeysEnv = "ELICIT_STATE_KEYS"

// legacyKeysEnv is the name KeysEnv had before; still read when KeysEnv
// is unset.
const legacyKeysEnv = "ELICITGEN_STATE_KEYS"

// ReplayStoreEnv names the environment variable that chooses the replay
// store: "" or "memory", or redis://HOST:PORT/DB.
const ReplayStoreEnv = "ELICIT_REPLAY_STORE"

// ProgressIntervalEnv, when set, is how often a 2025-era tool call with a
// progressToken is sent notifications/progress while the person answers
// (a Go duration: "15s"; "-1s" for none).
const ProgressIntervalEnv = "ELICIT_PROGRESS_INTERVAL"

// PageHoldEnv, when set, is how long a 2025-era call whose form went to
// the hosted page in URL mode waits for the person's answer before it
// returns the page's link (a Go duration: "50s", the default; "-1s" until
// the page closes). The page stays open either way.
const PageHoldEnv = "ELICIT_PAGE_HOLD"

// FormAppsEnv set to 1 renders the forms as an MCP App for hosts that
// declare app-rendered elicitation (SEP-3118, draft), such as the MCP
// Inspector's web UI.
const FormAppsEnv = "ELICIT_FORM_APPS"

// RenderingEnv names the environment variable that sets the server-wide
// rendering of the tools' forms (adapter.Options.Rendering): "url-page"
// or "link" sends every person to the hosted page (it needs --pages),
// for a deployment behind a gateway that passes the client's elicitation
// capability on but cannot relay a request to it; "" or "auto" chooses
// per client.
const RenderingEnv = "ELICIT_RENDERING"

// AllowEvictionEnv names the environment variable that lets the Redis
// replay store run on a Redis whose maxmemory-policy may evict claims:
// its value is the reason, logged at start (redisstore.Store.AllowEviction).
const AllowEvictionEnv = "ELICIT_REDIS_ALLOW_EVICTION"

// ClockSkewEnv names the environment variable that sets how far the
// clocks of the instances and of Redis may differ (default 1m;
// redisstore.Store.ClockSkew).
const ClockSkewEnv = "ELICIT_REDIS_CLOCK_SKEW"

// replayStore returns the store spec names (for memory, an in-memory
// store bounded by mem), the page
// store in the same Redis (nil for memory), and its closer. A Redis
// store must pass Start (reachable, an eviction policy that keeps
// claims).
func replayStore(spec string, mem *replayLimits) (seal.ReplayStore, page.Store, func(), error) {
	switch {
	case spec == "" || spec == "memory":
		return mem.store(), nil, func() {}, nil
	case strings.HasPrefix(spec, "redis://") || strings.HasPrefix(spec, "rediss://"):
		st, err := redisstore.Open(spec)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("%s: %w", ReplayStoreEnv, err)
		}
		st.AllowEviction = os.Getenv(AllowEvictionEnv)
		if v := os.Getenv(ClockSkewEnv); v != "" {
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 {
				st.Close()
				return nil, nil, nil, fmt.Errorf("%s=%q: want a positive duration such as 30s", ClockSkewEnv, v)
			}
			st.ClockSkew = d
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := st.Start(ctx); err != nil {
			st.Close()
			return nil, nil, nil, fmt.Errorf("%s: %w", ReplayStoreEnv, err)
		}
		return st, st.PageStore(), func() { st.Close() }, nil
	}
	return nil, nil, nil, fmt.Errorf("%s=%q: want memory or redis://HOST:PORT/DB", ReplayStoreEnv, spec)
}

func main() {
	httpAddr := flag.String("http", "", "serve streamable HTTP on this loopback `address` (host:port) instead of stdio")
	conformance := flag.Bool("conformance", false, "also serve the fixtures of the official MCP conformance suites")
	instance := flag.String("instance", "", "this process's `name` in log lines (default: host-pid)")
	cgiMode := flag.Bool("cgi", false, "serve the one request of a CGI invocation (net/http/cgi), 2026-07-28 requests only; the stores and keys come from the environment")
	pages := flag.Bool("pages", os.Getenv(PagesEnv) == "1", "serve hosted form pages (with --http) to clients that cannot show a form (also "+PagesEnv+"=1)")
	lim := httpFlags(flag.CommandLine)
	replayLim := replayFlags(flag.CommandLine)
	receipts := receiptFlags(flag.CommandLine)
	flag.Parse()
	id := *instance
	if id == "" {
		host, _ := os.Hostname()
		id = host + "-" + strconv.Itoa(os.Getpid())
	}
	log.SetFlags(0)
	log.SetOutput(lineWriter{os.Stderr}) // one line per entry, whatever a client sent
	log.SetPrefix("elicitgen-example[" + id + "]: ")
	if *cgiMode && *httpAddr != "" {
		log.Fatal("--cgi and --http exclude each other")
	}
	if err := run(*httpAddr, *cgiMode, *conformance, *pages, lim, replayLim, auditObserver(os.Stderr, id), receipts); err != nil {
		log.Fatal(err)
	}
}

func run(httpAddr string, cgiMode, conformance, pages bool, lim *serve.Options, replayLim *replayLimits, audit runtime.Observer, receipts *receiptOptions) error {
	opts := app.Options{Conformance: conformance, Observer: audit}
	now, err := testClock() // nil unless the test hook ELICIT_TEST_CLOCK is set
	if err != nil {
		return err
	}
	opts.Now = now
	rlog, closeReceipts, err := receipts.open(context.Background())
	if err != nil {
		return err
	}
	defer closeReceipts()
	opts.Receipts = rlog
	opts.FormApps = os.Getenv(FormAppsEnv) == "1"
	switch r := runtime.Rendering(os.Getenv(RenderingEnv)); {
	case r == "" || r == "auto":
	case r != runtime.RenderingURLPage && r != runtime.RenderingLink:
		return fmt.Errorf("%s=%q: want url-page, link or auto", RenderingEnv, r)
	case !pages:
		return fmt.Errorf("%s=%s sends every person to the hosted page: start with --pages (or %s=1)", RenderingEnv, r, PagesEnv)
	default:
		opts.Rendering = r
	}
	if v := os.Getenv(ProgressIntervalEnv); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			return fmt.Errorf("%s: %w", ProgressIntervalEnv, err)
		}
		opts.ProgressInterval = d
	}
	if v := os.Getenv(PageHoldEnv); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			return fmt.Errorf("%s: %w", PageHoldEnv, err)
		}
		opts.PageHold = d
	}
	spec := os.Getenv(KeysEnv)
	if spec == "" {
		spec = os.Getenv(legacyKeysEnv)
	}
	if spec != "" {
		keys, err := seal.ParseKeyRing(spec)
		if err != nil {
			return fmt.Errorf("%s: %w", KeysEnv, err)
		}
		opts.Keys = keys
	} else {
		opts.Keys = seal.NewRandomKeyRing()
	}
	replay, pageStore, closeReplay, err := replayStore(os.Getenv(ReplayStoreEnv), replayLim)
	if err != nil {
		return err
	}
	defer closeReplay()
	if pageStore == nil {
		pageStore = page.NewMemoryStore() // the hosted pages' and the tasks', on the server's clock
	}
	clockStores(now, replay, pageStore)
	if spec != "" {
		if err := checkKeyRing(context.Background(), opts.Keys, replay, cgiMode); err != nil {
			return err
		}
	}
	opts.Replay = replay
	opts.Logf = log.Printf
	identity, err := trustedIdentity()
	if err != nil {
		return err
	}
	opts.Identity = identity
	if opts.Approvers, opts.Quorum, err = approversFromEnv(pages, identity != nil); err != nil {
		return err
	}
	opts.StepUp = os.Getenv(PasskeyEnv) == "1"
	if err := checkPasskey(opts.StepUp, pages, identity != nil, cgiMode); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if cgiMode {
		return serveCGI(opts, pages, pageStore, lim)
	}
	if httpAddr == "" {
		if pages {
			return errors.New("--pages needs --http: the pages are served on the HTTP handler")
		}
		s := app.NewServer(opts)
		s.AddReceivingMiddleware(logRequests)
		return s.Run(ctx, gosdk.StdioTransport(0)) // survives a malformed line, reads answers with exact keys
	}
	return serveHTTP(ctx, opts, pages, pageStore, httpAddr, lim)
}

// logRequests logs every MCP request the server receives, one line each
// (with the instance's name, from the log prefix): the method and, for a
// tool call, the tool, whether it echoed a requestState and how many
// input responses it carried. The rounds of one 2026-07-28 call show up
// as lines of the same tool with growing responses, possibly on
// different instances.
func logRequests(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if p, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok && method == "tools/call" {
			state := "no"
			if p.RequestState != "" {
				state = "yes"
			}
			log.Printf("%s tool=%s requestState=%s inputResponses=%d", method, logName(p.Name), state, len(p.InputResponses))
		} else if len(method) < 14 || method[:14] != "notifications/" {
			log.Printf("%s", logName(method))
		}
		return next(ctx, method, req)
	}
}

// serveHTTP serves the example on addr until ctx ends: a loopback
// address, unless the person's identity comes from a trusted proxy
// header (ELICIT_TRUSTED_USER_HEADER).
func serveHTTP(ctx context.Context, opts app.Options, pages bool, pageStore page.Store, addr string, lim *serve.Options) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--http %q: %v", addr, err)
	}
	ip := net.ParseIP(host)
	loopback := host == "localhost" || ip != nil && ip.IsLoopback()
	if !loopback && opts.Identity == nil {
		return fmt.Errorf("--http %q: listen on a loopback address (127.0.0.1, [::1], localhost), or set %s behind an identity-aware proxy: the example server has no authentication of its own", addr, TrustedUserHeaderEnv)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	if pages {
		p, h, err := newPages(opts.Keys, pageStore, ln.Addr(), loopback, opts.Identity, opts.StepUp, opts.Receipts)
		if err != nil {
			ln.Close()
			return err
		}
		opts.Pages = p
		o := *lim
		o.Pages, o.PagesPath = h, PagesPath
		lim = &o
	}
	lim = withTasks(lim, pageStore, opts.Identity, opts.Now)
	opts.Tasks = true
	s := app.NewServer(opts)
	s.AddReceivingMiddleware(logRequests)
	log.Printf("serving http://%s/mcp (every protocol era; also at /mcp/stateless)", ln.Addr())
	return serve.Serve(ctx, newHTTPServer(s, lim), ln, *lim)
}
