package mcpgo

import (
	"context"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/elicitgen/elicitgen/runtime"
)

func TestLanguage(t *testing.T) {
	var req, bare mcp.CallToolRequest
	req.Params.Meta = &mcp.Meta{AdditionalFields: map[string]any{runtime.MetaKeyAcceptLanguage: "ja-JP"}}
	var cfg Config
	if got := cfg.language(context.Background(), req); got != "ja-JP" {
		t.Errorf("language = %q, want the acceptLanguage meta", got)
	}
	if got := cfg.language(context.Background(), bare); got != "" {
		t.Errorf("no meta: language = %q", got)
	}
	cfg.Locale = func(_ context.Context, r mcp.CallToolRequest) string {
		if r.Params.Meta == nil {
			return "fr"
		}
		return ""
	}
	if got := cfg.language(context.Background(), bare); got != "fr" {
		t.Errorf("hook: language = %q, want fr", got)
	}
	if got := cfg.language(context.Background(), req); got != "ja-JP" {
		t.Errorf("hook returning \"\": language = %q, want the meta", got)
	}
}
