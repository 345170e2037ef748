package gen_test

import (
	"bytes"
	"fmt"
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

// Markers around the generated table of known client limits in
// docs/reach.md.
const (
	limitsDoc         = "docs/reach.md"
	readmeLimitsBegin = "<!-- client limits: generated from gen.ClientLimits; go test ./gen -run ClientLimitsREADME -update -->\n"
	readmeLimitsEnd   = "<!-- end of client limits -->\n"
)

// splitSection cuts doc into the text before the generated section
// (through its begin marker), the section and the text after it (from
// its end marker). Each marker must appear once, as a line of its own,
// and no part of a marker's words anywhere else: a rewrite that cut into
// the text around it would leave such a fragment.
func splitSection(doc []byte, begin, end string) (before, body, after []byte, err error) {
	for _, m := range []string{begin, end} {
		if n := bytes.Count(doc, []byte(m)); n != 1 {
			return nil, nil, nil, fmt.Errorf("the line %q appears %d times, want once", strings.TrimSpace(m), n)
		}
		if i := bytes.Index(doc, []byte(m)); i > 0 && doc[i-1] != '\n' {
			return nil, nil, nil, fmt.Errorf("the line %q does not start a line", strings.TrimSpace(m))
		}
		words := strings.TrimSpace(m)
		if len(words) > 16 {
			words = words[len(words)-16:] // a torn copy keeps the marker's tail
		}
		if n := bytes.Count(doc, []byte(words)); n != 1 {
			return nil, nil, nil, fmt.Errorf("%q (part of the marker %q) appears %d times: a torn copy of the marker is left in the text", words, strings.TrimSpace(m), n)
		}
	}
	before, rest, _ := bytes.Cut(doc, []byte(begin))
	body, after, ok := bytes.Cut(rest, []byte(end))
	if !ok {
		return nil, nil, nil, fmt.Errorf("the line %q comes before %q", strings.TrimSpace(end), strings.TrimSpace(begin))
	}
	return append(before, begin...), body, append([]byte(end), after...), nil
}

func TestSplitSection(t *testing.T) {
	const b, e = "<!-- begin of things -->\n", "<!-- end of things -->\n"
	doc := "intro\n" + b + "old\n" + e + "\nThe text after.\n"
	before, body, after, err := splitSection([]byte(doc), b, e)
	if err != nil || string(before) != "intro\n"+b || string(body) != "old\n" || string(after) != e+"\nThe text after.\n" {
		t.Fatalf("splitSection = %q, %q, %q, %v", before, body, after, err)
	}
	out := string(before) + "new\n" + string(after)
	if _, body, _, err := splitSection([]byte(out), b, e); err != nil || string(body) != "new\n" {
		t.Fatalf("after a rewrite: %q, %v", body, err)
	}
	for _, bad := range []string{
		"intro\n" + b + "old\n" + e + "nd of things -->\nxt after.\n", // torn
		"intro\n" + b + "old\n" + e + e,                               // twice
		"intro\n" + e + "old\n" + b,                                   // reversed
		"intro " + b + "old\n" + e,                                    // not at a line start
		"intro\n" + b + "old\n",                                       // no end
	} {
		if _, _, _, err := splitSection([]byte(bad), b, e); err == nil {
			t.Errorf("splitSection(%q) gave no error", bad)
		}
	}
}

// TestClientLimitsREADME checks that docs/reach.md's table of what each
// known client can answer is gen.ClientLimitsMarkdown(); -update rewrites
// it, and only it.
func TestClientLimitsREADME(t *testing.T) {
	path := filepath.Join(testmod.Root(t), limitsDoc)
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	before, table, after, err := splitSection(doc, readmeLimitsBegin, readmeLimitsEnd)
	if err != nil {
		t.Fatalf("%s: %v", limitsDoc, err)
	}
	if !bytes.HasPrefix(after, []byte(readmeLimitsEnd+"\n")) {
		t.Errorf("%s: the end marker is not followed by a blank line (the text after it may be torn): %.80q", limitsDoc, after)
	}
	want := gen.ClientLimitsMarkdown()
	if string(table) == want {
		return
	}
	if *update {
		out := append(append(before, want...), after...)
		if err := os.WriteFile(path, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s's client limits differ from gen.ClientLimits (go test ./gen -run ClientLimitsREADME -update rewrites them):\n%s", limitsDoc,
		gen.UnifiedDiff(limitsDoc, "gen.ClientLimits", string(table), want))
}
