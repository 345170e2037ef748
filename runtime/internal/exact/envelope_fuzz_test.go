package exact_test

import (
	"bytes"
	"encoding/json"
	"testing"

	mgmcp "github.com/mark3labs/mcp-go/mcp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/runtime/internal/exact"
)

// answersRead is what a reader took from one message: the action of each
// elicitation result it holds ("result" for a response's, the
// inputResponses key otherwise) and whether it had content.
type answersRead map[string]string

// exactReading reads msg with exact keys, as the checks promise an SDK
// reads what they pass.
func exactReading(msg []byte) answersRead {
	out := answersRead{}
	var m map[string]json.RawMessage
	if json.Unmarshal(msg, &m) != nil {
		return out
	}
	add := func(k string, raw json.RawMessage) {
		var r map[string]json.RawMessage
		if json.Unmarshal(raw, &r) != nil {
			return
		}
		var a string
		if json.Unmarshal(r["action"], &a) == nil && a != "" {
			c, content := r["content"]
			out[k] = a + content2(content && string(bytes.TrimSpace(c)) != "null")
		}
	}
	if r, ok := m["result"]; ok {
		add("result", r)
	}
	var p map[string]json.RawMessage
	if json.Unmarshal(m["params"], &p) == nil {
		var in map[string]json.RawMessage
		if json.Unmarshal(p["inputResponses"], &in) == nil {
			for k, v := range in {
				add(k, v)
			}
		}
	}
	return out
}

func content2(has bool) string {
	if has {
		return "+content"
	}
	return ""
}

// goSDKReading reads msg as go-sdk does: its envelope decoder, then
// encoding/json struct decoding of the result and of inputResponses (the
// most lenient reading any of its paths applies: case-insensitive keys).
func goSDKReading(msg []byte) answersRead {
	out := answersRead{}
	m, err := jsonrpc.DecodeMessage(msg)
	if err != nil {
		return out
	}
	switch m := m.(type) {
	case *jsonrpc.Response:
		var r mcp.ElicitResult
		if m.Result != nil && json.Unmarshal(m.Result, &r) == nil && r.Action != "" {
			out["result"] = r.Action + content2(r.Content != nil)
		}
	case *jsonrpc.Request:
		var p struct {
			InputResponses map[string]json.RawMessage `json:"inputResponses"`
		}
		if json.Unmarshal(m.Params, &p) == nil {
			for k, v := range p.InputResponses {
				var r mcp.ElicitResult
				if json.Unmarshal(v, &r) == nil && r.Action != "" {
					out[k] = r.Action + content2(r.Content != nil)
				}
			}
		}
	}
	return out
}

// mcpGoReading reads msg as mcp-go does: encoding/json struct decoding of
// the envelope (case-insensitive) and of the result.
func mcpGoReading(msg []byte) answersRead {
	out := answersRead{}
	var m struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.Number     `json:"id"`
		Method  string          `json:"method"`
		Result  json.RawMessage `json:"result,omitempty"`
		Params  struct {
			InputResponses map[string]json.RawMessage `json:"inputResponses"`
		} `json:"params"`
	}
	if json.Unmarshal(msg, &m) != nil {
		return out
	}
	if m.Method == "" && m.Result != nil {
		var r mgmcp.ElicitationResult
		if json.Unmarshal(m.Result, &r) == nil && r.Action != "" {
			out["result"] = string(r.Action) + content2(r.Content != nil)
		}
	}
	for k, v := range m.Params.InputResponses {
		var r mgmcp.ElicitationResult
		if json.Unmarshal(v, &r) == nil && r.Action != "" {
			out[k] = string(r.Action) + content2(r.Content != nil)
		}
	}
	return out
}

// FuzzEnvelopeDifferential feeds the same bytes to the checks
// (CheckEnvelope, then ExactAnswers) and to each SDK's decoder: whatever
// the checks pass, every SDK must read the same answers as the exact-key
// reading (a malformed answer's marker included). Run with
// go test -run '^$' -fuzz FuzzEnvelopeDifferential -fuzztime 45s ./runtime/adapter/
func FuzzEnvelopeDifferential(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":{"a":1}}}`,
		`{"jsonrpc":"2.0","id":1,"Result":{"action":"decline","Action":"accept"}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"action":"decline"},"reſult":{"action":"accept"}}`,
		`[{"jsonrpc":"2.0","id":1,"result":{"action":"accept"}}]`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x","inputResponses":{"q":{"action":"accept","content":{}}}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x","InputResponses":{"q":{"action":"accept"}}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"inputResponses":{"q":{"action":"decline","\u0041ction":"accept"}}}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":null}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"pad":1e400,"action":"accept"}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if exact.CheckEnvelope(b) != nil {
			return
		}
		out := exact.ExactAnswers(b)
		want := exactReading(out)
		for name, read := range map[string]func([]byte) answersRead{"go-sdk": goSDKReading, "mcp-go": mcpGoReading} {
			got := read(out)
			for k, g := range got {
				if want[k] != g {
					t.Fatalf("%s reads answer %q as %q; the exact reading is %q\nin:  %s\nout: %s", name, k, g, want[k], b, out)
				}
			}
		}
	})
}
