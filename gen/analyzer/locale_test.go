package analyzer_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/gen"
	"github.com/elicitgen/elicitgen/gen/analyzer"
	"github.com/elicitgen/elicitgen/internal/testmod"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestTranslations runs the analyzer on a module whose forms have a
// translation catalog: generated files that embed the catalog are fresh
// (an analyzer that ignored catalogs would call elicit_gen.go stale), and
// a key naming no property is reported with its place in the catalog.
func TestTranslations(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a module with go/packages")
	}
	dir := testmod.New(t, "example.com/fresh")
	write := func(name, content string) {
		t.Helper()
		testmod.WriteFile(t, filepath.Join(dir, name), []byte(content))
	}
	write("forms.go", freshForms)
	write("elicit.ja.json", `{"Deploy": {"env": {"title": "環境", "options": {"prod": "本番"}}}}`)
	res, err := gen.Generate(context.Background(), gen.Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gen.Write(res); err != nil {
		t.Fatal(err)
	}
	if diags, complaints := messages(t, dir); len(diags) > 0 || len(complaints) > 0 {
		t.Fatalf("fresh files with a catalog: diagnostics %q, complaints %q; want none", diags, complaints)
	}
	write("elicit.ja.json", "{\"Deploy\": {\n  \"enviro\": {}}}")
	diags, _ := messages(t, dir)
	if len(diags) != 1 || !strings.Contains(diags[0], `elicit.ja.json:2:3: form Deploy has no property "enviro"`) {
		t.Errorf("bad key: diagnostics %q", diags)
	}
}

// messages runs the analyzer on the module in dir and returns its
// diagnostics as "file: message", sorted, and what else it complained of.
func messages(t *testing.T, dir string) (diags, complaints []string) {
	t.Helper()
	var rec recorder
	for _, r := range analysistest.Run(&rec, dir, analyzer.Analyzer, "./...") {
		if r.Err != nil {
			t.Fatalf("analyzing %s: %v", r.Action, r.Err)
		}
		for _, d := range r.Diagnostics {
			diags = append(diags, filepath.Base(r.Pass.Fset.Position(d.Pos).Filename)+": "+d.Message)
		}
	}
	slices.Sort(diags)
	return slices.Compact(diags), rec.errs
}
