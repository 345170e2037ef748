package tasks_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	mcpgolib "github.com/mark3labs/mcp-go/mcp"
	mcpgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/internal/wiretest"
	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/mcpgo"
	"github.com/elicitgen/elicitgen/runtime/seal"
	"github.com/elicitgen/elicitgen/runtime/tasks"
)

// stdioConn is a client on a server's stdin and stdout (io.Pipe).
type stdioConn struct {
	t    *testing.T
	in   *io.PipeWriter
	mu   sync.Mutex
	got  map[string]string // id -> the raw response line
	sent map[string]bool   // the ids the client used
	seen []string          // every line the client read, in order
	more chan struct{}
	done chan struct{} // closed when the server's output ends
}

// serveFunc runs a server on in and out until ctx ends or in does.
type serveFunc func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error

func dialStdio(t *testing.T, serve serveFunc) *stdioConn {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = serve(ctx, inR, outW)
		outW.Close()
	}()
	c := &stdioConn{t: t, in: inW, got: map[string]string{}, sent: map[string]bool{}, more: make(chan struct{}, 1), done: make(chan struct{})}
	go func() {
		defer close(c.done)
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var m struct {
				ID json.RawMessage `json:"id"`
			}
			_ = json.Unmarshal(sc.Bytes(), &m)
			c.mu.Lock()
			c.seen = append(c.seen, sc.Text())
			if len(m.ID) > 0 {
				c.got[string(m.ID)] = sc.Text()
			}
			c.mu.Unlock()
			select {
			case c.more <- struct{}{}:
			default:
			}
		}
	}()
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-served:
		case <-time.After(10 * time.Second):
			t.Error("the server did not end when its input did")
		}
		cancel()
		outR.Close()
	})
	return c
}

// send writes one request line with id (a JSON value) and returns the
// raw response line.
func (c *stdioConn) send(id, method, params string) string {
	c.t.Helper()
	c.mu.Lock()
	c.sent[id] = true
	c.mu.Unlock()
	if _, err := io.WriteString(c.in, `{"jsonrpc":"2.0","id":`+id+`,"method":"`+method+`","params":`+params+"}\n"); err != nil {
		c.t.Fatal(err)
	}
	timeout := time.After(10 * time.Second)
	for {
		c.mu.Lock()
		line, ok := c.got[id]
		c.mu.Unlock()
		if ok {
			return line
		}
		select {
		case <-c.more:
		case <-c.done:
			c.t.Fatalf("%s %s: the server's output ended without a response", method, id)
		case <-timeout:
			c.t.Fatalf("%s %s: no response within 10s", method, id)
		}
	}
}

// call sends a request and decodes its response.
func (c *stdioConn) call(id, method, params string) map[string]any {
	c.t.Helper()
	line := c.send(id, method, params)
	var m map[string]any
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		c.t.Fatalf("%s: %v: %s", method, err, line)
	}
	return m
}

// onlyOwnIDs fails unless every response the client read answers an id
// the client used: the front's own calls never reach it.
func (c *stdioConn) onlyOwnIDs() {
	c.t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	for id, line := range c.got {
		if !c.sent[id] {
			c.t.Errorf("the client read a response to an id it never used: %s", line)
		}
	}
}

func errCode(m map[string]any) any {
	e, _ := m["error"].(map[string]any)
	return e["code"]
}

// stdioFixture is a server's tools' side: deploys counts the deploys;
// the work tool waits for release (and then answers "worked") or for its
// call to be cancelled, which it counts in stopped.
type stdioFixture struct {
	deploys, started, stopped *atomic.Int32
	release                   chan struct{}
}

func (x stdioFixture) work(ctx context.Context) (string, error) {
	x.started.Add(1)
	select {
	case <-x.release:
		return "worked", nil
	case <-ctx.Done():
		x.stopped.Add(1)
		return "", ctx.Err()
	}
}

