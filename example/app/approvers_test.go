package app_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/example/app"
	"github.com/elicitgen/elicitgen/internal/pagetest"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/serve"
)

// TestApprovers: with Options.Approvers (ELICIT_APPROVERS),
// deploy_to_production needs one approver other than the requester, and
// send_campaign two (ELICIT_QUORUM's default); the requester's own
// answer on the page never counts.
func TestApprovers(t *testing.T) {
	const header = "X-User"
	identity := func(r *http.Request) (string, bool) {
		u := r.Header.Get(header)
		return u, u != ""
	}
	srv := httptest.NewUnstartedServer(nil)
	base := "http://" + srv.Listener.Addr().String() + "/elicit/"
	keys := testKeys(t)
	pages, err := page.New(page.Config{Keys: keys, BaseURL: base, Identity: identity})
	if err != nil {
		t.Fatal(err)
	}
	a := app.New(app.Options{Keys: keys, Pages: pages, Identity: identity, Approvers: []string{"alice", "bob", "carol"}})
	h := app.HTTPHandlerWith(a.Server(false), &serve.Options{Pages: pages, PagesPath: "/elicit/"})
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/mcp") {
			r.Header.Set(header, "alice") // every call is alice's
		}
		h.ServeHTTP(w, r)
	})
	srv.Start()
	defer srv.Close()
	ctx := context.Background()
	caps := meta(map[string]any{"elicitation": map[string]any{"form": map[string]any{}}}, nil)
	call := func(tool string, args map[string]any) string {
		t.Helper()
		_, msgs := post(t, srv.URL+"/mcp", "tools/call", tool, map[string]any{"name": tool, "arguments": args, "_meta": caps})
		if len(msgs) == 0 {
			t.Fatal("no response")
		}
		res, _ := msgs[len(msgs)-1]["result"].(map[string]any)
		var sb strings.Builder
		content, _ := res["content"].([]any)
		for _, c := range content {
			if m, _ := c.(map[string]any); m["type"] == "text" {
				sb.WriteString(m["text"].(string))
			}
		}
		return sb.String()
	}
	who := func(u string) http.Header { return http.Header{header: {u}} }

	deploy := map[string]any{"service": "billing"}
	text := call(app.ToolDeploy, deploy)
	link := pagetest.LinkIn(text, base)
	if link == "" || !strings.Contains(text, "one of alice, bob, carol (not the person who asked)") {
		t.Fatalf("deploy, first call:\n%s", text)
	}
	answer := url.Values{"branch": {"release/2.4"}, "environment": {"production"}, "confirmed": {"true"}}
	if status, _, _ := pagetest.Answer(ctx, link, who("alice"), "accept", answer); status != http.StatusForbidden {
		t.Fatalf("the requester's approval: %d, want 403", status)
	}
	if call(app.ToolDeploy, deploy); len(a.Store().Deployments()) != 0 {
		t.Fatal("deployed on the requester's own approval")
	}
	if status, body, _ := pagetest.Answer(ctx, link, who("bob"), "accept", answer); status != http.StatusOK {
		t.Fatalf("bob: %d\n%s", status, body)
	}
	if text := call(app.ToolDeploy, deploy); len(a.Store().Deployments()) != 1 {
		t.Fatalf("after bob's approval: %s", text)
	}

	campaign := map[string]any{"campaign": "spring", "recipients": []string{"a@example.com"}}
	text = call(app.ToolCampaign, campaign)
	link = pagetest.LinkIn(text, base)
	if link == "" || !strings.Contains(text, "2 different people among alice, bob, carol") {
		t.Fatalf("campaign, first call:\n%s", text)
	}
	yes := url.Values{"approved": {"true"}, "send_window": {"now"}}
	if status, _, _ := pagetest.Answer(ctx, link, who("carol"), "accept", yes); status != http.StatusOK {
		t.Fatalf("carol: %d", status)
	}
	if text := call(app.ToolCampaign, campaign); !strings.Contains(text, "1 of 2 approvals") {
		t.Fatalf("after one approver:\n%s", text)
	}
	if status, _, _ := pagetest.Answer(ctx, link, who("bob"), "accept", yes); status != http.StatusOK {
		t.Fatalf("bob: %d", status)
	}
	if text := call(app.ToolCampaign, campaign); !strings.Contains(text, "scheduled") {
		t.Fatalf("after two approvers:\n%s", text)
	}
}
