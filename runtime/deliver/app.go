package deliver

import (
	"net/url"

	"github.com/elicitgen/elicitgen/runtime"
)

// App-rendered form elicitation (SEP-3118, a draft extension of MCP Apps):
// a client that runs MCP Apps may render a form request with an app the
// server names in the request's _meta.ui.resourceUri, and answers with
// the app's ordinary elicitation result, which the server validates as
// any other answer. The core form stays the fallback: a client without
// the extension ignores the _meta and shows its own form.
const (
	// ExtensionUI is the MCP Apps extension's key in the capabilities'
	// "extensions" object.
	ExtensionUI = "io.modelcontextprotocol/ui"
	// AppMIMEType is the MIME type of an MCP App resource.
	AppMIMEType = "text/html;profile=mcp-app"
	// FormAppURITemplate names the resources that render a form as an
	// MCP App, one per form (see formAppURI); each draws the
	// requestedSchema of the elicitation/create request its host forwards
	// to it.
	FormAppURITemplate = "ui://elicitgen/forms/{form}"
)

// formAppURI returns the form app resource of the form named form.
func formAppURI(form string) string {
	if form == "" {
		form = "form"
	}
	return "ui://elicitgen/forms/" + url.PathEscape(form)
}

// AppCaps reports whether a client's capabilities "extensions" object
// declares app-rendered elicitation: the MCP Apps extension with the app
// MIME type and an "elicitation" member. Form mode must be declared too
// (ClientCaps.App is set only with Form).
func AppCaps(extensions map[string]any) bool {
	ui, ok := extensions[ExtensionUI].(map[string]any)
	if !ok || ui["elicitation"] == nil {
		return false
	}
	types, _ := ui["mimeTypes"].([]any)
	for _, t := range types {
		if t == AppMIMEType {
			return true
		}
	}
	return false
}

// ServerAppExtension is the settings object a server advertises under
// ExtensionUI when it renders forms as apps.
func ServerAppExtension() map[string]any {
	return map[string]any{"mimeTypes": []any{AppMIMEType}, "elicitation": map[string]any{}}
}

// AppMeta returns the _meta of a form request rendered by the form app:
// meta (which may be nil) with ui.resourceUri set to the form's app.
func AppMeta(meta map[string]any, req *runtime.Request) map[string]any {
	if meta == nil {
		meta = make(map[string]any, 1)
	}
	name := ""
	if req.Schema != nil {
		name = req.Schema.Name
	}
	meta["ui"] = map[string]any{"resourceUri": formAppURI(name)}
	return meta
}
