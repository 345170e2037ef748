package gen_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

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
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "go.mod"), []byte(goldenMod))
	want := map[string][]byte{}
	for _, f := range ar.Files {
		if rest, ok := strings.CutPrefix(f.Name, "want/"); ok {
			want[rest] = f.Data
			continue
		}
		writeFile(t, filepath.Join(dir, f.Name), f.Data)
	}

	got := map[string][]byte{}
	res, err := gen.Generate(context.Background(), gen.Config{Dir: dir})
	var diags gen.Diagnostics
	switch {
	case errors.As(err, &diags):
		got["stderr"] = []byte(diags.Error() + "\n")
	case err != nil:
		t.Fatalf("Generate: %v", err)
	default:
		for _, f := range res.Files {
			rel, _ := filepath.Rel(dir, f.Path)
			got[filepath.ToSlash(rel)] = f.Content
		}
	}

	if *update {
		var kept []txtar.File
		for _, f := range ar.Files {
			if !strings.HasPrefix(f.Name, "want/") {
				kept = append(kept, f)
			}
		}
		for _, name := range sortedNames(got) {
			kept = append(kept, txtar.File{Name: "want/" + name, Data: got[name]})
		}
		ar.Files = kept
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, name := range sortedNames(want) {
		if _, ok := got[name]; !ok {
			t.Errorf("want/%s: not produced (go test ./gen -update rewrites goldens, after review)", name)
		}
	}
	for _, name := range sortedNames(got) {
		w, ok := want[name]
		if !ok {
			t.Errorf("produced %s, which the golden does not expect:\n%s\n(go test ./gen -update rewrites goldens, after review)", name, got[name])
			continue
		}
		if !bytes.Equal(w, got[name]) {
			t.Errorf("%s differs from golden (go test ./gen -update rewrites goldens, after review):\n%s",
				name, gen.UnifiedDiff("want/"+name, "got/"+name, string(w), string(got[name])))
		}
	}
}

func sortedNames(m map[string][]byte) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

func writeFile(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
