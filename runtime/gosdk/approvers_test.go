package gosdk_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/internal/pagetest"
	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/seal"
	"github.com/elicitgen/elicitgen/runtime/serve"
)

// approversServer serves "deploy" (one of bob, carol; the requester
// excluded) and "campaign" (two of them) with hosted pages.
type approversServer struct {
	url, base string
	done      atomic.Int64
	mu        sync.Mutex
	decided   []adapter.Decided // Options.Record
}

func newApproversServer(t *testing.T) *approversServer {
	t.Helper()
	as := &approversServer{}
	srv := httptest.NewUnstartedServer(nil)
	as.url = "http://" + srv.Listener.Addr().String()
	as.base = as.url + "/elicit/"
	keys := seal.NewRandomKeyRing()
	pages, err := page.New(page.Config{Keys: keys, BaseURL: as.base, Identity: identity})
	if err != nil {
		t.Fatal(err)
	}
	cfg := &gosdk.Config{Options: adapter.Options{Keys: keys, Pages: pages, Record: func(_ context.Context, q adapter.Decided) error {
		as.mu.Lock()
		as.decided = append(as.decided, q)
		as.mu.Unlock()
		return nil
	}}, Principal: gosdk.IdentityPrincipal(identity)}
	s := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "v0"}, nil)
	type args struct {
		Service string `json:"service"`
	}
	for tool, quorum := range map[string]int{"deploy": 1, "campaign": 2} {
		policy := runtime.Approvers{Principals: []string{"alice", "bob", "carol"}, ExcludeRequester: true, Quorum: quorum}
		mcp.AddTool(s, &mcp.Tool{Name: tool}, gosdk.HandleFor(cfg, func(ctx context.Context, _ *mcp.CallToolRequest, in args, ask runtime.Asker) (*mcp.CallToolResult, any, error) {
			out, err := testforms.AskDeploy(ctx, ask, "Deploy "+in.Service+"?", runtime.WithApprovers(policy))
			if err != nil {
				return nil, nil, err
			}
			d, ok := out.Accepted()
			if !ok {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "not done: " + string(out.Action)}}}, nil, nil
			}
			as.done.Add(1)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("done %s: %s x%d", in.Service, d.Env, d.Replicas)}}}, nil, nil
		}))
	}
	srv.Config.Handler = gosdk.NewHTTPHandler(s, &serve.Options{Pages: pages, PagesPath: "/elicit/"})
	srv.Start()
	t.Cleanup(srv.Close)
	return as
}

// On every era, a requester whose client shows forms never gets the form
// of a question that excludes them (the client's own form path): the tool
// result carries the page's link and says who must answer; the requester
// cannot answer the page; an approver can, and the requester's next call
// takes it.
func TestApproversRequesterExcluded(t *testing.T) {
	for _, version := range []string{runtime.Version20250618, runtime.Version20251125, runtime.Version20260728} {
		t.Run(version, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			as := newApproversServer(t)
			var forms atomic.Int64
			alice := connect(t, ctx, &pagesServer{url: as.url}, "alice", version, &mcp.ClientOptions{
				ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					forms.Add(1) // the requester approving on their own form
					return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"env": "prod", "replicas": 3, "confirm": true}}, nil
				},
			})
			text, isErr := callTool(t, ctx, alice, "deploy", "api")
			link := pagetest.LinkIn(text, as.base)
			if !isErr || link == "" || !strings.Contains(text, "one of alice, bob, carol (not the person who asked)") ||
				!strings.Contains(text, "pass this link on") {
				t.Fatalf("first call: isError %v:\n%s", isErr, text)
			}
			if status, body, _ := pagetest.Answer(ctx, link, as_("alice"), "accept", deployAnswer); status != http.StatusForbidden ||
				!strings.Contains(body, "cannot approve it yourself") {
				t.Fatalf("the requester on the page: %d\n%s", status, body)
			}
			if text, _ := callTool(t, ctx, alice, "deploy", "api"); !strings.Contains(text, "still open") || as.done.Load() != 0 {
				t.Fatalf("after the requester's post: %s", text)
			}
			if status, body, _ := pagetest.Answer(ctx, link, as_("bob"), "accept", deployAnswer); status != http.StatusOK {
				t.Fatalf("bob: %d\n%s", status, body)
			}
			if text, isErr := callTool(t, ctx, alice, "deploy", "api"); isErr || text != "done api: prod x3" {
				t.Fatalf("after bob's approval: %v %s", isErr, text)
			}
			if n := forms.Load(); n != 0 {
				t.Fatalf("the requester's client was asked %d forms", n)
			}
		})
	}
}

// Two of three needs two distinct approvers: the same approver twice
// counts once, and the requester's calls say how many have approved.
func TestApproversQuorum(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	as := newApproversServer(t)
	alice := connect(t, ctx, &pagesServer{url: as.url}, "alice", runtime.Version20260728, nil)
	text, _ := callTool(t, ctx, alice, "campaign", "spring")
	link := pagetest.LinkIn(text, as.base)
	if link == "" || !strings.Contains(text, "2 different people among alice, bob, carol") || !strings.Contains(text, "0 of 2 approvals") {
		t.Fatalf("first call:\n%s", text)
	}
	if status, body, _ := pagetest.Answer(ctx, link, as_("bob"), "accept", deployAnswer); status != http.StatusOK || !strings.Contains(body, "1 of 2") {
		t.Fatalf("bob: %d\n%s", status, body)
	}
	if status, _, _ := pagetest.Answer(ctx, link, as_("bob"), "accept", deployAnswer); status != http.StatusConflict {
		t.Fatalf("bob again: %d, want 409", status)
	}
	if text, _ := callTool(t, ctx, alice, "campaign", "spring"); !strings.Contains(text, "1 of 2 approvals") || as.done.Load() != 0 {
		t.Fatalf("after one approver (twice):\n%s", text)
	}
	if status, _, _ := pagetest.Answer(ctx, link, as_("carol"), "accept", deployAnswer); status != http.StatusOK {
		t.Fatalf("carol: %d", status)
	}
	if text, isErr := callTool(t, ctx, alice, "campaign", "spring"); isErr || text != "done spring: prod x3" {
		t.Fatalf("after two approvers: %v %s", isErr, text)
	}
	// The decision's record (a signed receipt's source) names the
	// approvers who answered, beside the requester.
	as.mu.Lock()
	defer as.mu.Unlock()
	if len(as.decided) != 1 || as.decided[0].Principal != "alice" || !slices.Equal(as.decided[0].Approvers, []string{"bob", "carol"}) {
		t.Fatalf("decided %+v", as.decided)
	}
}

// One decline from an allowed approver ends the question as a decline.
func TestApproversDeclineEnds(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	as := newApproversServer(t)
	alice := connect(t, ctx, &pagesServer{url: as.url}, "alice", runtime.Version20251125, nil)
	text, _ := callTool(t, ctx, alice, "campaign", "spring")
	link := pagetest.LinkIn(text, as.base)
	if status, _, _ := pagetest.Answer(ctx, link, as_("bob"), "accept", deployAnswer); status != http.StatusOK {
		t.Fatalf("bob: %d", status)
	}
	if status, _, _ := pagetest.Answer(ctx, link, as_("carol"), "decline", nil); status != http.StatusOK {
		t.Fatalf("carol: %d", status)
	}
	if text, _ := callTool(t, ctx, alice, "campaign", "spring"); text != "not done: decline" {
		t.Fatalf("after a decline: %s", text)
	}
}

func as_(user string) http.Header { return as(user) }
