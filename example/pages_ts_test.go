package example

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/example/internal/exampletest"
)

// startPagesExample builds the example server and runs it with hosted
// pages and the trusted identity header on a free loopback port until the
// test ends; it returns its MCP URL.
func startPagesExample(ctx context.Context, t *testing.T) string {
	t.Helper()
	return exampletest.StartHTTPExampleWith(ctx, t, []string{"ELICIT_TRUSTED_USER_HEADER=" + trustedHeader}, "--pages")
}

// runNode runs a script of example/node against mcpURL.
func runNode(ctx context.Context, t *testing.T, script, mcpURL string) {
	t.Helper()
	node, err := exampletest.NodeBinary()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, node, script, mcpURL, trustedHeader)
	cmd.Dir = "node"
	cmd.WaitDelay = exampletest.Timeout(5 * time.Second)
	out, err := cmd.CombinedOutput()
	t.Logf("%s %s:\n%s", node, script, out)
	if err != nil {
		t.Fatalf("%s: %v", script, err)
	}
}

// TestTypeScriptClientGetsTheLink: a TypeScript SDK v1 client without
// elicitation gets the hosted page's link from the example server (run
// with --pages behind a trusted identity header); the page is answered
// over plain HTTP; the client's second call deploys once; a third asks
// again; other arguments or another person take nothing
// (node/pages-link.mjs).
func TestTypeScriptClientGetsTheLink(t *testing.T) {
	exampletest.RequireNodePackages(t, "@modelcontextprotocol/sdk")
	ctx, cancel := exampletest.Context(t, 2*time.Minute)
	defer cancel()
	runNode(ctx, t, "pages-link.mjs", startPagesExample(ctx, t))
}

// TestTypeScriptV2URLModeOnly: a TypeScript SDK v2 client declaring URL
// mode only is sent to the hosted page and completes, on 2026-07-28 and
// on 2025-11-25, where the complete notification arrives
// (node/pages-url-v2.mjs).
func TestTypeScriptV2URLModeOnly(t *testing.T) {
	exampletest.RequireNodePackages(t, "@modelcontextprotocol/client")
	ctx, cancel := exampletest.Context(t, 2*time.Minute)
	defer cancel()
	runNode(ctx, t, "pages-url-v2.mjs", startPagesExample(ctx, t))
}
