package example

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/example/internal/exampletest"
)

// TestTypeScriptSDKInterop builds the example server and drives it over
// stdio from node/interop.mjs, a client built on the official TypeScript
// SDK (@modelcontextprotocol/sdk, pinned in node/package-lock.json): every
// form of every tool answered with accept, decline and cancel, once with
// invalid content, and from clients that cannot be asked; the SDK's own
// request and output-schema checks run on every exchange.
//
// It needs node/node_modules (npm ci in example/node). Without it the test
// is skipped, unless ELICITGEN_REQUIRE_NODE=1, which makes it fail.
func TestTypeScriptSDKInterop(t *testing.T) {
	if _, err := os.Stat(filepath.Join("node", "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		msg := "example/node/node_modules is missing: run `npm ci` in example/node to run the TypeScript SDK interop test"
		if os.Getenv("ELICITGEN_REQUIRE_NODE") == "1" {
			t.Fatal(msg + " (ELICITGEN_REQUIRE_NODE=1)")
		}
		t.Skip(msg + " (set ELICITGEN_REQUIRE_NODE=1 to make this a failure)")
	}
	node, err := exampletest.NodeBinary()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := exampletest.Context(t, 2*time.Minute)
	defer cancel()

	bin, err := exampletest.BuildServer()
	if err != nil {
		t.Fatal(err)
	}

	cmd := exec.CommandContext(ctx, node, "interop.mjs", bin)
	cmd.Dir = "node"
	cmd.WaitDelay = exampletest.Timeout(5 * time.Second)
	out, err := cmd.CombinedOutput()
	t.Logf("%s interop.mjs:\n%s", node, out)
	if err != nil {
		t.Fatalf("interop.mjs: %v", err)
	}
}

// TestTypeScriptSDKLegacyMultiSelect drives example/internal/multiserver
// from node/interop-legacy.mjs: a TypeScript SDK v1 client pinned to
// 2025-06-18 answers a required multi-select, asked as one boolean per
// option, end to end. Skipped like TestTypeScriptSDKInterop without
// node/node_modules.
func TestTypeScriptSDKLegacyMultiSelect(t *testing.T) {
	if _, err := os.Stat(filepath.Join("node", "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		msg := "example/node/node_modules is missing: run `npm ci` in example/node"
		if os.Getenv("ELICITGEN_REQUIRE_NODE") == "1" {
			t.Fatal(msg + " (ELICITGEN_REQUIRE_NODE=1)")
		}
		t.Skip(msg)
	}
	node, err := exampletest.NodeBinary()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := exampletest.Context(t, 2*time.Minute)
	defer cancel()
	bin := filepath.Join(t.TempDir(), "multiserver")
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "./internal/multiserver").CombinedOutput(); err != nil {
		t.Fatalf("go build ./example/internal/multiserver: %v\n%s", err, out)
	}
	cmd := exec.CommandContext(ctx, node, "interop-legacy.mjs", bin)
	cmd.Dir = "node"
	cmd.WaitDelay = exampletest.Timeout(5 * time.Second)
	out, err := cmd.CombinedOutput()
	t.Logf("%s interop-legacy.mjs:\n%s", node, out)
	if err != nil {
		t.Fatalf("interop-legacy.mjs: %v", err)
	}
}
