package browsertest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/example/internal/exampletest"
)

// TestInspectorFormApp answers the deploy form rendered by the example's
// form app (SEP-3118, app-rendered form elicitation) in the MCP Inspector
// web UI, in headless Chromium, on 2026-07-28: node/inspector-app.mjs. The
// answer reaches the handler through inputResponses and is validated as
// any other.
func TestInspectorFormApp(t *testing.T) {
	exampletest.RequireNodePackages(t, "@modelcontextprotocol/inspector", "playwright-core")
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
	artifacts := filepath.Join("node", "artifacts", "inspector-app")
	if dir := os.Getenv("ARTIFACTS_DIR"); dir != "" {
		artifacts = filepath.Join(dir, "inspector-app")
	}
	if artifacts, err = filepath.Abs(artifacts); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := exampletest.Context(t, 4*time.Minute) // inspector-app.mjs stops itself after 3 minutes
	defer cancel()
	// The example server advertises and serves the form app.
	mcpURL := exampletest.StartHTTPExampleWith(ctx, t, []string{"ELICIT_FORM_APPS=1"})

	cmd := exec.CommandContext(ctx, node, "inspector-app.mjs", mcpURL, artifacts)
	cmd.Dir = "node"
	cmd.Env = append(os.Environ(), "CHROMIUM="+chromium)
	cmd.WaitDelay = exampletest.Timeout(10 * time.Second)
	out, err := cmd.CombinedOutput()
	t.Logf("%s inspector-app.mjs %s:\n%s", node, mcpURL, out)
	if err != nil {
		t.Fatalf("inspector-app.mjs: %v (screenshots in %s)", err, artifacts)
	}
}