// stdioServers returns, per SDK, how to run a server whose deploy tool asks
// for approval (AskConfirm), whose echo tool does not and whose work tool
// waits, with the count of deploys; ts nil serves without the extension.
func stdioServers() map[string]func(ts *tasks.Server, opts tasks.StdioOptions) (serveFunc, *atomic.Int32) {
	servers := map[string]func(ts *tasks.Server, opts tasks.StdioOptions) (serveFunc, *atomic.Int32){}
	for name, start := range stdioFixtures() {
		servers[name] = func(ts *tasks.Server, opts tasks.StdioOptions) (serveFunc, *atomic.Int32) {
			serve, x := start(ts, opts)
			return serve, x.deploys
		}
	}
	return servers
}

func stdioFixtures() map[string]func(ts *tasks.Server, opts tasks.StdioOptions) (serveFunc, stdioFixture) {
	ask := func(ctx context.Context, asker runtime.Asker, deploys *atomic.Int32) (string, error) {
		out, err := runtime.AskConfirm(ctx, asker, "Deploy to production?")
		if err != nil {
			return "", err
		}
		if v, ok := out.Accepted(); !ok || !v {
			return "not deployed: " + string(out.Action), nil
		}
		deploys.Add(1)
		return "deployed", nil
	}
	keys := seal.NewRandomKeyRing()
	fixture := func() stdioFixture {
		return stdioFixture{deploys: new(atomic.Int32), started: new(atomic.Int32), stopped: new(atomic.Int32), release: make(chan struct{})}
	}
	return map[string]func(*tasks.Server, tasks.StdioOptions) (serveFunc, stdioFixture){
		"go-sdk": func(ts *tasks.Server, opts tasks.StdioOptions) (serveFunc, stdioFixture) {
			x := fixture()
			deploys := x.deploys
			s := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "v0"}, &mcp.ServerOptions{Capabilities: gosdk.TaskCapabilities(nil)})
			cfg := &gosdk.Config{Options: adapter.Options{Keys: keys}}
			s.AddTool(&mcp.Tool{Name: "deploy", InputSchema: map[string]any{"type": "object"}},
				gosdk.Handle(cfg, func(ctx context.Context, _ *mcp.CallToolRequest, asker runtime.Asker) (*mcp.CallToolResult, error) {
					text, err := ask(ctx, asker, deploys)
					if err != nil {
						return nil, err
					}
					return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
				}))
			s.AddTool(&mcp.Tool{Name: "echo", InputSchema: map[string]any{"type": "object"}},
				func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo"}}}, nil
				})
			s.AddTool(&mcp.Tool{Name: "work", InputSchema: map[string]any{"type": "object"}},
				func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					text, err := x.work(ctx)
					if err != nil {
						return nil, err
					}
					return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
				})
			return func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
				if ts == nil {
					return s.Run(ctx, gosdk.IOTransport(in, out, 0))
				}
				return s.Run(ctx, gosdk.TaskIOTransport(in, out, ts, opts, 0))
			}, x
		},
		"mcp-go": func(ts *tasks.Server, opts tasks.StdioOptions) (serveFunc, stdioFixture) {
			x := fixture()
			deploys := x.deploys
			s := mcpgoserver.NewMCPServer("srv", "v0", mcpgoserver.WithExtensions(map[string]any{tasks.Extension: map[string]any{}}))
			cfg := &mcpgo.Config{Options: adapter.Options{Keys: keys}}
			s.AddTool(mcpgolib.NewTool("deploy"), mcpgo.Handle(cfg, func(ctx context.Context, _ mcpgolib.CallToolRequest, asker runtime.Asker) (*mcpgolib.CallToolResult, error) {
				text, err := ask(ctx, asker, deploys)
				if err != nil {
					return nil, err
				}
				return mcpgolib.NewToolResultText(text), nil
			}))
			s.AddTool(mcpgolib.NewTool("echo"), func(context.Context, mcpgolib.CallToolRequest) (*mcpgolib.CallToolResult, error) {
				return mcpgolib.NewToolResultText("echo"), nil
			})
			s.AddTool(mcpgolib.NewTool("work"), func(ctx context.Context, _ mcpgolib.CallToolRequest) (*mcpgolib.CallToolResult, error) {
				text, err := x.work(ctx)
				if err != nil {
					return nil, err
				}
				return mcpgolib.NewToolResultText(text), nil
			})
			return func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
				if ts == nil {
					return mcpgo.ServeIO(ctx, s, in, out, 0)
				}
				return mcpgo.ServeTaskIO(ctx, s, in, out, ts, opts, 0)
			}, x
		},
	}
}

