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
	c.check(t, got, "go test ./gen")
}
