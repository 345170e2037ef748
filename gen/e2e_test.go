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
	"github.com/elicitgen/elicitgen/internal/testmod"
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
			testmod.Go(t, dir, "mod", "tidy")
			res, err := gen.Generate(context.Background(), gen.Config{Dir: dir})
			if err != nil {
				t.Fatalf("Generate: %v", err)
			}
			if _, err := gen.Write(res); err != nil {
				t.Fatal(err)
			}
			testmod.Go(t, dir, "vet", ".")
			if out := testmod.Go(t, dir, "run", "."); strings.TrimSpace(out) != "ok" {
				t.Fatalf("program printed %q, want ok", out)
			}
		})
	}
}

// guardDrifts are the changes to deploy.txtar's forms that the Go
// compiler catches through the generated guard, with what it reports.
var guardDrifts = []struct {
	name, from, to, want string
}{
	{"retyped", "Confirmed   bool ", "Confirmed   int  ", "run_go_generate"},
	{"retagged", `elicit:"min=1,max=10,default=2"`, `elicit:"min=1,max=99,default=2"`, "run_go_generate"},
	{"added", "Shard       int8", "Extra string\n\tShard       int8", "run_go_generate"},
	{"embedded", `elicit:"maxLength=200"`, `elicit:"maxLength=20"`, "run_go_generate"},
	{"constrenamed", `EnvStaging    Env = "staging"    // Staging`, `EnvStage Env = "staging"`, "undefined: EnvStaging"},
	{"constremoved", `TopicSales Topic = "sales" // Sales`, ``, "undefined: TopicSales"},
	{"constvalue", `EnvStaging    Env = "staging"`, `EnvStaging    Env = "stage"`, "duplicate key false in map literal"},
}

// TestGuardBreaksBuild changes a form after generation in every way the
// compiler can see, one package per change in one module, and checks with
// one go build that each package no longer compiles, with a message that
// says what to do.
func TestGuardBreaksBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs; skipped with -short")
	}
	dir := newModule(t, "../testdata/e2e/deploy.txtar")
	testmod.Go(t, dir, "mod", "tidy")
	res, err := gen.Generate(context.Background(), gen.Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gen.Write(res); err != nil {
		t.Fatal(err)
	}
	orig, _ := os.ReadFile(filepath.Join(dir, "forms.go"))
	genGo, _ := os.ReadFile(filepath.Join(dir, gen.GoFile))
	for _, d := range guardDrifts {
		changed := strings.Replace(string(orig), d.from, d.to, 1)
		if changed == string(orig) {
			t.Fatalf("%s: edit %q not applied", d.name, d.from)
		}
		sub := filepath.Join(dir, "drift", d.name)
		testmod.WriteFile(t, filepath.Join(sub, "forms.go"), []byte(strings.Replace(changed, "package main", "package drift", 1)))
		testmod.WriteFile(t, filepath.Join(sub, gen.GoFile), []byte(strings.Replace(string(genGo), "package main", "package drift", 1)))
	}
	cmd := exec.Command("go", "build", "-gcflags=-e", "./drift/...")
	cmd.Dir = dir
	out, _ := cmd.CombinedOutput()
	// Split go build's output per package: "# example.com/e2e/drift/NAME".
	per := map[string]string{}
	for _, chunk := range strings.Split(string(out), "# ")[1:] {
		pkg, body, _ := strings.Cut(chunk, "\n")
		per[filepath.Base(pkg)] = body
	}
	for _, d := range guardDrifts {
		t.Run(d.name, func(t *testing.T) {
			body, ok := per[d.name]
			if !ok {
				t.Fatalf("package still builds after the change:\n%s", out)
			}
			if !strings.Contains(body, d.want) {
				t.Fatalf("build error lacks %q:\n%s", d.want, body)
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
	dir := testmod.New(t, "example.com/e2e")
	for _, f := range ar.Files {
		testmod.WriteFile(t, filepath.Join(dir, f.Name), f.Data)
	}
	return dir
}
