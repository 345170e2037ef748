package gosdk

import (
	"context"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/runtime"
)

// HandleArgs wraps h as an mcp.ToolHandlerFor for mcp.AddTool, like
// HandleFor, for a tool whose arguments In have fields tagged
// `elicit:"ask"`: before h runs, the ones the model left out (or gave
// invalid values for) are asked of the person in one form, on every era,
// and h gets a complete In. A call whose arguments are complete asks
// nothing. When the person declines or dismisses the question, h does not
// run and the model gets a tool error saying so. It panics if cfg has no
// key ring.
//
//	mcp.AddTool(s, &mcp.Tool{Name: "kr_dashboard", InputSchema: gosdk.InputSchema[KRArgs]()},
//		gosdk.HandleArgs(cfg, runtime.MissingArgs[KRArgs]{Ask: forms.AskMissingKRArgs, Message: "Which key result?", Options: krOptions}, kr))
func HandleArgs[In, Out any](cfg *Config, m runtime.MissingArgs[In], h HandlerFor[In, Out]) mcp.ToolHandlerFor[In, Out] {
	return HandleFor(cfg, func(ctx context.Context, req *mcp.CallToolRequest, in In, ask runtime.Asker) (*mcp.CallToolResult, Out, error) {
		if err := m.Complete(ctx, ask, &in); err != nil {
			var zero Out
			return nil, zero, err
		}
		return h(ctx, req, in, ask)
	})
}

// InputSchema returns the input schema of a tool whose arguments are In,
// inferred as mcp.AddTool infers it (jsonschema.For), but without the
// nullable type unions it gives pointers and slices (type: ["null",
// "array"]), which clients flag as not portable: an optional argument is
// one left out of required (omitempty), not one that may be null. Fields
// tagged ask need omitempty (elicitgen checks it), so the model may leave
// them out. It panics if In has no schema, as mcp.AddTool does.
func InputSchema[In any]() *jsonschema.Schema {
	s, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("gosdk.InputSchema: %v", err))
	}
	dropNull(s)
	return s
}

// dropNull rewrites every type: ["null", T] in s to type: T.
func dropNull(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && (s.Types[0] == "null" || s.Types[1] == "null") {
		t := s.Types[0]
		if t == "null" {
			t = s.Types[1]
		}
		s.Type, s.Types = t, nil
	}
	for _, p := range s.Properties {
		dropNull(p)
	}
	dropNull(s.Items)
	dropNull(s.AdditionalProperties)
	for _, sub := range s.AnyOf {
		dropNull(sub)
	}
	for _, sub := range s.OneOf {
		dropNull(sub)
	}
}
