package app

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/example/forms"
	"github.com/elicitgen/elicitgen/runtime"
)

// contextPrompt is the prompt of the non-tool-request scenario, served
// with gosdk.HandlePrompt: pushed on 2025 sessions, input_required (key
// user_context) with sealed state on 2026-07-28.
func contextPrompt(ctx context.Context, _ *mcp.GetPromptRequest, ask runtime.Asker) (*mcp.GetPromptResult, error) {
	out, err := forms.AskPromptContext(ctx, ask, "What context should the prompt use?", runtime.WithKey(keyUserContext))
	if err != nil {
		return nil, err
	}
	c := "(none: " + string(out.Action) + ")"
	if v, ok := out.Accepted(); ok {
		c = v.Context
	}
	return &mcp.GetPromptResult{
		Description: "A prompt with elicited context",
		Messages:    []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "Context: " + c}}},
	}, nil
}
