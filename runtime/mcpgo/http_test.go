package mcpgo_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	goruntime "runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/seal"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/mcpgo"
)

// A 2025-11-25 client that drops its call while the form is open ends
// the ask on mcp-go too: the handler returns and nothing it started
// stays.
func TestHTTPDroppedAskEnds(t *testing.T) {
	var returned atomic.Int64
	s := server.NewMCPServer("srv", "v0")
	cfg := &mcpgo.Config{Options: adapter.Options{Keys: seal.NewRandomKeyRing()}}
	s.AddTool(mcp.NewTool("confirm"), mcpgo.Handle(cfg, func(ctx context.Context, _ mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
		defer returned.Add(1)
		out, err := runtime.AskConfirm(ctx, ask, "Go on?")
		if err != nil {
			return nil, err
		}
		return mcp.NewToolResultText(string(out.Action)), nil
	}))
	srv := httptest.NewServer(mcpgo.NewHTTPHandler(s, nil))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	post := func(sid, msg string) string {
		req, _ := http.NewRequest("POST", srv.URL, strings.NewReader(msg))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if sid != "" {
			req.Header.Set("Mcp-Session-Id", sid)
			req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.Header.Get("Mcp-Session-Id")
	}
	sid := post("", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{"form":{}}},"clientInfo":{"name":"c","version":"v0"}}}`)
	post(sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	http.DefaultClient.CloseIdleConnections()
	time.Sleep(100 * time.Millisecond)
	base := goruntime.NumGoroutine()
	const drops = 20
	for i := range drops {
		c, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"confirm","arguments":{}}}`, i+1)
		fmt.Fprintf(c, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Session-Id: %s\r\nMCP-Protocol-Version: 2025-11-25\r\nContent-Length: %d\r\n\r\n%s", host, sid, len(body), body)
		_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
		r := bufio.NewReader(c)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				t.Fatalf("reading the call's stream: %v", err)
			}
			if strings.Contains(line, "elicitation/create") {
				break
			}
		}
		c.Close()
	}
	for deadline := time.Now().Add(10 * time.Second); returned.Load() < drops; {
		if time.Now().After(deadline) {
			t.Fatalf("after 10s, %d of %d dropped asks returned", returned.Load(), drops)
		}
		time.Sleep(10 * time.Millisecond)
	}
	n := goruntime.NumGoroutine()
	for deadline := time.Now().Add(10 * time.Second); n > base+2 && time.Now().Before(deadline); n = goruntime.NumGoroutine() {
		time.Sleep(20 * time.Millisecond)
	}
	if n > base+2 {
		t.Errorf("goroutines: %d before the drops, %d after", base, n)
	}
}
