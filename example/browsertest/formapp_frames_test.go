package browsertest

import (
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/example/internal/exampletest"
)

// TestFormAppFrames runs the form app (templates/formapp.html) in
// headless Chromium beside a hostile sibling frame (node/formapp-frames.mjs):
// before the host answers ui/initialize, a frame of another origin that
// answers first cannot become the app's host nor draw its question; after
// it, a frame of the host's own origin cannot replace the host's question
// ("Dismiss this notice?" for a deploy), and the person's accept reaches
// the host for its own question. The app reads messages from its parent
// window only.
func TestFormAppFrames(t *testing.T) {
	exampletest.RequireNodePackages(t, "playwright-core")
	chromium := os.Getenv("CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	if _, err := os.Stat(chromium); err != nil {
		exampletest.SkipOrFail(t, chromium+" is missing: apt-get install chromium to run the form app test")
	}
	node, err := exampletest.NodeBinary()
	if err != nil {
		t.Fatal(err)
	}
	for _, which := range []string{"before-init", "after-init"} {
		t.Run(which, func(t *testing.T) {
			ctx, cancel := exampletest.Context(t, 2*time.Minute) // the script stops itself after 60 s
			defer cancel()
			cmd := exec.CommandContext(ctx, node, "formapp-frames.mjs", which)
			cmd.Dir = "node"
			cmd.Env = append(os.Environ(), "CHROMIUM="+chromium)
			cmd.WaitDelay = 10 * time.Second
			out, err := cmd.CombinedOutput()
			t.Logf("formapp-frames.mjs %s:\n%s", which, out)
			if err != nil {
				t.Fatalf("formapp-frames.mjs %s: %v", which, err)
			}
		})
	}
}
