package tasks_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	goruntime "runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/seal"
	"github.com/elicitgen/elicitgen/runtime/serve"
	"github.com/elicitgen/elicitgen/runtime/tasks"
)

// approvalServer serves a go-sdk deploy tool that asks for approval, with
// the tasks front mounted, and returns its URL and store.
func approvalServer(tb testing.TB) (string, *page.MemoryStore) {
	tb.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "v0"}, nil)
	cfg := &gosdk.Config{Options: adapter.Options{Keys: seal.NewRandomKeyRing()}}
	s.AddTool(&mcp.Tool{Name: "deploy", InputSchema: map[string]any{"type": "object"}},
		gosdk.Handle(cfg, func(ctx context.Context, _ *mcp.CallToolRequest, asker runtime.Asker) (*mcp.CallToolResult, error) {
			out, err := runtime.AskConfirm(ctx, asker, "Deploy to production?")
			if err != nil {
				return nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(out.Action)}}}, nil
		}))
	st := page.NewMemoryStore()
	st.Limit = 1 << 30 // however many iterations a benchmark runs
	ts := &tasks.Server{Store: tasks.NewStore(st)}
	srv := httptest.NewServer(gosdk.NewHTTPHandler(s, &serve.Options{Tasks: ts.Front(tasks.HTTPOptions{})}))
	tb.Cleanup(srv.Close)
	return srv.URL, st
}

// post sends one 2026-07-28 request and returns the JSON-RPC response's
// result.
func post(tb testing.TB, c *http.Client, url, method, name, params string) map[string]json.RawMessage {
	body := `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":` + params + `}`
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	req.Header.Set("Mcp-Name", name)
	resp, err := c.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if i := bytes.Index(raw, []byte("data: ")); i >= 0 && strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		raw = bytes.TrimSpace(raw[i+len("data: "):])
	}
	var m struct {
		Result map[string]json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(raw, &m); err != nil || m.Result == nil {
		tb.Fatalf("%s: %s", method, raw)
	}
	return m.Result
}

func str(raw json.RawMessage) string {
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}

func firstKey(raw json.RawMessage) string {
	var m map[string]json.RawMessage
	_ = json.Unmarshal(raw, &m)
	for k := range m {
		return k
	}
	return ""
}

// TestWaitingTasksHoldNoGoroutine creates 300 approvals waiting
// for a person and counts the goroutines afterwards: a waiting task is a
// record, so the count does not grow with them.
func TestWaitingTasksHoldNoGoroutine(t *testing.T) {
	url, st := approvalServer(t)
	c := &http.Client{}
	call := `{"name":"deploy","arguments":{},` + meta(true) + `}`
	post(t, c, url, "tools/call", "deploy", call) // warm up the server's own goroutines
	c.CloseIdleConnections()
	before := settledGoroutines()
	const waiting = 300
	for range waiting {
		if r := post(t, c, url, "tools/call", "deploy", call); str(r["status"]) != "input_required" {
			t.Fatalf("tools/call = %v", r)
		}
	}
	c.CloseIdleConnections()
	after := settledGoroutines()
	if st.Len() != waiting+1 {
		t.Fatalf("%d tasks stored, want %d", st.Len(), waiting+1)
	}
	if after-before > 8 {
		t.Errorf("%d waiting tasks: %d goroutines before, %d after", waiting, before, after)
	}
}

// settledGoroutines returns the goroutine count once closed connections'
// goroutines have ended.
func settledGoroutines() int {
	n := goruntime.NumGoroutine()
	for range 100 {
		time.Sleep(10 * time.Millisecond)
		m := goruntime.NumGoroutine()
		if m == n {
			return m
		}
		n = m
	}
	return n
}

