package example

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/example/internal/exampletest"
)

// TestTypeScriptTasksClient drives the example server from
// node/tasks-client.mjs, built on @modelcontextprotocol/client and the
// official Tasks extension client @modelcontextprotocol/ext-tasks (pinned
// in node/package-lock.json): deploy_to_production called as a task,
// polled, answered with tasks/update (accept, then decline), a task
// cancelled, and the same tool from a client without the extension,
// which is asked as before.
func TestTypeScriptTasksClient(t *testing.T) {
	exampletest.RequireNodePackages(t, "@modelcontextprotocol/client", "@modelcontextprotocol/ext-tasks")
	node, err := exampletest.NodeBinary()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	mcpURL := exampletest.StartHTTPExampleWith(ctx, t, nil)

	cmd := exec.CommandContext(ctx, node, "tasks-client.mjs", mcpURL)
	cmd.Dir = "node"
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	t.Logf("%s tasks-client.mjs %s:\n%s", node, mcpURL, out)
	if err != nil {
		t.Fatalf("tasks-client.mjs: %v", err)
	}
}
