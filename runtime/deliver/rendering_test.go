package deliver_test

import (
	"log/slog"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/gen"
	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/deliver"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
)

func TestChooseRendering(t *testing.T) {
	deploy := testforms.DeploySchema() // has an integer field (replicas)
	notify := testforms.NotifySchema() // a multi-select
	approve := testforms.ApproveSchema()
	type in = deliver.RenderingInput
	for _, tc := range []struct {
		name string
		in   in
		want runtime.Rendering
		why  string
	}{
		{"form client", in{Version: runtime.Version20251125, Form: true, Pages: true, Schema: deploy}, runtime.RenderingForm, "declared form mode"},
		{"no elicitation, pages", in{Version: runtime.Version20260728, Pages: true, Schema: deploy}, runtime.RenderingLink, "the client declared no elicitation; the tool result carries the page's link"},
		{"no elicitation, no pages", in{Version: runtime.Version20260728, Schema: deploy}, runtime.RenderingAuto, "the client declared no elicitation"},
		{"URL only, pages", in{Version: runtime.Version20251125, URL: true, Pages: true, Schema: deploy}, runtime.RenderingURLPage, "the client declared only URL-mode elicitation; the client declared URL mode"},
		{"URL only, no pages", in{Version: runtime.Version20251125, URL: true, Schema: deploy}, runtime.RenderingAuto, "the client declared only URL-mode elicitation"},
		{"2025-03-26", in{Version: "2025-03-26", Form: true, Pages: true, Schema: deploy}, runtime.RenderingLink, "protocol version 2025-03-26 has no elicitation; the tool result carries the page's link"},
		{"2025-06-18 required multi-select (asked as booleans)", in{Version: runtime.Version20250618, Form: true, Pages: true, Schema: notify}, runtime.RenderingForm, "declared form mode"},
		{"2025-06-18 only optional multi-selects, pages", in{Version: runtime.Version20250618, Form: true, Pages: true, Schema: onlyOptionalMulti(t)}, runtime.RenderingLink, ""},
		{"Codex, integer, form only", in{Version: runtime.Version20251125, Form: true, Pages: true, ClientName: "codex-mcp-client", Schema: deploy}, runtime.RenderingLink, "Codex CLI cannot edit integer fields (replicas); the tool result carries the page's link"},
		{"Codex, integer, URL too", in{Version: runtime.Version20260728, Form: true, URL: true, Pages: true, ClientName: "codex-mcp-client", Schema: deploy}, runtime.RenderingURLPage, "Codex CLI cannot edit integer fields (replicas); the client declared URL mode"},
		{"Codex, integer, no pages", in{Version: runtime.Version20251125, Form: true, ClientName: "codex-mcp-client", Schema: deploy}, runtime.RenderingForm, "declared form mode (Codex CLI cannot edit integer fields (replicas), and the server has no hosted pages)"},
		{"Codex, booleans only", in{Version: runtime.Version20251125, Form: true, Pages: true, ClientName: "codex-mcp-client", Schema: approve}, runtime.RenderingForm, "declared form mode"},
		{"Claude Desktop", in{Version: runtime.Version20251125, Form: true, Pages: true, ClientName: "claude-ai", Schema: approve}, runtime.RenderingLink, "Claude Desktop declares elicitation in its embedded agent but never shows the form; the tool result carries the page's link"},
		{"override form beats the profile", in{Version: runtime.Version20251125, Form: true, Pages: true, ClientName: "codex-mcp-client", Schema: deploy, Override: runtime.RenderingForm}, runtime.RenderingForm, "WithRendering(form)"},
		{"override form, no form mode", in{Version: runtime.Version20251125, Pages: true, Schema: deploy, Override: runtime.RenderingForm}, runtime.RenderingAuto, "WithRendering(form): the client declared no elicitation"},
		{"override link", in{Version: runtime.Version20251125, Form: true, Pages: true, Schema: deploy, Override: runtime.RenderingLink}, runtime.RenderingLink, "WithRendering(link)"},
		{"override link, no pages", in{Version: runtime.Version20251125, Form: true, Schema: deploy, Override: runtime.RenderingLink}, runtime.RenderingAuto, "WithRendering(link): the server has no hosted pages"},
		{"override url-page, no URL mode", in{Version: runtime.Version20251125, Form: true, Pages: true, Schema: deploy, Override: runtime.RenderingURLPage}, runtime.RenderingAuto, "WithRendering(url-page): the client did not declare URL-mode elicitation"},
		{"override url-page on 2025-06-18", in{Version: runtime.Version20250618, URL: true, Pages: true, Schema: deploy, Override: runtime.RenderingURLPage}, runtime.RenderingAuto, "WithRendering(url-page): the client did not declare URL-mode elicitation"},
		{"app client", in{Version: runtime.Version20260728, Form: true, App: true, Pages: true, Schema: deploy}, runtime.RenderingApp, "declared form mode and app-rendered elicitation"},
		{"override app, no app", in{Version: runtime.Version20260728, Form: true, Schema: deploy, Override: runtime.RenderingApp}, runtime.RenderingAuto, ""},
		{"override app", in{Version: runtime.Version20260728, Form: true, App: true, Schema: deploy, Override: runtime.RenderingApp}, runtime.RenderingApp, "WithRendering(app)"},
		{"server policy link, form client", in{Version: runtime.Version20251125, Form: true, Pages: true, Schema: deploy, Policy: runtime.RenderingLink}, runtime.RenderingLink, "Options.Rendering(link)"},
		{"server policy link, no pages", in{Version: runtime.Version20251125, Form: true, Schema: deploy, Policy: runtime.RenderingLink}, runtime.RenderingAuto, "Options.Rendering(link): the server has no hosted pages"},
		{"server policy url-page, no URL mode", in{Version: runtime.Version20260728, Form: true, Pages: true, Schema: deploy, Policy: runtime.RenderingURLPage}, runtime.RenderingAuto, "Options.Rendering(url-page): the client did not declare URL-mode elicitation"},
		{"the ask's override beats the server policy", in{Version: runtime.Version20251125, Form: true, Pages: true, Schema: deploy, Override: runtime.RenderingForm, Policy: runtime.RenderingLink}, runtime.RenderingForm, "WithRendering(form)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, why := deliver.ChooseRendering(tc.in)
			if got != tc.want || tc.why != "" && why != tc.why {
				t.Errorf("ChooseRendering = %q, %q; want %q, %q", got, why, tc.want, tc.why)
			}
			if why == "" {
				t.Error("no reason")
			}
		})
	}
}

