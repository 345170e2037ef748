package clustertest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/example/internal/exampletest"

	"github.com/elicitgen/elicitgen/example/app"
	"github.com/elicitgen/elicitgen/internal/pagetest"
)

// TestOneProcessPerRequest is the shape of a function behind a gateway
// that forwards only tools/call: a small CGI host (net/http/cgi) starts
// the example server (--cgi --pages) for every request, with the key
// ring, the replay store and the pages' answers shared through the
// environment and Redis. A 2026-07-28 approval and a page-answered
// approval from a client without elicitation both complete, each deploys
// once, and no process outlives its request. It needs
// ELICITGEN_REDIS_URL, as TestSingleUseAcrossInstances.
func TestOneProcessPerRequest(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process per request")
	}
	redisURL := redisURLOrSkip(t)
	bin, err := exampletest.BuildServer()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	pids := filepath.Join(dir, "pids")
	// The wrapper records each process's pid, then becomes the server.
	script := filepath.Join(dir, "mcp.cgi")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho $$ >> "+pids+"\nexec "+bin+" --cgi --pages --instance cgi\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	host := httptest.NewUnstartedServer(nil)
	base := "http://" + host.Listener.Addr().String() + "/elicit/"
	stderr := &exampletest.SyncBuffer{}
	host.Config.Handler = &cgi.Handler{Path: script, Stderr: stderr, Env: []string{
		"ELICIT_STATE_KEYS=" + exampletest.NewKeySpec(t, "k1"), "ELICIT_REPLAY_STORE=" + redisURL, "ELICIT_ALLOW_KEY_DROP=a fresh ring per test",
		"ELICIT_TRUSTED_USER_HEADER=" + trustedHeader, "ELICIT_PAGE_BASE_URL=" + base,
	}}
	host.Start()
	defer host.Close()
	defer func() {
		if t.Failed() {
			t.Logf("CGI stderr:\n%s", stderr.String())
		}
	}()
	ctx, cancel := exampletest.Context(t, 60*time.Second)
	defer cancel()

	// call posts one tools/call of a 2026-07-28 client declaring caps and
	// returns its result.
	call := func(t *testing.T, caps map[string]any, extra map[string]any) map[string]any {
		t.Helper()
		params := map[string]any{"name": app.ToolDeploy, "arguments": map[string]any{"service": "billing"},
			"_meta": map[string]any{
				"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
				"io.modelcontextprotocol/clientCapabilities": caps,
				"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "gateway-client", "version": "v0"},
			}}
		for k, v := range extra {
			params[k] = v
		}
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params})
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, host.URL+"/mcp", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", app.ToolDeploy)
		req.Header.Set(trustedHeader, "alice")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if i := bytes.Index(b, []byte("data: ")); i >= 0 { // an event stream of one message
			b = bytes.TrimSpace(b[i+len("data: "):])
		}
		var msg struct {
			Result map[string]any `json:"result"`
			Error  any            `json:"error"`
		}
		if err := json.Unmarshal(b, &msg); err != nil || msg.Result == nil {
			t.Fatalf("tools/call: %s: %s (%v)", res.Status, b, err)
		}
		return msg.Result
	}
	textOf := func(r map[string]any) string {
		var sb strings.Builder
		cs, _ := r["content"].([]any)
		for _, c := range cs {
			if m, ok := c.(map[string]any); ok {
				s, _ := m["text"].(string)
				sb.WriteString(s)
			}
		}
		return sb.String()
	}

	t.Run("2026-07-28 approval", func(t *testing.T) {
		first := call(t, map[string]any{"elicitation": map[string]any{"form": map[string]any{}}}, nil)
		state, _ := first["requestState"].(string)
		reqs, _ := first["inputRequests"].(map[string]any)
		if first["resultType"] != "input_required" || state == "" || len(reqs) != 1 {
			t.Fatalf("round 1: %v", first)
		}
		var key string
		for k := range reqs {
			key = k
		}
		answer := map[string]any{key: map[string]any{"action": "accept", "content": map[string]any{"branch": "main", "environment": "staging", "confirmed": true}}}
		second := call(t, map[string]any{"elicitation": map[string]any{"form": map[string]any{}}}, map[string]any{"requestState": state, "inputResponses": answer})
		if !strings.HasPrefix(textOf(second), "Deployed billing@main to staging") {
			t.Fatalf("round 2: %v", second)
		}
	})
	t.Run("page-answered approval without elicitation", func(t *testing.T) {
		first := call(t, map[string]any{}, nil)
		link := pagetest.LinkIn(textOf(first), base)
		if first["isError"] != true || link == "" {
			t.Fatalf("first call: %v", first)
		}
		status, body, err := pagetest.Answer(ctx, link, http.Header{trustedHeader: {"alice"}}, "accept",
			url.Values{"branch": {"main"}, "environment": {"production"}, "confirmed": {"true"}})
		if err != nil || status != http.StatusOK {
			t.Fatalf("page: %d %v\n%s", status, err, body)
		}
		second := call(t, map[string]any{}, nil)
		if !strings.HasPrefix(textOf(second), "Deployed billing@main to production") {
			t.Fatalf("second call: %v", second)
		}
		if third := call(t, map[string]any{}, nil); pagetest.LinkIn(textOf(third), base) == "" {
			t.Fatalf("third call: %v", third)
		}
	})
	if n := len(deployedLine.FindAllString(stderr.String(), -1)); n != 2 {
		t.Errorf("%d deploys, want 2", n)
	}
	b, err := os.ReadFile(pids)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Fields(string(b))
	if len(lines) != 7 { // five calls, the page's GET and POST
		t.Errorf("%d processes for 7 requests", len(lines))
	}
	for _, l := range lines {
		pid, err := strconv.Atoi(l)
		if err != nil {
			t.Fatal(err)
		}
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("process %d outlived its request (kill 0: %v)", pid, err)
		}
	}
}
