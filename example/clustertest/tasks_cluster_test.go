package clustertest

import (
	"bytes"
	"encoding/json"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"strings"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/example/internal/exampletest"

	"github.com/elicitgen/elicitgen/example/app"
)

// taskMeta is the _meta of a 2026-07-28 request from a client with form
// elicitation and the Tasks extension.
const taskMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"tasks-client","version":"0"},"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}},"extensions":{"io.modelcontextprotocol/tasks":{}}}}`

// taskRPC posts one 2026-07-28 request to url and returns its result (or
// fails the test on a JSON-RPC error).
func taskRPC(t *testing.T, url, method, name, params string) map[string]any {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":` + params + `}`
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	req.Header.Set("Mcp-Name", name)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if i := bytes.LastIndex(raw, []byte("data: ")); i >= 0 && strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		raw = bytes.TrimSpace(raw[i+len("data: "):])
	}
	var m struct {
		Result map[string]any `json:"result"`
		Error  any            `json:"error"`
	}
	if err := json.Unmarshal(raw, &m); err != nil || m.Result == nil {
		t.Fatalf("%s: HTTP %d %s", method, resp.StatusCode, raw)
	}
	return m.Result
}

// TestTaskAcrossInstances: three instances share one key ring and one
// Redis behind the round-robin proxy. deploy_to_production is called as
// an MCP task on the first instance, which is then killed; the task is
// polled on the second and answered on the third, and the deploy runs
// once, also when the answer is sent again.
func TestTaskAcrossInstances(t *testing.T) {
	if testing.Short() {
		t.Skip("starts three server processes")
	}
	redisURL := redisURLOrSkip(t)
	cluster, rr, mcpURL := startCluster(t, "ELICIT_REPLAY_STORE="+redisURL)
	url := mcpURL

	created := taskRPC(t, url, "tools/call", app.ToolDeploy, `{"name":"`+app.ToolDeploy+`","arguments":{"service":"billing"},`+taskMeta+`}`)
	id, _ := created["taskId"].(string)
	if created["resultType"] != "task" || created["status"] != "input_required" || id == "" {
		t.Fatalf("tools/call = %v; want a task waiting for input", created)
	}
	if ttl, _ := created["ttlMs"].(float64); ttl < float64(app.DeployWait.Milliseconds()) {
		t.Errorf("ttlMs = %v, want at least the deploy's %v wait", created["ttlMs"], app.DeployWait)
	}
	creator := rr.last()
	rr.quiet(t)
	for _, in := range cluster {
		if in.name == creator {
			in.kill(t) // the instance that created the task is gone while it waits
		}
	}

	get := `{"taskId":"` + id + `",` + taskMeta + `}`
	task := taskRPC(t, url, "tasks/get", id, get)
	poller := rr.last()
	reqs, _ := task["inputRequests"].(map[string]any)
	if task["status"] != "input_required" || len(reqs) != 1 || poller == creator {
		t.Fatalf("tasks/get on %s = %v", poller, task)
	}
	var key string
	for k := range reqs {
		key = k
	}
	answer := `{"taskId":"` + id + `","inputResponses":{"` + key + `":{"action":"accept","content":{"branch":"release/2.4","environment":"production","confirmed":true}}},` + taskMeta + `}`
	if ack := taskRPC(t, url, "tasks/update", id, answer); len(ack) != 1 || ack["resultType"] != "complete" {
		t.Fatalf("tasks/update = %v", ack)
	}
	answerer := rr.last()
	if answerer == creator || answerer == poller {
		t.Errorf("created on %s, polled on %s, answered on %s: want three instances", creator, poller, answerer)
	}
	taskRPC(t, url, "tasks/update", id, answer) // sent again: acknowledged, nothing runs
	task = taskRPC(t, url, "tasks/get", id, get)
	out, _ := json.Marshal(task["result"])
	if task["status"] != "completed" || !strings.Contains(string(out), "Deployed billing@release/2.4 to production") {
		t.Fatalf("the answered task = %v", task)
	}
	time.Sleep(exampletest.Timeout(200 * time.Millisecond)) // a second deployment would be logged by now
	if n := deployments(cluster); n != 1 {
		t.Errorf("the instances logged %d deployments, want 1", n)
	}
}

// TestTaskSurvivesRestartOfEveryInstance: a deploy approval waiting as a
// task outlives every instance: all three are killed and three new ones
// (same key ring, same Redis) serve the answer, and the deploy runs once.
func TestTaskSurvivesRestartOfEveryInstance(t *testing.T) {
	if testing.Short() {
		t.Skip("starts six server processes")
	}
	redisURL := redisURLOrSkip(t)
	bin, err := exampletest.BuildServer()
	if err != nil {
		t.Fatal(err)
	}
	keys := exampletest.NewKeySpec(t, "k1")
	start := func(names ...string) []*instance {
		var out []*instance
		for _, name := range names {
			out = append(out, startInstance(t, bin, name, keys, "ELICIT_REPLAY_STORE="+redisURL))
		}
		return out
	}
	first := start("node-a", "node-b", "node-c")
	rr := &roundRobin{backends: first}
	proxy := httptest.NewServer(&httputil.ReverseProxy{
		Rewrite:       func(r *httputil.ProxyRequest) { r.Out.URL.Scheme, r.Out.URL.Host = "http", "cluster" },
		Transport:     rr,
		FlushInterval: -1,
		ErrorLog:      log.New(testWriter{t}, "proxy: ", 0),
	})
	defer proxy.Close()
	url := proxy.URL + "/mcp"

	created := taskRPC(t, url, "tools/call", app.ToolDeploy, `{"name":"`+app.ToolDeploy+`","arguments":{"service":"billing"},`+taskMeta+`}`)
	id, _ := created["taskId"].(string)
	if created["status"] != "input_required" || id == "" {
		t.Fatalf("tools/call = %v", created)
	}
	get := `{"taskId":"` + id + `",` + taskMeta + `}`
	var key string
	for k := range taskRPC(t, url, "tasks/get", id, get)["inputRequests"].(map[string]any) {
		key = k
	}
	rr.quiet(t)
	for _, in := range first {
		in.kill(t)
	}
	second := start("node-d", "node-e", "node-f")
	rr.mu.Lock()
	rr.backends = second
	rr.mu.Unlock()

	if task := taskRPC(t, url, "tasks/get", id, get); task["status"] != "input_required" {
		t.Fatalf("after every instance restarted: %v", task)
	}
	answer := `{"taskId":"` + id + `","inputResponses":{"` + key + `":{"action":"accept","content":{"branch":"release/2.4","environment":"production","confirmed":true}}},` + taskMeta + `}`
	taskRPC(t, url, "tasks/update", id, answer)
	task := taskRPC(t, url, "tasks/get", id, get)
	out, _ := json.Marshal(task["result"])
	if task["status"] != "completed" || !strings.Contains(string(out), "Deployed billing@release/2.4 to production") {
		t.Fatalf("the answered task = %v", task)
	}
	time.Sleep(exampletest.Timeout(200 * time.Millisecond))
	if n := deployments(append(first, second...)); n != 1 {
		t.Errorf("the instances logged %d deployments, want 1", n)
	}
}
