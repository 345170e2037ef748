package clustertest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/example/internal/exampletest"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/example/app"
)

// The multi-instance test: three example server processes share one key
// ring behind a round-robin reverse proxy, as in the README's Deployment
// section. Any instance serves any round of a 2026-07-28 call, because
// everything a retry needs rides in the client's requests.

// instance is one example server process.
type instance struct {
	name string
	url  *url.URL // http://127.0.0.1:port
	cmd  *exec.Cmd
	log  *exampletest.SyncBuffer
}

// startInstance runs bin as the instance name with the key ring keys
// (and the environment variables env) and waits until it serves.
func startInstance(t *testing.T, bin, name, keys string, env ...string) *instance {
	t.Helper()
	in := &instance{name: name, log: &exampletest.SyncBuffer{}}
	in.cmd = exec.Command(bin, "--http", "127.0.0.1:0", "--conformance", "--instance", name)
	// Every test makes a fresh key ring against one shared Redis, whose
	// record of the last ring would refuse it at start (the key-drop check
	// has its own test with the default): relaxed here only.
	in.cmd.Env = append(append(os.Environ(), "ELICIT_STATE_KEYS="+keys, "ELICIT_ALLOW_KEY_DROP=a fresh ring per test"), env...)
	in.cmd.Stdout, in.cmd.Stderr = in.log, in.log
	if err := in.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = in.cmd.Process.Kill()
		_ = in.cmd.Wait()
	})
	deadline := time.Now().Add(exampletest.Timeout(20 * time.Second))
	for time.Now().Before(deadline) {
		if m := exampletest.ServingLine.FindStringSubmatch(in.log.String()); m != nil {
			u, err := url.Parse(m[1])
			if err != nil {
				t.Fatal(err)
			}
			in.url = u
			return in
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("instance %s did not start:\n%s", name, in.log.String())
	return nil
}

// testWriter writes to the test's log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// kill stops the instance for good.
func (in *instance) kill(t *testing.T) {
	if err := in.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = in.cmd.Wait()
}

// roundRobin is the proxy's transport: every request goes to the
// instance after the one that got the previous request; an instance
// that refuses the connection is skipped (the request goes to the next
// one, as a load balancer's retry would).
type roundRobin struct {
	backends []*instance
	mu       sync.Mutex
	next     int
	served   []string // instance name of each request, in order
	open     int      // responses whose body the proxy is still copying
}

// closeHook calls done once, when the body is closed.
type closeHook struct {
	io.ReadCloser
	once sync.Once
	done func()
}

func (c *closeHook) Close() error {
	err := c.ReadCloser.Close()
	c.once.Do(c.done)
	return err
}

// quiet waits until no response is being copied, so that killing an
// instance cuts no stream.
func (rr *roundRobin) quiet(t *testing.T) {
	for deadline := time.Now().Add(exampletest.Timeout(10 * time.Second)); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		rr.mu.Lock()
		n := rr.open
		rr.mu.Unlock()
		if n == 0 {
			return
		}
	}
	t.Error("the proxy is still copying a response")
}

func (rr *roundRobin) RoundTrip(r *http.Request) (*http.Response, error) {
	var body []byte
	if r.Body != nil {
		var err error
		if body, err = io.ReadAll(r.Body); err != nil {
			return nil, err
		}
		r.Body.Close()
	}
	var errs []error
	for range rr.backends {
		rr.mu.Lock()
		in := rr.backends[rr.next%len(rr.backends)]
		rr.next++
		rr.mu.Unlock()
		out := r.Clone(r.Context())
		out.URL.Scheme, out.URL.Host = in.url.Scheme, in.url.Host
		out.Body = io.NopCloser(bytes.NewReader(body))
		res, err := http.DefaultTransport.RoundTrip(out)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", in.name, err))
			continue
		}
		rr.mu.Lock()
		rr.served = append(rr.served, in.name)
		rr.open++
		rr.mu.Unlock()
		res.Body = &closeHook{ReadCloser: res.Body, done: func() {
			rr.mu.Lock()
			rr.open--
			rr.mu.Unlock()
		}}
		return res, nil
	}
	return nil, errors.Join(errs...)
}

// last returns the instance that served the latest request.
func (rr *roundRobin) last() string {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	if len(rr.served) == 0 {
		return ""
	}
	return rr.served[len(rr.served)-1]
}

// callLine matches the log line of one round of a tool call, with the
// instance's name.
var callLine = regexp.MustCompile(`^elicitgen-example\[([^\]]+)\]: tools/call tool=(\S+) requestState=(yes|no) inputResponses=([0-9]+)`)

// logMarks records how much each instance has logged, so that later
// reads see only what came after.
func logMarks(instances []*instance) map[string]int {
	marks := map[string]int{}
	for _, in := range instances {
		marks[in.name] = len(in.log.String())
	}
	return marks
}

