package clustertest

import (
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/example/internal/exampletest"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/example/app"
	"github.com/elicitgen/elicitgen/internal/pagetest"
)

// userTransport sets the identity header, as an identity-aware proxy
// in front of the server would.
type userTransport struct{ user string }

func (u userTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(trustedHeader, u.user)
	return http.DefaultTransport.RoundTrip(r)
}

// toolText returns the text of a tool result.
func toolText(res *mcp.CallToolResult) string {
	var sb strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			sb.WriteString(tc.Text)
		}
	}
	return sb.String()
}

// TestPagesAcrossInstances: three instances with hosted pages share one
// key ring and one Redis behind the round-robin proxy. A client without
// elicitation gets the link from one instance, the page is shown by
// another and answered on a third, and the call made again on yet
// another instance deploys, once. It needs ELICITGEN_REDIS_URL, as
// TestSingleUseAcrossInstances.
func TestPagesAcrossInstances(t *testing.T) {
	if testing.Short() {
		t.Skip("starts three server processes")
	}
	redisURL := redisURLOrSkip(t)
	bin, err := exampletest.BuildServer()
	if err != nil {
		t.Fatal(err)
	}
	rr := &roundRobin{}
	proxy := httptest.NewUnstartedServer(&httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.Out.URL.Scheme, r.Out.URL.Host = "http", "cluster"
			r.Out.Host = r.In.Host
		},
		Transport:     rr,
		FlushInterval: -1,
		ErrorLog:      log.New(testWriter{t}, "proxy: ", 0),
	})
	base := "http://" + proxy.Listener.Addr().String() + "/elicit/"
	keys := exampletest.NewKeySpec(t, "k1")
	for _, name := range []string{"node-a", "node-b", "node-c"} {
		rr.backends = append(rr.backends, startInstance(t, bin, name, keys, "ELICIT_REPLAY_STORE="+redisURL,
			"ELICIT_PAGES=1", "ELICIT_TRUSTED_USER_HEADER="+trustedHeader, "ELICIT_PAGE_BASE_URL="+base))
	}
	proxy.Start()
	defer proxy.Close()
	ctx, cancel := exampletest.Context(t, 60*time.Second)
	defer cancel()
	c := mcp.NewClient(&mcp.Implementation{Name: "no-elicitation", Version: "v0"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: proxy.URL + "/mcp", HTTPClient: &http.Client{Transport: userTransport{"alice"}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	args := map[string]any{"service": "billing"}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: app.ToolDeploy, Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	link := pagetest.LinkIn(toolText(res), base)
	if !res.IsError || link == "" {
		t.Fatalf("first call: %s", toolText(res))
	}
	issuedBy := rr.last()
	answer := url.Values{"branch": {"main"}, "environment": {"production"}, "confirmed": {"true"}}
	status, body, err := pagetest.Answer(ctx, link, http.Header{trustedHeader: {"alice"}}, "accept", answer)
	if err != nil || status != http.StatusOK {
		t.Fatalf("page: %d %v\n%s", status, err, body)
	}
	answeredOn := rr.last()
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: app.ToolDeploy, Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || !strings.HasPrefix(toolText(res), "Deployed billing@main to production") {
		t.Fatalf("second call: %s", toolText(res))
	}
	takenOn := rr.last()
	if issuedBy == answeredOn || answeredOn == takenOn {
		t.Errorf("issued on %s, answered on %s, taken on %s: want different instances", issuedBy, answeredOn, takenOn)
	}
	// The instances log through pipes: wait for the deployment's line,
	// then long enough that a second one would be logged too.
	deploys := func() int {
		n := 0
		for _, in := range rr.backends {
			n += len(deployedLine.FindAllString(in.log.String(), -1))
		}
		return n
	}
	for deadline := time.Now().Add(exampletest.Timeout(5 * time.Second)); deploys() == 0 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
	}
	time.Sleep(exampletest.Timeout(200 * time.Millisecond))
	if n := deploys(); n != 1 {
		t.Fatalf("%d deploys, want 1", n)
	}
	// Again: a new page, nothing deployed.
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: app.ToolDeploy, Arguments: args})
	if err != nil || !res.IsError || pagetest.LinkIn(toolText(res), base) == "" {
		t.Fatalf("third call: %v %s", err, toolText(res))
	}
}