// The run-time profiles say what the table of known client limits says.
func TestClientProfilesMatchLimits(t *testing.T) {
	limits := map[string]map[gen.Feature]string{}
	for _, l := range gen.ClientLimits() {
		if limits[l.Client] == nil {
			limits[l.Client] = map[gen.Feature]string{}
		}
		limits[l.Client][l.Feature] = l.Limit
	}
	kindFeature := map[runtime.Kind]gen.Feature{runtime.KindInteger: gen.FeatureInteger, runtime.KindNumber: gen.FeatureNumber, runtime.KindMulti: gen.FeatureMulti}
	for _, p := range deliver.ClientProfiles() {
		l, ok := limits[p.Client]
		if !ok {
			t.Errorf("profile %s: no such client in gen.ClientLimits", p.Client)
			continue
		}
		if p.NoForms != "" && !strings.HasPrefix(l[gen.FeatureAnyForm], p.NoForms) {
			t.Errorf("profile %s: NoForms %q, the table says %q", p.Client, p.NoForms, l[gen.FeatureAnyForm])
		}
		for k, limit := range p.Kinds {
			f, ok := kindFeature[k]
			if !ok || !strings.HasPrefix(l[f], limit) {
				t.Errorf("profile %s: kind %v %q, the table says %q", p.Client, k, limit, l[f])
			}
		}
		if len(p.Names) == 0 {
			t.Errorf("profile %s: no clientInfo names", p.Client)
		}
	}
	// Every field a known client cannot edit sends its forms to the page.
	for _, f := range []gen.Feature{gen.FeatureInteger, gen.FeatureNumber, gen.FeatureMulti} {
		for client, l := range limits {
			if strings.HasPrefix(l[f], "cannot edit") {
				found := false
				for _, p := range deliver.ClientProfiles() {
					found = found || p.Client == client
				}
				if !found {
					t.Errorf("%s %s, and has no run-time profile", client, l[f])
				}
			}
		}
	}
}

func TestWithRenderingUnknown(t *testing.T) {
	_, err := testforms.AskApprove(t.Context(), runtime.AskerFunc(nil), "?", runtime.WithRendering("sideways"))
	if err == nil || !strings.Contains(err.Error(), `unknown rendering "sideways"`) {
		t.Fatalf("err = %v", err)
	}
}

// The audit record carries the rendering and why.
func TestLogObserverRendering(t *testing.T) {
	var buf strings.Builder
	o := runtime.NewLogObserver(slog.New(slog.NewJSONHandler(&buf, nil)))
	o.Observe(t.Context(), runtime.Event{Kind: runtime.EventAsked, Form: "Deploy", Mode: runtime.ModeForm,
		Rendering: runtime.RenderingLink, RenderingReason: "the client declared no elicitation; the tool result carries the page's link"})
	if !strings.Contains(buf.String(), `"rendering":"link","rendering_reason":"the client declared no elicitation; the tool result carries the page's link"`) {
		t.Fatalf("record: %s", buf.String())
	}
}

// onlyOptionalMulti is a form that a 2025-06-18 client cannot be asked:
// its only field is an optional multi-select.
func onlyOptionalMulti(t *testing.T) *runtime.Schema {
	s, err := runtime.ParseSchema("Tags", []byte(`{"type":"object","properties":{"tags":{"type":"array","items":{"enum":["a","b"]}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	return s
}
