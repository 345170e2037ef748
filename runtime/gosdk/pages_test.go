package gosdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/redis/go-redis/v9"

	"github.com/elicitgen/elicitgen/internal/pagetest"
	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/deliver"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/redisstore"
	"github.com/elicitgen/elicitgen/runtime/seal"
	"github.com/elicitgen/elicitgen/runtime/serve"
)

const userHeader = "X-Forwarded-User"

func identity(r *http.Request) (string, bool) {
	u := r.Header.Get(userHeader)
	return u, u != ""
}

// pagesServer serves a "deploy" tool that asks testforms.Deploy, with
// hosted pages on the same handler. deploys counts the accepted deploys.
type pagesServer struct {
	url, base string
	deploys   atomic.Int64
	events    chan runtime.Event
}

func newPagesServer(t *testing.T, store page.Store, opts ...func(*gosdk.Config)) *pagesServer {
	t.Helper()
	ps := &pagesServer{events: make(chan runtime.Event, 100)}
	srv := httptest.NewUnstartedServer(nil)
	ps.url = "http://" + srv.Listener.Addr().String()
	ps.base = ps.url + "/elicit/"
	keys := seal.NewRandomKeyRing()
	pages, err := page.New(page.Config{Keys: keys, Store: store, BaseURL: ps.base, Identity: identity})
	if err != nil {
		t.Fatal(err)
	}
	cfg := &gosdk.Config{
		Options: adapter.Options{
			Keys:  keys,
			Pages: pages,
			Observer: runtime.ObserverFunc(func(_ context.Context, e runtime.Event) {
				select {
				case ps.events <- e:
				default:
				}
			}),
		},
		Principal: gosdk.IdentityPrincipal(identity),
	}
	for _, o := range opts {
		o(cfg)
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "v0"}, nil)
	type args struct {
		Service string `json:"service"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "deploy"}, gosdk.HandleFor(cfg, func(ctx context.Context, _ *mcp.CallToolRequest, in args, ask runtime.Asker) (*mcp.CallToolResult, any, error) {
		out, err := testforms.AskDeploy(ctx, ask, "Deploy "+in.Service+"?")
		if err != nil {
			return nil, nil, err
		}
		d, ok := out.Accepted()
		if !ok {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "not deployed: " + string(out.Action)}}}, nil, nil
		}
		ps.deploys.Add(1)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("deployed %s: %s to %s x%d", in.Service, d.Branch, d.Env, d.Replicas)}}}, nil, nil
	}))
	mcp.AddTool(s, &mcp.Tool{Name: "connect"}, gosdk.HandleFor(cfg, func(ctx context.Context, _ *mcp.CallToolRequest, in args, ask runtime.Asker) (*mcp.CallToolResult, any, error) {
		out, err := runtime.AskURLFlow(ctx, ask, "Connect your "+in.Service+" account.", func(id string) string {
			return deliver.PageURL("https://acme.example/connect", "flow", id)
		})
		if err != nil {
			return nil, nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(out.Action) + " " + out.FlowID}}}, nil, nil
	}))
	srv.Config.Handler = gosdk.NewHTTPHandler(s, &serve.Options{Pages: pages, PagesPath: "/elicit/"})
	srv.Start()
	t.Cleanup(srv.Close)
	return ps
}

// headerTransport sets the identity header on every request.
type headerTransport struct{ user string }

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(userHeader, h.user)
	return http.DefaultTransport.RoundTrip(r)
}

func connect(t *testing.T, ctx context.Context, ps *pagesServer, user, version string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "v0"}, opts)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ps.url + "/mcp", HTTPClient: &http.Client{Transport: headerTransport{user}}},
		&mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func call(t *testing.T, ctx context.Context, cs *mcp.ClientSession, service string) (string, bool) {
	t.Helper()
	return callTool(t, ctx, cs, "deploy", service)
}

func callTool(t *testing.T, ctx context.Context, cs *mcp.ClientSession, tool, service string) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{"service": service}})
	if err != nil {
		t.Fatalf("call: %v", err)
	}
	var sb strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			sb.WriteString(tc.Text)
		}
	}
	return sb.String(), res.IsError
}

func as(user string) http.Header { return http.Header{userHeader: {user}} }

var deployAnswer = url.Values{"branch": {"release"}, "env": {"prod"}, "replicas": {"3"}, "confirm": {"true"}}

// A client without elicitation gets the link; the page is answered; the
// same call again deploys once; a third call asks again. Other arguments
// or another person take nothing.
func TestPagesLink(t *testing.T) {
	for _, version := range []string{runtime.Version20251125, runtime.Version20260728} {
		t.Run(version, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			ps := newPagesServer(t, nil)
			alice := connect(t, ctx, ps, "alice", version, nil)
			bob := connect(t, ctx, ps, "bob", version, nil)

			text, isErr := call(t, ctx, alice, "api")
			link := pagetest.LinkIn(text, ps.base)
			if !isErr || link == "" || !strings.Contains(text, "call the tool \"deploy\" again with exactly the same arguments") || !strings.Contains(text, "The page closes at ") {
				t.Fatalf("first call: isError %v, text:\n%s", isErr, text)
			}
			// Called again before the page is answered: the same page,
			// still open.
			text, _ = call(t, ctx, alice, "api")
			if !strings.Contains(text, "still open") {
				t.Fatalf("second call before the answer:\n%s", text)
			}
			// Another person cannot open alice's page.
			if status, _, _ := pagetest.Answer(ctx, link, as("bob"), "accept", deployAnswer); status != http.StatusForbidden {
				t.Fatalf("bob's post: status %d, want 403", status)
			}
			// An invalid answer is shown again, and stores nothing.
			bad := url.Values{"replicas": {"30"}, "confirm": {"true"}}
			if status, _, _ := pagetest.Answer(ctx, link, as("alice"), "accept", bad); status != http.StatusUnprocessableEntity {
				t.Fatalf("invalid post: status %d, want 422", status)
			}
			if status, body, err := pagetest.Answer(ctx, link, as("alice"), "accept", deployAnswer); err != nil || status != http.StatusOK {
				t.Fatalf("alice's post: %d %v\n%s", status, err, body)
			}
			// Other arguments, or another person: a new link, nothing taken.
			if text, _ := call(t, ctx, alice, "web"); pagetest.LinkIn(text, ps.base) == "" || strings.Contains(text, "still open") {
				t.Fatalf("other arguments:\n%s", text)
			}
			if text, _ := call(t, ctx, bob, "api"); pagetest.LinkIn(text, ps.base) == "" {
				t.Fatalf("another person:\n%s", text)
			}
			if n := ps.deploys.Load(); n != 0 {
				t.Fatalf("%d deploys before the call that takes the answer", n)
			}
			text, isErr = call(t, ctx, alice, "api")
			if isErr || text != "deployed api: release to prod x3" {
				t.Fatalf("call after the answer: isError %v: %s", isErr, text)
			}
			// The answer is spent: the next call asks again.
			text, _ = call(t, ctx, alice, "api")
			if l := pagetest.LinkIn(text, ps.base); l == "" || l == link || strings.Contains(text, "still open") {
				t.Fatalf("third call: want a new link:\n%s", text)
			}
			if n := ps.deploys.Load(); n != 1 {
				t.Fatalf("%d deploys, want 1", n)
			}
			// The answered page says so.
			if status, _, _ := pagetest.Answer(ctx, link, as("alice"), "accept", deployAnswer); status != http.StatusConflict {
				t.Fatalf("answered page: status %d, want 409", status)
			}
			var sawLink bool
			for len(ps.events) > 0 {
				if e := <-ps.events; e.Kind == runtime.EventAsked && e.Rendering == runtime.RenderingLink && strings.Contains(e.RenderingReason, "no elicitation") {
					sawLink = true
				}
			}
			if !sawLink {
				t.Error("no asked event with rendering link and its reason")
			}
		})
	}
}

// A decline on the page reaches the handler as a decline.
func TestPagesLinkDecline(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ps := newPagesServer(t, nil)
	cs := connect(t, ctx, ps, "alice", runtime.Version20260728, nil)
	text, _ := call(t, ctx, cs, "api")
	if status, _, _ := pagetest.Answer(ctx, pagetest.LinkIn(text, ps.base), as("alice"), "decline", nil); status != http.StatusOK {
		t.Fatalf("decline: status %d", status)
	}
	if text, _ := call(t, ctx, cs, "api"); text != "not deployed: decline" {
		t.Fatalf("after a decline: %s", text)
	}
}

// A client that declares URL mode only is sent to the page, and completes
// on both eras; on 2025-11-25 the complete notification arrives.
func TestPagesURLMode(t *testing.T) {
	for _, version := range []string{runtime.Version20251125, runtime.Version20260728} {
		t.Run(version, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			ps := newPagesServer(t, nil)
			completed := make(chan string, 1)
			var urls []string
			var asks atomic.Int64
			opts := &mcp.ClientOptions{
				Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}},
				ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					if req.Params.Mode != "url" {
						return nil, errors.New("not a URL-mode request")
					}
					urls = append(urls, req.Params.URL)
					if asks.Add(1) == 1 && version == runtime.Version20260728 {
						// Accept without answering the page first: the
						// same page is asked again, still open.
						return &mcp.ElicitResult{Action: "accept"}, nil
					}
					if strings.Contains(req.Params.Message, "still open") != (asks.Load() == 2) {
						return nil, fmt.Errorf("message %q", req.Params.Message)
					}
					status, body, err := pagetest.Answer(ctx, req.Params.URL, as("alice"), "accept", deployAnswer)
					if err != nil || status != http.StatusOK {
						return nil, fmt.Errorf("page: %d %v %s", status, err, body)
					}
					// The page says what happens next: on 2025-11-25 the
					// call waits and takes the answer; on 2026-07-28 the
					// client goes on once the person confirms there.
					want := "your answer was sent"
					if version == runtime.Version20260728 {
						want = "Go back to your assistant and confirm there"
					}
					if !strings.Contains(body, want) {
						return nil, fmt.Errorf("the page after the answer lacks %q:\n%s", want, body)
					}
					return &mcp.ElicitResult{Action: "accept"}, nil
				},
				ElicitationCompleteHandler: func(_ context.Context, r *mcp.ElicitationCompleteNotificationRequest) {
					completed <- r.Params.ElicitationID
				},
			}
			cs := connect(t, ctx, ps, "alice", version, opts)
			text, isErr := call(t, ctx, cs, "api")
			if isErr || text != "deployed api: release to prod x3" {
				t.Fatalf("isError %v: %s", isErr, text)
			}
			if version == runtime.Version20251125 {
				select {
				case <-completed:
				case <-time.After(5 * time.Second):
					t.Fatal("no notifications/elicitation/complete")
				}
			} else if len(urls) != 2 {
				t.Fatalf("%d URL-mode requests, want 2 (the second after an accept without an answer)", len(urls))
			}
			if n := ps.deploys.Load(); n != 1 {
				t.Fatalf("%d deploys", n)
			}
		})
	}
}

// A URL-mode flow its client ends voids the page's answer: the person
// accepts on the page, the client declines the URL-mode request, and a
// later call with the same arguments from a client without elicitation
// gets a new link and deploys nothing.
func TestPagesURLModeDeclineVoidsAnswer(t *testing.T) {
	for _, version := range []string{runtime.Version20251125, runtime.Version20260728} {
		t.Run(version, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			ps := newPagesServer(t, nil)
			var page string
			opts := &mcp.ClientOptions{
				Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}},
				ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					page = req.Params.URL
					if status, body, err := pagetest.Answer(ctx, page, as("alice"), "accept", deployAnswer); err != nil || status != http.StatusOK {
						return nil, fmt.Errorf("page: %d %v %s", status, err, body)
					}
					return &mcp.ElicitResult{Action: "decline"}, nil
				},
			}
			if text, _ := call(t, ctx, connect(t, ctx, ps, "alice", version, opts), "api"); text != "not deployed: decline" {
				t.Fatalf("URL-mode client: %s", text)
			}
			text, isErr := call(t, ctx, connect(t, ctx, ps, "alice", version, nil), "api")
			if l := pagetest.LinkIn(text, ps.base); !isErr || l == "" || l == page || strings.Contains(text, "still open") {
				t.Fatalf("client without elicitation after the declined flow: isError %v:\n%s", isErr, text)
			}
			if n := ps.deploys.Load(); n != 0 {
				t.Fatalf("%d deploys from the answer of a declined flow", n)
			}
		})
	}
}

// A URL flow whose client cannot open URL mode goes out as its link, as a
// form does: the tool result carries the flow's own URL; the same call
// made again by the same person goes on with the same flow id; the call
// after that, or another person's, starts a new flow.
func TestPagesURLFlowLink(t *testing.T) {
	formOnly := &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}}},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return nil, errors.New("a request went to a client that cannot open it")
		},
	}
	for _, tc := range []struct {
		version string
		opts    *mcp.ClientOptions
	}{{runtime.Version20250618, nil}, {runtime.Version20251125, nil}, {runtime.Version20260728, formOnly}} {
		t.Run(tc.version, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			ps := newPagesServer(t, nil)
			alice := connect(t, ctx, ps, "alice", tc.version, tc.opts)
			const page = "https://acme.example/connect?flow="
			text, isErr := callTool(t, ctx, alice, "connect", "acme")
			first := pagetest.LinkIn(text, page)
			if !isErr || first == "" || !strings.Contains(text, `call the tool "connect" again with exactly the same arguments`) ||
				!strings.Contains(text, `(it says: "Connect your acme account.")`) || strings.Contains(text, "answer the form") {
				t.Fatalf("first call: isError %v:\n%s", isErr, text)
			}
			flow := strings.TrimPrefix(first, page)
			if text, _ := callTool(t, ctx, connect(t, ctx, ps, "bob", tc.version, tc.opts), "connect", "acme"); pagetest.LinkIn(text, page) == first {
				t.Fatalf("another person got alice's flow:\n%s", text)
			}
			if text, isErr := callTool(t, ctx, alice, "connect", "acme"); isErr || text != "accept "+flow {
				t.Fatalf("the same call again: isError %v: %q, want %q", isErr, text, "accept "+flow)
			}
			text, isErr = callTool(t, ctx, alice, "connect", "acme")
			if l := pagetest.LinkIn(text, page); !isErr || l == "" || l == first {
				t.Fatalf("the call after: want a new flow:\n%s", text)
			}
		})
	}
}

// While a person answers the page on 2025-11-25, a call that carries a
// progressToken hears notifications/progress, so a client that resets its
// timeout on progress keeps waiting.
func TestPagesURLModeProgress(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ps := newPagesServer(t, nil, func(c *gosdk.Config) { c.ProgressInterval = 20 * time.Millisecond })
	var progress atomic.Int64
	opts := &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}},
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			go func() { // the person opens the page later
				time.Sleep(300 * time.Millisecond)
				_, _, _ = pagetest.Answer(ctx, req.Params.URL, as("alice"), "accept", deployAnswer)
			}()
			return &mcp.ElicitResult{Action: "accept"}, nil
		},
		ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) { progress.Add(1) },
	}
	cs := connect(t, ctx, ps, "alice", runtime.Version20251125, opts)
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "deploy", Arguments: map[string]any{"service": "api"}, Meta: mcp.Meta{"progressToken": "p1"}})
	if err != nil || res.IsError || ps.deploys.Load() != 1 {
		t.Fatalf("call = %+v, %v; %d deploys", res, err, ps.deploys.Load())
	}
	if n := progress.Load(); n < 3 {
		t.Errorf("%d progress notifications while the page was open, want several", n)
	}
}

// Codex cannot fill integer fields: with form mode only it gets the link,
// with URL mode too the URL-mode page.
func TestPagesCodexProfile(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ps := newPagesServer(t, nil)
	c := mcp.NewClient(&mcp.Implementation{Name: "codex-mcp-client", Version: "0.150.0"}, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return nil, errors.New("a form went to Codex")
		},
	})
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ps.url + "/mcp", HTTPClient: &http.Client{Transport: headerTransport{"alice"}}},
		&mcp.ClientSessionOptions{ProtocolVersion: runtime.Version20251125})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	text, _ := call(t, ctx, cs, "api")
	if pagetest.LinkIn(text, ps.base) == "" {
		t.Fatalf("Codex: %s", text)
	}
	for len(ps.events) > 0 {
		if e := <-ps.events; e.Kind == runtime.EventAsked {
			if e.Rendering != runtime.RenderingLink || !strings.Contains(e.RenderingReason, "Codex CLI cannot edit integer fields (replicas)") {
				t.Fatalf("rendering %q: %q", e.Rendering, e.RenderingReason)
			}
			return
		}
	}
	t.Fatal("no asked event")
}

// The answer store down: the call is refused, never accepted.
func TestPagesStoreDown(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rc := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1, DialTimeout: 200 * time.Millisecond})
	defer rc.Close()
	ps := newPagesServer(t, redisstore.NewPageStore(rc))
	cs := connect(t, ctx, ps, "alice", runtime.Version20260728, nil)
	text, isErr := call(t, ctx, cs, "api")
	if !isErr || pagetest.LinkIn(text, ps.base) != "" || ps.deploys.Load() != 0 {
		t.Fatalf("isError %v: %s", isErr, text)
	}
	b, _ := json.Marshal(text)
	t.Logf("refusal: %s", b)
}
