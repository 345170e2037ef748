package clustertest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/elicitgen/elicitgen/example/app"
	"github.com/elicitgen/elicitgen/example/internal/exampletest"
	"github.com/elicitgen/elicitgen/example/internal/testclock"
)

// The cluster under a fake clock: three example server processes and a
// redis-server of the test's own share one simulated time, an offset
// from the wall clock in a file. Redis runs under libfaketime
// (LD_PRELOAD, FAKETIME_TIMESTAMP_FILE): its TIME, the TIME its Lua
// scripts read and its key expiry follow the file. The server processes,
// which libfaketime cannot reach (Go reads the time without libc), read
// the same file through the example's test hook, ELICIT_TEST_CLOCK
// (example/internal/testclock). The test moves time for all of them by
// rewriting the file: three days pass in no time.

// fakeRedis is a redis-server under libfaketime.
type fakeRedis struct {
	url    string
	file   string // the offset file: FAKETIME_TIMESTAMP_FILE, and the instances' ELICIT_TEST_CLOCK
	client *redis.Client
}

// requireFakeClock skips the test with msg, or fails it when
// ELICITGEN_REQUIRE_REDIS=1 (.ci/run installs redis-server and faketime
// and sets it).
func requireFakeClock(t *testing.T, msg string) {
	t.Helper()
	if os.Getenv("ELICITGEN_REQUIRE_REDIS") == "1" {
		t.Fatal(msg + " (ELICITGEN_REQUIRE_REDIS=1)")
	}
	t.Skip(msg + " (set ELICITGEN_REQUIRE_REDIS=1 to make this a failure)")
}

// libcPath returns the C library bin is linked with, from ldd ("" when
// it cannot tell).
func libcPath(bin string) string {
	out, err := exec.Command("ldd", bin).Output()
	if err != nil {
		return ""
	}
	if m := regexp.MustCompile(`\blibc\.so\.6 => (\S+)`).FindSubmatch(out); m != nil {
		return string(m[1])
	}
	return ""
}

// startFakeRedis starts a redis-server on a free loopback port under
// libfaketime, its offset file at +0, until the test ends. It skips the
// test (fails it under ELICITGEN_REQUIRE_REDIS=1) without redis-server or
// libfaketime.
func startFakeRedis(t *testing.T) *fakeRedis {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		requireFakeClock(t, "no redis-server on PATH: apt-get install redis-server faketime to run the cluster under a fake clock")
	}
	lib, err := testclock.LibFaketime()
	if err != nil {
		requireFakeClock(t, err.Error())
	}
	r := &fakeRedis{file: filepath.Join(t.TempDir(), "faketime")}
	if err := testclock.Write(r.file, 0); err != nil {
		t.Fatal(err)
	}
	// libfaketime resolves its own symbols with dlsym, which allocates:
	// in a redis-server linked with jemalloc that allocation reaches
	// jemalloc while jemalloc, initializing, reads clock_gettime through
	// libfaketime, and the process hangs (libfaketime issue #130).
	// Preloading the C library after libfaketime makes malloc glibc's for
	// the whole process, so nothing reaches jemalloc before libfaketime
	// is ready; Redis allocates with glibc here (INFO still names
	// jemalloc), which changes nothing the test reads.
	preload := lib
	if libc := libcPath(bin); libc != "" {
		preload += ":" + libc
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	out := &exampletest.SyncBuffer{}
	cmd := exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no")
	cmd.Env = append(os.Environ(), "LD_PRELOAD="+preload, "FAKETIME_TIMESTAMP_FILE="+r.file,
		// Read the file at every clock read: a rewrite moves Redis at once.
		"FAKETIME_NO_CACHE=1",
		// Redis's event loop and timers keep the real monotonic clock.
		"FAKETIME_DONT_FAKE_MONOTONIC=1")
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		// SIGTERM: Redis exits cleanly, and libfaketime removes its
		// shared memory (/dev/shm/faketime_*), which a kill would leave.
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(exampletest.Timeout(10 * time.Second)):
			_ = cmd.Process.Kill()
			<-exited
		}
		if t.Failed() {
			t.Logf("redis-server under libfaketime:\n%s", out.String())
		}
	})
	r.url = "redis://127.0.0.1:" + strconv.Itoa(port) + "/0"
	opt, _ := redis.ParseURL(r.url)
	r.client = redis.NewClient(opt)
	t.Cleanup(func() { r.client.Close() })
	for deadline := time.Now().Add(exampletest.Timeout(10 * time.Second)); r.client.Ping(context.Background()).Err() != nil; time.Sleep(50 * time.Millisecond) {
		select {
		case <-exited:
			t.Fatalf("redis-server under libfaketime exited:\n%s", out.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("redis-server under libfaketime (LD_PRELOAD=%s) does not answer:\n%s", preload, out.String())
		}
	}
	r.check(t, 0)
	return r
}

