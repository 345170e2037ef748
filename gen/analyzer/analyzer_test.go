package analyzer_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/elicitgen/elicitgen/gen"
	"github.com/elicitgen/elicitgen/gen/analyzer"
	"github.com/elicitgen/elicitgen/internal/testmod"
)

// TestAnalyzer checks the diagnostics of each testdata/src package
// against its // want comments: one package per rule, a stale and an
// orphaned generated file, a --type directive, and a clean package whose
// test files would break every rule.
func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), analyzer.Analyzer,
		"nested", "mapfield", "strslice", "unknownkey", "minmax", "defaults",
		"secret", "stale", "orphan", "clean", "typeflag", "broken", "stricttag")
}

// TestPositions checks columns, which // want comments do not: a tag
// problem points at the option inside the tag literal, a type problem at
// the field name.
func TestPositions(t *testing.T) {
	for _, tc := range []struct {
		pkg, file, at string
	}{
		{"unknownkey", "unknownkey.go", "titel=Name"},
		{"nested", "nested.go", "Ship Address"},
		{"minmax", "minmax.go", "min=10"},
		{"stricttag", "stricttag.go", `elicit: "min=1,max=10"`},
		{"stale", "stale.go", "Deploy struct"},
	} {
		t.Run(tc.pkg, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(analysistest.TestData(), "src", tc.pkg, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			off := strings.Index(string(src), tc.at)
			if off < 0 {
				t.Fatalf("%q not in %s", tc.at, tc.file)
			}
			line := strings.Count(string(src[:off]), "\n") + 1
			col := off - strings.LastIndex(string(src[:off]), "\n")
			results := analysistest.Run(t, analysistest.TestData(), analyzer.Analyzer, tc.pkg)
			var got []string
			for _, r := range results {
				for _, d := range r.Diagnostics {
					p := r.Pass.Fset.Position(d.Pos)
					got = append(got, fmt.Sprintf("%s:%d:%d", filepath.Base(p.Filename), p.Line, p.Column))
				}
			}
			want := fmt.Sprintf("%s:%d:%d", tc.file, line, col)
			if !slices.Contains(got, want) {
				t.Errorf("diagnostics at %v, want one at %s (%q)", got, want, tc.at)
			}
		})
	}
}

// recorder is an analysistest.Testing that keeps failures instead of
// failing, for cases whose diagnostics are checked by hand.
type recorder struct{ errs []string }

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// freshForms has a generate directive, spliced in so that go generate
// does not take this file's own line for one.
const freshForms = `package fresh

` + "//go:" + `generate go tool elicitgen

// Env is where to deploy.
type Env string

const (
	EnvStaging Env = "staging" // Staging
	EnvProd    Env = "prod"    // Production
)

// Deploy asks where to deploy.
type Deploy struct {
	Env     Env    ` + "`" + `json:"env" elicit:"default=staging"` + "`" + `
	Service string ` + "`" + `json:"service" elicit:"minLength=1"` + "`" + `
}
`

// freshTest declares a constant of the enum type in a test file: the test
// variant of the package must not count it as an option.
const freshTest = `package fresh

import "testing"

const envBogus Env = "bogus"

func TestBogus(t *testing.T) {
	if err := (&Deploy{Env: envBogus, Service: "api"}).Validate(); err == nil {
		t.Fatal("bogus accepted")
	}
}
`

const freshXTest = `package fresh_test

import "example.com/fresh"

var _ = fresh.Deploy{}
`