// createTask calls deploy with the extension declared and returns the
// task id and the key of its one input request, checking what the client
// sees on the way.
func createTask(t *testing.T, c *stdioConn, id string) (string, string) {
	t.Helper()
	m := c.call(id, "tools/call", `{"name":"deploy","arguments":{},`+meta(true)+`}`)
	created := result(t, m)
	taskID, _ := created["taskId"].(string)
	if created["resultType"] != "task" || created["status"] != "input_required" || taskID == "" {
		t.Fatalf("tools/call with the extension = %v", m)
	}
	if _, ok := created["requestState"]; ok {
		t.Errorf("CreateTaskResult carries requestState: %v", created)
	}
	m = c.call(id+"0", "tasks/get", `{"taskId":"`+taskID+`",`+meta(true)+`}`)
	task := result(t, m)
	reqs, _ := task["inputRequests"].(map[string]any)
	if task["status"] != "input_required" || len(reqs) != 1 || task["requestState"] != nil {
		t.Fatalf("tasks/get = %v", task)
	}
	var key string
	for k, r := range reqs {
		key = k
		if !strings.Contains(fmt.Sprint(r), "Deploy to production?") {
			t.Errorf("input request %s = %v, want the deploy question", k, r)
		}
	}
	return taskID, key
}

func TestStdioAnAskingToolBecomesATask(t *testing.T) {
	for name, start := range stdioServers() {
		t.Run(name, func(t *testing.T) {
			serve, deploys := start(&tasks.Server{Store: tasks.NewMemoryStore()}, tasks.StdioOptions{})
			// Runs after the stream's end: the front leaves no goroutine.
			t.Cleanup(func() { wiretest.CheckNoLeaks(t, "runtime/tasks.(*Stdio)") })
			c := dialStdio(t, serve)
			id, key := createTask(t, c, "1")
			if deploys.Load() != 0 {
				t.Fatalf("the tool deployed before the answer")
			}
			get := `{"taskId":"` + id + `",` + meta(true) + `}`
			answer := `{"taskId":"` + id + `","inputResponses":{"` + key + `":{"action":"accept","content":{"confirm":true}}},` + meta(true) + `}`
			// The answer runs the tool once, from the top, before the ack.
			m := c.call("2", "tasks/update", answer)
			if ack := result(t, m); len(ack) != 1 || ack["resultType"] != "complete" {
				t.Fatalf("tasks/update ack = %v", m)
			}
			if deploys.Load() != 1 {
				t.Fatalf("after the answer: %d deploys, want 1", deploys.Load())
			}
			result(t, c.call(`"3"`, "tasks/update", answer)) // replayed
			task := result(t, c.call("4", "tasks/get", get))
			out, _ := json.Marshal(task["result"])
			if task["status"] != "completed" || !strings.Contains(string(out), `deployed`) || deploys.Load() != 1 {
				t.Fatalf("after the answer: %v, %d deploys", task, deploys.Load())
			}
			// An unknown task is -32602.
			if m := c.call("5", "tasks/get", `{"taskId":"no-such-task",`+meta(true)+`}`); errCode(m) != float64(-32602) {
				t.Errorf("unknown task: %v", m)
			}
			// tasks/* without the extension is -32021.
			if m := c.call("6", "tasks/get", `{"taskId":"`+id+`",`+meta(false)+`}`); errCode(m) != float64(-32021) {
				t.Errorf("undeclared tasks/get: %v", m)
			}
			// Without the extension the same call is today's input_required
			// round.
			m = c.call("7", "tools/call", `{"name":"deploy","arguments":{},`+meta(false)+`}`)
			if r := result(t, m); r["resultType"] != "input_required" || r["taskId"] != nil {
				t.Errorf("tools/call without the extension = %v", m)
			}
			c.onlyOwnIDs()
		})
	}
}