// set moves the shared clock to the wall clock plus d, and checks that
// Redis follows.
func (r *fakeRedis) set(t *testing.T, d time.Duration) {
	t.Helper()
	if err := testclock.Write(r.file, d); err != nil {
		t.Fatal(err)
	}
	r.check(t, d)
}

// check fails the test unless Redis's TIME, and the TIME its Lua
// scripts read, are the wall clock plus d (within a minute).
func (r *fakeRedis) check(t *testing.T, d time.Duration) {
	t.Helper()
	ctx := context.Background()
	got, err := r.client.Time(ctx).Result()
	if err != nil {
		t.Fatal(err)
	}
	lua, err := r.client.Eval(ctx, "return redis.call('TIME')[1]", nil).Int64()
	if err != nil {
		t.Fatal(err)
	}
	want := time.Now().Add(d)
	for what, at := range map[string]time.Time{"TIME": got, "redis.call('TIME')": time.Unix(lua, 0)} {
		if diff := at.Sub(want); diff < -time.Minute || diff > time.Minute {
			t.Fatalf("Redis's %s reads %v, want the wall clock %s (%v): is libfaketime in effect?", what, at.UTC(), testclock.FormatOffset(d), want.UTC())
		}
	}
}

// offsetFile returns a new offset file holding d, for an instance whose
// clock differs from the shared one.
func offsetFile(t *testing.T, d time.Duration) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "skewed")
	if err := testclock.Write(p, d); err != nil {
		t.Fatal(err)
	}
	return p
}

// rpcReply is a JSON-RPC response: its result or its error.
type rpcReply struct {
	Result map[string]any `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// rpc posts one 2026-07-28 request to url and returns its reply, result
// or error.
func rpc(t *testing.T, url, method, name, params string) rpcReply {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":` + params + `}`
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	req.Header.Set("Mcp-Name", name)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if i := bytes.LastIndex(raw, []byte("data: ")); i >= 0 && strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		raw = bytes.TrimSpace(raw[i+len("data: "):])
	}
	var r rpcReply
	if err := json.Unmarshal(raw, &r); err != nil || (r.Result == nil) == (r.Error == nil) {
		t.Fatalf("%s: HTTP %d %s", method, resp.StatusCode, raw)
	}
	return r
}

// plainMeta is the _meta of a 2026-07-28 request from a client with form
// elicitation and without the Tasks extension: its questions come back
// as input_required rounds with a requestState.
const plainMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"plain-client","version":"0"},"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}}}`

// deployCall is the arguments of deploy_to_production for billing.
const deployCall = `"name":"` + app.ToolDeploy + `","arguments":{"service":"billing"}`

// acceptDeploy is the answer that approves the deploy.
const acceptDeploy = `{"action":"accept","content":{"branch":"release/2.4","environment":"production","confirmed":true}}`

// expiredText is what deploy_to_production says when its approval came
// after the question closed (the handler saw Outcome.Expired()).
const expiredText = "Not deployed: the approval expired before it was answered"

// askDeploy calls deploy_to_production without the Tasks extension at
// url and returns the round's requestState and its question's key.
func askDeploy(t *testing.T, url string) (state, key string) {
	t.Helper()
	r := rpc(t, url, "tools/call", app.ToolDeploy, `{`+deployCall+`,`+plainMeta+`}`)
	state, _ = r.Result["requestState"].(string)
	reqs, _ := r.Result["inputRequests"].(map[string]any)
	for k := range reqs {
		key = k
	}
	if r.Error != nil || state == "" || len(reqs) != 1 {
		t.Fatalf("tools/call = %+v; want an input_required round with a requestState", r)
	}
	return state, key
}

