package app_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/example/app"
)

// TestApprovalsOverHTTP: deploy_to_production over the example's HTTP
// handler, as a 2026-07-28 client sends it by hand. An answer sent with
// the first call is not taken (the tool asks); an answer with a
// case-variant key is malformed; the answer to the question asked
// deploys once, and sending that round again is refused.
func TestApprovalsOverHTTP(t *testing.T) {
	a := app.New(app.Options{Keys: testKeys(t)})
	srv := httptest.NewServer(app.HTTPHandler(a.Server(false)))
	defer srv.Close()
	url := srv.URL + "/mcp"
	caps := meta(map[string]any{"elicitation": map[string]any{"form": map[string]any{}}}, nil)
	answer := map[string]any{"action": "accept", "content": map[string]any{"branch": "release/2.4", "environment": "production", "confirmed": true}}
	call := func(extra map[string]any) map[string]any {
		t.Helper()
		params := map[string]any{"name": app.ToolDeploy, "arguments": map[string]any{"service": "billing"}, "_meta": caps}
		for k, v := range extra {
			params[k] = v
		}
		_, msgs := post(t, url, "tools/call", app.ToolDeploy, params)
		if len(msgs) == 0 {
			t.Fatal("no response")
		}
		return msgs[len(msgs)-1]
	}

	// Pre-answered: asked instead (asked-first).
	first := call(map[string]any{"inputResponses": map[string]any{"Deploy": answer}})
	res, _ := first["result"].(map[string]any)
	state, _ := res["requestState"].(string)
	if res["resultType"] != "input_required" || state == "" {
		t.Fatalf("pre-answered first call = %v; want input_required (asked first)", first)
	}
	if n := len(a.Store().Deployments()); n != 0 {
		t.Fatalf("%d deployments from a pre-answered call", n)
	}

	// A case-variant key is malformed, not an accept.
	bad := call(map[string]any{"requestState": state, "inputResponses": map[string]any{"Deploy": map[string]any{
		"action": "decline", "Action": "accept", "content": answer["content"]}}})
	if e, _ := bad["error"].(map[string]any); e["code"] != float64(-32602) || !strings.Contains(e["message"].(string), `"Action"`) {
		t.Fatalf("answer with \"Action\" = %v; want -32602 naming the key", bad)
	}

	// A malformed answer delivered nothing, so the state is not spent:
	// the client answers the question asked.
	done := call(map[string]any{"requestState": state, "inputResponses": map[string]any{"Deploy": answer}})
	if r, _ := done["result"].(map[string]any); r == nil || r["resultType"] == "input_required" || len(a.Store().Deployments()) != 1 {
		t.Fatalf("answered round = %v, %d deployments; want one deployment", done, len(a.Store().Deployments()))
	}
	replay := call(map[string]any{"requestState": state, "inputResponses": map[string]any{"Deploy": answer}})
	if e, _ := replay["error"].(map[string]any); e["code"] != float64(-32602) || !strings.Contains(e["message"].(string), "already used") {
		t.Fatalf("replayed round = %v; want -32602 already used", replay)
	}
	if n := len(a.Store().Deployments()); n != 1 {
		t.Fatalf("%d deployments after the replay, want 1", n)
	}
}