func TestStdioADeclineEndsTheTask(t *testing.T) {
	for name, start := range stdioServers() {
		t.Run(name, func(t *testing.T) {
			serve, deploys := start(&tasks.Server{Store: tasks.NewMemoryStore()}, tasks.StdioOptions{})
			c := dialStdio(t, serve)
			id, key := createTask(t, c, "1")
			result(t, c.call("2", "tasks/update", `{"taskId":"`+id+`","inputResponses":{"`+key+`":{"action":"decline"}},`+meta(true)+`}`))
			task := result(t, c.call("3", "tasks/get", `{"taskId":"`+id+`",`+meta(true)+`}`))
			out, _ := json.Marshal(task["result"])
			if task["status"] != "completed" || !strings.Contains(string(out), "not deployed: decline") || deploys.Load() != 0 {
				t.Errorf("after a decline: %v, %d deploys", task, deploys.Load())
			}
			c.onlyOwnIDs()
		})
	}
}

// A task belongs to the principal of the stream that created it: another
// process's stream on the same store cannot read, answer or cancel it.
func TestStdioTasksArePerPrincipal(t *testing.T) {
	for name, start := range stdioServers() {
		t.Run(name, func(t *testing.T) {
			store := tasks.NewMemoryStore()
			serve, deploys := start(&tasks.Server{Store: store}, tasks.StdioOptions{Principal: "alice"})
			c := dialStdio(t, serve)
			id, key := createTask(t, c, "1")
			other, _ := start(&tasks.Server{Store: store}, tasks.StdioOptions{Principal: "mallory"})
			o := dialStdio(t, other)
			answer := `{"taskId":"` + id + `","inputResponses":{"` + key + `":{"action":"accept","content":{"confirm":true}}},` + meta(true) + `}`
			for i, method := range []string{"tasks/get", "tasks/update", "tasks/cancel"} {
				params := `{"taskId":"` + id + `",` + meta(true) + `}`
				if method == "tasks/update" {
					params = answer
				}
				if m := o.call(fmt.Sprint(i+1), method, params); errCode(m) != float64(-32602) {
					t.Errorf("another principal's %s: %v", method, m)
				}
			}
			if task := result(t, c.call("2", "tasks/get", `{"taskId":"`+id+`",`+meta(true)+`}`)); task["status"] != "input_required" || deploys.Load() != 0 {
				t.Errorf("after another principal's calls: %v, %d deploys", task, deploys.Load())
			}
		})
	}
}

// A tool that must run as a task refuses an undeclared call with -32021
// before it runs.
func TestStdioRequiredRefusesUndeclared(t *testing.T) {
	for name, start := range stdioServers() {
		t.Run(name, func(t *testing.T) {
			serve, deploys := start(&tasks.Server{Store: tasks.NewMemoryStore()}, tasks.StdioOptions{Tools: func(name string) tasks.Policy {
				return tasks.Policy{Required: name == "deploy"}
			}})
			c := dialStdio(t, serve)
			m := c.call("1", "tools/call", `{"name":"deploy","arguments":{},`+meta(false)+`}`)
			if errCode(m) != float64(-32021) || deploys.Load() != 0 {
				t.Errorf("undeclared call of a required tool: %v", m)
			}
			createTask(t, c, "2")
		})
	}
}