// TestGeneratedFiles runs on a real module whose generated files come
// from gen.Generate and import the runtime of this checkout. The root
// package holds fresh files and gives no diagnostics (in the package, its
// test variant and its external tests); each s_* package holds the same
// generated files beside one change, all analyzed in one run: an edited
// schema file, a field added, a constant added, constants reordered, a
// title changed (each stale Go file reported at the form, by name), and a
// deleted Go file.
func TestGeneratedFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a module with go/packages")
	}
	dir := testmod.New(t, "example.com/fresh")
	write := func(name, content string) {
		t.Helper()
		testmod.WriteFile(t, filepath.Join(dir, name), []byte(content))
	}
	write("forms.go", freshForms)
	write("forms_test.go", freshTest)
	write("x_test.go", freshXTest)
	res, err := gen.Generate(context.Background(), gen.Config{Dir: dir})
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	if _, err := gen.Write(res); err != nil {
		t.Fatal(err)
	}
	genGo, _ := os.ReadFile(filepath.Join(dir, gen.GoFile))
	genJSON, _ := os.ReadFile(filepath.Join(dir, gen.SchemaFile))

	edit := func(from, to string) string {
		t.Helper()
		changed := strings.Replace(freshForms, from, to, 1)
		if changed == freshForms {
			t.Fatalf("edit %q not applied", from)
		}
		return changed
	}
	jsonStale := "form Deploy: schema in elicit_gen.json is stale: run go generate"
	bothStale := "form Deploy: schema in elicit_gen.json is stale, code in elicit_gen.go is stale: run go generate"
	cases := []struct {
		name, forms, goFile, jsonFile, test string
		want                                []string
	}{
		{"schemaedited", freshForms, string(genGo), strings.Replace(string(genJSON), `"minLength": 1`, `"minLength": 2`, 1), "",
			[]string{jsonStale}},
		// A field added after generation: the compile-time guard breaks
		// the build, and the analyzer still says what to do.
		{"fieldadded", edit("\tService string", "\tNote    string `json:\"note,omitempty\"`\n\tService string"), string(genGo), string(genJSON), "",
			[]string{bothStale}},
		// Enum drifts no compile-time guard can see.
		{"constadded", edit("EnvProd    Env = \"prod\"    // Production", "EnvProd    Env = \"prod\"    // Production\n\tEnvDev     Env = \"dev\"     // Development"), string(genGo), string(genJSON), "",
			[]string{bothStale}},
		{"constsreordered", edit("\tEnvStaging Env = \"staging\" // Staging\n\tEnvProd    Env = \"prod\"    // Production", "\tEnvProd    Env = \"prod\"    // Production\n\tEnvStaging Env = \"staging\" // Staging"), string(genGo), string(genJSON), "",
			[]string{bothStale}},
		{"titlechanged", edit("// Production", "// Live"), string(genGo), string(genJSON), "",
			[]string{bothStale}},
		// The generated Go file deleted: the test's call of Validate no
		// longer type-checks, which generation fixes, so it is tolerated.
		{"godeleted", freshForms, "", string(genJSON), freshTest,
			[]string{"elicit_gen.go is missing: run go generate"}},
	}
	for _, c := range cases {
		write("s_"+c.name+"/forms.go", c.forms)
		if c.goFile != "" {
			write("s_"+c.name+"/"+gen.GoFile, c.goFile)
		}
		write("s_"+c.name+"/"+gen.SchemaFile, c.jsonFile)
		if c.test != "" {
			write("s_"+c.name+"/forms_test.go", c.test)
		}
	}

	var rec recorder
	got := map[string][]string{}
	for _, r := range analysistest.Run(&rec, dir, analyzer.Analyzer, "./...") {
		if r.Err != nil {
			t.Fatalf("analyzing %s: %v", r.Action, r.Err)
		}
		for _, d := range r.Diagnostics {
			pos := r.Pass.Fset.Position(d.Pos)
			if filepath.Base(pos.Filename) != "forms.go" {
				t.Errorf("diagnostic in %s, want it at the form: %s", pos, d.Message)
			}
			pkg := filepath.Base(filepath.Dir(pos.Filename))
			got[pkg] = append(got[pkg], d.Message)
		}
	}
	for pkg := range got {
		slices.Sort(got[pkg])
		got[pkg] = slices.Compact(got[pkg])
	}
	if msgs := got[filepath.Base(dir)]; len(msgs) > 0 {
		t.Errorf("fresh generated files: diagnostics %q; want none", msgs)
	}
	for _, e := range rec.errs {
		if !strings.Contains(e, "s_") {
			t.Errorf("fresh generated files: complaint %q", e)
		}
	}
	for _, c := range cases {
		if msgs := got["s_"+c.name]; !slices.Equal(msgs, c.want) {
			t.Errorf("%s: diagnostics %q, want %q", c.name, msgs, c.want)
		}
	}
}