// retryDeploy sends the round's answer (acceptDeploy) with its
// requestState to url.
func retryDeploy(t *testing.T, url, state, key string) rpcReply {
	t.Helper()
	return rpc(t, url, "tools/call", app.ToolDeploy,
		`{`+deployCall+`,"requestState":"`+state+`","inputResponses":{"`+key+`":`+acceptDeploy+`},`+plainMeta+`}`)
}

// resultText returns the text of a tool result (its content, as JSON).
func resultText(r rpcReply) string {
	b, _ := json.Marshal(r.Result["content"])
	return string(b)
}

// answeredRecord is an audit record of an answered question.
type answeredRecord struct {
	Instance string  `json:"instance"`
	Event    string  `json:"event"`
	Tool     string  `json:"tool"`
	Action   string  `json:"action"`
	Reason   string  `json:"reason"`
	WaitMS   float64 `json:"wait_ms"`
}

// answered returns the answered records of tool in the instances' audit
// logs.
func answered(instances []*instance, tool string) []answeredRecord {
	var out []answeredRecord
	for _, in := range instances {
		sc := bufio.NewScanner(strings.NewReader(in.log.String()))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var r answeredRecord
			if line := sc.Text(); strings.HasPrefix(line, "{") && json.Unmarshal([]byte(line), &r) == nil && r.Event == "answered" && r.Tool == tool {
				out = append(out, r)
			}
		}
	}
	return out
}

// testHookLine is the warning an instance logs at start with
// ELICIT_TEST_CLOCK set.
var testHookLine = regexp.MustCompile(`WARNING: TEST HOOK ` + testclock.Env + `=`)