// BenchmarkApproval measures one approval end to end over HTTP on
// loopback, side by side: as a 2026-07-28 input_required round and its
// retry (mrtr), and as a task: the call that creates it, tasks/get and
// the tasks/update that runs the tool again (task). answer-only counts
// only what answers a question already asked: the retry, or tasks/get
// and tasks/update (task-get and task-update count each alone).
func BenchmarkApproval(b *testing.B) {
	url, _ := approvalServer(b)
	c := &http.Client{}
	plain := `{"name":"deploy","arguments":{},` + meta(false) + `}`
	withExt := `{"name":"deploy","arguments":{},` + meta(true) + `}`
	retry := func(r map[string]json.RawMessage) string {
		return `{"name":"deploy","arguments":{},` + meta(false) + `,"requestState":` + string(r["requestState"]) +
			`,"inputResponses":{"` + firstKey(r["inputRequests"]) + `":{"action":"accept","content":{"confirm":true}}}}`
	}
	update := func(id, key string) string {
		return `{"taskId":"` + id + `","inputResponses":{"` + key + `":{"action":"accept","content":{"confirm":true}}},` + meta(true) + `}`
	}
	b.Run("mrtr", func(b *testing.B) {
		defer cpuPerOp(b)()
		for b.Loop() {
			r := post(b, c, url, "tools/call", "deploy", plain)
			post(b, c, url, "tools/call", "deploy", retry(r))
		}
	})
	b.Run("task", func(b *testing.B) {
		defer cpuPerOp(b)()
		for b.Loop() {
			id := str(post(b, c, url, "tools/call", "deploy", withExt)["taskId"])
			g := post(b, c, url, "tasks/get", id, `{"taskId":"`+id+`",`+meta(true)+`}`)
			post(b, c, url, "tasks/update", id, update(id, firstKey(g["inputRequests"])))
		}
	})
	b.Run("answer-only/mrtr", func(b *testing.B) {
		var cpu time.Duration
		for b.Loop() {
			b.StopTimer()
			r := post(b, c, url, "tools/call", "deploy", plain)
			b.StartTimer()
			t0 := processCPU()
			post(b, c, url, "tools/call", "deploy", retry(r))
			cpu += processCPU() - t0
		}
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	})
	b.Run("answer-only/task", func(b *testing.B) {
		var cpu time.Duration
		for b.Loop() {
			b.StopTimer()
			id := str(post(b, c, url, "tools/call", "deploy", withExt)["taskId"])
			b.StartTimer()
			t0 := processCPU()
			g := post(b, c, url, "tasks/get", id, `{"taskId":"`+id+`",`+meta(true)+`}`)
			post(b, c, url, "tasks/update", id, update(id, firstKey(g["inputRequests"])))
			cpu += processCPU() - t0
		}
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	})
	// The two requests of answer-only/task apart: tasks/get alone, right
	// after the call that created the task, and tasks/update alone, after
	// that tasks/get.
	b.Run("answer-only/task-get", func(b *testing.B) {
		var cpu time.Duration
		for b.Loop() {
			b.StopTimer()
			id := str(post(b, c, url, "tools/call", "deploy", withExt)["taskId"])
			b.StartTimer()
			t0 := processCPU()
			g := post(b, c, url, "tasks/get", id, `{"taskId":"`+id+`",`+meta(true)+`}`)
			cpu += processCPU() - t0
			b.StopTimer()
			post(b, c, url, "tasks/update", id, update(id, firstKey(g["inputRequests"])))
			b.StartTimer()
		}
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	})
	b.Run("answer-only/task-update", func(b *testing.B) {
		var cpu time.Duration
		for b.Loop() {
			b.StopTimer()
			id := str(post(b, c, url, "tools/call", "deploy", withExt)["taskId"])
			g := post(b, c, url, "tasks/get", id, `{"taskId":"`+id+`",`+meta(true)+`}`)
			b.StartTimer()
			t0 := processCPU()
			post(b, c, url, "tasks/update", id, update(id, firstKey(g["inputRequests"])))
			cpu += processCPU() - t0
		}
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	})
}

// cpuPerOp starts counting the process's CPU time; the func it returns
// reports it per op.
func cpuPerOp(b *testing.B) func() {
	t0 := processCPU()
	return func() { b.ReportMetric(float64((processCPU()-t0).Nanoseconds())/float64(b.N), "cpu-ns/op") }
}

