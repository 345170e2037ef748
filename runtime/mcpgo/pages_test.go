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
			call := func() (string, bool) {
				req := mcp.CallToolRequest{}
				req.Params.Name = "deploy"
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
		})
	}
}
