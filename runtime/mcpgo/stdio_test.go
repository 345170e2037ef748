package mcpgo_test

import (
	"context"
	"io"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/elicitgen/elicitgen/internal/wiretest"
	"github.com/elicitgen/elicitgen/runtime/mcpgo"
)

// An mcp-go stdio server answers each malformed line with an error carrying the
// line's id, and goes on serving: a tool call after them is answered.
func TestStdioSurvivesMalformedLines(t *testing.T) {
	s := server.NewMCPServer("srv", "v0")
	s.AddTool(mcp.NewTool("echo"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("ok"), nil
	})
	wiretest.CheckMalformedLines(t, func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
		return mcpgo.ServeIO(ctx, s, in, out, 1<<20)
	})
}
