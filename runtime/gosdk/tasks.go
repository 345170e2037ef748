package gosdk

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/runtime/tasks"
)

// TaskCapabilities adds the MCP Tasks extension (io.modelcontextprotocol/tasks)
// to caps (nil: new capabilities) for mcp.ServerOptions.Capabilities: a
// server whose HTTP handler mounts a tasks front (serve.Options.Tasks)
// advertises it in server/discover as an empty object.
func TaskCapabilities(caps *mcp.ServerCapabilities) *mcp.ServerCapabilities {
	if caps == nil {
		caps = &mcp.ServerCapabilities{}
	}
	caps.AddExtension(tasks.Extension, nil)
	return caps
}
