package app_test

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/example/app"
	"github.com/elicitgen/elicitgen/runtime/elicittest"
)

// TestApprovalDaysLater: deploy_to_production waits app.DeployWait (72
// hours) for its approver. On a simulated clock (elicittest.Clock), an
// approval answered three days after the question deploys; another
// question answered seven days after it was asked is refused as expired.
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
	clock.Advance(3 * 24 * time.Hour) // the approver answers on the third day
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
	if e, _ := late["error"].(map[string]any); e == nil || !strings.Contains(e["message"].(string), "expired") {
		t.Fatalf("approval after seven days = %v; want refused as expired", late)
	}
	if n := len(a.Store().Deployments()); n != 1 {
		t.Fatalf("%d deployments after the expired approval, want 1", n)
	}
}
