package main

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime/serve"
)

// TestBodyMemory measures the resident memory of 100 concurrent tool
// calls whose bodies are at the body limit, on a 2025-11-25 session and
// with the 2026-07-28 header. It runs only with ELICIT_MEASURE=1 (Linux:
// it reads /proc/self/status); ELICIT_BODY_BYTES overrides the limit:
//
//	ELICIT_MEASURE=1 go test ./example/server -run TestBodyMemory -v -count=1
func TestBodyMemory(t *testing.T) {
	if os.Getenv("ELICIT_MEASURE") != "1" {
		t.Skip("set ELICIT_MEASURE=1 to measure")
	}
	limit := int64(serve.DefaultMaxBodyBytes)
	if v := os.Getenv("ELICIT_BODY_BYTES"); v != "" {
		limit, _ = strconv.ParseInt(v, 10, 64)
	}
	const concurrent = 100
	// The server runs in its own process, so that its peak resident memory
	// (VmHWM) is its own.
	bin := filepath.Join(t.TempDir(), "server")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: concurrent, MaxConnsPerHost: concurrent}}
	var url string
	do := func(header map[string]string, body []byte) (int, string) {
		req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range header {
			req.Header.Set(k, v)
		}
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(io.LimitReader(res.Body, 4096))
		io.Copy(io.Discard, res.Body)
		if res.StatusCode >= 300 {
			t.Logf("%d: %s", res.StatusCode, b)
		}
		return res.StatusCode, res.Header.Get("Mcp-Session-Id")
	}
	start := func() (pid int) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		cmd := exec.Command(bin, "--http", addr, "--max-body-bytes", strconv.FormatInt(limit, 10))
		cmd.Env = append(os.Environ(), KeysEnv+"=")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		url = "http://" + addr + "/mcp"
		for i := 0; ; i++ {
			c, err := net.Dial("tcp", addr)
			if err == nil {
				c.Close()
				break
			}
			if i > 200 {
				t.Fatal("the server did not start")
			}
			time.Sleep(50 * time.Millisecond)
		}
		return cmd.Process.Pid
	}
	// calls returns the bodies of concurrent calls, each of exactly
	// limit bytes and with its own id, naming a service that does not
	// exist: the tool refuses it at once, without asking.
	calls := func(meta string) [][]byte {
		out := make([][]byte, concurrent)
		for i := range out {
			head := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{`, 1000+i) + meta + `"name":"deploy_to_production","arguments":{"service":"`
			tail := `"}}}`
			out[i] = []byte(head + strings.Repeat("2", int(limit)-len(head)-len(tail)) + tail)
		}
		return out
	}
	for _, era := range []struct {
		name   string
		header map[string]string
		bodies [][]byte
	}{
		{"2025-11-25 session", map[string]string{"MCP-Protocol-Version": "2025-11-25"}, calls("")},
		{"2026-07-28 header", map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "deploy_to_production"},
			calls(`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}},`)},
	} {
		if int64(len(era.bodies[0])) != limit {
			t.Fatalf("body of %d bytes, want %d", len(era.bodies[0]), limit)
		}
		pid := start()
		if era.header["Mcp-Session-Id"] == "" && era.header["MCP-Protocol-Version"] == "2025-11-25" {
			_, sid := do(nil, []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"m","version":"v0"}}}`))
			do(map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"}, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))

			era.header["Mcp-Session-Id"] = sid
		}
		time.Sleep(200 * time.Millisecond)
		before := status(pid, "VmRSS")
		var wg sync.WaitGroup
		codes := make([]int, concurrent)
		for i := range concurrent {
			wg.Add(1)
			go func() {
				defer wg.Done()
				codes[i], _ = do(era.header, era.bodies[i])
			}()
		}
		wg.Wait()
		peak := status(pid, "VmHWM")
		time.Sleep(10 * time.Second)
		after := status(pid, "VmRSS")
		t.Logf("%s: %d concurrent bodies of %d bytes: server RSS %d MB before, peak %d MB (+%.1f MB per request), %d MB 10 s after; status %d",
			era.name, concurrent, limit, before>>10, peak>>10, float64(peak-before)/1024/concurrent, after>>10, codes[0])
	}
}

// status returns a kB field of /proc/<pid>/status.
func status(pid int, field string) int64 {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, field+":"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return n
		}
	}
	panic(fmt.Sprintf("no %s in /proc/self/status", field))
}
