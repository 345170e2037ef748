package mcpgo

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/elicitgen/elicitgen/runtime/deliver"
	"github.com/elicitgen/elicitgen/templates"
)

// FormAppExtensions returns the server option that advertises
// app-rendered form elicitation (SEP-3118) under the MCP Apps extension,
// for a server whose Config sets FormApps (with AddFormApp). A client
// renders a form with the app only when both sides advertise it. It sets
// the server's whole extensions map: a server that advertises other
// extensions adds deliver.ExtensionUI: deliver.ServerAppExtension() to
// its own server.WithExtensions map instead.
func FormAppExtensions() server.ServerOption {
	return server.WithExtensions(map[string]any{deliver.ExtensionUI: deliver.ServerAppExtension()})
}

// AddFormApp adds to s the resources of the form app
// (deliver.FormAppURITemplate): an MCP App (text/html;profile=mcp-app)
// that draws the form of the elicitation/create request its host
// forwards to it and answers with an ordinary elicitation result, which
// the server validates as any other answer.
func AddFormApp(s *server.MCPServer) {
	s.AddResourceTemplate(mcp.NewResourceTemplate(deliver.FormAppURITemplate, "elicitgen_form_app",
		mcp.WithTemplateDescription("Renders a form the server asks (app-rendered elicitation)."),
		mcp.WithTemplateMIMEType(deliver.AppMIMEType)),
		func(_ context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{
				URI: req.Params.URI, MIMEType: deliver.AppMIMEType, Text: templates.FormApp,
				Meta: map[string]any{"ui": map[string]any{"csp": map[string]any{"connectDomains": []any{}, "resourceDomains": []any{}}, "prefersBorder": true}},
			}}, nil
		})
}
