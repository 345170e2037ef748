package browsertest

import (
	"context"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/example/internal/exampletest"
)

// The helpers every test of the example's test packages shares
// (example/internal/exampletest), under this package's own names. Every
// deadline is a base duration scaled by ELICITGEN_TEST_SCALE (timeout,
// testContext).

// TestMain runs the tests from the example's directory (their paths,
// node/ and ./server, are relative to it).
func TestMain(m *testing.M) { exampletest.Main(m) }

// syncBuffer is a log sink safe for a process's writer and the test.
type syncBuffer = exampletest.SyncBuffer

// trustedHeader is the identity header the tests' "proxy" sets.
const trustedHeader = exampletest.TrustedHeader

// servingLine matches the example server's line naming its address.
var servingLine = exampletest.ServingLine

// timeout returns d scaled by ELICITGEN_TEST_SCALE.
func timeout(d time.Duration) time.Duration { return exampletest.Timeout(d) }

// testContext returns a context that ends after timeout(d), or shortly
// before go test's -timeout.
func testContext(t *testing.T, d time.Duration) (context.Context, context.CancelFunc) {
	t.Helper()
	return exampletest.Context(t, d)
}

// buildServer builds ./server once per test binary.
func buildServer() (string, error) { return exampletest.BuildServer() }

// newKeySpec returns a fresh ELICIT_STATE_KEYS value with one key.
func newKeySpec(t *testing.T, id string) string {
	t.Helper()
	return exampletest.NewKeySpec(t, id)
}

// nodeBinary returns the pinned Node 22, else node on PATH.
func nodeBinary() (string, error) { return exampletest.NodeBinary() }

// requireNodePackages skips (or, with ELICITGEN_REQUIRE_NODE=1, fails)
// the test unless every package is installed in node/node_modules.
func requireNodePackages(t *testing.T, pkgs ...string) {
	t.Helper()
	exampletest.RequireNodePackages(t, pkgs...)
}

// skipOrFail skips the test, or fails it with ELICITGEN_REQUIRE_NODE=1.
func skipOrFail(t *testing.T, msg string) {
	t.Helper()
	exampletest.SkipOrFail(t, msg)
}

// startHTTPExample runs the example server on a free loopback port until
// the test ends, and returns its MCP URL.
func startHTTPExample(ctx context.Context, t *testing.T) string {
	t.Helper()
	return exampletest.StartHTTPExampleWith(ctx, t, nil)
}

// startHTTPExampleWith starts the example server on a loopback port with
// env added to its environment and args after its own flags, and
// returns its /mcp URL.
func startHTTPExampleWith(ctx context.Context, t *testing.T, env []string, args ...string) string {
	t.Helper()
	return exampletest.StartHTTPExampleWith(ctx, t, env, args...)
}
