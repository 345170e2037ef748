package gen_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/gen"
)

// TestGolden runs every testdata/golden/*.txtar case: the archive's input
// files (without a want/ prefix) form a package in a fresh module; the
// generated files must equal want/elicit_gen.go and want/elicit_gen.json,
// or, for bad input, the diagnostics must equal want/stderr and nothing
// may be generated.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("../testdata/golden/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden cases: %v", err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			runGolden(t, file)
		})
	}
}

const goldenMod = "module example.com/golden\n\ngo 1.24\n"

func runGolden(t *testing.T, file string) {
	c := loadCase(t, file, "example.com/golden")
	got := map[string][]byte{}
	res, err := gen.Generate(context.Background(), gen.Config{Dir: c.dir})
	var diags gen.Diagnostics
	switch {
	case errors.As(err, &diags):
		got["stderr"] = []byte(diags.Error() + "\n")
	case err != nil:
		t.Fatalf("Generate: %v", err)
	default:
		for _, f := range res.Files {
			rel, _ := filepath.Rel(c.dir, f.Path)
			got[filepath.ToSlash(rel)] = f.Content
		}
	}
	if len(got) == 0 && !expectsNothing(c) {
		t.Fatalf("%s produced no files and no diagnostics: a golden must test something (add a form, or the comment line %q if producing nothing is the point)", filepath.Base(file), noOutputDirective)
	}
	c.check(t, got, "go test ./gen")
}

// noOutputDirective, a line of a golden's comment, says the case expects
// the generator to produce nothing at all.
const noOutputDirective = "expect: no output"

func expectsNothing(c *goldenCase) bool {
	for _, line := range strings.Split(string(c.ar.Comment), "\n") {
		if strings.TrimSpace(line) == noOutputDirective {
			return true
		}
	}
	return false
}