// round is the log line of one round of a tool call.
type round struct {
	instance  string // from the line's prefix
	withState bool   // a retry: it echoed a requestState
}

// rounds returns the rounds of tool the instances logged after marks.
func rounds(instances []*instance, marks map[string]int, tool string) []round {
	var out []round
	for _, in := range instances {
		sc := bufio.NewScanner(strings.NewReader(in.log.String()[marks[in.name]:]))
		for sc.Scan() {
			if m := callLine.FindStringSubmatch(sc.Text()); m != nil && m[2] == tool {
				out = append(out, round{instance: m[1], withState: m[3] == "yes"})
			}
		}
	}
	return out
}

func distinct(rs []round) int {
	seen := map[string]bool{}
	for _, r := range rs {
		seen[r.instance] = true
	}
	return len(seen)
}

// TestAcrossInstances: see the comment at the top of the file.
// startCluster builds the example server and starts three instances of it
// (node-a, node-b, node-c) sharing one key ring, with env, behind a
// round-robin reverse proxy; it returns them, the proxy's transport and
// the proxy's /mcp URL.
func startCluster(t *testing.T, env ...string) ([]*instance, *roundRobin, string) {
	t.Helper()
	bin, err := exampletest.BuildServer()
	if err != nil {
		t.Fatal(err)
	}
	keys := exampletest.NewKeySpec(t, "k1")
	var cluster []*instance
	for _, name := range []string{"node-a", "node-b", "node-c"} {
		cluster = append(cluster, startInstance(t, bin, name, keys, env...))
	}
	rr := &roundRobin{backends: cluster}
	proxy := httptest.NewServer(&httputil.ReverseProxy{
		Rewrite:       func(r *httputil.ProxyRequest) { r.Out.URL.Scheme, r.Out.URL.Host = "http", "cluster" },
		Transport:     rr,
		FlushInterval: -1,
		ErrorLog:      log.New(testWriter{t}, "proxy: ", 0),
	})
	t.Cleanup(proxy.Close)
	return cluster, rr, proxy.URL + "/mcp"
}

func TestAcrossInstances(t *testing.T) {
	if testing.Short() {
		t.Skip("starts three server processes")
	}
	cluster, rr, mcpURL := startCluster(t)
	endpoint := mcpURL
	ctx, cancel := exampletest.Context(t, 3*time.Minute) // a dozen conformance scenarios, each a Node process
	defer cancel()

	t.Run("conformance", func(t *testing.T) {
		runConformanceThrough(ctx, t, endpoint)
	})

	// A two-step tool through the SDK's own multi round-trip loop; one
	// instance dies between the rounds.
	t.Run("two-step tool, an instance killed between rounds", func(t *testing.T) {
		var killed string
		marks := logMarks(cluster)
		c := mcp.NewClient(&mcp.Implementation{Name: "cluster-client", Version: "v0"}, &mcp.ClientOptions{
			Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}}},
			ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				if strings.HasPrefix(req.Params.Message, "Step 1") {
					// The instance that asked the first question goes away,
					// once its response is through.
					killed = rr.last()
					rr.quiet(t)
					for _, in := range cluster {
						if in.name == killed {
							in.kill(t)
						}
					}
					return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}, nil
				}
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"color": "green"}}, nil
			},
		})
		cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: app.FixtureIRRMultiRound, Arguments: map[string]any{}})
		if err != nil {
			t.Fatal(err)
		}
		if res.IsError || len(res.Content) == 0 || res.Content[0].(*mcp.TextContent).Text != "Multi-round complete: Ada likes green" {
			t.Fatalf("result = %+v", res)
		}
		if killed == "" {
			t.Fatal("no instance was killed")
		}
		// The servers' own logs tell which instance served each round:
		// the first round (no state) on the instance that was then
		// killed, the two retries on the two others.
		// The lines reach the test through the processes' pipes: wait
		// for them.
		var served []round
		for deadline := time.Now().Add(exampletest.Timeout(10 * time.Second)); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if served = rounds(cluster, marks, app.FixtureIRRMultiRound); len(served) >= 3 {
				break
			}
		}
		t.Logf("rounds in the logs: %+v; killed %s after round 1", served, killed)
		if len(served) != 3 || distinct(served) != 3 {
			t.Errorf("the rounds were served by %+v, want three rounds on three instances", served)
		}
		for _, r := range served {
			if (r.instance == killed) == r.withState {
				t.Errorf("round %+v: want only the first round (no requestState) on the killed instance %s", r, killed)
			}
		}
		// The audit logs correlate the rounds: one call id, sealed in the
		// state, on the three instances, rounds 1 to 3.
		ends := auditEnds(cluster, marks, app.FixtureIRRMultiRound, 3)
		seen := map[int]string{}
		for _, e := range ends {
			seen[e.Round] = e.Instance
			if e.CallID == "" || e.CallID != ends[0].CallID {
				t.Errorf("audit records %+v: want one call id for the three rounds", ends)
				break
			}
		}
		if len(ends) != 3 || len(seen) != 3 || seen[1] != killed {
			t.Errorf("audit call_end records %+v, want rounds 1-3, round 1 on %s", ends, killed)
		}
	})

	// A state sealed by the cluster opens on any of its instances, and
	// on no instance with another key.
	t.Run("foreign key rejects the state", func(t *testing.T) {
		bin, err := exampletest.BuildServer() // built once per test binary
		if err != nil {
			t.Fatal(err)
		}
		stranger := startInstance(t, bin, "node-x", exampletest.NewKeySpec(t, "k1"))
		manual := func(u string) *mcp.ClientSession {
			c := mcp.NewClient(&mcp.Implementation{Name: "manual", Version: "v0"}, &mcp.ClientOptions{
				Capabilities:   &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}}},
				MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
			})
			cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: u}, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cs.Close() })
			return cs
		}
		viaProxy := manual(endpoint)
		first, err := viaProxy.CallTool(ctx, &mcp.CallToolParams{Name: app.FixtureIRRMultiRound, Arguments: map[string]any{}})
		if err != nil || first.RequestState == "" || len(first.InputRequests) != 1 {
			t.Fatalf("round 1 = %+v, %v; want input_required with a requestState", first, err)
		}
		retry := &mcp.CallToolParams{
			Name: app.FixtureIRRMultiRound, Arguments: map[string]any{}, RequestState: first.RequestState,
			InputResponses: mcp.InputResponseMap{"step1": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}},
		}
		_, err = manual(stranger.url.String()+"/mcp").CallTool(ctx, retry)
		var we *jsonrpc.Error
		if !errors.As(err, &we) || we.Code != jsonrpc.CodeInvalidParams {
			t.Fatalf("retry on the instance with another key = %v, want JSON-RPC -32602", err)
		}
		second, err := viaProxy.CallTool(ctx, retry)
		if err != nil || second.RequestState == "" || second.InputRequests["step2"] == nil {
			t.Fatalf("the same retry through the cluster = %+v, %v; want the step2 question", second, err)
		}
	})
}

