// Package testmod materialises temporary Go modules that use this
// checkout of github.com/elicitgen/elicitgen, the way a user's module
// would: tests generate, build, vet or analyze code in them. Only tests
// import it.
package testmod

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// modulePath is the path of the module this package belongs to.
const modulePath = "github.com/elicitgen/elicitgen"

// Root returns the absolute directory of this checkout: the nearest
// directory at or above the working directory whose go.mod declares
// github.com/elicitgen/elicitgen.
func Root(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if mod, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && moduleLine(string(mod)) == "module "+modulePath {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatalf("testmod: no go.mod of %s at or above the working directory", modulePath)
		}
		dir = parent
	}
}

// New writes a module named path into a new temporary directory and
// returns the directory. Its go.mod has the go line of the checkout's and
// requires the checkout through a replace directive; its go.sum is the
// checkout's.
func New(tb testing.TB, path string) string {
	tb.Helper()
	return newModule(tb, path, false)
}

// NewWithDeps is New whose go.mod also requires every module that the
// checkout's go.mod requires, at the same versions, so that the module's
// own code may import them (the MCP SDKs, say) directly.
func NewWithDeps(tb testing.TB, path string) string {
	tb.Helper()
	return newModule(tb, path, true)
}

func newModule(tb testing.TB, path string, deps bool) string {
	tb.Helper()
	root := Root(tb)
	rootMod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		tb.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		tb.Fatal(err)
	}
	var mod string
	if deps {
		mod = strings.Replace(string(rootMod), "module "+modulePath, "module "+path, 1) + "\n"
	} else {
		mod = "module " + path + "\n\n" + goLine(string(rootMod)) + "\n\n"
	}
	mod += "require " + modulePath + " v0.0.0\n\nreplace " + modulePath + " => " + root + "\n"
	dir := tb.TempDir()
	WriteFile(tb, filepath.Join(dir, "go.mod"), []byte(mod))
	WriteFile(tb, filepath.Join(dir, "go.sum"), sum)
	return dir
}

// moduleLine returns the module line of a go.mod, trimmed.
func moduleLine(mod string) string {
	for _, l := range strings.Split(mod, "\n") {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "module ") {
			return l
		}
	}
	return ""
}

// goLine returns the go line of a go.mod, trimmed; "go 1.24" when there
// is none.
func goLine(mod string) string {
	line := "go 1.24"
	for _, l := range strings.Split(mod, "\n") {
		if strings.HasPrefix(l, "go ") {
			line = strings.TrimSpace(l)
		}
	}
	return line
}

// WriteFile writes data to path, making the directories it needs.
func WriteFile(tb testing.TB, path string, data []byte) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		tb.Fatal(err)
	}
}

// Go runs the go command with args in dir and returns its combined
// output; it fails the test when the command fails.
func Go(tb testing.TB, dir string, args ...string) string {
	tb.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		tb.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}
