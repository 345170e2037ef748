package gosdk

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/runtime/deliver"
	"github.com/elicitgen/elicitgen/templates"
)

// FormAppCapabilities returns caps, or new capabilities when caps is nil
// (the SDK adds tools, prompts and resources as the server has them),
// advertising app-rendered form elicitation (SEP-3118) under
// the MCP Apps extension: pass it as mcp.ServerOptions.Capabilities of a
// server whose Config sets FormApps, and call AddFormApp. A client
// renders a form with the app only when both sides advertise it.
func FormAppCapabilities(caps *mcp.ServerCapabilities) *mcp.ServerCapabilities {
	if caps == nil {
		caps = &mcp.ServerCapabilities{}
	}
	caps.AddExtension(deliver.ExtensionUI, deliver.ServerAppExtension())
	return caps
}

// AddFormApp adds to s the resources of the form app
// (deliver.FormAppURITemplate): an MCP App (text/html;profile=mcp-app)
// that draws the form of the elicitation/create request its host
// forwards to it and answers with an ordinary elicitation result, which
// the server validates as any other answer. Form requests name it in
// _meta.ui.resourceUri when Config.FormApps is set and the client
// declared app-rendered elicitation.
func AddFormApp(s *mcp.Server) {
	s.AddResourceTemplate(&mcp.ResourceTemplate{
		Name:        "elicitgen_form_app",
		Title:       "Form",
		URITemplate: deliver.FormAppURITemplate,
		Description: "Renders a form the server asks (app-rendered elicitation).",
		MIMEType:    deliver.AppMIMEType,
	}, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{
			URI: req.Params.URI, MIMEType: deliver.AppMIMEType, Text: templates.FormApp,
			Meta: mcp.Meta{"ui": map[string]any{"csp": map[string]any{"connectDomains": []any{}, "resourceDomains": []any{}}, "prefersBorder": true}},
		}}}, nil
	})
}
