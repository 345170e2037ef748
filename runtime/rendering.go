package runtime

// Rendering is how a form question reaches the person: in the client's
// own form, on a hosted page the client opens in URL mode, on a hosted
// page whose link the tool result carries, or as an MCP App form. The
// adapters choose one per question (ChooseRendering) and report it in
// Event.Rendering, with the reason in Event.RenderingReason.
type Rendering string

// Renderings.
const (
	// RenderingAuto lets the adapter choose (the default).
	RenderingAuto Rendering = ""
	// RenderingForm: a form-mode elicitation the client renders.
	RenderingForm Rendering = "form"
	// RenderingURLPage: a URL-mode elicitation that opens the hosted
	// page of the form (runtime/page); the answer is taken from the
	// page.
	RenderingURLPage Rendering = "url-page"
	// RenderingLink: no elicitation at all. The tool result carries the
	// hosted page's link and tells the model to show it to the person
	// and to call the tool again, with the same arguments, once they have
	// answered; that call takes the page's answer.
	RenderingLink Rendering = "link"
	// RenderingApp: the form request names an MCP App that renders it
	// (SEP-3118, draft: _meta.ui.resourceUri), for clients that declare
	// the MCP Apps extension with elicitation, on a server that renders
	// forms as apps (the adapters' Config.FormApps). The client's own
	// form stays the fallback.
	RenderingApp Rendering = "app"
)

// Valid reports whether r is one of the Rendering constants.
func (r Rendering) Valid() bool {
	switch r {
	case RenderingAuto, RenderingForm, RenderingURLPage, RenderingLink, RenderingApp:
		return true
	}
	return false
}

// WithRendering asks this question with rendering r instead of the one
// the adapter would choose, when the client and the server can take it:
// RenderingForm needs a client that declared form mode, RenderingApp one
// that also declared app-rendered elicitation on a server that renders
// form apps, RenderingURLPage one that declared URL mode and a server
// with hosted pages, and RenderingLink a server with hosted pages. When they cannot, the ask
// fails as unavailable (an error matching ErrUnavailable), as any ask the
// client cannot take; it never falls back to another rendering. For
// example, WithRendering(RenderingForm) keeps a question off the hosted
// pages, and WithRendering(RenderingLink) sends it to the page even when
// the client could render it.
func WithRendering(r Rendering) AskOption {
	return func(c *askConfig) { c.rendering = r }
}