// TestSeventyTwoHourApprovalUnderFakeClock is the example's days-long
// approval: a deploy that waits 72 hours for its approval, on three instances behind
// the round-robin proxy with Redis, all on one fake clock. The task is
// created on the first instance; 71 hours later it is polled on the
// second, the first is killed, and the third takes the answer: the
// deploy runs once. A second approval answered after its 72 hours is
// declined as expired, once, whether it comes as a task update (the task
// outlives its question by a day, app.TaskTTL, and completes saying the
// approval expired) or as a 2026-07-28 retry: the handler sees
// Outcome.Expired() each time; a day later the task is gone.
func TestSeventyTwoHourApprovalUnderFakeClock(t *testing.T) {
	if testing.Short() {
		t.Skip("starts three server processes and a redis-server")
	}
	fr := startFakeRedis(t)
	cluster, rr, url := startCluster(t, "ELICIT_REPLAY_STORE="+fr.url, testclock.Env+"="+fr.file)
	for _, in := range cluster {
		if !testHookLine.MatchString(in.log.String()) {
			t.Fatalf("%s did not warn of the test hook:\n%s", in.name, in.log.String())
		}
	}

	created := taskRPC(t, url, "tools/call", app.ToolDeploy, `{`+deployCall+`,`+taskMeta+`}`)
	id, _ := created["taskId"].(string)
	if created["resultType"] != "task" || created["status"] != "input_required" || id == "" {
		t.Fatalf("tools/call = %v; want a task waiting for input", created)
	}
	if ttl, _ := created["ttlMs"].(float64); ttl < float64(app.DeployWait.Milliseconds()) {
		t.Errorf("ttlMs = %v, want at least the deploy's %v wait", created["ttlMs"], app.DeployWait)
	}
	creator := rr.last()

	fr.set(t, 71*time.Hour) // the approver answers on the fourth day, an hour before the question closes
	get := `{"taskId":"` + id + `",` + taskMeta + `}`
	task := taskRPC(t, url, "tasks/get", id, get)
	poller := rr.last()
	reqs, _ := task["inputRequests"].(map[string]any)
	if task["status"] != "input_required" || len(reqs) != 1 || poller == creator {
		t.Fatalf("tasks/get on %s 71 hours later = %v", poller, task)
	}
	var key string
	for k := range reqs {
		key = k
	}
	rr.quiet(t)
	for _, in := range cluster {
		if in.name == creator {
			in.kill(t) // the instance that created the task is gone while it waits
		}
	}
	answer := `{"taskId":"` + id + `","inputResponses":{"` + key + `":` + acceptDeploy + `},` + taskMeta + `}`
	if ack := taskRPC(t, url, "tasks/update", id, answer); ack["resultType"] != "complete" {
		t.Fatalf("tasks/update = %v", ack)
	}
	answerer := rr.last()
	if answerer == creator || answerer == poller {
		t.Errorf("created on %s, polled on %s, answered on %s: want three instances", creator, poller, answerer)
	}
	taskRPC(t, url, "tasks/update", id, answer) // sent again: acknowledged, nothing runs
	task = taskRPC(t, url, "tasks/get", id, get)
	out, _ := json.Marshal(task["result"])
	if task["status"] != "completed" || !strings.Contains(string(out), "Deployed billing@release/2.4 to production") {
		t.Fatalf("the task answered 71 hours later = %v", task)
	}
	time.Sleep(exampletest.Timeout(200 * time.Millisecond)) // a second deployment would be logged by now
	if n := deployments(cluster); n != 1 {
		t.Errorf("the instances logged %d deployments, want 1", n)
	}
	// The instances' clocks moved with the file: the question, sealed on
	// the creator, waited 71 hours for the answerer.
	if recs := answered(cluster, app.ToolDeploy); len(recs) != 1 || recs[0].Instance != answerer || recs[0].Reason != "" ||
		recs[0].WaitMS < float64((70*time.Hour).Milliseconds()) || recs[0].WaitMS > float64((72*time.Hour).Milliseconds()) {
		t.Errorf("answered records %+v, want one on %s that waited 71 hours", recs, answerer)
	}

	// A second approval: asked now, as a task and as a plain round, and
	// answered a minute after its 72 hours.
	late := taskRPC(t, url, "tools/call", app.ToolDeploy, `{`+deployCall+`,`+taskMeta+`}`)
	lateID, _ := late["taskId"].(string)
	lateGet := `{"taskId":"` + lateID + `",` + taskMeta + `}`
	var lateKey string
	for k := range taskRPC(t, url, "tasks/get", lateID, lateGet)["inputRequests"].(map[string]any) {
		lateKey = k
	}
	state, roundKey := askDeploy(t, url)
	// An hour before the question closes the task still waits (its time
	// is counted on the clock it was created on, the shared one).
	fr.set(t, 71*time.Hour+app.DeployWait-time.Hour)
	if task := taskRPC(t, url, "tasks/get", lateID, lateGet); task["status"] != "input_required" {
		t.Fatalf("the second task 71 hours after it was created = %v, want it still waiting", task)
	}
	fr.set(t, 71*time.Hour+app.DeployWait+time.Minute)

	// The task outlives its question: the late answer runs the tool,
	// which sees an expired decline, and the task completes saying so.
	lateAnswer := `{"taskId":"` + lateID + `","inputResponses":{"` + lateKey + `":` + acceptDeploy + `},` + taskMeta + `}`
	if ack := taskRPC(t, url, "tasks/update", lateID, lateAnswer); ack["resultType"] != "complete" {
		t.Fatalf("tasks/update a minute after 72 hours = %v", ack)
	}
	taskDecider := rr.last()
	taskRPC(t, url, "tasks/update", lateID, lateAnswer) // sent again: acknowledged, nothing runs
	lateTask := taskRPC(t, url, "tasks/get", lateID, lateGet)
	if out, _ := json.Marshal(lateTask["result"]); lateTask["status"] != "completed" || !strings.Contains(string(out), expiredText) {
		t.Fatalf("the task answered a minute after 72 hours = %v; want it completed with %q", lateTask, expiredText)
	}
	// The round's answer reaches the handler as an expired decline, once.
	if r := retryDeploy(t, url, state, roundKey); r.Error != nil || !strings.Contains(resultText(r), expiredText) {
		t.Fatalf("the answer a minute after 72 hours = %+v; want %q", r, expiredText)
	}
	decider := rr.last()
	if r := retryDeploy(t, url, state, roundKey); r.Error == nil || r.Error.Code != -32602 {
		t.Errorf("the same late answer sent again = %+v, want -32602 (the state is spent)", r)
	}
	time.Sleep(exampletest.Timeout(200 * time.Millisecond))
	if n := deployments(cluster); n != 1 {
		t.Errorf("the instances logged %d deployments, want 1", n)
	}
	var expired []answeredRecord
	for _, rec := range answered(cluster, app.ToolDeploy) {
		if rec.Reason == "expired" {
			expired = append(expired, rec)
		}
	}
	// Records come instance by instance, not in time order.
	var on []string
	for _, rec := range expired {
		if rec.Action != "decline" {
			t.Errorf("expired record %+v, want a decline", rec)
		}
		on = append(on, rec.Instance)
	}
	want := []string{taskDecider, decider}
	slices.Sort(on)
	slices.Sort(want)
	if !slices.Equal(on, want) {
		t.Errorf("expired records on %v, want one for the task (on %s) and one for the round (on %s)", on, taskDecider, decider)
	}

	// A day after its question closed the task is gone.
	fr.set(t, 71*time.Hour+app.TaskTTL+time.Minute)
	if r := rpc(t, url, "tasks/get", lateID, lateGet); r.Error == nil || r.Error.Code != -32602 {
		t.Errorf("tasks/get past the task's TTL = %+v, want -32602 (no task: expired)", r)
	}
}

