package readme_test

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/internal/testmod"
)

// installMarker precedes the README's install block.
const installMarker = "<!-- install:"

// installSteps returns the lines of the README's install block and the
// //go:generate line the README tells users to add.
func installSteps(t *testing.T) (steps []string, directive string) {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join(testmod.Root(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := bytes.Cut(readme, []byte(installMarker))
	if !ok {
		t.Fatalf("README.md has no %q line before its install block", installMarker)
	}
	sc := bufio.NewScanner(bytes.NewReader(rest))
	state := 0 // 0 before the block, 1 in it, 2 after it
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		switch {
		case state == 0 && l == "```sh":
			state = 1
		case state == 1 && l == "```":
			state = 2
		case state == 1 && l != "" && !strings.HasPrefix(l, "#"):
			steps = append(steps, l)
		case state == 2 && strings.HasPrefix(l, "//go:generate "):
			return steps, l
		}
	}
	t.Fatal("README.md: no install block followed by a //go:generate line")
	return nil, ""
}

// TestInstall runs the README's install block line by line as a new user
// would on a machine whose module cache is empty, in a fresh module
// outside the checkout (the checkout stands beside it as ../elicitgen,
// where the block clones it). GOMODCACHE is an empty directory; the
// block's `go mod download` line alone may fetch modules, from a file
// proxy over this machine's module cache that stands in for the network
// (.ci/run's go mod download fills that cache); every other line runs
// with GOPROXY=off. The module then generates a form with the README's
// //go:generate line, builds it with a program importing both SDK
// adapters (blank imports: their dependencies, not their API), vets it
// and runs go tool elicitgen check, still offline. It runs under -short
// too: the first minutes of a new user are worth a minute of every run.
func TestInstall(t *testing.T) {
	steps, directive := installSteps(t)
	if len(steps) < 3 || !strings.HasPrefix(steps[0], "git clone ") || !strings.HasSuffix(steps[0], " ../elicitgen") {
		t.Fatalf("the install block does not start by cloning into ../elicitgen: %q", steps)
	}
	steps = steps[1:] // the checkout is linked there instead

	// The network: what this machine's module cache holds, as a proxy.
	network := "file://" + filepath.Join(strings.TrimSpace(testmod.Go(t, testmod.Root(t), "env", "GOMODCACHE")), "cache", "download")
	top := t.TempDir()
	if err := os.Symlink(testmod.Root(t), filepath.Join(top, "elicitgen")); err != nil {
		t.Fatal(err)
	}
	app := filepath.Join(top, "app")
	modcache := filepath.Join(top, "modcache")
	goflags := strings.TrimSpace(os.Getenv("GOFLAGS") + " -mod=readonly")
	env := func(proxy string) []string {
		return append(os.Environ(), "GOMODCACHE="+modcache, "GOPROXY="+proxy, "GOFLAGS="+goflags, "GOWORK=")
	}
	t.Cleanup(func() { // the module cache is read-only: go clean removes it
		cmd := exec.Command("go", "clean", "-modcache")
		cmd.Env = env("off")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("go clean -modcache: %v\n%s", err, out)
		}
	})
	sh := func(line, proxy string) {
		t.Helper()
		cmd := exec.Command("sh", "-ec", line)
		cmd.Dir, cmd.Env = app, env(proxy)
		start := time.Now()
		out, err := cmd.CombinedOutput()
		t.Logf("GOPROXY=%s %s: %v", proxy, line, time.Since(start).Round(time.Millisecond))
		if err != nil {
			t.Fatalf("%s (GOPROXY=%s, GOMODCACHE empty before the install block): %v\n%s", line, proxy, err, out)
		}
	}
	testmod.WriteFile(t, filepath.Join(app, "forms", "forms.go"), []byte(`package forms

`+directive+`

// Approve asks for an approval.
type Approve struct {
	// The reason for the change.
	Reason string `+"`"+`json:"reason" elicit:"minLength=3"`+"`"+`
	// Tick to approve.
	Approved bool `+"`"+`json:"approved"`+"`"+`
}

// Ask is the form's use.
var Ask = AskApprove
`))
	testmod.WriteFile(t, filepath.Join(app, "server", "main.go"), []byte(`// Command server links the forms and both SDK adapters.
package main

import (
	_ "github.com/mark3labs/mcp-go/server"
	_ "github.com/modelcontextprotocol/go-sdk/mcp"

	_ "github.com/elicitgen/elicitgen/runtime/gosdk"
	_ "github.com/elicitgen/elicitgen/runtime/mcpgo"

	_ "example.com/app/forms"
)

func main() {}
`))
	sh("go mod init example.com/app", "off")
	downloaded := false
	for _, s := range steps {
		proxy := "off"
		if strings.Contains(s, "go mod download") {
			proxy, downloaded = network, true
		}
		sh(s, proxy)
	}
	if !downloaded {
		t.Log("the install block has no go mod download line: every line ran offline")
	}
	sh("go generate ./...", "off")
	sh("go build ./...", "off")
	sh("go vet ./...", "off")
	sh("go tool elicitgen check ./...", "off")
	if _, err := os.Stat(filepath.Join(app, "forms", "elicit_gen.json")); err != nil {
		t.Fatal(err)
	}
}
