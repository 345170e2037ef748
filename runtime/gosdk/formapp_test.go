package gosdk_test

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/deliver"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

var appCaps = map[string]any{
	"elicitation": map[string]any{"form": map[string]any{}},
	"extensions": map[string]any{deliver.ExtensionUI: map[string]any{
		"mimeTypes": []any{deliver.AppMIMEType}, "elicitation": map[string]any{}}},
}

// resourceURI returns the _meta.ui.resourceUri of a form request, or "".
func resourceURI(p *mcp.ElicitParams) string {
	ui, _ := p.Meta["ui"].(map[string]any)
	uri, _ := ui["resourceUri"].(string)
	return uri
}

// TestFormAppPerRequest: on 2026-07-28 a form request names the form app
// only when the server renders forms as apps and this request's
// capabilities declare app-rendered elicitation with form mode.
func TestFormAppPerRequest(t *testing.T) {
	ctx := context.Background()
	noApp := map[string]any{"elicitation": map[string]any{"form": map[string]any{}},
		"extensions": map[string]any{deliver.ExtensionUI: map[string]any{"mimeTypes": []any{deliver.AppMIMEType}}}}
	for _, tc := range []struct {
		name string
		apps bool
		caps any
		want string
	}{
		{"app client", true, appCaps, "ui://elicitgen/forms/Deploy"},
		{"Apps without elicitation", true, noApp, ""},
		{"plain form client", true, formCaps, ""},
		{"server without FormApps", false, appCaps, ""},
	} {
		h := gosdk.Handle(&gosdk.Config{Options: adapter.Options{Keys: seal.NewRandomKeyRing(), FormApps: tc.apps}}, askDeploy)
		res, err := h(ctx, modernRequest("alice", tc.caps, "", nil))
		if err != nil || res.InputRequests["Deploy"] == nil {
			t.Fatalf("%s: %+v, %v", tc.name, res, err)
		}
		p, _ := res.InputRequests["Deploy"].(*mcp.ElicitParams)
		if got := resourceURI(p); got != tc.want || p.RequestedSchema == nil {
			t.Errorf("%s: resourceUri %q (schema %v), want %q beside the core form", tc.name, got, p.RequestedSchema != nil, tc.want)
		}
	}
}

// TestFormAppPush: on 2025-11-25 the server advertises the extension, the
// pushed form request of a client that declared it names the form app,
// and resources/read of that URI returns the app.
func TestFormAppPush(t *testing.T) {
	ctx := context.Background()
	cfg := &gosdk.Config{Options: adapter.Options{Keys: seal.NewRandomKeyRing(), FormApps: true}}
	s := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "v0"}, &mcp.ServerOptions{Capabilities: gosdk.FormAppCapabilities(nil)})
	gosdk.AddFormApp(s)
	s.AddTool(&mcp.Tool{Name: "deploy", InputSchema: map[string]any{"type": "object"}}, gosdk.Handle(cfg, askDeploy))
	for _, app := range []bool{true, false} {
		caps := &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}}}
		if app {
			caps.AddExtension(deliver.ExtensionUI, map[string]any{"mimeTypes": []any{deliver.AppMIMEType}, "elicitation": map[string]any{}})
		}
		var got []*mcp.ElicitParams
		c := mcp.NewClient(&mcp.Implementation{Name: "host", Version: "v0"}, &mcp.ClientOptions{Capabilities: caps,
			ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				got = append(got, req.Params)
				return &mcp.ElicitResult{Action: "decline"}, nil
			}})
		ct, st := mcp.NewInMemoryTransports()
		ss, err := s.Connect(ctx, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := c.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		if err != nil {
			t.Fatal(err)
		}
		ext, _ := cs.InitializeResult().Capabilities.Extensions[deliver.ExtensionUI].(map[string]any)
		if ext["elicitation"] == nil {
			t.Errorf("server capabilities %+v do not advertise app-rendered elicitation", cs.InitializeResult().Capabilities)
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "deploy"})
		if err != nil || res.IsError || len(got) != 1 {
			t.Fatalf("call = %+v, %v; %d questions", res, err, len(got))
		}
		want := ""
		if app {
			want = "ui://elicitgen/forms/Deploy"
		}
		if uri := resourceURI(got[0]); uri != want {
			t.Errorf("app=%t: resourceUri %q, want %q", app, uri, want)
		}
		if app {
			rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: want})
			if err != nil || len(rr.Contents) != 1 || rr.Contents[0].MIMEType != deliver.AppMIMEType || !strings.Contains(rr.Contents[0].Text, `"ui/initialize"`) {
				t.Errorf("resources/read %s = %+v, %v", want, rr, err)
			}
		}
		cs.Close()
		ss.Wait()
	}
}
