package mcpgo_test

import (
	"context"
	"fmt"
	"log"

	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/seal"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
	"github.com/elicitgen/elicitgen/runtime/mcpgo"
)

// answerDeploy is a client-side elicitation handler that submits a Deploy with
// the generated AcceptDeploy.
type answerDeploy struct{}

func (answerDeploy) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	r, err := testforms.AcceptDeploy(testforms.Deploy{Branch: "main", Env: testforms.EnvProd, Replicas: 2})
	if err != nil {
		return nil, err
	}
	res := &mcp.ElicitationResult{}
	res.Action, res.Content = mcp.ElicitationResponseAction(r.Action), r.Content
	return res, nil
}

// A tool handler asks a generated form (testforms.Deploy stands for any
// elicitgen form) in a few lines; the same body serves 2025 sessions
// (elicitation/create) and 2026-07-28 requests (input_required + retry).
func Example() {
	ctx := context.Background()
	// Production: seal.ParseKeyRing(os.Getenv("ELICIT_STATE_KEYS")),
	// the same ring on every instance.
	cfg := &mcpgo.Config{Options: adapter.Options{Keys: seal.NewRandomKeyRing()}}

	s := server.NewMCPServer("deployer", "v1")
	s.AddTool(mcp.NewTool("deploy"),
		mcpgo.Handle(cfg, func(ctx context.Context, req mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
			out, err := testforms.AskDeploy(ctx, ask, "Deploy which branch, where?")
			if err != nil {
				return nil, err // input required, cannot ask, bad answer: Handle answers per era
			}
			v, ok := out.Accepted()
			if !ok {
				return mcp.NewToolResultText("not deployed: " + string(out.Action)), nil
			}
			return mcp.NewToolResultText(fmt.Sprintf("deploying %s to %s x%d", v.Branch, v.Env, v.Replicas)), nil
		}))

	// A client on the SDK's default protocol (2026-07-28).
	c, err := client.NewInProcessClientWithOptions(s, client.WithElicitationHandler(answerDeploy{}))
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		log.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "client", Version: "v1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		log.Fatal(err)
	}

	req := mcp.CallToolRequest{}
	req.Params.Name = "deploy"
	res, err := c.CallTool(ctx, req)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(c.ProtocolVersion())
	fmt.Println(res.Content[0].(mcp.TextContent).Text)
	// Output:
	// 2026-07-28
	// deploying main to prod x2
}
