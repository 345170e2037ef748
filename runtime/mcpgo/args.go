package mcpgo

import (
	"context"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/elicitgen/elicitgen/runtime"
)

// HandlerArgs is a tool handler with typed arguments that can ask the
// user through ask.
type HandlerArgs[In any] func(ctx context.Context, req mcp.CallToolRequest, in In, ask runtime.Asker) (*mcp.CallToolResult, error)

// HandleArgs wraps h as a server.ToolHandlerFunc for a tool whose
// arguments In have fields tagged `elicit:"ask"`: it binds the arguments
// (req.BindArguments), asks the person, in one form and on every era, for
// the ones the model left out or gave invalid values for, and calls h with
// a complete In. A call whose arguments are complete asks nothing. When
// the person declines or dismisses the question, h does not run and the
// model gets a tool error saying so. It panics if cfg has no key ring.
//
// Declare the asked fields optional in the tool's input schema (they
// have omitempty, so mcp.WithInputSchema[In]() leaves them out of
// required).
func HandleArgs[In any](cfg *Config, m runtime.MissingArgs[In], h HandlerArgs[In]) server.ToolHandlerFunc {
	return Handle(cfg, func(ctx context.Context, req mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
		var in In
		if err := req.BindArguments(&in); err != nil {
			return mcp.NewToolResultError(fmt.Sprintf("invalid arguments: %v", err)), nil
		}
		if err := m.Complete(ctx, ask, &in); err != nil {
			if errors.Is(err, runtime.ErrArgsNotGiven) {
				return mcp.NewToolResultError(err.Error()), nil
			}
			return nil, err
		}
		return h(ctx, req, in, ask)
	})
}
