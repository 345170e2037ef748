package tasks_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/elicittest"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/seal"
	"github.com/elicitgen/elicitgen/runtime/serve"
	"github.com/elicitgen/elicitgen/runtime/tasks"
)

// One elicittest.Clock drives the adapter, the tasks server and its
// store: a task whose question waits 72 hours is approved on the third
// day; another, answered after seven days (the task itself lives 30),
// runs its tool once more, which sees a decline whose Outcome.Expired is
// true, and completes without deploying; 31 days on, the tasks are gone.
func TestTaskAnsweredDaysLater(t *testing.T) {
	clock := elicittest.NewClock(time.Date(2026, 7, 28, 9, 0, 0, 0, time.UTC))
	var deploys, expired atomic.Int32
	s := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "v0"}, nil)
	cfg := &gosdk.Config{Options: adapter.Options{Keys: seal.NewRandomKeyRing()}, Principal: func(_ context.Context, req *mcp.CallToolRequest) string {
		return req.Extra.Header.Get(userHeader)
	}}
	store := page.NewMemoryStore()
	ts := &tasks.Server{Store: tasks.NewStore(store)}
	clock.Drive(&cfg.Now, &ts.Now, &store.Now)
	s.AddTool(&mcp.Tool{Name: "deploy", InputSchema: map[string]any{"type": "object"}},
		gosdk.Handle(cfg, func(ctx context.Context, _ *mcp.CallToolRequest, asker runtime.Asker) (*mcp.CallToolResult, error) {
			out, err := runtime.AskConfirm(ctx, asker, "Deploy to production?", runtime.WithWait(72*time.Hour))
			if err != nil {
				return nil, err
			}
			text := "deployed"
			if v, ok := out.Accepted(); !ok || !v {
				text = "not deployed: " + string(out.Action)
				if out.Expired() {
					expired.Add(1)
					text += " (expired)"
				}
			} else {
				deploys.Add(1)
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
		}))
	srv := httptest.NewServer(gosdk.NewHTTPHandler(s, &serve.Options{Tasks: ts.Front(tasks.HTTPOptions{Principal: userOf, TTL: 30 * 24 * time.Hour})}))
	defer srv.Close()

	// task starts a task and returns its id and the key of its question.
	task := func() (string, string) {
		t.Helper()
		_, m := rpc(t, srv.URL, "alice", "tools/call", "deploy", `{"name":"deploy","arguments":{},`+meta(true)+`}`)
		id, _ := result(t, m)["taskId"].(string)
		_, m = rpc(t, srv.URL, "alice", "tasks/get", id, `{"taskId":"`+id+`",`+meta(true)+`}`)
		for k := range result(t, m)["inputRequests"].(map[string]any) {
			return id, k
		}
		t.Fatalf("task %q asks nothing: %v", id, m)
		return "", ""
	}
	// answer approves task id and returns its result's text once done.
	answer := func(id, key string) string {
		t.Helper()
		rpc(t, srv.URL, "alice", "tasks/update", id, `{"taskId":"`+id+`","inputResponses":{"`+key+`":{"action":"accept","content":{"confirm":true}}},`+meta(true)+`}`)
		_, m := rpc(t, srv.URL, "alice", "tasks/get", id, `{"taskId":"`+id+`",`+meta(true)+`}`)
		got := result(t, m)
		out, _ := json.Marshal(got["result"])
		if got["status"] != "completed" {
			t.Fatalf("task after its answer: %v", got)
		}
		return string(out)
	}

	first, key := task()
	id := first
	clock.Advance(72*time.Hour - time.Minute)
	if out := answer(id, key); !strings.Contains(out, `"deployed"`) || deploys.Load() != 1 {
		t.Fatalf("approved on the third day: %s, %d deploys", out, deploys.Load())
	}

	id, key = task()
	clock.Advance(7 * 24 * time.Hour)
	if out := answer(id, key); !strings.Contains(out, "not deployed: decline (expired)") || expired.Load() != 1 || deploys.Load() != 1 {
		t.Fatalf("approved after seven days: %s, %d expired, %d deploys", out, expired.Load(), deploys.Load())
	}

	// The tasks live 30 days, on the same clock.
	clock.Advance(21 * 24 * time.Hour)
	if _, m := rpc(t, srv.URL, "alice", "tasks/get", first, `{"taskId":"`+first+`",`+meta(true)+`}`); m["error"] == nil {
		t.Fatalf("a task 31 days old: %v; want it gone", m)
	}
}
