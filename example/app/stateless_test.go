package app_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/example/app"
	"github.com/elicitgen/elicitgen/runtime"
)

// post sends one 2026-07-28 JSON-RPC request to url and returns the HTTP
// status and the JSON-RPC messages of the response (a JSON body or an
// event stream).
func post(t *testing.T, url, method, name string, params map[string]any) (int, []map[string]any) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 7, "method": method, "params": params})
	req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", runtime.Version20260728)
	req.Header.Set("Mcp-Method", method)
	if name != "" {
		req.Header.Set("Mcp-Name", name)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var msgs []map[string]any
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		line = strings.TrimPrefix(line, "data:")
		var m map[string]any
		if json.Unmarshal([]byte(line), &m) == nil {
			msgs = append(msgs, m)
		}
	}
	return res.StatusCode, msgs
}

// meta is the per-request _meta of a 2026-07-28 request.
func meta(caps map[string]any, extra map[string]any) map[string]any {
	m := map[string]any{
		"io.modelcontextprotocol/protocolVersion":    runtime.Version20260728,
		"io.modelcontextprotocol/clientCapabilities": caps,
	}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

// TestStatelessFixtures checks the server-stateless fixtures over HTTP:
// test_missing_capability fails with -32021, HTTP 400 and a
// ClientCapabilities object naming sampling (and runs when sampling is
// declared); test_logging_tool sends notifications/message only when the
// request set a log level; test_streaming_elicitation's stream carries
// only its input_required result.
func TestStatelessFixtures(t *testing.T) {
	srv := httptest.NewServer(app.HTTPHandler(app.NewServer(app.Options{Keys: testKeys(t), Conformance: true})))
	defer srv.Close()
	url := srv.URL + "/mcp"
	call := func(tool string, m map[string]any) (int, []map[string]any) {
		return post(t, url, "tools/call", tool, map[string]any{"name": tool, "arguments": map[string]any{}, "_meta": m})
	}

	status, msgs := call(app.FixtureMissingCapability, meta(map[string]any{}, nil))
	if status != http.StatusBadRequest || len(msgs) != 1 {
		t.Fatalf("test_missing_capability: HTTP %d, %v", status, msgs)
	}
	e, _ := msgs[0]["error"].(map[string]any)
	data, _ := e["data"].(map[string]any)
	req, _ := data["requiredCapabilities"].(map[string]any)
	if e["code"] != float64(-32021) || req == nil || req["sampling"] == nil || msgs[0]["id"] != float64(7) {
		t.Errorf("test_missing_capability: %v; want -32021 with requiredCapabilities {sampling: {}} and id 7", msgs[0])
	}
	if status, msgs := call(app.FixtureMissingCapability, meta(map[string]any{"sampling": map[string]any{}}, nil)); status != http.StatusOK || len(msgs) == 0 || msgs[len(msgs)-1]["result"] == nil {
		t.Errorf("test_missing_capability with sampling declared: HTTP %d, %v", status, msgs)
	}

	logs := func(msgs []map[string]any) (n int) {
		for _, m := range msgs {
			if m["method"] == "notifications/message" {
				n++
			}
		}
		return n
	}
	if _, msgs := call(app.FixtureLogging, meta(map[string]any{}, nil)); logs(msgs) != 0 || msgs[len(msgs)-1]["result"] == nil {
		t.Errorf("test_logging_tool without a log level: %v; want only the result", msgs)
	}
	if _, msgs := call(app.FixtureLogging, meta(map[string]any{}, map[string]any{"io.modelcontextprotocol/logLevel": "debug"})); logs(msgs) != 1 {
		t.Errorf("test_logging_tool at debug: %v; want one notifications/message", msgs)
	}

	_, msgs = call(app.FixtureStreamElicitation, meta(map[string]any{"elicitation": map[string]any{}}, nil))
	if len(msgs) != 1 {
		t.Fatalf("test_streaming_elicitation: %v; want only the result", msgs)
	}
	res, _ := msgs[0]["result"].(map[string]any)
	if res == nil || res["resultType"] != "input_required" || msgs[0]["method"] != nil {
		t.Errorf("test_streaming_elicitation: %v; want an input_required result", msgs[0])
	}
}
