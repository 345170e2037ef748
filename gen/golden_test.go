package gen_test

import (
	"bytes"
	"context"
	"fmt"
	"go/format"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/gen"
	"github.com/elicitgen/elicitgen/internal/testmod"
)

// TestGolden runs every testdata/golden/*.txtar case: the archive's input
// files (without a want/ prefix) form a package in a fresh module; the
// generated files must equal want/elicit_gen.go and want/elicit_gen.json
// (and its warnings want/stderr), or, for bad input, the diagnostics must equal want/stderr and nothing
// may be generated.
func TestGolden(t *testing.T) {
	eachCase(t, "golden", runGolden)
}

func runGolden(t *testing.T, file string) {
	c := loadCase(t, file, "example.com/golden")
	got := map[string][]byte{}
	res, err := gen.Generate(context.Background(), gen.Config{Dir: c.dir})
	if !diagnosed(t, got, err, "Generate") {
		for _, f := range res.Files {
			rel, _ := filepath.Rel(c.dir, f.Path)
			got[filepath.ToSlash(rel)] = f.Content
			if formatted, err := format.Source(f.Content); strings.HasSuffix(f.Path, ".go") && (err != nil || !bytes.Equal(formatted, f.Content)) {
				t.Errorf("%s is not gofmt's output (%v)", rel, err)
			}
		}
		// Warnings do not stop generation; the command prints them on
		// stderr.
		var warn []string
		for _, pkg := range res.Packages {
			for _, d := range pkg.Warnings.Relative(c.dir) {
				warn = append(warn, d.String()+"\n")
			}
		}
		if len(warn) > 0 {
			got["stderr"] = []byte(strings.Join(warn, ""))
		}
	}
	if msg := emptyGolden(c, got); msg != "" {
		t.Fatal(msg)
	}
	c.check(t, got, "go test ./gen")
}

// emptyGolden returns why a case that produced nothing fails, or "" when
// it produced something or says it expects nothing.
func emptyGolden(c *goldenCase, got map[string][]byte) string {
	if len(got) > 0 || expectsNothing(c) {
		return ""
	}
	return fmt.Sprintf("%s produced no files and no diagnostics: a golden must test something (add a form, or the comment line %q if producing nothing is the point)", filepath.Base(c.file), noOutputDirective)
}

// TestEmptyGoldenFails: a case without forms fails unless its comment
// says it expects no output.
func TestEmptyGoldenFails(t *testing.T) {
	for _, tc := range []struct {
		comment string
		fail    bool
	}{
		{"Constants without comments give the plain enum form.\n", true},
		{"Nothing here is a form.\n" + noOutputDirective + "\n", false},
	} {
		file := filepath.Join(t.TempDir(), "case.txtar")
		testmod.WriteFile(t, file, []byte(tc.comment+"-- forms.go --\npackage forms\n\ntype Size string\n\ntype Order struct {\n\tSize Size `json:\"size\"`\n}\n"))
		c := loadCase(t, file, "example.com/golden")
		res, err := gen.Generate(context.Background(), gen.Config{Dir: c.dir})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string][]byte{}
		for _, f := range res.Files {
			got[f.Path] = f.Content
		}
		if msg := emptyGolden(c, got); (msg != "") != tc.fail {
			t.Errorf("comment %q: emptyGolden = %q, want failure %v", tc.comment, msg, tc.fail)
		}
	}
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
