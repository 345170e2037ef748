package gosdk_test

import (
	"context"
	"fmt"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/answer"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// One server, one handler, three client sessions, each pinned to a
// protocol era with mcp.ClientSessionOptions.ProtocolVersion: the
// 2025 eras are asked with elicitation/create, 2026-07-28 with an
// input_required result the client answers by calling again. The client
// answers with answer.For and the generated AcceptDeploy.
func Example_eras() {
	ctx := context.Background()
	s := mcp.NewServer(&mcp.Implementation{Name: "deployer", Version: "v1"}, nil)
	s.AddTool(&mcp.Tool{Name: "deploy", InputSchema: map[string]any{"type": "object"}},
		gosdk.Handle(&gosdk.Config{Options: adapter.Options{Keys: seal.NewRandomKeyRing()}}, func(ctx context.Context, req *mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
			out, err := testforms.AskDeploy(ctx, ask, "Deploy which branch?")
			if err != nil {
				return nil, err
			}
			v, ok := out.Accepted()
			if !ok {
				return text("not deployed: " + string(out.Action)), nil
			}
			return text("deploying " + v.Branch), nil
		}))

	answers := answer.New(answer.For(testforms.DeploySchema(), testforms.AcceptDeploy,
		func(ctx context.Context, message string) (runtime.Outcome[*testforms.Deploy], error) {
			return runtime.Outcome[*testforms.Deploy]{Action: runtime.ActionAccept,
				Value: &testforms.Deploy{Branch: "main", Env: testforms.EnvStaging, Replicas: 1}}, nil
		}))
	c := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "v1"},
		&mcp.ClientOptions{ElicitationHandler: gosdk.ElicitationHandler(answers)})

	for _, era := range []string{"2025-06-18", "2025-11-25", "2026-07-28"} {
		ct, st := mcp.NewInMemoryTransports()
		ss, err := s.Connect(ctx, st, nil)
		if err != nil {
			log.Fatal(err)
		}
		cs, err := c.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: era})
		if err != nil {
			log.Fatal(err)
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "deploy"})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(cs.InitializeResult().ProtocolVersion, res.Content[0].(*mcp.TextContent).Text)
		cs.Close()
		ss.Close()
	}
	// Output:
	// 2025-06-18 deploying main
	// 2025-11-25 deploying main
	// 2026-07-28 deploying main
}
