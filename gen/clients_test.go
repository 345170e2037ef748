package gen_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/gen"
	"github.com/elicitgen/elicitgen/internal/testmod"
	"github.com/elicitgen/elicitgen/runtime"
)

// TestClientLimitsTable checks the table of known client limits: every
// fact names its client, says what it does and has a public source with
// an address (or is an observation of the client); rows are sorted by
// client, then feature, without repeats.
func TestClientLimitsTable(t *testing.T) {
	limits := gen.ClientLimits()
	if len(limits) < 10 {
		t.Fatalf("%d limits: the table lost its facts", len(limits))
	}
	for i, l := range limits {
		if l.Client == "" || l.Limit == "" || l.Feature < gen.FeatureAnyForm || l.Feature > gen.FeatureFalsyDefault || len(l.Sources) == 0 {
			t.Errorf("row %d is incomplete: %+v", i, l)
		}
		for _, s := range l.Sources {
			if gen.SourceURL(s) == "" && !strings.HasPrefix(s, "observed: ") {
				t.Errorf("%s %q: source %q has no address and is not an observation", l.Client, l.Limit, s)
			}
		}
		if i == 0 {
			continue
		}
		p := limits[i-1]
		if p.Client > l.Client || (p.Client == l.Client && p.Feature >= l.Feature) {
			t.Errorf("rows %d and %d are out of order or repeat a feature: %s/%d, %s/%d", i-1, i, p.Client, p.Feature, l.Client, l.Feature)
		}
	}
	limits[0].Sources[0] = "changed"
	if gen.ClientLimits()[0].Sources[0] == "changed" {
		t.Error("ClientLimits returns shared slices: a caller changed the table")
	}
}

// TestClientLimitsKnownFacts pins the facts the catalog must never lose.
func TestClientLimitsKnownFacts(t *testing.T) {
	want := []struct {
		client  string
		feature gen.Feature
		source  string
	}{
		{"Codex CLI", gen.FeatureInteger, "openai/codex#41797"},
		{"Codex CLI", gen.FeatureNumber, "laravel/mcp#190"},
		{"Codex CLI", gen.FeatureMulti, "laravel/mcp#190"},
		{"VS Code Copilot", gen.FeatureItemCount, "microsoft/vscode src/vs/workbench/contrib/mcp/browser/mcpElicitationService.ts@c8898a2"},
		{"VS Code Copilot", gen.FeatureModernEra, "microsoft/vscode#329848"},
		{"Claude Code", gen.FeatureURLMode, "anthropics/claude-code#88075"},
		{"MCP Inspector", gen.FeatureFormat, "observed: MCP Inspector 2.12 web UI"},
	}
	for _, w := range want {
		found := false
		for _, l := range gen.ClientLimits() {
			if l.Client == w.client && l.Feature == w.feature {
				for _, s := range l.Sources {
					found = found || s == w.source
				}
			}
		}
		if !found {
			t.Errorf("no %s limit of feature %d with source %s", w.client, w.feature, w.source)
		}
	}
}

func TestSourceURL(t *testing.T) {
	for src, want := range map[string]string{
		"openai/codex#41797":                   "https://github.com/openai/codex/issues/41797",
		"microsoft/vscode src/vs/a.ts@c8898a2": "https://github.com/microsoft/vscode/blob/c8898a2/src/vs/a.ts",
		"observed: MCP Inspector 2.12 web UI":  "",
		"codex#1":                              "",
		"a/b#":                                 "",
		"a/b src/x.ts":                         "",
	} {
		if got := gen.SourceURL(src); got != want {
			t.Errorf("SourceURL(%q) = %q, want %q", src, got, want)
		}
	}
}

func TestFieldFeature(t *testing.T) {
	one := 1
	zero := 0.0
	cases := []struct {
		p    runtime.Property
		want []gen.Feature
	}{
		{runtime.Property{Kind: runtime.KindInteger, Minimum: &zero}, []gen.Feature{gen.FeatureInteger}},
		{runtime.Property{Kind: runtime.KindInteger, Default: int64(0)}, []gen.Feature{gen.FeatureInteger, gen.FeatureDefault, gen.FeatureFalsyDefault}},
		{runtime.Property{Kind: runtime.KindNumber, Default: 0.5}, []gen.Feature{gen.FeatureNumber, gen.FeatureDefault}},
		{runtime.Property{Kind: runtime.KindBoolean, Default: false}, []gen.Feature{gen.FeatureDefault, gen.FeatureFalsyDefault}},
		{runtime.Property{Kind: runtime.KindBoolean, Default: true}, []gen.Feature{gen.FeatureDefault}},
		{runtime.Property{Kind: runtime.KindString, MaxLength: &one, Format: "email"}, []gen.Feature{gen.FeatureLength, gen.FeatureFormat}},
		{runtime.Property{Kind: runtime.KindEnum, Style: runtime.EnumTitled}, []gen.Feature{gen.FeatureEnum, gen.FeatureTitledOptions}},
		{runtime.Property{Kind: runtime.KindEnum, Style: runtime.EnumLegacy}, []gen.Feature{gen.FeatureEnum}},
		{runtime.Property{Kind: runtime.KindMulti, MinItems: &one}, []gen.Feature{gen.FeatureMulti, gen.FeatureItemCount}},
		{runtime.Property{Kind: runtime.KindMulti, Style: runtime.EnumTitled}, []gen.Feature{gen.FeatureTitledOptions, gen.FeatureMulti}},
	}
	for i, c := range cases {
		var got []gen.Feature
		for f := gen.FeatureAnyForm; f <= gen.FeatureFalsyDefault; f++ {
			if gen.FieldFeature(&c.p, f) {
				got = append(got, f)
			}
		}
		if !equalFeatures(got, c.want) {
			t.Errorf("case %d (%+v): features %v, want %v", i, c.p, got, c.want)
		}
	}
}

func equalFeatures(a, b []gen.Feature) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// README markers around the table of known client limits.
const (
	readmeLimitsBegin = "<!-- client limits: generated from gen.ClientLimits; go test ./gen -run ClientLimitsREADME -update -->\n"
	readmeLimitsEnd   = "<!-- end of client limits -->\n"
)

// TestClientLimitsREADME checks that the README's table of what each
// known client can answer is gen.ClientLimitsMarkdown(); -update rewrites
// it.
func TestClientLimitsREADME(t *testing.T) {
	path := filepath.Join(testmod.Root(t), "README.md")
	readme, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	before, rest, ok := bytes.Cut(readme, []byte(readmeLimitsBegin))
	if !ok {
		t.Fatalf("README.md lacks the line %q", readmeLimitsBegin)
	}
	table, after, ok := bytes.Cut(rest, []byte(readmeLimitsEnd))
	if !ok {
		t.Fatalf("README.md lacks the line %q after the table", readmeLimitsEnd)
	}
	want := gen.ClientLimitsMarkdown()
	if string(table) == want {
		return
	}
	if *update {
		out := append(append(append(append(before, readmeLimitsBegin...), want...), readmeLimitsEnd...), after...)
		if err := os.WriteFile(path, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md's client limits differ from gen.ClientLimits (go test ./gen -run ClientLimitsREADME -update rewrites them):\n%s",
		gen.UnifiedDiff("README.md", "gen.ClientLimits", string(table), want))
}
