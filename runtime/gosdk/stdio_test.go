package gosdk_test

import (
	"context"
	"io"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/internal/wiretest"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
)

// A stdio server answers each malformed line with an error carrying the
// line's id, and goes on serving: a tool call after them is answered.
func TestStdioSurvivesMalformedLines(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "v0"}, nil)
	s.AddTool(&mcp.Tool{Name: "echo", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
		})
	wiretest.CheckMalformedLines(t, func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
		return s.Run(ctx, gosdk.IOTransport(in, out, 1<<20))
	})
}
