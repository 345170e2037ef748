package tasks_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	mcpgolib "github.com/mark3labs/mcp-go/mcp"
	mcpgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/elicittest"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/mcpgo"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/seal"
	"github.com/elicitgen/elicitgen/runtime/serve"
	"github.com/elicitgen/elicitgen/runtime/tasks"
)

// approveText is what the approve tool of sdkServer answers.
func approveText(ctx context.Context, asker runtime.Asker) (string, error) {
	out, err := runtime.AskConfirm(ctx, asker, "Deploy to production?", runtime.WithWait(time.Hour))
	switch {
	case err != nil:
		return "", err
	case out.Expired():
		return "not deployed: the approval expired", nil
	}
	if v, ok := out.Accepted(); ok && v {
		return "deployed", nil
	}
	return "not deployed: " + string(out.Action), nil
}

// sdkServer serves an approve tool asking with a one-hour wait through
// the adapter of sdk, with opts, the tasks front and, when pages is set,
// the hosted pages at /elicit/ (served from srv, which it starts).
func sdkServer(t *testing.T, sdk string, opts adapter.Options, pages *page.Pages, srv *httptest.Server) string {
	t.Helper()
	store := page.NewMemoryStore()
	store.Now = opts.Now // the tasks' retention, on the same clock as the rest
	front := &serve.Options{Tasks: (&tasks.Server{Store: tasks.NewStore(store), Now: opts.Now}).Front(tasks.HTTPOptions{Principal: userOf})}
	if pages != nil {
		front.Pages, front.PagesPath = pages, "/elicit/"
	}
	switch sdk {
	case "go-sdk":
		s := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "v0"}, nil)
		cfg := &gosdk.Config{Options: opts, Principal: func(_ context.Context, req *mcp.CallToolRequest) string { return req.Extra.Header.Get(userHeader) }}
		s.AddTool(&mcp.Tool{Name: "approve", InputSchema: map[string]any{"type": "object"}},
			gosdk.Handle(cfg, func(ctx context.Context, _ *mcp.CallToolRequest, asker runtime.Asker) (*mcp.CallToolResult, error) {
				text, err := approveText(ctx, asker)
				if err != nil {
					return nil, err
				}
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
			}))
		srv.Config.Handler = gosdk.NewHTTPHandler(s, front)
	default:
		s := mcpgoserver.NewMCPServer("srv", "v0")
		cfg := &mcpgo.Config{Options: opts, Principal: func(_ context.Context, req mcpgolib.CallToolRequest) string { return req.Header.Get(userHeader) }}
		s.AddTool(mcpgolib.NewTool("approve"), mcpgo.Handle(cfg, func(ctx context.Context, _ mcpgolib.CallToolRequest, asker runtime.Asker) (*mcpgolib.CallToolResult, error) {
			text, err := approveText(ctx, asker)
			if err != nil {
				return nil, err
			}
			return mcpgolib.NewToolResultText(text), nil
		}))
		srv.Config.Handler = mcpgo.NewHTTPHandler(s, front)
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL
}

// toolText returns the text of a tools/call result (or of a completed
// task's), and "" for anything else.
func toolText(r map[string]any) string {
	b, _ := json.Marshal(r["content"])
	var content []struct{ Text string }
	_ = json.Unmarshal(b, &content)
	if len(content) == 0 {
		return ""
	}
	return content[0].Text
}

// On both adapters, an answer that comes after its question's wait is a
// decline the handler tells apart (Outcome.Expired), whether it comes as
// a 2026-07-28 retry or as a task update, and is decided once.
func TestExpiryOnBothAdapters(t *testing.T) {
	for _, sdk := range []string{"go-sdk", "mcp-go"} {
		t.Run(sdk, func(t *testing.T) {
			clock := elicittest.NewClock(time.Date(2026, 7, 28, 9, 0, 0, 0, time.UTC))
			url := sdkServer(t, sdk, adapter.Options{Keys: seal.NewRandomKeyRing(), Now: clock.Now}, nil, httptest.NewUnstartedServer(nil))
			yes := `{"action":"accept","content":{"confirm":true}}`

			// A 2026-07-28 round, answered an hour and a minute later.
			_, m := rpc(t, url, "alice", "tools/call", "approve", `{"name":"approve","arguments":{},`+meta(false)+`}`)
			round := result(t, m)
			state, _ := round["requestState"].(string)
			var key string
			for k := range round["inputRequests"].(map[string]any) {
				key = k
			}
			if round["resultType"] != "input_required" || state == "" || key == "" {
				t.Fatalf("tools/call = %v", round)
			}
			// A task asked at the same time.
			_, m = rpc(t, url, "alice", "tools/call", "approve", `{"name":"approve","arguments":{},`+meta(true)+`}`)
			id, _ := result(t, m)["taskId"].(string)
			_, m = rpc(t, url, "alice", "tasks/get", id, `{"taskId":"`+id+`",`+meta(true)+`}`)
			var taskKey string
			for k := range result(t, m)["inputRequests"].(map[string]any) {
				taskKey = k
			}
			clock.Advance(time.Hour + time.Minute)

			retry := `{"name":"approve","arguments":{},` + meta(false) + `,"requestState":"` + state + `","inputResponses":{"` + key + `":` + yes + `}}`
			_, m = rpc(t, url, "alice", "tools/call", "approve", retry)
			if got := toolText(result(t, m)); got != "not deployed: the approval expired" {
				t.Errorf("the late retry: %q, want the expired decline", got)
			}
			if _, m = rpc(t, url, "alice", "tools/call", "approve", retry); m["error"] == nil {
				t.Errorf("the late retry sent again = %v, want it refused (decided once)", m)
			}

			rpc(t, url, "alice", "tasks/update", id, `{"taskId":"`+id+`","inputResponses":{"`+taskKey+`":`+yes+`},`+meta(true)+`}`)
			_, m = rpc(t, url, "alice", "tasks/get", id, `{"taskId":"`+id+`",`+meta(true)+`}`)
			task := result(t, m)
			res, _ := task["result"].(map[string]any)
			if task["status"] != "completed" || toolText(res) != "not deployed: the approval expired" {
				t.Errorf("the late task update: %v, want it completed with the expired decline", task)
			}
		})
	}
}

// On both adapters, Options.Rendering = RenderingLink (a gateway that
// cannot relay elicitation) gives even a form-capable client the hosted
// page's link, not a form.
func TestRenderingLinkOnBothAdapters(t *testing.T) {
	for _, sdk := range []string{"go-sdk", "mcp-go"} {
		t.Run(sdk, func(t *testing.T) {
			keys := seal.NewRandomKeyRing()
			srv := httptest.NewUnstartedServer(nil)
			base := "http://" + srv.Listener.Addr().String() + "/elicit/"
			pages, err := page.New(page.Config{Keys: keys, BaseURL: base, Identity: func(r *http.Request) (string, bool) {
				u := r.Header.Get(userHeader)
				return u, u != ""
			}})
			if err != nil {
				t.Fatal(err)
			}
			url := sdkServer(t, sdk, adapter.Options{Keys: keys, Pages: pages, Rendering: runtime.RenderingLink}, pages, srv)
			_, m := rpc(t, url, "alice", "tools/call", "approve", `{"name":"approve","arguments":{},`+meta(false)+`}`)
			r := result(t, m)
			if r["resultType"] == "input_required" || !strings.Contains(toolText(r), base) {
				t.Errorf("a form-capable client under RenderingLink got %v, want the page's link in the result", r)
			}
		})
	}
}
