package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/elicitgen/elicitgen/example/app"
	"github.com/elicitgen/elicitgen/internal/pagetest"
	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/page/webhook"
	"github.com/elicitgen/elicitgen/runtime/seal"
	"github.com/elicitgen/elicitgen/runtime/serve"
)

const testNotifySecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

func TestNotifierFromEnv(t *testing.T) {
	for _, tc := range []struct{ url, secret, err string }{
		{},
		{url: "https://hooks.example.com/elicit", secret: testNotifySecret},
		{url: "https://hooks.example.com/elicit", err: NotifySecretEnv},
		{secret: testNotifySecret, err: NotifyURLEnv},
		{url: "http://hooks.example.com/elicit", secret: testNotifySecret, err: "https"},
		{url: "https://hooks.example.com/elicit", secret: "whsec_!!", err: "secret"},
	} {
		t.Setenv(NotifyURLEnv, tc.url)
		t.Setenv(NotifySecretEnv, tc.secret)
		n, err := notifierFromEnv()
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q %q: %v, want an error naming %q", tc.url, tc.secret, err, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("%q %q: %v", tc.url, tc.secret, err)
		case tc.err == "" && (n != nil) != (tc.url != ""):
			t.Errorf("%q %q: notifier %v", tc.url, tc.secret, n)
		}
	}
}

// TestApproverNoticesAndInbox: with ELICIT_NOTIFY_URL, alice's
// send_campaign call (two approvals of alice, bob, carol, not alice)
// sends bob and carol each a signed webhook with a one-time link; bob's
// inbox lists the question; carol's link leads her to the page once, she
// approves, and her inbox no longer lists it while bob's says one
// approval is still needed.
func TestApproverNoticesAndInbox(t *testing.T) {
	var mu sync.Mutex
	var notices []webhook.Payload
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		v, _ := standardwebhooks.NewWebhook(testNotifySecret)
		if err := v.Verify(body, r.Header); err != nil {
			http.Error(w, err.Error(), http.StatusUnauthorized)
			return
		}
		var p webhook.Payload
		json.Unmarshal(body, &p)
		mu.Lock()
		notices = append(notices, p)
		mu.Unlock()
	}))
	defer hook.Close()
	t.Setenv(NotifyURLEnv, hook.URL)
	t.Setenv(NotifySecretEnv, testNotifySecret)
	t.Setenv(PageBaseURLEnv, "")

	const header = "X-User"
	identity := func(r *http.Request) (string, bool) { u := r.Header.Get(header); return u, u != "" }
	srv := httptest.NewUnstartedServer(nil)
	keys := seal.NewRandomKeyRing()
	pages, _, err := newPages(keys, page.NewMemoryStore(), srv.Listener.Addr(), true, identity, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	a := app.New(app.Options{Keys: keys, Pages: pages, Identity: identity, Approvers: []string{"alice", "bob", "carol"}})
	h := app.HTTPHandlerWith(a.Server(false), &serve.Options{Pages: pages, PagesPath: PagesPath})
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/mcp") {
			r.Header.Set(header, "alice")
		}
		h.ServeHTTP(w, r)
	})
	srv.Start()
	defer srv.Close()
	base := srv.URL + PagesPath

	text := callTool(t, srv.URL+"/mcp", app.ToolCampaign, map[string]any{"campaign": "spring", "recipients": []string{"a@example.com"}})
	if pagetest.LinkIn(text, base) == "" {
		t.Fatalf("first call:\n%s", text)
	}
	mu.Lock()
	got := append([]webhook.Payload(nil), notices...)
	mu.Unlock()
	if len(got) != 2 || got[0].Data.Approver != "bob" || got[1].Data.Approver != "carol" || got[0].Data.Tool != app.ToolCampaign || got[0].Data.Requester != "alice" {
		t.Fatalf("notices: %+v", got)
	}
	get := func(link, user string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest("GET", link, nil)
		req.Header.Set(header, user)
		req.Header.Set("Accept-Language", "en")
		c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res, string(b)
	}
	if res, body := get(base+page.InboxPath, "bob"); res.StatusCode != 200 || !strings.Contains(body, "Answer: "+app.ToolCampaign) || !strings.Contains(body, "<dd>2</dd>") {
		t.Fatalf("bob's inbox: %d\n%s", res.StatusCode, body)
	}
	res, _ := get(got[1].Data.Link, "carol")
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("carol's link: %d", res.StatusCode)
	}
	pageURL := srv.URL + res.Header.Get("Location")
	yes := url.Values{"approved": {"true"}, "send_window": {"now"}}
	if status, body, err := pagetest.Answer(context.Background(), pageURL, http.Header{header: {"carol"}}, "accept", yes); err != nil || status != 200 {
		t.Fatalf("carol approves: %d %v\n%s", status, err, body)
	}
	if res, _ := get(got[1].Data.Link, "carol"); res.StatusCode != http.StatusGone {
		t.Fatalf("carol's link again: %d, want 410", res.StatusCode)
	}
	if res, body := get(base+page.InboxPath, "carol"); res.StatusCode != 200 || strings.Contains(body, app.ToolCampaign) {
		t.Fatalf("carol's inbox after she answered: %d\n%s", res.StatusCode, body)
	}
	if res, body := get(base+page.InboxPath, "bob"); res.StatusCode != 200 || !strings.Contains(body, "<dd>1</dd>") {
		t.Fatalf("bob's inbox after carol's approval: %d\n%s", res.StatusCode, body)
	}
}

// callTool calls tool over the 2026-07-28 HTTP transport, declaring form
// elicitation, and returns the text of its result.
func callTool(t *testing.T, endpoint, tool string, args map[string]any) string {
	t.Helper()
	params := map[string]any{"name": tool, "arguments": args, "_meta": map[string]any{
		"io.modelcontextprotocol/protocolVersion":    runtime.Version20260728,
		"io.modelcontextprotocol/clientCapabilities": map[string]any{"elicitation": map[string]any{"form": map[string]any{}}},
	}}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params})
	req, _ := http.NewRequest("POST", endpoint, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", runtime.Version20260728)
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", tool)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var sb strings.Builder
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m struct {
			Result struct {
				Content []struct{ Type, Text string } `json:"content"`
			} `json:"result"`
		}
		if json.Unmarshal([]byte(strings.TrimPrefix(strings.TrimSpace(sc.Text()), "data:")), &m) == nil {
			for _, c := range m.Result.Content {
				sb.WriteString(c.Text)
			}
		}
	}
	return sb.String()
}