// runConformanceThrough runs the 2026-07-28 elicitation scenarios of
// @modelcontextprotocol/conformance@0.2.0-alpha.12 (the
// input-required-result-* scenarios run.sh lists) against endpoint. It
// needs node/node_modules: without it the test is skipped, unless
// ELICITGEN_REQUIRE_NODE=1, which makes it fail.
func runConformanceThrough(ctx context.Context, t *testing.T, endpoint string) {
	suite := filepath.Join("node", "node_modules", "conformance-020", "dist", "index.js")
	if _, err := os.Stat(suite); err != nil {
		msg := "example/node/node_modules is missing: run `npm ci` in example/node to run the conformance scenarios through the proxy"
		if os.Getenv("ELICITGEN_REQUIRE_NODE") == "1" {
			t.Fatal(msg + " (ELICITGEN_REQUIRE_NODE=1)")
		}
		t.Skip(msg)
	}
	node, err := exampletest.NodeBinary()
	if err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile(filepath.Join("conformance", "run.sh"))
	if err != nil {
		t.Fatal(err)
	}
	scenarios := regexp.MustCompile(`(?m)^\s+(input-required-result-[a-z-]+)$`).FindAllStringSubmatch(string(script), -1)
	if len(scenarios) < 10 {
		t.Fatalf("found %d input-required-result scenarios in conformance/run.sh", len(scenarios))
	}
	for _, m := range scenarios {
		name := m[1]
		out := t.TempDir()
		cmd := exec.CommandContext(ctx, node, suite, "server", "--url", endpoint, "--scenario", name,
			"--spec-version", "2026-07-28", "-o", out)
		cmd.WaitDelay = exampletest.Timeout(5 * time.Second)
		output, err := cmd.CombinedOutput()
		if bad := checkResults(out); err != nil || bad != "" {
			t.Errorf("%s through the proxy: %v %s\n%s", name, err, bad, output)
		}
	}
}

// checkResults reads the scenario's checks.json under dir and returns
// what did not pass ("" when at least one check passed and every check
// is SUCCESS or INFO).
func checkResults(dir string) string {
	files, _ := filepath.Glob(filepath.Join(dir, "*", "checks.json"))
	if len(files) != 1 {
		return fmt.Sprintf("found %d checks.json", len(files))
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		return err.Error()
	}
	var checks []struct {
		ID, Status, ErrorMessage string
	}
	if err := json.Unmarshal(b, &checks); err != nil {
		return err.Error()
	}
	var bad []string
	ok := 0
	for _, c := range checks {
		switch c.Status {
		case "SUCCESS":
			ok++
		case "INFO":
		default:
			bad = append(bad, c.Status+" "+c.ID+": "+c.ErrorMessage)
		}
	}
	if ok == 0 {
		bad = append(bad, "no check passed")
	}
	return strings.Join(bad, "; ")
}
