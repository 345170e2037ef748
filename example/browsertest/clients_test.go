package browsertest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/example/internal/exampletest"
)

// Real MCP clients against the example server over streamable HTTP, every
// era on its one URL /mcp: the TypeScript SDK v2 client and the MCP
// Inspector web UI in headless Chromium. Both need example/node's pinned
// packages (npm ci in example/node), and the Inspector test needs
// Debian's chromium (/usr/bin/chromium, or $CHROMIUM) and a CJK font
// (fonts-noto-cjk). Without them the tests are skipped, unless
// ELICITGEN_REQUIRE_NODE=1, which makes them fail.

// TestTypeScriptSDKv2Client drives the example server from
// node/interop-v2.mjs, a client built on @modelcontextprotocol/client
// (pinned in node/package-lock.json), on 2026-07-28 (versionNegotiation
// auto: input_required rounds) and on the client's default era
// (2025-11-25: pushed elicitation/create): every tool's question answered
// with accept, decline and cancel, once with invalid content, once in
// Japanese, and from clients that cannot be asked.
func TestTypeScriptSDKv2Client(t *testing.T) {
	exampletest.RequireNodePackages(t, "@modelcontextprotocol/client")
	node, err := exampletest.NodeBinary()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := exampletest.Context(t, 2*time.Minute)
	defer cancel()
	mcpURL := exampletest.StartHTTPExampleWith(ctx, t, nil)

	cmd := exec.CommandContext(ctx, node, "interop-v2.mjs", mcpURL)
	cmd.Dir = "node"
	cmd.WaitDelay = exampletest.Timeout(5 * time.Second)
	out, err := cmd.CombinedOutput()
	t.Logf("%s interop-v2.mjs %s:\n%s", node, mcpURL, out)
	if err != nil {
		t.Fatalf("interop-v2.mjs: %v", err)
	}
}

// TestInspectorWebUI answers the example's forms in the MCP Inspector web
// UI (node/inspector-ui.mjs: @modelcontextprotocol/inspector and
// playwright-core, pinned, driving /usr/bin/chromium), connected on
// 2026-07-28 and on 2025-11-25: each form tool's dialog is filled and
// submitted and the result the UI shows is checked (with the branch box
// cleared, the default branch deploys), and the Japanese
// deploy form must be drawn with a CJK font. Screenshots are written to
// $ARTIFACTS_DIR/inspector-ui (default: example/node/artifacts/inspector-ui).
func TestInspectorWebUI(t *testing.T) {
	exampletest.RequireNodePackages(t, "@modelcontextprotocol/inspector", "@modelcontextprotocol/client", "playwright-core")
	chromium := os.Getenv("CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	if _, err := os.Stat(chromium); err != nil {
		exampletest.SkipOrFail(t, chromium+" is missing: apt-get install chromium fonts-noto-cjk to run the Inspector web UI test")
	}
	node, err := exampletest.NodeBinary()
	if err != nil {
		t.Fatal(err)
	}
	artifacts := filepath.Join("node", "artifacts", "inspector-ui")
	if dir := os.Getenv("ARTIFACTS_DIR"); dir != "" {
		artifacts = filepath.Join(dir, "inspector-ui")
	}
	if artifacts, err = filepath.Abs(artifacts); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := exampletest.Context(t, 5*time.Minute) // inspector-ui.mjs stops itself after 4 minutes
	defer cancel()
	mcpURL := exampletest.StartHTTPExampleWith(ctx, t, nil)

	cmd := exec.CommandContext(ctx, node, "inspector-ui.mjs", mcpURL, artifacts)
	cmd.Dir = "node"
	cmd.Env = append(os.Environ(), "CHROMIUM="+chromium)
	cmd.WaitDelay = exampletest.Timeout(10 * time.Second)
	out, err := cmd.CombinedOutput()
	t.Logf("%s inspector-ui.mjs %s:\n%s", node, mcpURL, out)
	if err != nil {
		t.Fatalf("inspector-ui.mjs: %v (screenshots in %s)", err, artifacts)
	}
}
