package gosdk

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/runtime/serve"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestEraRouter checks where each kind of request goes, and that the
// handler still reads the whole body the router peeked at.
func TestEraRouter(t *testing.T) {
	var got, body string
	record := func(name string) http.Handler {
		return http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
			got = name
			b, _ := io.ReadAll(r.Body)
			body = string(b)
		})
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "v0"}, nil)
	h := &eraRouter{server: s, opts: (*serve.Options)(nil).Resolved(), calls: map[string]*liveCall{},
		stateful: record("stateful"), stateless: record("stateless")}
	const modernCall = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`
	for _, tc := range []struct {
		name, method string
		header       map[string]string
		body, want   string
	}{
		{"2026-07-28 header", "POST", map[string]string{"MCP-Protocol-Version": "2026-07-28"}, modernCall, "stateless"},
		{"unknown future version", "POST", map[string]string{"MCP-Protocol-Version": "v999.0.0"}, modernCall, "stateless"},
		{"2025-11-25 header", "POST", map[string]string{"MCP-Protocol-Version": "2025-11-25", "Mcp-Session-Id": "s"}, `{"jsonrpc":"2.0","id":1,"method":"tools/call"}`, "stateful"},
		{"session, no header", "POST", map[string]string{"Mcp-Session-Id": "s"}, modernCall, "stateful"},
		{"_meta only", "POST", nil, modernCall, "stateless"},
		{"initialize", "POST", nil, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`, "stateful"},
		{"batch", "POST", nil, `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, "stateful"},
		{"2025 _meta", "POST", nil, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25"}}}`, "stateful"},
		{"not JSON", "POST", nil, `{"jsonrpc":`, "stateful"},
		{"GET stream", "GET", map[string]string{"Mcp-Session-Id": "s"}, "", "stateful"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, body = "", ""
			r := httptest.NewRequest(tc.method, "/mcp", strings.NewReader(tc.body))
			for k, v := range tc.header {
				r.Header.Set(k, v)
			}
			h.ServeHTTP(httptest.NewRecorder(), r)
			if got != tc.want {
				t.Errorf("went to %q, want %q", got, tc.want)
			}
			if body != tc.body {
				t.Errorf("handler read %q, want the whole body %q", body, tc.body)
			}
			if _, ok := r.Header[callKey]; ok != (tc.want == "stateful" && tc.method == "POST") {
				t.Errorf("call key set = %v", ok)
			}
		})
	}
}
