package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/example/app"
	"github.com/elicitgen/elicitgen/internal/pagetest"
	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/elicittest"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/serve"
)

// TestApprovalDaysLater: deploy_to_production waits app.DeployWait (72
// hours) for its approver. On a simulated clock (elicittest.Clock), an
// approval answered three days (less a minute) after the question deploys; another
// question answered seven days after it was asked reaches the tool as a
// decline whose Outcome.Expired is true, once.
// The days pass in no wall time.
func TestApprovalDaysLater(t *testing.T) {
	clock := elicittest.NewClock(time.Date(2026, 7, 28, 9, 0, 0, 0, time.UTC))
	a := app.New(app.Options{Keys: testKeys(t), Now: clock.Now})
	srv := httptest.NewServer(app.HTTPHandler(a.Server(false)))
	defer srv.Close()
	url := srv.URL + "/mcp"
	caps := meta(map[string]any{"elicitation": map[string]any{"form": map[string]any{}}}, nil)
	approve := map[string]any{"Deploy": map[string]any{"action": "accept",
		"content": map[string]any{"branch": "release/2.4", "environment": "production", "confirmed": true}}}
	call := func(service string, extra map[string]any) map[string]any {
		t.Helper()
		params := map[string]any{"name": app.ToolDeploy, "arguments": map[string]any{"service": service}, "_meta": caps}
		for k, v := range extra {
			params[k] = v
		}
		_, msgs := post(t, url, "tools/call", app.ToolDeploy, params)
		if len(msgs) == 0 {
			t.Fatal("no response")
		}
		return msgs[len(msgs)-1]
	}
	ask := func(service string) string {
		t.Helper()
		res, _ := call(service, nil)["result"].(map[string]any)
		state, _ := res["requestState"].(string)
		if res["resultType"] != "input_required" || state == "" {
			t.Fatalf("first call for %s = %v; want input_required", service, res)
		}
		return state
	}

	billing := ask("billing")
	clock.Advance(app.DeployWait - time.Minute) // the approver answers on the third day, a minute before it closes
	done := call("billing", map[string]any{"requestState": billing, "inputResponses": approve})
	if r, _ := done["result"].(map[string]any); r == nil || r["resultType"] == "input_required" || r["isError"] == true {
		t.Fatalf("approval after three days = %v; want the deploy", done)
	}
	if d := a.Store().Deployments(); len(d) != 1 || d[0].Service != "billing" {
		t.Fatalf("deployments after the approval = %+v; want billing", d)
	}

	search := ask("search")
	clock.Advance(7 * 24 * time.Hour) // nobody answered for a week
	late := call("search", map[string]any{"requestState": search, "inputResponses": approve})
	r, _ := late["result"].(map[string]any)
	sc, _ := r["structuredContent"].(map[string]any)
	if r == nil || r["isError"] == true || sc["outcome"] != app.OutcomeDeclined || !strings.Contains(fmt.Sprint(r["content"]), "expired") {
		t.Fatalf("approval after seven days = %v; want the tool's expired decline", late)
	}
	// Decided once: the same late answer again is refused.
	again := call("search", map[string]any{"requestState": search, "inputResponses": approve})
	if e, _ := again["error"].(map[string]any); e == nil || !strings.Contains(e["message"].(string), "already used") {
		t.Fatalf("the expired state sent again = %v; want -32602 already used", again)
	}
	if n := len(a.Store().Deployments()); n != 1 {
		t.Fatalf("%d deployments after the expired approval, want 1", n)
	}
}

// TestApprovalDaysLaterOnPage: the same days through the hosted page, as
// a client without elicitation sees it on 2026-07-28: the tool answers
// with a link, the approver answers the page three days later and the
// same call then deploys; a page opened seven days after it was issued
// is gone, and the call asks again.
func TestApprovalDaysLaterOnPage(t *testing.T) {
	ctx := context.Background()
	clock := elicittest.NewClock(time.Date(2026, 7, 28, 9, 0, 0, 0, time.UTC))
	const header = "X-Elicit-User"
	identity := func(r *http.Request) (string, bool) { return r.Header.Get(header), r.Header.Get(header) != "" }
	srv := httptest.NewUnstartedServer(nil)
	base := "http://" + srv.Listener.Addr().String() + "/elicit/"
	keys := testKeys(t)
	pcfg := page.Config{Keys: keys, Store: &page.MemoryStore{}, BaseURL: base, Identity: identity}
	clock.Drive(&pcfg.Now, &pcfg.Store.(*page.MemoryStore).Now)
	pages, err := page.New(pcfg)
	if err != nil {
		t.Fatal(err)
	}
	a := app.New(app.Options{Keys: keys, Now: clock.Now, Pages: pages, Identity: identity})
	srv.Config.Handler = app.HTTPHandlerWith(a.Server(false), &serve.Options{Pages: pages, PagesPath: "/elicit/"})
	srv.Start()
	defer srv.Close()

	call := func(service string) (string, bool) {
		t.Helper()
		params := map[string]any{"name": app.ToolDeploy, "arguments": map[string]any{"service": service},
			"_meta": meta(map[string]any{}, nil)} // no elicitation: the page
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params})
		req, _ := http.NewRequest("POST", srv.URL+"/mcp", bytes.NewReader(body))
		for k, v := range map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
			"MCP-Protocol-Version": runtime.Version20260728, "Mcp-Method": "tools/call", "Mcp-Name": app.ToolDeploy, header: "alice"} {
			req.Header.Set(k, v)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var msg struct {
			Result struct {
				Content []struct{ Text string }
				IsError bool
			}
		}
		raw, _ := io.ReadAll(res.Body)
		data := raw
		if _, after, ok := bytes.Cut(raw, []byte("data:")); ok { // an event stream
			data, _, _ = bytes.Cut(after, []byte("\n"))
		}
		if err := json.Unmarshal(data, &msg); err != nil {
			t.Fatalf("reply %q: %v", raw, err)
		}
		var sb strings.Builder
		for _, c := range msg.Result.Content {
			sb.WriteString(c.Text)
		}
		return sb.String(), msg.Result.IsError
	}
	approve := url.Values{"branch": {"release/2.4"}, "environment": {"production"}, "confirmed": {"true"}}
	alice := http.Header{header: {"alice"}}

	text, _ := call("billing")
	link := pagetest.LinkIn(text, base)
	if link == "" {
		t.Fatalf("first call: want a link to the page:\n%s", text)
	}
	clock.Advance(app.DeployWait - time.Minute) // three days later, a minute before the page closes
	if status, body, err := pagetest.Answer(ctx, link, alice, "accept", approve); err != nil || status != http.StatusOK {
		t.Fatalf("page answered after three days: %d %v\n%s", status, err, body)
	}
	if text, isErr := call("billing"); isErr || len(a.Store().Deployments()) != 1 {
		t.Fatalf("call after the page's answer: isError %v, %d deployments:\n%s", isErr, len(a.Store().Deployments()), text)
	}

	text, _ = call("search")
	link = pagetest.LinkIn(text, base)
	clock.Advance(7 * 24 * time.Hour)
	if status, _, _ := pagetest.Answer(ctx, link, alice, "accept", approve); status != http.StatusGone {
		t.Fatalf("page opened after seven days: status %d, want 410 (expired)", status)
	}
	if text, _ := call("search"); pagetest.LinkIn(text, base) == "" || pagetest.LinkIn(text, base) == link {
		t.Fatalf("call after the page expired: want a new link:\n%s", text)
	}
	if n := len(a.Store().Deployments()); n != 1 {
		t.Fatalf("%d deployments, want 1", n)
	}
}
