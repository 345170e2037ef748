package app

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Version20260728 is the first protocol version of the stateless era:
// requests carry _meta instead of a session, and questions ride in
// input_required results.
const Version20260728 = "2026-07-28"

// maxPeekBytes bounds the body the router reads to learn a request's
// era; it equals go-sdk's default request body limit.
const maxPeekBytes = mcp.DefaultMaxRequestBodyBytes

// NewEraRouter returns the handler that serves every protocol era on one
// URL: a request of the 2026-07-28 era goes to stateless, any other to
// stateful. go-sdk serves 2026-07-28 only in stateless mode and can push
// elicitation/create to a 2025-era client only on a session, so one URL
// needs both handlers. A request's era is, in order:
//
//   - its MCP-Protocol-Version header: 2026-07-28 or later (or an unknown
//     value, which go-sdk's stateless handler answers with
//     UnsupportedProtocolVersionError) is stateless, an older version
//     stateful;
//   - an Mcp-Session-Id header: stateful (a 2025-era session);
//   - a POST body whose _meta names io.modelcontextprotocol/protocolVersion
//     (2026-07-28 or later: stateless); an initialize: stateful (it opens
//     a session); a JSON-RPC batch: stateful (batches ended with
//     2025-06-18);
//   - anything else (GET, DELETE, an unreadable body): stateful, whose
//     errors name what is missing.
func NewEraRouter(stateful, stateless http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if modernRequest(w, r) {
			stateless.ServeHTTP(w, r)
			return
		}
		stateful.ServeHTTP(w, r)
	})
}

// modernRequest reports whether r belongs to the 2026-07-28 era. When it
// reads the body, it puts it back for the handler.
func modernRequest(w http.ResponseWriter, r *http.Request) bool {
	if v := r.Header.Get("MCP-Protocol-Version"); v != "" {
		return v >= Version20260728
	}
	if r.Header.Get("Mcp-Session-Id") != "" || r.Method != http.MethodPost || r.Body == nil {
		return false
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxPeekBytes))
	r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), errReader{err}))
	if err != nil {
		return false
	}
	var msg struct {
		Method string `json:"method"`
		Params struct {
			Meta map[string]any `json:"_meta"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &msg) != nil || msg.Method == "initialize" {
		return false
	}
	v, _ := msg.Params.Meta["io.modelcontextprotocol/protocolVersion"].(string)
	return v >= Version20260728
}

// errReader returns err (io.EOF when nil) on every read: the tail of a
// body whose head the router has read.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) {
	if e.err == nil {
		return 0, io.EOF
	}
	return 0, e.err
}
