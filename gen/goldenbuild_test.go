package gen_test

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/elicitgen/elicitgen/gen"
	"github.com/elicitgen/elicitgen/internal/testmod"
)

// TestGoldenOutputsBuild builds and vets the generated Go file of every
// positive golden case, beside the case's own sources: one package per
// case in one module that uses this checkout's runtime, one go build and
// one go vet for all of them.
func TestGoldenOutputsBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every golden; skipped with -short")
	}
	dir := testmod.New(t, "example.com/golden")
	files, _ := filepath.Glob("../testdata/golden/*.txtar")
	n := 0
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var out []byte
		for _, f := range ar.Files {
			if f.Name == "want/"+gen.GoFile {
				out = f.Data
			}
		}
		if out == nil {
			continue
		}
		n++
		pkg := filepath.Join(dir, strings.TrimSuffix(filepath.Base(file), ".txtar"))
		for _, f := range ar.Files {
			if !strings.HasPrefix(f.Name, "want/") && f.Name != "go.mod" {
				testmod.WriteFile(t, filepath.Join(pkg, f.Name), f.Data)
			}
		}
		testmod.WriteFile(t, filepath.Join(pkg, gen.GoFile), out)
	}
	if n == 0 {
		t.Fatal("no positive golden cases")
	}
	for _, args := range [][]string{{"build", "./..."}, {"vet", "./..."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("go %s over %d golden outputs: %v\n%s", strings.Join(args, " "), n, err, out)
		}
	}
	if !t.Failed() {
		checkInitCode(t, dir)
	}
}

// checkInitCode fails if a package of the module in dir has more
// initialisation code than a few instructions: the descriptors and the
// translations are static data and the API is functions, so a package of
// thousands of forms has no init code per form. The goldens' own
// sources have no init code. An init of one byte is the RET the compiler
// writes for a package with nothing to initialise.
func checkInitCode(t *testing.T, dir string) {
	t.Helper()
	cmd := exec.Command("go", "list", "-export", "-f", "{{.ImportPath}} {{.Dir}} {{.Export}}", "./...")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -export: %v", err)
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) != 3 {
			continue
		}
		path, archive := f[0], f[2]
		const limit = 64
		nm, err := exec.Command("go", "tool", "nm", "-size", archive).Output()
		if err != nil {
			t.Fatalf("go tool nm %s: %v", archive, err)
		}
		checked++
		for _, sym := range strings.Split(string(nm), "\n") {
			// address size kind name
			f := strings.Fields(sym)
			if len(f) != 4 || f[2] != "T" || f[3] != path+".init" {
				continue
			}
			if size, err := strconv.Atoi(f[1]); err != nil || size > limit {
				t.Errorf("%s has %s bytes of initialisation code, want at most %d: the Init call only", path, f[1], limit)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no package archives listed")
	}
}
