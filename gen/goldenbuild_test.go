package gen_test

import (
	"os/exec"
	"path/filepath"
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
		checkNoInitCode(t, dir)
	}
}

// checkNoInitCode fails if a package of the module in dir has
// initialisation code: generated forms are static data (a package of
// thousands of forms must not grow one init function of every form), and
// so are the goldens' own sources. An init of one byte is the RET the
// compiler writes for a package with nothing to initialise.
func checkNoInitCode(t *testing.T, dir string) {
	t.Helper()
	cmd := exec.Command("go", "list", "-export", "-f", "{{.ImportPath}} {{.Export}}", "./...")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -export: %v", err)
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, archive, ok := strings.Cut(line, " ")
		if !ok || archive == "" {
			continue
		}
		nm, err := exec.Command("go", "tool", "nm", "-size", archive).Output()
		if err != nil {
			t.Fatalf("go tool nm %s: %v", archive, err)
		}
		checked++
		for _, sym := range strings.Split(string(nm), "\n") {
			// address size kind name
			f := strings.Fields(sym)
			if len(f) == 4 && f[2] == "T" && f[3] == path+".init" && f[1] != "1" {
				t.Errorf("%s has %s bytes of initialisation code, want the forms as static data", path, f[1])
			}
		}
	}
	if checked == 0 {
		t.Fatal("no package archives listed")
	}
}
