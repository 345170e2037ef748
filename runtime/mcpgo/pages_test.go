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

	mgclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/elicitgen/elicitgen/internal/pagetest"
	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/deliver"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
	"github.com/elicitgen/elicitgen/runtime/mcpgo"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/seal"
	"github.com/elicitgen/elicitgen/runtime/serve"
)

// A client without elicitation gets the hosted page's link on mcp-go too;
// the same call after the page is answered deploys once.
func TestPagesLink(t *testing.T) {
	const header = "X-Forwarded-User"
	identity := func(r *http.Request) (string, bool) {
		u := r.Header.Get(header)
		return u, u != ""
	}
	for _, version := range []string{runtime.Version20251125, runtime.Version20260728} {
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
			var deploys atomic.Int64
			s := server.NewMCPServer("srv", "v0")
			cfg := &mcpgo.Config{Options: adapter.Options{Keys: keys, Pages: pages}, Principal: mcpgo.IdentityPrincipal(identity)}
			s.AddTool(mcp.NewTool("deploy"), mcpgo.Handle(cfg, func(ctx context.Context, _ mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
				out, err := testforms.AskDeploy(ctx, ask, "Deploy?")
				if err != nil {
					return nil, err
				}
				d, ok := out.Accepted()
				if !ok {
					return mcp.NewToolResultText("not deployed: " + string(out.Action)), nil
				}
				deploys.Add(1)
				return mcp.NewToolResultText(fmt.Sprintf("deployed %s x%d", d.Env, d.Replicas)), nil
			}))
			s.AddTool(mcp.NewTool("connect"), mcpgo.Handle(cfg, func(ctx context.Context, _ mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
				out, err := runtime.AskURLFlow(ctx, ask, "Connect your Acme account.", func(id string) string {
					return deliver.PageURL("https://acme.example/connect", "flow", id)
				})
				if err != nil {
					return nil, err
				}
				return mcp.NewToolResultText(string(out.Action) + " " + out.FlowID), nil
			}))
			srv.Config.Handler = mcpgo.NewHTTPHandler(s, &serve.Options{Pages: pages, PagesPath: "/elicit/"})
			srv.Start()
			defer srv.Close()
			tr, err := transport.NewStreamableHTTP(srv.URL+"/mcp", transport.WithHTTPHeaders(map[string]string{header: "alice"}))
			if err != nil {
				t.Fatal(err)
			}
			c := mgclient.NewClient(tr, mgclient.WithProtocolVersion(version))
			if err := c.Start(ctx); err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			init := mcp.InitializeRequest{}
			init.Params.ClientInfo = mcp.Implementation{Name: "no-elicitation", Version: "v0"}
			if _, err := c.Initialize(ctx, init); err != nil {
				t.Fatal(err)
			}
			callTool := func(tool string) (string, bool) {
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
				return sb.String(), res.IsError
			}
			call := func() (string, bool) { return callTool("deploy") }
			text, isErr := call()
			link := pagetest.LinkIn(text, base)
			if !isErr || link == "" {
				t.Fatalf("first call: %v %s", isErr, text)
			}
			answer := url.Values{"env": {"prod"}, "replicas": {"2"}, "confirm": {"true"}}
			if status, body, err := pagetest.Answer(ctx, link, http.Header{header: {"alice"}}, "accept", answer); err != nil || status != http.StatusOK {
				t.Fatalf("page: %d %v\n%s", status, err, body)
			}
			if text, isErr := call(); isErr || text != "deployed prod x2" {
				t.Fatalf("second call: %v %s", isErr, text)
			}
			if text, _ := call(); pagetest.LinkIn(text, base) == "" || deploys.Load() != 1 {
				t.Fatalf("third call (%d deploys): %s", deploys.Load(), text)
			}
			// A URL flow goes out as its own link; the same call again
			// goes on with the same flow id, once.
			const flowPage = "https://acme.example/connect?flow="
			text, isErr = callTool("connect")
			flow := strings.TrimPrefix(pagetest.LinkIn(text, flowPage), flowPage)
			if !isErr || flow == "" || !strings.Contains(text, `call the tool "connect" again with exactly the same arguments`) {
				t.Fatalf("URL flow, first call: %v %s", isErr, text)
			}
			if text, isErr := callTool("connect"); isErr || text != "accept "+flow {
				t.Fatalf("URL flow, the same call again: %v %q, want %q", isErr, text, "accept "+flow)
			}
			if text, isErr := callTool("connect"); !isErr || pagetest.LinkIn(text, flowPage) == flowPage+flow {
				t.Fatalf("URL flow, the call after: want a new flow: %v %s", isErr, text)
			}
		})
	}
}
