package gosdk

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/runtime"
)

func TestLanguage(t *testing.T) {
	meta := mcp.Meta{runtime.MetaKeyAcceptLanguage: "ja-JP, en;q=0.5"}
	tool := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "t", Meta: meta}}
	prompt := &mcp.GetPromptRequest{Params: &mcp.GetPromptParams{Name: "p", Meta: meta}}
	bare := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "t"}}
	var cfg Config
	for _, req := range []mcp.Request{tool, prompt} {
		if got := cfg.language(context.Background(), req); got != "ja-JP, en;q=0.5" {
			t.Errorf("%T: language = %q, want the acceptLanguage meta", req, got)
		}
	}
	if got := cfg.language(context.Background(), bare); got != "" {
		t.Errorf("no meta: language = %q", got)
	}
	cfg.Locale = func(_ context.Context, req mcp.Request) string {
		if req == tool {
			return "fr"
		}
		return "" // falls back to the request's preference
	}
	if got := cfg.language(context.Background(), tool); got != "fr" {
		t.Errorf("hook: language = %q, want fr", got)
	}
	if got := cfg.language(context.Background(), prompt); got != "ja-JP, en;q=0.5" {
		t.Errorf("hook returning \"\": language = %q, want the meta", got)
	}
}