// BenchmarkTasksGetInProcess answers tasks/get for a waiting approval
// through go-sdk's HTTP handler with the tasks front, in process (no
// network, no client): what the front and the handler's limits cost on
// their own.
func BenchmarkTasksGetInProcess(b *testing.B) {
	ctx := context.Background()
	ts := &tasks.Server{Store: tasks.NewMemoryStore()}
	task, err := ts.Create(ctx, "", "deploy", "", json.RawMessage(`{"name":"deploy","arguments":{},`+meta(true)+`}`), time.Hour)
	if err == nil {
		_, err = ts.Settle(ctx, task.ID, tasks.Step{Requests: map[string]json.RawMessage{"Confirm": json.RawMessage(
			`{"method":"elicitation/create","params":{"mode":"form","message":"Deploy to production?","requestedSchema":{"type":"object","properties":{"confirm":{"type":"boolean","title":"Confirm","default":false}},"required":["confirm"]}}}`)}})
	}
	if err != nil {
		b.Fatal(err)
	}
	h := gosdk.NewHTTPHandler(mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "v0"}, nil), &serve.Options{Tasks: ts.Front(tasks.HTTPOptions{})})
	body := `{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":"` + task.ID + `",` + meta(true) + `}}`
	b.ReportAllocs()
	defer cpuPerOp(b)()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tasks/get")
		req.Header.Set("Mcp-Name", task.ID)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"inputRequests":{"Confirm"`) {
			b.Fatalf("tasks/get: %d %s", w.Code, w.Body)
		}
	}
}

// BenchmarkTasksGetCaches measures one tasks/get over HTTP on loopback
// (process CPU per op) repeated back to back on one waiting task, and the
// same after 4 MiB of memory were written (outside the count), as after a
// go-sdk tools/call; and, for scale, a round trip with the same client to
// a handler that writes a fixed JSON body.
func BenchmarkTasksGetCaches(b *testing.B) {
	url, _ := approvalServer(b)
	c := &http.Client{}
	id := str(post(b, c, url, "tools/call", "deploy", `{"name":"deploy","arguments":{},`+meta(true)+`}`)["taskId"])
	get := `{"taskId":"` + id + `",` + meta(true) + `}`
	junk := make([]byte, 4<<20)
	for _, touch := range []int{0, 4 << 20} {
		b.Run("after-"+strconv.Itoa(touch>>20)+"MiB", func(b *testing.B) {
			var cpu time.Duration
			for i := 0; b.Loop(); i++ {
				for j := 0; j < touch; j += 64 {
					junk[j] = byte(i)
				}
				t0 := processCPU()
				post(b, c, url, "tasks/get", id, get)
				cpu += processCPU() - t0
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
	fixed := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete"}}`))
	}))
	defer fixed.Close()
	b.Run("fixed-handler", func(b *testing.B) {
		defer cpuPerOp(b)()
		for b.Loop() {
			post(b, c, fixed.URL, "tasks/get", id, get)
		}
	})
}

// BenchmarkAnswerAfterGC is answer-only/mrtr and answer-only/task of
// BenchmarkApproval with a collection run to its end (runtime.GC) between
// the call and the answer: no collection falls in the counted window.
func BenchmarkAnswerAfterGC(b *testing.B) {
	url, _ := approvalServer(b)
	c := &http.Client{}
	plain := `{"name":"deploy","arguments":{},` + meta(false) + `}`
	withExt := `{"name":"deploy","arguments":{},` + meta(true) + `}`
	b.Run("mrtr", func(b *testing.B) {
		var cpu time.Duration
		for b.Loop() {
			b.StopTimer()
			r := post(b, c, url, "tools/call", "deploy", plain)
			goruntime.GC()
			b.StartTimer()
			t0 := processCPU()
			post(b, c, url, "tools/call", "deploy", `{"name":"deploy","arguments":{},`+meta(false)+`,"requestState":`+string(r["requestState"])+
				`,"inputResponses":{"`+firstKey(r["inputRequests"])+`":{"action":"accept","content":{"confirm":true}}}}`)
			cpu += processCPU() - t0
		}
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	})
	b.Run("task", func(b *testing.B) {
		var cpu time.Duration
		for b.Loop() {
			b.StopTimer()
			id := str(post(b, c, url, "tools/call", "deploy", withExt)["taskId"])
			goruntime.GC()
			b.StartTimer()
			t0 := processCPU()
			g := post(b, c, url, "tasks/get", id, `{"taskId":"`+id+`",`+meta(true)+`}`)
			post(b, c, url, "tasks/update", id, `{"taskId":"`+id+`","inputResponses":{"`+firstKey(g["inputRequests"])+
				`":{"action":"accept","content":{"confirm":true}}},`+meta(true)+`}`)
			cpu += processCPU() - t0
		}
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	})
}
