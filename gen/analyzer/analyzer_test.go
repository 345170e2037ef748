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
)

// TestAnalyzer checks the diagnostics of each testdata/src package
// against its // want comments: one package per rule, a stale and an
// orphaned generated file, a --type directive, and a clean package whose
// test files would break every rule.
func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), analyzer.Analyzer,
		"nested", "mapfield", "strslice", "unknownkey", "minmax", "defaults",
		"secret", "stale", "orphan", "clean", "typeflag", "broken")
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

// messages runs the analyzer on the module in dir and returns every
// diagnostic as "file: message", sorted, plus analysistest's complaints
// (unexpected diagnostics are complaints too: the module has no want
// comments).
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
	if err := (Deploy{Env: envBogus, Service: "api"}).Validate(); err == nil {
		t.Fatal("bogus accepted")
	}
}
`

const freshXTest = `package fresh_test

import "example.com/fresh"

var _ = fresh.Deploy{}
`

// TestGeneratedFiles runs on a real module whose generated files come
// from gen.Generate and import the runtime of this checkout: fresh files
// give no diagnostics (in the package, its test variant and its external
// tests); an edited schema file, a changed struct and a deleted Go file
// are each reported at the form.
func TestGeneratedFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a module with go/packages")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	// The module needs at least the go version of the one it requires.
	rootMod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	goLine := "go 1.24"
	for _, l := range strings.Split(string(rootMod), "\n") {
		if strings.HasPrefix(l, "go ") {
			goLine = strings.TrimSpace(l)
		}
	}
	dir := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/fresh\n\n"+goLine+"\n\nrequire github.com/elicitgen/elicitgen v0.0.0\n\nreplace github.com/elicitgen/elicitgen => "+root+"\n")
	write("go.sum", string(sum))
	write("forms.go", freshForms)
	write("forms_test.go", freshTest)
	write("x_test.go", freshXTest)
	generate := func() {
		t.Helper()
		res, err := gen.Generate(context.Background(), gen.Config{Dir: dir})
		if err != nil {
			t.Fatalf("Generate: %v", err)
		}
		if _, err := gen.Write(res); err != nil {
			t.Fatal(err)
		}
	}
	generate()

	if diags, complaints := messages(t, dir); len(diags) > 0 || len(complaints) > 0 {
		t.Fatalf("fresh generated files: diagnostics %q, complaints %q; want none", diags, complaints)
	}

	// The schema file edited by hand.
	schema := filepath.Join(dir, gen.SchemaFile)
	data, err := os.ReadFile(schema)
	if err != nil {
		t.Fatal(err)
	}
	write(gen.SchemaFile, strings.Replace(string(data), `"minLength": 1`, `"minLength": 2`, 1))
	want := []string{"forms.go: elicit_gen.json is stale: run go generate"}
	if diags, _ := messages(t, dir); !slices.Equal(diags, want) {
		t.Errorf("edited schema file: diagnostics %q, want %q", diags, want)
	}
	generate()

	// A field added after generation: the compile-time guard breaks the
	// build, and the analyzer still says what to do.
	write("forms.go", strings.Replace(freshForms, "\tService string", "\tNote    string `json:\"note,omitempty\"`\n\tService string", 1))
	stale := "forms.go: elicit_gen.go is stale for form Deploy (its fields, options or titles changed): run go generate"
	want = []string{stale, "forms.go: elicit_gen.json is stale: run go generate"}
	if diags, _ := messages(t, dir); !slices.Equal(diags, want) {
		t.Errorf("field added: diagnostics %q, want %q", diags, want)
	}

	// Enum drifts no compile-time guard can see: each is reported, naming
	// the form that uses the enum.
	for name, edit := range map[string][2]string{
		"constadded":      {"EnvProd    Env = \"prod\"    // Production", "EnvProd    Env = \"prod\"    // Production\n\tEnvDev     Env = \"dev\"     // Development"},
		"constsreordered": {"\tEnvStaging Env = \"staging\" // Staging\n\tEnvProd    Env = \"prod\"    // Production", "\tEnvProd    Env = \"prod\"    // Production\n\tEnvStaging Env = \"staging\" // Staging"},
		"titlechanged":    {"// Production", "// Live"},
	} {
		generate()
		changed := strings.Replace(freshForms, edit[0], edit[1], 1)
		if changed == freshForms {
			t.Fatalf("%s: edit not applied", name)
		}
		write("forms.go", changed)
		if diags, _ := messages(t, dir); !slices.Contains(diags, stale) {
			t.Errorf("%s: diagnostics %q, want %q", name, diags, stale)
		}
		write("forms.go", freshForms)
	}
	generate()
	if diags, complaints := messages(t, dir); len(diags) > 0 || len(complaints) > 0 {
		t.Fatalf("regenerated: diagnostics %q, complaints %q; want none", diags, complaints)
	}

	// The generated Go file deleted: the test's call of Validate no
	// longer type-checks, which generation fixes, so it is tolerated.
	if err := os.Remove(filepath.Join(dir, gen.GoFile)); err != nil {
		t.Fatal(err)
	}
	want = []string{"forms.go: elicit_gen.go is missing: run go generate"}
	if diags, _ := messages(t, dir); !slices.Equal(diags, want) {
		t.Errorf("generated Go file deleted: diagnostics %q, want %q", diags, want)
	}
}
