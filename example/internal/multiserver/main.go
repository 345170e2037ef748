// Command multiserver is a test fixture: an MCP server on stdio with one
// tool, pick_topics, whose form has a required multi-select (one to two
// of news, sport, tech). example/legacy_test.go drives it from a
// TypeScript SDK v1 client pinned to 2025-06-18, which has no
// multi-select: the form is asked as one boolean per option and answered
// as the list of those checked, with the item bounds checked on the
// server.
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// Topics is the form: a required multi-select.
type Topics struct {
	Topics []string
}

// topicsForm builds the form by hand with the runtime's public API, as
// generated code would.
func topicsForm() *runtime.Form {
	one, two := 1, 2
	s := &runtime.Schema{Name: "Topics", Properties: []runtime.Property{{
		Name: "topics", Kind: runtime.KindMulti, Title: "Topics", Required: true, MinItems: &one, MaxItems: &two,
		Style: runtime.EnumTitled, Options: []runtime.Option{{Value: "news", Title: "News"}, {Value: "sport", Title: "Sport"}, {Value: "tech", Title: "Tech"}},
	}}}
	return runtime.NewForm((*Topics)(nil), s, "Topics")
}

func main() {
	form := topicsForm()
	s := mcp.NewServer(&mcp.Implementation{Name: "multiserver", Version: "v0"}, nil)
	pick := func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}, ask runtime.Asker) (*mcp.CallToolResult, any, error) {
		out, err := runtime.Ask[Topics](ctx, ask, form, "Which topics (one or two)?", runtime.WithRetries(1))
		if err != nil {
			return nil, nil, err
		}
		v, ok := out.Accepted()
		if !ok {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "no topics: " + string(out.Action)}}}, nil, nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "topics: " + strings.Join(v.Topics, ",")}}}, nil, nil
	}
	mcp.AddTool(s, &mcp.Tool{Name: "pick_topics", Description: "Asks which topics."}, gosdk.HandleFor(&gosdk.Config{Options: adapter.Options{Keys: seal.NewRandomKeyRing()}}, pick))
	gosdk.EraFields(s)
	if err := s.Run(context.Background(), gosdk.StdioTransport(0)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		log.Fatal(err)
	}
}