// Traffic that is not the extension's reaches the client byte for byte as
// it does without the front: old-era sessions, 2026-07-28 lists and calls
// that do not declare it or do not ask, a tasks/* line of another era.
func TestStdioOtherTrafficUnchanged(t *testing.T) {
	lines := []struct{ id, method, params string }{
		{"1", "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"v0"}}`},
		{"", "notifications/initialized", `{}`},
		{"2", "tools/list", `{}`},
		{"3", "tools/call", `{"name":"echo","arguments":{}}`},
		{`"four"`, "tools/list", `{` + meta(true) + `}`},
		{"5", "tools/call", `{"name":"echo","arguments":{},` + meta(true) + `}`},
		{"6", "tools/call", `{"name":"echo","arguments":{},` + meta(false) + `}`},
		{"7", "tools/call", `{"name":"nosuchtool","arguments":{},` + meta(true) + `}`},
		{"8", "tasks/get", `{"taskId":"x"}`},
		{"9", "ping", `{}`},
	}
	for name, start := range stdioServers() {
		t.Run(name, func(t *testing.T) {
			var ids []string
			transcript := func(ts *tasks.Server) []string {
				ids = ids[:0]
				serve, _ := start(ts, tasks.StdioOptions{})
				c := dialStdio(t, serve)
				var out []string
				for _, l := range lines {
					if l.id == "" {
						io.WriteString(c.in, `{"jsonrpc":"2.0","method":"`+l.method+`","params":`+l.params+"}\n")
						continue
					}
					ids = append(ids, l.id)
					out = append(out, c.send(l.id, l.method, l.params))
				}
				c.onlyOwnIDs()
				return out
			}
			plain, fronted := transcript(nil), transcript(&tasks.Server{Store: tasks.NewMemoryStore()})
			for i := range plain {
				if plain[i] != fronted[i] {
					t.Errorf("response %s:\n without the front: %s\n with it:         %s", ids[i], plain[i], fronted[i])
				}
			}
		})
	}
}

// A background tool answers with a working task at once and runs through
// the SDK meanwhile: one completes when the tool does, one that
// tasks/cancel ends has its call cancelled in the SDK.
func TestStdioBackgroundTask(t *testing.T) {
	for name, start := range stdioFixtures() {
		t.Run(name, func(t *testing.T) {
			serve, x := start(&tasks.Server{Store: tasks.NewMemoryStore()}, tasks.StdioOptions{Tools: func(name string) tasks.Policy {
				if name == "work" {
					return tasks.Policy{Mode: tasks.ModeBackground}
				}
				return tasks.Policy{}
			}})
			t.Cleanup(func() { wiretest.CheckNoLeaks(t, "runtime/tasks.(*Stdio)") })
			c := dialStdio(t, serve)
			begin := func(id string) string {
				created := result(t, c.call(id, "tools/call", `{"name":"work","arguments":{},`+meta(true)+`}`))
				if created["resultType"] != "task" || created["status"] != "working" {
					t.Fatalf("background tools/call = %v", created)
				}
				return created["taskId"].(string)
			}
			status := func(id, taskID string) map[string]any {
				return result(t, c.call(id, "tasks/get", `{"taskId":"`+taskID+`",`+meta(true)+`}`))
			}
			cancelled := begin("1")
			// The tool is running in the SDK (a cancel that overtook the
			// call could find nothing to cancel there).
			for i := 0; x.started.Load() == 0; i++ {
				if i == 1000 {
					t.Fatal("the background task's tool never started")
				}
				time.Sleep(10 * time.Millisecond)
			}
			result(t, c.call("2", "tasks/cancel", `{"taskId":"`+cancelled+`",`+meta(true)+`}`))
			if task := status("3", cancelled); task["status"] != "cancelled" {
				t.Errorf("after tasks/cancel: %v", task)
			}
			// The cancel reaches the tool's call in the SDK.
			for i := 0; x.stopped.Load() == 0; i++ {
				if i == 1000 {
					t.Fatal("the cancelled task's tool call was never cancelled")
				}
				time.Sleep(10 * time.Millisecond)
			}
			worked := begin("4")
			close(x.release)
			for i := 0; ; i++ {
				task := status(fmt.Sprint(100+i), worked)
				if task["status"] == "completed" {
					if out, _ := json.Marshal(task["result"]); !strings.Contains(string(out), "worked") {
						t.Errorf("completed task = %v", task)
					}
					break
				}
				if i == 1000 {
					t.Fatalf("the background task never completed: %v", task)
				}
				time.Sleep(10 * time.Millisecond)
			}
			if task := status("5", cancelled); task["status"] != "cancelled" {
				t.Errorf("the cancelled task later: %v", task)
			}
			c.onlyOwnIDs()
		})
	}
}

// BenchmarkStdioPassThrough measures a tools/call that is not a task
// (2026-07-28, extension not declared) round trip on stdio pipes, without
// and with the tasks front: the front's cost on ordinary traffic.
func BenchmarkStdioPassThrough(b *testing.B) {
	for _, sdk := range []string{"go-sdk", "mcp-go"} {
		for _, front := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/front=%v", sdk, front), func(b *testing.B) {
				var ts *tasks.Server
				if front {
					ts = &tasks.Server{Store: tasks.NewMemoryStore()}
				}
				serve, _ := stdioFixtures()[sdk](ts, tasks.StdioOptions{})
				inR, inW := io.Pipe()
				outR, outW := io.Pipe()
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				done := make(chan struct{})
				go func() { defer close(done); _ = serve(ctx, inR, outW); outW.Close() }()
				out := bufio.NewReader(outR)
				params := `{"name":"echo","arguments":{"text":"` + strings.Repeat("x", 256) + `"},` + meta(false) + `}`
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					if _, err := io.WriteString(inW, `{"jsonrpc":"2.0","id":`+fmt.Sprint(i)+`,"method":"tools/call","params":`+params+"}\n"); err != nil {
						b.Fatal(err)
					}
					line, err := out.ReadBytes('\n')
					if err != nil || !bytes.Contains(line, []byte(`"echo"`)) {
						b.Fatalf("%s %v", line, err)
					}
				}
				inW.Close()
				go io.Copy(io.Discard, outR)
				<-done
			})
		}
	}
}

