package deliver

import (
	"fmt"
	"strings"

	"github.com/elicitgen/elicitgen/runtime"
)

// RenderingInput is what ChooseRendering decides from: what the client
// declared for the request, who it is, and what the server can serve.
type RenderingInput struct {
	// Version is the request's protocol version.
	Version string
	// Form and URL are the elicitation modes the client declared for the
	// request.
	Form, URL bool
	// ClientName and ClientVersion are the client's clientInfo, when it
	// sent one.
	ClientName, ClientVersion string
	// App: the client declared app-rendered elicitation and the server
	// renders forms as apps.
	App bool
	// Pages: the server serves hosted form pages.
	Pages bool
	// Schema is the form, as it would be sent.
	Schema *runtime.Schema
	// Override is the ask's runtime.WithRendering; runtime.RenderingAuto for none.
	Override runtime.Rendering
	// Policy is the server-wide rendering (adapter.Options.Rendering),
	// which applies as an override to the asks that name none;
	// runtime.RenderingAuto for none.
	Policy runtime.Rendering
}

// ChooseRendering returns the rendering of a form question and why, in
// this order:
//
//  1. the client's declared capabilities: form mode (and a form the
//     protocol version can express) allows runtime.RenderingForm; URL mode, with
//     hosted pages, allows runtime.RenderingURLPage; hosted pages always allow
//     runtime.RenderingLink;
//  2. the known limits of the client (clientProfileFor): a client known
//     not to show forms at all, or not to fill a field of this form, is
//     sent to the page, when there are pages;
//  3. the ask's override (WithRendering), else the server's policy
//     (Policy), which picks among what the capabilities allow, or leaves
//     the question unavailable.
//
// runtime.RenderingAuto with a reason means no rendering can reach the person
// (no elicitation and no pages): the question is unavailable, and the
// adapter's no-page behaviour applies.
func ChooseRendering(in RenderingInput) (runtime.Rendering, string) {
	label := "WithRendering"
	if in.Override == runtime.RenderingAuto && in.Policy != runtime.RenderingAuto {
		in.Override, label = in.Policy, "Options.Rendering"
	}
	era := runtime.EraOf(in.Version)
	form := in.Form && era.CanElicit()
	var formWhy string
	switch {
	case !era.CanElicit():
		formWhy = "protocol version " + in.Version + " has no elicitation"
	case !in.Form && in.URL:
		formWhy = "the client declared only URL-mode elicitation"
	case !in.Form:
		formWhy = "the client declared no elicitation"
	case era.LegacySchema() && in.Schema != nil:
		if reason := in.Schema.LegacyUnavailable(); reason != "" {
			form, formWhy = false, reason
		}
	}
	urlPage := in.Pages && in.URL && era.URLMode()
	link := in.Pages
	switch in.Override {
	case runtime.RenderingForm:
		if !form {
			return runtime.RenderingAuto, label + "(form): " + formWhy
		}
		return runtime.RenderingForm, label + "(form)"
	case runtime.RenderingApp:
		switch {
		case !form:
			return runtime.RenderingAuto, label + "(app): " + formWhy
		case !in.App:
			return runtime.RenderingAuto, label + "(app): the client did not declare app-rendered elicitation, or the server renders no form apps"
		}
		return runtime.RenderingApp, label + "(app)"
	case runtime.RenderingURLPage:
		switch {
		case !in.Pages:
			return runtime.RenderingAuto, label + "(url-page): the server has no hosted pages"
		case !urlPage:
			return runtime.RenderingAuto, label + "(url-page): the client did not declare URL-mode elicitation"
		}
		return runtime.RenderingURLPage, label + "(url-page)"
	case runtime.RenderingLink:
		if !link {
			return runtime.RenderingAuto, label + "(link): the server has no hosted pages"
		}
		return runtime.RenderingLink, label + "(link)"
	}
	if form {
		prof := clientProfileFor(in.ClientName, in.ClientVersion)
		why := prof.CannotFill(in.Schema)
		if why == "" || !in.Pages {
			r, said := runtime.RenderingForm, "declared form mode"
			if in.App {
				r, said = runtime.RenderingApp, "declared form mode and app-rendered elicitation"
			}
			if why != "" {
				return r, said + " (" + why + ", and the server has no hosted pages)"
			}
			return r, said
		}
		formWhy = why
	}
	switch {
	case urlPage:
		return runtime.RenderingURLPage, formWhy + "; the client declared URL mode"
	case link:
		return runtime.RenderingLink, formWhy + "; the tool result carries the page's link"
	}
	return runtime.RenderingAuto, formWhy
}

// ClientProfile is what the runtime knows a client cannot do with forms,
// from the project's table of known client limits (gen.ClientLimits),
// told apart by the clientInfo the client sends.
type ClientProfile struct {
	// Client is the client's name as the limit table writes it.
	Client string
	// Names are the clientInfo names the client sends.
	Names []string
	// NoForms: the client declares elicitation but no person sees its
	// forms (every ask ends in decline or cancel).
	NoForms string
	// Kinds maps a property kind the client cannot fill to the limit, in
	// words.
	Kinds map[runtime.Kind]string
}

// clientProfiles are the known clients whose limits send a form to the
// hosted page. Keep them in step with gen.ClientLimits (a test checks).
var clientProfiles = []ClientProfile{
	{Client: "Claude Desktop", Names: []string{"claude-ai"},
		NoForms: "declares elicitation in its embedded agent but never shows the form"},
	{Client: "Codex CLI", Names: []string{"codex-mcp-client"},
		Kinds: map[runtime.Kind]string{
			runtime.KindInteger: "cannot edit integer fields",
			runtime.KindNumber:  "cannot edit number fields",
			runtime.KindMulti:   "cannot edit multi-select fields",
		}},
}

// ClientProfiles returns the profiles of the known clients the runtime
// tells apart by clientInfo. The slice is new on every call.
func ClientProfiles() []ClientProfile {
	out := make([]ClientProfile, len(clientProfiles))
	copy(out, clientProfiles)
	return out
}

// clientProfileFor returns the profile of the client that sends
// clientInfo name (and version), or nil for a client without known form
// limits. Names compare exactly, ignoring case.
func clientProfileFor(name, version string) *ClientProfile {
	_ = version // every known limit holds for all versions seen so far
	for i := range clientProfiles {
		for _, n := range clientProfiles[i].Names {
			if strings.EqualFold(n, name) {
				return &clientProfiles[i]
			}
		}
	}
	return nil
}

// CannotFill returns why the client cannot fill form s ("Codex CLI
// cannot edit integer fields (replicas)"), or "" when nothing known
// stops it. A nil profile fills everything.
func (p *ClientProfile) CannotFill(s *runtime.Schema) string {
	if p == nil {
		return ""
	}
	if p.NoForms != "" {
		return p.Client + " " + p.NoForms
	}
	if s == nil {
		return ""
	}
	for i := range s.Properties {
		pr := &s.Properties[i]
		if limit, ok := p.Kinds[pr.Kind]; ok {
			return fmt.Sprintf("%s %s (%s)", p.Client, limit, pr.Name)
		}
	}
	return ""
}
