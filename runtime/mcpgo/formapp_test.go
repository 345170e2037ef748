package mcpgo_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/deliver"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
	"github.com/elicitgen/elicitgen/runtime/mcpgo"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// recordAnswer declines every question and keeps its params.
type recordAnswer struct{ got *[]mcp.ElicitationParams }

func (r recordAnswer) Elicit(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	*r.got = append(*r.got, req.Params)
	res := &mcp.ElicitationResult{}
	res.Action = mcp.ElicitationResponseActionDecline
	return res, nil
}

// TestFormAppPush: on 2025-11-25, mcp-go's server advertises app-rendered
// elicitation, a client that declared it gets form requests naming the
// form app, one that did not gets none, and the app reads.
func TestFormAppPush(t *testing.T) {
	ctx := context.Background()
	s := server.NewMCPServer("s", "v0", mcpgo.FormAppExtensions())
	mcpgo.AddFormApp(s)
	s.AddTool(mcp.NewTool("deploy"), mcpgo.Handle(&mcpgo.Config{Options: adapter.Options{Keys: seal.NewRandomKeyRing(), FormApps: true}},
		func(ctx context.Context, req mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
			out, err := testforms.AskDeploy(ctx, ask, "deploy?")
			if err != nil {
				return nil, err
			}
			return mcp.NewToolResultText(string(out.Action)), nil
		}))
	for _, app := range []bool{true, false} {
		var got []mcp.ElicitationParams
		c, err := client.NewInProcessClientWithOptions(s, client.WithElicitationHandler(recordAnswer{&got}), client.WithProtocolVersion(runtime.Version20251125))
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Start(ctx); err != nil {
			t.Fatal(err)
		}
		init := mcp.InitializeRequest{}
		init.Params.ClientInfo = mcp.Implementation{Name: "host", Version: "v0"}
		init.Params.Capabilities.Elicitation = &mcp.ElicitationCapability{Form: &struct{}{}}
		if app {
			init.Params.Capabilities.Extensions = map[string]any{deliver.ExtensionUI: map[string]any{"mimeTypes": []any{deliver.AppMIMEType}, "elicitation": map[string]any{}}}
		}
		ir, err := c.Initialize(ctx, init)
		if err != nil {
			t.Fatal(err)
		}
		if ext, _ := ir.Capabilities.Extensions[deliver.ExtensionUI].(map[string]any); ext["elicitation"] == nil {
			t.Errorf("server capabilities %+v do not advertise app-rendered elicitation", ir.Capabilities)
		}
		req := mcp.CallToolRequest{}
		req.Params.Name = "deploy"
		res, err := c.CallTool(ctx, req)
		if err != nil || res.IsError || len(got) != 1 {
			t.Fatalf("app=%t: call = %+v, %v; %d questions", app, res, err, len(got))
		}
		uri := ""
		if got[0].Meta != nil {
			ui, _ := got[0].Meta.AdditionalFields["ui"].(map[string]any)
			uri, _ = ui["resourceUri"].(string)
		}
		want := map[bool]string{true: "ui://elicitgen/forms/Deploy", false: ""}[app]
		if uri != want {
			t.Errorf("app=%t: resourceUri %q, want %q", app, uri, want)
		}
		if app {
			rr := mcp.ReadResourceRequest{}
			rr.Params.URI = want
			read, err := c.ReadResource(ctx, rr)
			if err != nil || len(read.Contents) != 1 {
				t.Fatalf("resources/read = %+v, %v", read, err)
			}
			tc, _ := read.Contents[0].(mcp.TextResourceContents)
			if tc.MIMEType != deliver.AppMIMEType || !strings.Contains(tc.Text, `"ui/initialize"`) {
				t.Errorf("resources/read %s = %+v", want, read.Contents[0])
			}
		}
		c.Close()
	}
}
