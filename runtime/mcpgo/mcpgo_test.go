package mcpgo_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/seal"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
	"github.com/elicitgen/elicitgen/runtime/mcpgo"
)

type userKey struct{}

func modern(user string) context.Context {
	ctx := context.WithValue(context.Background(), userKey{}, user)
	return server.WithRequestProtocolInfo(ctx, &server.RequestProtocolInfo{
		Modern: true, ProtocolVersion: runtime.Version20260728,
		ClientCapabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapability{}},
	})
}

func toolRequest(state string, responses string) mcp.CallToolRequest {
	req := mcp.CallToolRequest{}
	req.Params.Name = "deploy"
	req.Params.Arguments = map[string]any{"project": "alpha"}
	req.Params.RequestState = state
	if responses != "" {
		if err := json.Unmarshal([]byte(responses), &req.Params.InputResponses); err != nil {
			panic(err)
		}
	}
	return req
}

func askDeploy(ctx context.Context, req mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
	out, err := testforms.AskDeploy(ctx, ask, "deploy?")
	if err != nil {
		return nil, err
	}
	return mcp.NewToolResultText(string(out.Action)), nil
}

func TestPrincipalAndMalformed(t *testing.T) {
	cfg := &mcpgo.Config{
		Options: adapter.Options{Keys: seal.NewRandomKeyRing()},
		Principal: func(ctx context.Context, _ mcp.CallToolRequest) string {
			user, _ := ctx.Value(userKey{}).(string)
			return user
		},
	}
	h := mcpgo.Handle(cfg, askDeploy)
	res, err := h(modern("alice"), toolRequest("", ""))
	if err != nil || !res.NeedsInput() || res.InputRequests["Deploy"].Elicitation == nil || res.RequestState == "" {
		t.Fatalf("round 1 = %+v, %v", res, err)
	}
	state := res.RequestState
	if res, err := h(modern("alice"), toolRequest(state, `{"Deploy":{"action":"cancel"}}`)); err != nil || res.Content[0].(mcp.TextContent).Text != "cancel" {
		t.Fatalf("alice's retry = %+v, %v", res, err)
	}
	if _, err := h(modern("mallory"), toolRequest(state, `{"Deploy":{"action":"cancel"}}`)); !errors.Is(err, seal.ErrStateForeign) {
		t.Fatalf("mallory's retry = %v, want ErrStateForeign", err)
	}
	_, err = h(modern("alice"), toolRequest(state, `{"Deploy":{"action":"accept","content":"oops"}}`))
	var ve *runtime.ValidationError
	if !errors.As(err, &ve) || !strings.Contains(err.Error(), "content must be a JSON object") {
		t.Fatalf("malformed content = %v", err)
	}
}

type structAnswer struct{}

// Elicit answers with a Go struct, which mcp-go's in-process transport
// hands to the server unchanged on the legacy path.
func (structAnswer) Elicit(context.Context, mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	res := &mcp.ElicitationResult{}
	res.Action = mcp.ElicitationResponseActionAccept
	res.Content = struct {
		Replicas int    `json:"replicas"`
		Env      string `json:"env"`
	}{4, "prod"}
	return res, nil
}

func TestInProcessLegacyStructContent(t *testing.T) {
	ctx := context.Background()
	s := server.NewMCPServer("s", "v0")
	s.AddTool(mcp.NewTool("deploy"), mcpgo.Handle(&mcpgo.Config{Options: adapter.Options{Keys: seal.NewRandomKeyRing()}},
		func(ctx context.Context, req mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
			out, err := testforms.AskDeploy(ctx, ask, "deploy?")
			if err != nil {
				return nil, err
			}
			return mcp.NewToolResultText(string(out.Value.Env) + " " + out.Value.Branch), nil
		}))
	c, err := client.NewInProcessClientWithOptions(s, client.WithElicitationHandler(structAnswer{}), client.WithProtocolVersion(runtime.Version20251125))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "c", Version: "v0"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	res, err := c.CallTool(ctx, toolRequest("", ""))
	if err != nil || res.Content[0].(mcp.TextContent).Text != "prod main" {
		t.Fatalf("call = %+v, %v", res, err)
	}
}
