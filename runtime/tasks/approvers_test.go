package tasks_test

import (
	"context"
	"encoding/json"
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

// A task update is the requester's (the tool reruns with the update's
// headers), so it never answers a question that excludes the requester:
// not even an update that carries an answer under the approval's key next
// to the answer of a question the requester may answer.
func TestTaskUpdateCannotApprove(t *testing.T) {
	ask := func(ctx context.Context, asker runtime.Asker, deploys *atomic.Int32) (string, error) {
		ready, err := runtime.AskConfirm(ctx, asker, "Ready?", runtime.WithKey("ready"))
		if err != nil {
			return "", err
		}
		if v, ok := ready.Accepted(); !ok || !v {
			return "not ready", nil
		}
		out, err := runtime.AskConfirm(ctx, asker, "Deploy to production?",
			runtime.WithKey("approval"), runtime.WithApprovers(runtime.Approvers{Principals: []string{"alice", "bob"}, ExcludeRequester: true}))
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
	servers := map[string]func() (string, *atomic.Int32){
		"go-sdk": func() (string, *atomic.Int32) {
			deploys := new(atomic.Int32)
			s := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "v0"}, nil)
			cfg := &gosdk.Config{Options: adapter.Options{Keys: seal.NewRandomKeyRing(), AcceptUnasked: true}, Principal: func(_ context.Context, req *mcp.CallToolRequest) string {
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
			cfg := &mcpgo.Config{Options: adapter.Options{Keys: seal.NewRandomKeyRing(), AcceptUnasked: true}, Principal: func(_ context.Context, req mcpgolib.CallToolRequest) string {
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
	for name, start := range servers {
		t.Run(name, func(t *testing.T) {
			url, deploys := start()
			_, m := rpc(t, url, "alice", "tools/call", "deploy", `{"name":"deploy","arguments":{},`+meta(true)+`}`)
			id, _ := result(t, m)["taskId"].(string)
			get := `{"taskId":"` + id + `",` + meta(true) + `}`
			_, m = rpc(t, url, "alice", "tasks/get", id, get)
			var key string
			for k := range result(t, m)["inputRequests"].(map[string]any) {
				key = k
			}
			if key == "" {
				t.Fatalf("no input request: %v", m)
			}
			yes := `{"action":"accept","content":{"confirm":true}}`
			rpc(t, url, "alice", "tasks/update", id, `{"taskId":"`+id+`","inputResponses":{"`+key+`":`+yes+`,"approval":`+yes+`},`+meta(true)+`}`)
			_, m = rpc(t, url, "alice", "tasks/get", id, get)
			task := result(t, m)
			out, _ := json.Marshal(task)
			if deploys.Load() != 0 || strings.Contains(string(out), `"deployed`) {
				t.Fatalf("the requester's task update approved: %s, %d deploys", out, deploys.Load())
			}
			if !strings.Contains(string(out), "not the person who asked") {
				t.Errorf("the task's result does not say who must answer: %s", out)
			}
		})
	}
}