// ModeInputFirst: the questions go to the client as 2026-07-28 rounds, and
// the answered call's result comes as a completed task.
func TestStdioInputFirst(t *testing.T) {
	for name, start := range stdioServers() {
		t.Run(name, func(t *testing.T) {
			serve, deploys := start(&tasks.Server{Store: tasks.NewMemoryStore()}, tasks.StdioOptions{Tools: func(string) tasks.Policy {
				return tasks.Policy{Mode: tasks.ModeInputFirst}
			}})
			c := dialStdio(t, serve)
			round := result(t, c.call("1", "tools/call", `{"name":"deploy","arguments":{},`+meta(true)+`}`))
			reqs, _ := round["inputRequests"].(map[string]any)
			state, _ := round["requestState"].(string)
			if round["resultType"] != "input_required" || len(reqs) != 1 || state == "" {
				t.Fatalf("first round = %v", round)
			}
			var key string
			for k := range reqs {
				key = k
			}
			retry := `{"name":"deploy","arguments":{},"inputResponses":{"` + key + `":{"action":"accept","content":{"confirm":true}}},"requestState":"` + state + `",` + meta(true) + `}`
			created := result(t, c.call("2", "tools/call", retry))
			id, _ := created["taskId"].(string)
			if created["resultType"] != "task" || created["status"] != "completed" || deploys.Load() != 1 {
				t.Fatalf("the answered call = %v, %d deploys", created, deploys.Load())
			}
			task := result(t, c.call("3", "tasks/get", `{"taskId":"`+id+`",`+meta(true)+`}`))
			if out, _ := json.Marshal(task["result"]); task["status"] != "completed" || !strings.Contains(string(out), "deployed") {
				t.Errorf("tasks/get = %v", task)
			}
		})
	}
}
