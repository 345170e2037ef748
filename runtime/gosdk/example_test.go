package gosdk_test

import (
	"context"
	"fmt"
	"log"

	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/seal"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
)

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// A tool handler asks a generated form (testforms.Deploy stands for any
// elicitgen form) in a few lines; the same body serves 2025 sessions
// (elicitation/create) and 2026-07-28 requests (input_required + retry).
func Example() {
	ctx := context.Background()
	// Production: seal.ParseKeyRing(os.Getenv("ELICIT_STATE_KEYS")),
	// the same ring on every instance.
	cfg := &gosdk.Config{Options: adapter.Options{Keys: seal.NewRandomKeyRing()}}

	s := mcp.NewServer(&mcp.Implementation{Name: "deployer", Version: "v1"}, nil)
	s.AddTool(&mcp.Tool{Name: "deploy", InputSchema: map[string]any{"type": "object"}},
		gosdk.Handle(cfg, func(ctx context.Context, req *mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
			out, err := testforms.AskDeploy(ctx, ask, "Deploy which branch, where?")
			if err != nil {
				return nil, err // input required, cannot ask, bad answer: Handle answers per era
			}
			v, ok := out.Accepted()
			if !ok {
				return text("not deployed: " + string(out.Action)), nil
			}
			return text(fmt.Sprintf("deploying %s to %s x%d", v.Branch, v.Env, v.Replicas)), nil
		}))

	// A client on the SDK's default protocol (2026-07-28), answering with
	// the generated AcceptDeploy.
	c := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "v1"}, &mcp.ClientOptions{
		ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			r, err := testforms.AcceptDeploy(testforms.Deploy{Branch: "main", Env: testforms.EnvProd, Replicas: 2})
			if err != nil {
				return nil, err
			}
			return &mcp.ElicitResult{Action: string(r.Action), Content: r.Content}, nil
		},
	})
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer ss.Close()
	cs, err := c.Connect(ctx, ct, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "deploy"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(cs.InitializeResult().ProtocolVersion)
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	// Output:
	// 2026-07-28
	// deploying main to prod x2
}
