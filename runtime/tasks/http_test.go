package tasks_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	mcpgolib "github.com/mark3labs/mcp-go/mcp"
	mcpgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/mcpgo"
	"github.com/elicitgen/elicitgen/runtime/seal"
	"github.com/elicitgen/elicitgen/runtime/serve"
	"github.com/elicitgen/elicitgen/runtime/tasks"
)

// userHeader names the person behind a request, as a trusted proxy would.
const userHeader = "X-Test-User"

func userOf(r *http.Request) string { return r.Header.Get(userHeader) }

// deployServers returns the URL of one server per SDK whose deploy tool
// asks for approval with the generated-style AskConfirm call every era
// uses, with the extension served in front, and the count of deploys.
func deployServers(t *testing.T) map[string]func() (string, *atomic.Int32) {
	ask := func(ctx context.Context, asker runtime.Asker, deploys *atomic.Int32) (string, error) {
		out, err := runtime.AskConfirm(ctx, asker, "Deploy to production?")
		if err != nil {
			return "", err
		}
		if v, ok := out.Accepted(); !ok || !v {
			return "not deployed: " + string(out.Action), nil
		}
		deploys.Add(1)
		return "deployed", nil
	}
	front := func(h func(*serve.Options) http.Handler) string {
		ts := &tasks.Server{Store: tasks.NewMemoryStore()}
		srv := httptest.NewServer(h(&serve.Options{Tasks: ts.Front(tasks.HTTPOptions{Principal: userOf})}))
		t.Cleanup(srv.Close)
		return srv.URL
	}
	return map[string]func() (string, *atomic.Int32){
		"go-sdk": func() (string, *atomic.Int32) {
			deploys := new(atomic.Int32)
			s := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "v0"}, nil)
			cfg := &gosdk.Config{Options: adapter.Options{Keys: seal.NewRandomKeyRing()}, Principal: func(_ context.Context, req *mcp.CallToolRequest) string {
				return req.Extra.Header.Get(userHeader)
			}}
			s.AddTool(&mcp.Tool{Name: "deploy", InputSchema: map[string]any{"type": "object"}},
				gosdk.Handle(cfg, func(ctx context.Context, _ *mcp.CallToolRequest, asker runtime.Asker) (*mcp.CallToolResult, error) {
					text, err := ask(ctx, asker, deploys)
					if err != nil {
						return nil, err
					}
					return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
				}))
			return front(func(o *serve.Options) http.Handler { return gosdk.NewHTTPHandler(s, o) }), deploys
		},
		"mcp-go": func() (string, *atomic.Int32) {
			deploys := new(atomic.Int32)
			s := mcpgoserver.NewMCPServer("srv", "v0")
			cfg := &mcpgo.Config{Options: adapter.Options{Keys: seal.NewRandomKeyRing()}, Principal: func(_ context.Context, req mcpgolib.CallToolRequest) string {
				return req.Header.Get(userHeader)
			}}
			s.AddTool(mcpgolib.NewTool("deploy"), mcpgo.Handle(cfg, func(ctx context.Context, _ mcpgolib.CallToolRequest, asker runtime.Asker) (*mcpgolib.CallToolResult, error) {
				text, err := ask(ctx, asker, deploys)
				if err != nil {
					return nil, err
				}
				return mcpgolib.NewToolResultText(text), nil
			}))
			return front(func(o *serve.Options) http.Handler { return mcpgo.NewHTTPHandler(s, o) }), deploys
		},
	}
}

// meta is the _meta of a 2026-07-28 request; tasksExt adds the extension.
func meta(tasksExt bool) string {
	ext := ""
	if tasksExt {
		ext = `,"extensions":{"io.modelcontextprotocol/tasks":{}}`
	}
	return `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"0"},"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}` + ext + `}}`
}

// rpc posts one 2026-07-28 request as user and returns the HTTP status
// and the decoded response.
func rpc(t *testing.T, url, user, method, name, params string) (int, map[string]any) {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":` + params + `}`
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	req.Header.Set("Mcp-Name", name)
	if user != "" {
		req.Header.Set(userHeader, user)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		for line := range strings.SplitSeq(string(raw), "\n") {
			if d, ok := strings.CutPrefix(line, "data: "); ok && strings.Contains(d, `"id"`) {
				raw = []byte(d)
			}
		}
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%s: %d %s", method, resp.StatusCode, raw)
	}
	return resp.StatusCode, m
}

func result(t *testing.T, m map[string]any) map[string]any {
	t.Helper()
	r, ok := m["result"].(map[string]any)
	if !ok {
		t.Fatalf("no result in %v", m)
	}
	return r
}

