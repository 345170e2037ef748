package mcpgo_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/elicitgen/elicitgen/internal/pagetest"
	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
	"github.com/elicitgen/elicitgen/runtime/mcpgo"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// countForms answers every form the requester's client is asked, and
// counts them.
type countForms struct{ n *atomic.Int64 }

func (c countForms) Elicit(context.Context, mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	c.n.Add(1)
	res := &mcp.ElicitationResult{}
	res.Action = mcp.ElicitationResponseActionAccept
	res.Content = map[string]any{"env": "prod", "replicas": 3, "confirm": true}
	return res, nil
}

// On every era on mcp-go: the requester's own form is never asked a
// question that excludes them, the requester cannot answer its page, two
// of three needs two distinct approvers, and the requester's calls say
// how many have approved.
func TestApprovers(t *testing.T) {
	const header = "X-Forwarded-User"
	identity := func(r *http.Request) (string, bool) {
		u := r.Header.Get(header)
		return u, u != ""
	}
	who := func(u string) http.Header { return http.Header{header: {u}} }
	answer := url.Values{"env": {"prod"}, "replicas": {"3"}, "confirm": {"true"}}
	for _, version := range []string{runtime.Version20250618, runtime.Version20251125, runtime.Version20260728} {
		t.Run(version, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			srv := httptest.NewUnstartedServer(nil)
			base := "http://" + srv.Listener.Addr().String() + "/elicit/"
			keys := seal.NewRandomKeyRing()
			pages, err := page.New(page.Config{Keys: keys, BaseURL: base, Identity: identity})
			if err != nil {
				t.Fatal(err)
			}
			srv.Config.Handler = pages
			srv.Start()
			defer srv.Close()
			cfg := &mcpgo.Config{Options: adapter.Options{Keys: keys, Pages: pages},
				Principal: func(context.Context, mcp.CallToolRequest) string { return "alice" }}
			s := server.NewMCPServer("srv", "v0", server.WithElicitation())
			for tool, quorum := range map[string]int{"deploy": 1, "campaign": 2} {
				policy := runtime.Approvers{Principals: []string{"alice", "bob", "carol"}, ExcludeRequester: true, Quorum: quorum}
				s.AddTool(mcp.NewTool(tool), mcpgo.Handle(cfg, func(ctx context.Context, _ mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
					out, err := testforms.AskDeploy(ctx, ask, "Go?", runtime.WithApprovers(policy))
					if err != nil {
						return nil, err
					}
					d, ok := out.Accepted()
					if !ok {
						return mcp.NewToolResultText("not done: " + string(out.Action)), nil
					}
					return mcp.NewToolResultText(fmt.Sprintf("done %s x%d", d.Env, d.Replicas)), nil
				}))
			}
			var forms atomic.Int64
			c, err := client.NewInProcessClientWithOptions(s, client.WithElicitationHandler(countForms{&forms}), client.WithProtocolVersion(version))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if err := c.Start(ctx); err != nil {
				t.Fatal(err)
			}
			init := mcp.InitializeRequest{}
			init.Params.ProtocolVersion = version
			init.Params.ClientInfo = mcp.Implementation{Name: "client", Version: "v0"}
			init.Params.Capabilities.Elicitation = &mcp.ElicitationCapability{}
			if _, err := c.Initialize(ctx, init); err != nil {
				t.Fatal(err)
			}
			call := func(tool string) string {
				req := mcp.CallToolRequest{}
				req.Params.Name = tool
				res, err := c.CallTool(ctx, req)
				if err != nil {
					t.Fatal(err)
				}
				var sb strings.Builder
				for _, ct := range res.Content {
					if tc, ok := ct.(mcp.TextContent); ok {
						sb.WriteString(tc.Text)
					}
				}
				return sb.String()
			}

			text := call("deploy")
			link := pagetest.LinkIn(text, base)
			if link == "" || !strings.Contains(text, "not the person who asked") {
				t.Fatalf("first call:\n%s", text)
			}
			if status, _, _ := pagetest.Answer(ctx, link, who("alice"), "accept", answer); status != http.StatusForbidden {
				t.Fatalf("the requester on the page: %d, want 403", status)
			}
			if text := call("deploy"); !strings.Contains(text, "still open") {
				t.Fatalf("after the requester's post:\n%s", text)
			}
			if status, _, _ := pagetest.Answer(ctx, link, who("bob"), "accept", answer); status != http.StatusOK {
				t.Fatalf("bob: %d", status)
			}
			if text := call("deploy"); text != "done prod x3" {
				t.Fatalf("after bob: %s", text)
			}

			link = pagetest.LinkIn(call("campaign"), base)
			if status, _, _ := pagetest.Answer(ctx, link, who("bob"), "accept", answer); status != http.StatusOK {
				t.Fatalf("bob: %d", status)
			}
			if status, _, _ := pagetest.Answer(ctx, link, who("bob"), "accept", answer); status != http.StatusConflict {
				t.Fatalf("bob again: %d, want 409", status)
			}
			if text := call("campaign"); !strings.Contains(text, "1 of 2 approvals") {
				t.Fatalf("one approver:\n%s", text)
			}
			if status, _, _ := pagetest.Answer(ctx, link, who("carol"), "decline", nil); status != http.StatusOK {
				t.Fatalf("carol: %d", status)
			}
			if text := call("campaign"); text != "not done: decline" {
				t.Fatalf("after carol's decline: %s", text)
			}
			if n := forms.Load(); n != 0 {
				t.Fatalf("the requester's client was asked %d forms", n)
			}
		})
	}
}
