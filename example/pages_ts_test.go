package example

import (
	"context"
	"net/url"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// startPagesExample builds the example server and runs it with hosted
// pages and the trusted identity header on a free loopback port until the
// test ends; it returns its MCP URL.
func startPagesExample(ctx context.Context, t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "example-server")
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "./server").CombinedOutput(); err != nil {
		t.Fatalf("go build ./example/server: %v\n%s", err, out)
	}
	log := &syncBuffer{}
	cmd := exec.Command(bin, "--http", "127.0.0.1:0", "--pages", "--instance", t.Name())
	cmd.Env = append(cmd.Environ(), "ELICIT_TRUSTED_USER_HEADER="+trustedHeader)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("example server log:\n%s", log.String())
		}
	})
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := servingLine.FindStringSubmatch(log.String()); m != nil {
			u, err := url.JoinPath(m[1], "mcp")
			if err != nil {
				t.Fatal(err)
			}
			return u
		}
	}
	t.Fatalf("the example server did not start:\n%s", log.String())
	return ""
}

// runNode runs a script of example/node against mcpURL.
func runNode(ctx context.Context, t *testing.T, script, mcpURL string) {
	t.Helper()
	node, err := nodeBinary()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, node, script, mcpURL, trustedHeader)
	cmd.Dir = "node"
	cmd.WaitDelay = 5 * time.Second
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
	requireNodePackages(t, "@modelcontextprotocol/sdk")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	runNode(ctx, t, "pages-link.mjs", startPagesExample(ctx, t))
}

// TestTypeScriptV2URLModeOnly: a TypeScript SDK v2 client declaring URL
// mode only is sent to the hosted page and completes, on 2026-07-28 and
// on 2025-11-25, where the complete notification arrives
// (node/pages-url-v2.mjs).
func TestTypeScriptV2URLModeOnly(t *testing.T) {
	requireNodePackages(t, "@modelcontextprotocol/client")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	runNode(ctx, t, "pages-url-v2.mjs", startPagesExample(ctx, t))
}