func TestAnAskingToolBecomesATask(t *testing.T) {
	for name, start := range deployServers(t) {
		t.Run(name, func(t *testing.T) {
			url, deploys := start()
			// A client with the extension gets a task waiting for input.
			_, m := rpc(t, url, "alice", "tools/call", "deploy", `{"name":"deploy","arguments":{},`+meta(true)+`}`)
			created := result(t, m)
			id, _ := created["taskId"].(string)
			if created["resultType"] != "task" || created["status"] != "input_required" || id == "" {
				t.Fatalf("tools/call with the extension = %v", m)
			}
			if _, ok := created["requestState"]; ok {
				t.Errorf("CreateTaskResult carries requestState: %v", created)
			}
			get := `{"taskId":"` + id + `",` + meta(true) + `}`
			_, m = rpc(t, url, "alice", "tasks/get", id, get)
			task := result(t, m)
			reqs, _ := task["inputRequests"].(map[string]any)
			if task["status"] != "input_required" || len(reqs) != 1 || task["requestState"] != nil {
				t.Fatalf("tasks/get = %v", task)
			}
			var key string
			for k := range reqs {
				key = k
			}
			// Another person cannot read, answer or cancel it.
			if code, m := rpc(t, url, "mallory", "tasks/get", id, get); code != http.StatusBadRequest || m["error"] == nil {
				t.Errorf("another person's tasks/get: %d %v", code, m)
			}
			answer := `{"taskId":"` + id + `","inputResponses":{"` + key + `":{"action":"accept","content":{"confirm":true}}},` + meta(true) + `}`
			if _, m := rpc(t, url, "mallory", "tasks/update", id, answer); m["error"] == nil || deploys.Load() != 0 {
				t.Fatalf("another person's answer: %v, %d deploys", m, deploys.Load())
			}
			// A wrong Mcp-Name is -32020.
			if code, m := rpc(t, url, "alice", "tasks/get", "other", get); code != http.StatusBadRequest || m["error"].(map[string]any)["code"] != float64(-32020) {
				t.Errorf("mismatched Mcp-Name: %d %v", code, m)
			}
			// The requester's answer runs the tool once, from the top.
			_, m = rpc(t, url, "alice", "tasks/update", id, answer)
			if ack := result(t, m); len(ack) != 1 || ack["resultType"] != "complete" {
				t.Fatalf("tasks/update ack = %v", m)
			}
			_, m = rpc(t, url, "alice", "tasks/update", id, answer) // replayed
			result(t, m)
			_, m = rpc(t, url, "alice", "tasks/get", id, get)
			task = result(t, m)
			out, _ := json.Marshal(task["result"])
			if task["status"] != "completed" || !strings.Contains(string(out), `deployed`) || deploys.Load() != 1 {
				t.Fatalf("after the answer: %v, %d deploys", task, deploys.Load())
			}
			// Without the extension the same call is today's
			// input_required round.
			_, m = rpc(t, url, "alice", "tools/call", "deploy", `{"name":"deploy","arguments":{},`+meta(false)+`}`)
			if r := result(t, m); r["resultType"] != "input_required" || r["taskId"] != nil {
				t.Errorf("tools/call without the extension = %v", m)
			}
			// tasks/* without the extension is -32021.
			if code, m := rpc(t, url, "alice", "tasks/get", id, `{"taskId":"`+id+`",`+meta(false)+`}`); code != http.StatusBadRequest || m["error"].(map[string]any)["code"] != float64(-32021) {
				t.Errorf("undeclared tasks/get: %d %v", code, m)
			}
		})
	}
}

func TestADeclineEndsTheTask(t *testing.T) {
	for name, start := range deployServers(t) {
		t.Run(name, func(t *testing.T) {
			url, deploys := start()
			_, m := rpc(t, url, "alice", "tools/call", "deploy", `{"name":"deploy","arguments":{},`+meta(true)+`}`)
			id := result(t, m)["taskId"].(string)
			get := `{"taskId":"` + id + `",` + meta(true) + `}`
			_, m = rpc(t, url, "alice", "tasks/get", id, get)
			var key string
			for k := range result(t, m)["inputRequests"].(map[string]any) {
				key = k
			}
			_, m = rpc(t, url, "alice", "tasks/update", id, `{"taskId":"`+id+`","inputResponses":{"`+key+`":{"action":"decline"}},`+meta(true)+`}`)
			result(t, m)
			_, m = rpc(t, url, "alice", "tasks/get", id, get)
			task := result(t, m)
			out, _ := json.Marshal(task["result"])
			if task["status"] != "completed" || !strings.Contains(string(out), "not deployed: decline") || deploys.Load() != 0 {
				t.Errorf("after a decline: %v, %d deploys", task, deploys.Load())
			}
		})
	}
}
