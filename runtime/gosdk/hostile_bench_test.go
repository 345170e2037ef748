package gosdk_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/elicitgen/elicitgen/runtime/seal"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
)

// BenchmarkHostileInputResponses measures what the runtime does with a
// request carrying n inputResponses entries, as go-sdk decoded them: up
// to adapter.MaxInputResponses it converts each (linear); beyond, it
// refuses the request without looking at any entry (constant). 170,000
// entries of {"action":"decline"} fill go-sdk's 4 MiB body limit.
func BenchmarkHostileInputResponses(b *testing.B) {
	ctx := context.Background()
	cfg := &gosdk.Config{Options: adapter.Options{Keys: seal.NewRandomKeyRing()}}
	meta := mcp.Meta{
		adapter.MetaKeyProtocolVersion:    runtime.Version20260728,
		adapter.MetaKeyClientCapabilities: map[string]any{"elicitation": map[string]any{"form": map[string]any{}}},
	}
	for _, n := range []int{16, adapter.MaxInputResponses, adapter.MaxInputResponses + 1, 10_000, 170_000} {
		m := make(mcp.InputResponseMap, n)
		for i := range n {
			m[fmt.Sprintf("x%d", i)] = &mcp.ElicitResult{Action: "decline"}
		}
		req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Meta: meta, Name: "deploy",
			Arguments: json.RawMessage(`{}`), InputResponses: m}}
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, err := gosdk.NewAsker(ctx, cfg, req)
				if (err != nil) != (n > adapter.MaxInputResponses) {
					b.Fatal(err)
				}
			}
		})
	}
}