// TestSkewedInstanceCannotExtendQuestion: expiry is decided on one clock,
// Redis's, where Redis holds the record. An instance whose clock runs
// behind the shared one never takes an answer to a question that closed
// on Redis's clock: 5 minutes behind (more than the 1m
// ELICIT_REDIS_CLOCK_SKEW allows) it refuses every claim; 45 seconds
// behind (within it) the answer is refused or declined as expired. An
// instance on the shared clock then decides the question as expired,
// once, unless the skewed one already did; the deploy never runs.
func TestSkewedInstanceCannotExtendQuestion(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two server processes and a redis-server")
	}
	fr := startFakeRedis(t)
	bin, err := exampletest.BuildServer()
	if err != nil {
		t.Fatal(err)
	}
	keys := exampletest.NewKeySpec(t, "k1")
	skewFile := offsetFile(t, -5*time.Minute)
	fair := startInstance(t, bin, "node-a", keys, "ELICIT_REPLAY_STORE="+fr.url, testclock.Env+"="+fr.file)
	skewed := startInstance(t, bin, "node-skewed", keys, "ELICIT_REPLAY_STORE="+fr.url, testclock.Env+"="+skewFile)
	instances := []*instance{fair, skewed}
	fairURL, skewedURL := fair.url.String()+"/mcp", skewed.url.String()+"/mcp"

	state, key := askDeploy(t, fairURL)
	// The question closes 72 hours after it was asked (its sealed state
	// to the second); on the shared clock it is 20 seconds past that.
	shared := app.DeployWait + 20*time.Second
	fr.set(t, shared)

	// 5 minutes behind: the skewed instance's own clock finds the
	// question open, but it cannot claim the state in Redis.
	if err := testclock.Write(skewFile, shared-5*time.Minute); err != nil {
		t.Fatal(err)
	}
	r := retryDeploy(t, skewedURL, state, key)
	if r.Error == nil {
		t.Errorf("5 minutes behind, the late answer was taken: %s", resultText(r))
	} else {
		t.Logf("5 minutes behind: refused with %d %s", r.Error.Code, r.Error.Message)
	}

	// 45 seconds behind, within the clock skew allowed: its own clock
	// still finds the question open (25 s before it closes); Redis's
	// clock decides.
	if err := testclock.Write(skewFile, shared-45*time.Second); err != nil {
		t.Fatal(err)
	}
	decisions := 0
	r = retryDeploy(t, skewedURL, state, key)
	switch {
	case r.Error != nil:
		t.Logf("45 seconds behind: refused with %d %s", r.Error.Code, r.Error.Message)
	case strings.Contains(resultText(r), expiredText):
		decisions++
	default:
		t.Errorf("45 seconds behind, within the skew allowed, the instance took an answer to a question closed on Redis's clock: %s", resultText(r))
	}
	r = retryDeploy(t, fairURL, state, key)
	switch {
	case r.Error == nil && strings.Contains(resultText(r), expiredText):
		decisions++
	case r.Error == nil:
		t.Errorf("on the shared clock the late answer = %s, want %q", resultText(r), expiredText)
	case r.Error.Code != -32602 || decisions == 0:
		t.Errorf("on the shared clock the late answer = %d %s", r.Error.Code, r.Error.Message)
	}
	time.Sleep(exampletest.Timeout(200 * time.Millisecond))
	if n := deployments(instances); n != 0 {
		t.Errorf("the instances logged %d deployments, want none", n)
	}
	var expired int
	for _, rec := range answered(instances, app.ToolDeploy) {
		if rec.Reason == "expired" {
			expired++
		}
	}
	if decisions != 1 || expired != 1 {
		t.Errorf("the late answer was declined as expired %d times (%d audit records), want once", decisions, expired)
	}
}
