package gosdk

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/runtime"
)

// EraFields makes s send each client only the result fields its protocol
// era defines, whatever the SDK fills in:
//
//   - the cache hints of 2026-07-28 (ttlMs, cacheScope) are left out of
//     the list results sent on 2025-06-18 and 2025-11-25 sessions;
//   - an input_required result carries no "content" (tools/call) or
//     "messages" (prompts/get), which that result does not have;
//   - a complete prompts/get result has "messages": [] rather than null.
//
// Call it once, before s serves; it adds a receiving middleware.
func EraFields(s *mcp.Server) {
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if err != nil || res == nil {
				return res, err
			}
			return trimResult(method, sessionVersion(req), res), nil
		}
	})
}

// sessionVersion is the protocol version a 2025-era session negotiated;
// "" for a 2026-07-28 request, which negotiates none.
func sessionVersion(req mcp.Request) string {
	ss, ok := req.GetSession().(*mcp.ServerSession)
	if !ok || ss == nil {
		return ""
	}
	if ip := ss.InitializeParams(); ip != nil {
		return ip.ProtocolVersion
	}
	return ""
}

// cacheFields are the 2026-07-28 cache hints of list results.
var cacheFields = []string{"ttlMs", "cacheScope"}

// trimResult returns res without the fields version's era does not
// define, or res itself when it has none.
func trimResult(method, version string, res mcp.Result) mcp.Result {
	var drop []string
	fill := ""
	switch r := res.(type) {
	case *mcp.CallToolResult:
		if r.NeedsInput() {
			drop = []string{"content"}
		}
	case *mcp.GetPromptResult:
		switch {
		case r.NeedsInput():
			drop = []string{"messages"}
		case r.Messages == nil:
			fill = "messages"
		}
	default:
		switch method {
		case "tools/list", "prompts/list", "resources/list", "resources/templates/list":
			if version != "" && !runtime.EraOf(version).MultiRoundTrip() {
				drop = cacheFields
			}
		}
	}
	if drop == nil && fill == "" {
		return res
	}
	b, err := json.Marshal(res)
	if err != nil {
		return res
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		return res
	}
	for _, k := range drop {
		delete(m, k)
	}
	if fill != "" {
		m[fill] = json.RawMessage("[]")
	}
	out, err := json.Marshal(m)
	if err != nil {
		return res
	}
	return &trimmed{Result: res, raw: out}
}

// trimmed is a result sent as raw JSON: the SDK's value with fields
// removed.
type trimmed struct {
	mcp.Result
	raw json.RawMessage
}

// MarshalJSON implements json.Marshaler.
func (t *trimmed) MarshalJSON() ([]byte, error) { return t.raw, nil }
