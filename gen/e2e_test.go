package gen_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/elicitgen/elicitgen/gen"
)

// TestEndToEnd generates every testdata/e2e case into a temporary module
// whose runtime is this checkout, then vets and runs the program, which
// panics on any wrong behaviour and prints "ok".
func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs programs; skipped with -short")
	}
	files, _ := filepath.Glob("../testdata/e2e/*.txtar")
	if len(files) == 0 {
		t.Fatal("no e2e cases")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			dir := newModule(t, file)
			goCmd(t, dir, "mod", "tidy")
			res, err := gen.Generate(context.Background(), gen.Config{Dir: dir})
			if err != nil {
				t.Fatalf("Generate: %v", err)
			}
			if _, err := gen.Write(res); err != nil {
				t.Fatal(err)
			}
			goCmd(t, dir, "vet", ".")
			if out := goCmd(t, dir, "run", "."); strings.TrimSpace(out) != "ok" {
				t.Fatalf("program printed %q, want ok", out)
			}
		})
	}
}

// TestGuardBreaksBuild changes a form after generation and checks that
// the package no longer compiles, with a message that says what to do.
func TestGuardBreaksBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs; skipped with -short")
	}
	dir := newModule(t, "../testdata/e2e/deploy.txtar")
	goCmd(t, dir, "mod", "tidy")
	res, err := gen.Generate(context.Background(), gen.Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gen.Write(res); err != nil {
		t.Fatal(err)
	}
	forms := filepath.Join(dir, "forms.go")
	orig, _ := os.ReadFile(forms)
	for name, edit := range map[string][2]string{
		"retyped":   {"Confirmed   bool ", "Confirmed   int  "},
		"retagged":  {`elicit:"min=1,max=10,default=2"`, `elicit:"min=1,max=99,default=2"`},
		"added":     {"Shard       int8", "Extra string\n\tShard       int8"},
		"embedded":  {`elicit:"maxLength=200"`, `elicit:"maxLength=20"`},
		"enumconst": {`EnvStaging    Env = "staging"    // Staging`, `EnvStage Env = "staging"`},
	} {
		t.Run(name, func(t *testing.T) {
			changed := strings.Replace(string(orig), edit[0], edit[1], 1)
			if changed == string(orig) {
				t.Fatalf("edit %q not applied", edit[0])
			}
			writeFile(t, forms, []byte(changed))
			defer writeFile(t, forms, orig)
			cmd := exec.Command("go", "build", "-o", os.DevNull, ".")
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("build succeeded after the form changed")
			}
			if !strings.Contains(string(out), "run_go_generate") && !strings.Contains(string(out), "undefined: EnvStaging") {
				t.Fatalf("build error does not tell the user to run go generate:\n%s", out)
			}
		})
	}
}

// newModule materialises a txtar case as a module that uses this
// checkout's runtime.
func newModule(t *testing.T, file string) string {
	t.Helper()
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	mod := "module example.com/e2e\n\ngo 1.24\n\nrequire github.com/elicitgen/elicitgen v0.0.0\n\nreplace github.com/elicitgen/elicitgen => " + root + "\n"
	writeFile(t, filepath.Join(dir, "go.mod"), []byte(mod))
	for _, f := range ar.Files {
		writeFile(t, filepath.Join(dir, f.Name), f.Data)
	}
	return dir
}

func goCmd(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}
