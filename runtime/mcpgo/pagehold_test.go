package mcpgo_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	mgclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/elicitgen/elicitgen/internal/pagetest"
	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
	"github.com/elicitgen/elicitgen/runtime/mcpgo"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/seal"
	"github.com/elicitgen/elicitgen/runtime/serve"
)

const userHeader = "X-Forwarded-User"

var alice = http.Header{userHeader: {"alice"}}

// holdSite is an mcp-go server over HTTP with a "deploy" tool whose form
// goes to the hosted page in URL mode, and a 2025-11-25 client of it that
// declares URL mode only and answers each URL-mode request with answer.
type holdSite struct {
	base    string
	client  *mgclient.Client
	deploys atomic.Int64
	pushes  atomic.Int64
	ended   chan struct{}
}

type urlAnswerer func(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error)

func (f urlAnswerer) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	return f(ctx, req)
}

func newHoldSite(t *testing.T, ctx context.Context, hold time.Duration, answer urlAnswerer) *holdSite {
	t.Helper()
	identity := func(r *http.Request) (string, bool) {
		u := r.Header.Get(userHeader)
		return u, u != ""
	}
	hs := &holdSite{ended: make(chan struct{}, 8)}
	srv := httptest.NewUnstartedServer(nil)
	hs.base = "http://" + srv.Listener.Addr().String() + "/elicit/"
	keys := seal.NewRandomKeyRing()
	pages, err := page.New(page.Config{Keys: keys, BaseURL: hs.base, Identity: identity})
	if err != nil {
		t.Fatal(err)
	}
	s := server.NewMCPServer("srv", "v0", server.WithElicitation())
	cfg := &mcpgo.Config{Options: adapter.Options{Keys: keys, Pages: pages, PageHold: hold}, Principal: mcpgo.IdentityPrincipal(identity)}
	s.AddTool(mcp.NewTool("deploy"), mcpgo.Handle(cfg, func(ctx context.Context, _ mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
		defer func() { hs.ended <- struct{}{} }()
		out, err := testforms.AskDeploy(ctx, ask, "Deploy?")
		if err != nil {
			return nil, err
		}
		d, ok := out.Accepted()
		if !ok {
			return mcp.NewToolResultText("not deployed: " + string(out.Action)), nil
		}
		hs.deploys.Add(1)
		return mcp.NewToolResultText(fmt.Sprintf("deployed %s x%d", d.Env, d.Replicas)), nil
	}))
	srv.Config.Handler = mcpgo.NewHTTPHandler(s, &serve.Options{Pages: pages, PagesPath: "/elicit/"})
	srv.Start()
	t.Cleanup(srv.Close)
	tr, err := transport.NewStreamableHTTP(srv.URL+"/mcp", transport.WithHTTPHeaders(map[string]string{userHeader: "alice"}))
	if err != nil {
		t.Fatal(err)
	}
	c := mgclient.NewClient(tr, mgclient.WithProtocolVersion(runtime.Version20251125),
		mgclient.WithClientCapabilities(mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapability{URL: &struct{}{}}}),
		mgclient.WithElicitationHandler(urlAnswerer(func(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
			hs.pushes.Add(1)
			if req.Params.Mode != "url" {
				return nil, errors.New("not a URL-mode request")
			}
			return answer(ctx, req)
		})))
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "url-only", Version: "v0"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	hs.client = c
	return hs
}

func (hs *holdSite) call(t *testing.T, ctx context.Context) (string, bool) {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = "deploy"
	res, err := hs.client.CallTool(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	for _, ct := range res.Content {
		if tc, ok := ct.(mcp.TextContent); ok {
			sb.WriteString(tc.Text)
		}
	}
	return sb.String(), res.IsError
}

var holdAnswer = url.Values{"env": {"prod"}, "replicas": {"2"}, "confirm": {"true"}}

const keptNotice = "the request that asked for it is no longer waiting"

// On mcp-go too, a 2025-11-25 client that gives up on the call while the
// page is open leaves the page open: the person answers later, the page
// says the answer is kept, and the same call made again takes it without
// asking again.
func TestPagesURLModeClientGivesUp(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	links := make(chan string, 4)
	hs := newHoldSite(t, ctx, 0, func(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
		links <- req.Params.URL
		return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept}}, nil
	})
	callCtx, giveUp := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		req := mcp.CallToolRequest{}
		req.Params.Name = "deploy"
		_, _ = hs.client.CallTool(callCtx, req)
	}()
	var link string
	select {
	case link = <-links:
	case <-ctx.Done():
		t.Fatal("no URL-mode request")
	}
	giveUp()
	<-done
	select {
	case <-hs.ended:
	case <-ctx.Done():
		t.Fatal("the handler did not end when the client gave up")
	}
	status, body, err := pagetest.Answer(ctx, link, alice, "accept", holdAnswer)
	if err != nil || status != http.StatusOK || !strings.Contains(body, keptNotice) || strings.Contains(body, "was sent") {
		t.Fatalf("the page after the client gave up: %d %v\n%s", status, err, body)
	}
	if text, isErr := hs.call(t, ctx); isErr || text != "deployed prod x2" {
		t.Fatalf("the same call again: isError %v: %s", isErr, text)
	}
	if n := hs.pushes.Load(); n != 1 {
		t.Errorf("%d URL-mode requests, want 1", n)
	}
}

// On mcp-go too, a call holds its request at most Config.PageHold, then
// returns the page's link; the answer given then is kept, and the same
// call made again takes it.
func TestPagesURLModeHoldEnds(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	hs := newHoldSite(t, ctx, 300*time.Millisecond, func(context.Context, mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
		return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept}}, nil
	})
	text, isErr := hs.call(t, ctx)
	link := pagetest.LinkIn(text, hs.base)
	if !isErr || link == "" || !strings.Contains(text, "has not answered yet") ||
		!strings.Contains(text, `call the tool "deploy" again with exactly the same arguments`) {
		t.Fatalf("the call whose hold ended: isError %v:\n%s", isErr, text)
	}
	status, body, err := pagetest.Answer(ctx, link, alice, "accept", holdAnswer)
	if err != nil || status != http.StatusOK || !strings.Contains(body, keptNotice) {
		t.Fatalf("the page after the hold: %d %v\n%s", status, err, body)
	}
	if text, isErr := hs.call(t, ctx); isErr || text != "deployed prod x2" {
		t.Fatalf("the same call again: isError %v: %s", isErr, text)
	}
	if n, d := hs.pushes.Load(), hs.deploys.Load(); n != 1 || d != 1 {
		t.Errorf("%d URL-mode requests, %d deploys; want 1 and 1", n, d)
	}
}
