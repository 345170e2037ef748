package gen_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/elicitgen/elicitgen/gen"
	"github.com/elicitgen/elicitgen/internal/testmod"
)

// goldenCase is one txtar case: its input files laid out as a module in a
// temporary directory, and its want/ sections.
type goldenCase struct {
	file string
	ar   *txtar.Archive
	dir  string
	want map[string][]byte
}

// loadCase writes the archive's input files (those without a want/
// prefix) and a go.mod declaring module into a fresh directory.
// eachCase runs run, in parallel, on every ../testdata/<dir>/*.txtar
// case, as a subtest named after the file; a directory without cases
// fails.
func eachCase(t *testing.T, dir string, run func(t *testing.T, file string)) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", dir, "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no %s cases: %v", dir, err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			t.Parallel()
			run(t, file)
		})
	}
}

// diagnosed records the diagnostics err holds as got["stderr"] and
// reports whether there were any; any other error from what stops the
// test.
func diagnosed(t *testing.T, got map[string][]byte, err error, what string) bool {
	t.Helper()
	var diags gen.Diagnostics
	if errors.As(err, &diags) {
		got["stderr"] = []byte(diags.Error() + "\n")
		return true
	}
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return false
}

func loadCase(t *testing.T, file, module string) *goldenCase {
	t.Helper()
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	c := &goldenCase{file: file, ar: ar, dir: t.TempDir(), want: map[string][]byte{}}
	testmod.WriteFile(t, filepath.Join(c.dir, "go.mod"), []byte("module "+module+"\n\ngo 1.24\n"))
	for _, f := range ar.Files {
		if rest, ok := strings.CutPrefix(f.Name, "want/"); ok {
			c.want[rest] = f.Data
			continue
		}
		testmod.WriteFile(t, filepath.Join(c.dir, f.Name), f.Data)
	}
	return c
}

// check compares got with the want sections, file by file and as a set;
// with -update it rewrites the want sections instead. rerun names the go
// test command that updates this kind of golden.
func (c *goldenCase) check(t *testing.T, got map[string][]byte, rerun string) {
	t.Helper()
	hint := "(" + rerun + " -update rewrites goldens, after review)"
	if *update {
		var kept []txtar.File
		for _, f := range c.ar.Files {
			if !strings.HasPrefix(f.Name, "want/") {
				kept = append(kept, f)
			}
		}
		for _, name := range sortedNames(got) {
			kept = append(kept, txtar.File{Name: "want/" + name, Data: got[name]})
		}
		c.ar.Files = kept
		if err := os.WriteFile(c.file, txtar.Format(c.ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, name := range sortedNames(c.want) {
		if _, ok := got[name]; !ok {
			t.Errorf("want/%s: not produced %s", name, hint)
		}
	}
	for _, name := range sortedNames(got) {
		w, ok := c.want[name]
		switch {
		case !ok:
			t.Errorf("produced %s, which the golden does not expect:\n%s\n%s", name, got[name], hint)
		case !bytes.Equal(w, got[name]):
			t.Errorf("%s differs from golden %s:\n%s", name, hint,
				gen.UnifiedDiff("want/"+name, "got/"+name, string(w), string(got[name])))
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
