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

// TestInstall runs the README's install block line by line in a fresh
// module outside the checkout (the checkout stands beside it as
// ../elicitgen, where the block clones it), with GOPROXY=off and again
// with the machine's own proxy setting, then generates a form with the
// README's //go:generate line, builds it and runs go tool elicitgen
// check. The module's own dependencies come from the module cache
// (.ci/run's go mod download fills it). It runs under -short too: the
// first minutes of a new user are worth half a minute of every run.
func TestInstall(t *testing.T) {
	steps, directive := installSteps(t)
	if len(steps) < 3 || !strings.HasPrefix(steps[0], "git clone ") || !strings.HasSuffix(steps[0], " ../elicitgen") {
		t.Fatalf("the install block does not start by cloning into ../elicitgen: %q", steps)
	}
	steps = steps[1:] // the checkout is linked there instead

	proxy := strings.TrimSpace(testmod.Go(t, testmod.Root(t), "env", "GOPROXY"))
	// Both runs use one directory, so that the second reuses the first's
	// build of the tool (the go command keys it by the source's path).
	top := t.TempDir()
	if err := os.Symlink(testmod.Root(t), filepath.Join(top, "elicitgen")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, proxy, goflags string
	}{
		{"GOPROXY=off,GOFLAGS=-mod=readonly", "off", strings.TrimSpace(os.Getenv("GOFLAGS") + " -mod=readonly")},
		{"GOPROXY=" + proxy, proxy, os.Getenv("GOFLAGS")},
	} {
		t.Run(c.name, func(t *testing.T) {
			app := filepath.Join(top, "app")
			if err := os.RemoveAll(app); err != nil {
				t.Fatal(err)
			}
			env := append(os.Environ(), "GOPROXY="+c.proxy, "GOFLAGS="+c.goflags, "GOWORK=off")
			sh := func(line string) {
				t.Helper()
				cmd := exec.Command("sh", "-ec", line)
				cmd.Dir, cmd.Env = app, env
				start := time.Now()
				out, err := cmd.CombinedOutput()
				t.Logf("%s: %v", line, time.Since(start).Round(time.Millisecond))
				if err != nil {
					t.Fatalf("%s: %v\n%s", line, err, out)
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
			sh("go mod init example.com/app")
			for _, s := range steps {
				sh(s)
			}
			sh("go generate ./...")
			sh("go build ./...")
			sh("go vet ./...")
			sh("go tool elicitgen check ./...")
			if _, err := os.Stat(filepath.Join(app, "forms", "elicit_gen.json")); err != nil {
				t.Fatal(err)
			}
		})
	}
}
