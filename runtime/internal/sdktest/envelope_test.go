package sdktest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/mcpgo"
	"github.com/elicitgen/elicitgen/runtime/serve"
)

// A raw client speaks JSON lines to the library's own stdio and HTTP
// wrappers (gosdk.IOTransport, mcpgo.ServeIO, gosdk.NewHTTPHandler,
// mcpgo.NewHTTPHandler), so that it can send what no SDK client would:
// case-variant and repeated envelope keys, batches, broken lines.

// rawClient is one connection of a raw client.
type rawClient struct {
	t       *testing.T
	send    func(line string)
	msgs    chan map[string]any
	version string
}

// next returns the next message matching ok, failing after 10 s.
func (c *rawClient) next(what string, ok func(m map[string]any) bool) map[string]any {
	c.t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case m, open := <-c.msgs:
			if !open {
				c.t.Fatalf("waiting for %s: the server closed the connection", what)
			}
			if ok(m) {
				return m
			}
		case <-timeout:
			c.t.Fatalf("no %s within 10s", what)
		}
	}
}

func (c *rawClient) reply(id float64) map[string]any {
	c.t.Helper()
	return c.next(fmt.Sprintf("reply to id %v", id), func(m map[string]any) bool { return m["id"] == id && m["method"] == nil })
}

// meta2026 is the _meta every 2026-07-28 request carries.
const meta2026 = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}}},`

// line completes a request line for the client's era: on 2026-07-28 the
// first params object gets the era's _meta.
func (c *rawClient) line(l string) string {
	if runtime.EraOf(c.version).MultiRoundTrip() {
		if strings.Contains(l, `"params":{}`) {
			return strings.Replace(l, `"params":{}`, `"params":{`+strings.TrimSuffix(meta2026, ",")+`}`, 1)
		}
		l = strings.Replace(l, `"params":{"`, `"params":{`+meta2026+`"`, 1)
	}
	return l
}

// initialize opens the connection on the 2025 eras (2026-07-28 has no
// initialize).
func (c *rawClient) initialize() {
	c.t.Helper()
	if runtime.EraOf(c.version).MultiRoundTrip() {
		return
	}
	c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{"elicitation":{}},"clientInfo":{"name":"raw","version":"v0"}}}`, c.version))
	if r := c.reply(1); r["result"] == nil {
		c.t.Fatalf("initialize: %v", r)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// stdioRaw serves s on pipes through the library's stdio wrapper.
func stdioRaw(t *testing.T, s *server, version string) *rawClient {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		switch s.sdk {
		case goSDK:
			_ = s.gs.Run(ctx, gosdk.IOTransport(inR, outW, 1<<20))
		case mcpGo:
			_ = mcpgo.ServeIO(ctx, s.ms, inR, outW, 1<<20)
		}
		outW.Close()
	}()
	c := &rawClient{t: t, msgs: make(chan map[string]any, 64), version: version}
	var mu sync.Mutex
	c.send = func(line string) {
		mu.Lock()
		defer mu.Unlock()
		io.WriteString(inW, c.line(line)+"\n")
	}
	go func() {
		defer close(c.msgs)
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) == nil {
				c.msgs <- m
			}
		}
	}()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		outR.Close()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Error("the stdio server did not end")
		}
	})
	c.initialize()
	return c
}

// httpRaw serves s on loopback HTTP through the library's handler. Each
// line is POSTed (with the session, without MCP-Protocol-Version, as a
// careless client does); JSON and SSE replies alike reach msgs, and so
// does the JSON-RPC body of a 4xx.
func httpRaw(t *testing.T, s *server, version string) *rawClient {
	var h http.Handler
	opts := &serve.Options{}
	switch s.sdk {
	case goSDK:
		h = gosdk.NewHTTPHandler(s.gs, opts)
	case mcpGo:
		h = mcpgo.NewHTTPHandler(s.ms, opts)
	}
	srv := httptest.NewServer(h)
	c := &rawClient{t: t, msgs: make(chan map[string]any, 64), version: version}
	var (
		mu      sync.Mutex
		session string
		wg      sync.WaitGroup
	)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { cancel(); wg.Wait(); srv.Close() })
	push := func(b []byte) {
		var ms []map[string]any
		if len(b) > 0 && b[0] == '[' { // the errors of a refused batch
			_ = json.Unmarshal(b, &ms)
		} else {
			var m map[string]any
			if json.Unmarshal(b, &m) == nil {
				ms = append(ms, m)
			}
		}
		for _, m := range ms {
			select {
			case c.msgs <- m:
			case <-ctx.Done():
			}
		}
	}
	c.send = func(line string) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader(c.line(line)))
		req.Header.Set("Content-Type", "application/json")
		if runtime.EraOf(version).MultiRoundTrip() {
			req.Header.Set("MCP-Protocol-Version", version)
			var m struct {
				Method string `json:"method"`
				Params struct {
					Name string `json:"name"`
				} `json:"params"`
			}
			if json.Unmarshal([]byte(line), &m) == nil {
				req.Header.Set("Mcp-Method", m.Method)
				if m.Params.Name != "" {
					req.Header.Set("Mcp-Name", m.Params.Name)
				}
			} else { // a batch: its first element's
				req.Header.Set("Mcp-Method", "tools/call")
				req.Header.Set("Mcp-Name", "deploy")
			}
		}
		req.Header.Set("Accept", "application/json, text/event-stream")
		mu.Lock()
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		mu.Unlock()
		wg.Add(1)
		started := make(chan struct{})
		go func() {
			defer wg.Done()
			resp, err := http.DefaultClient.Do(req)
			close(started)
			if err != nil {
				return
			}
			defer resp.Body.Close()
			if sid := resp.Header.Get("Mcp-Session-Id"); sid != "" {
				mu.Lock()
				session = sid
				mu.Unlock()
			}
			if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
				b, _ := io.ReadAll(resp.Body)
				push(bytes.TrimSpace(b))
				return
			}
			sc := bufio.NewScanner(resp.Body)
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				if d, ok := strings.CutPrefix(sc.Text(), "data:"); ok {
					push([]byte(strings.TrimSpace(d)))
				}
			}
		}()
		<-started
	}
	c.initialize()
	return c
}

// hostileAnswers are 2025-era replies to elicitation/create (%d: its
// id) that must never deploy: each either fails the ask or declines.
var hostileAnswers = []struct{ name, line string }{
	{"Result-after-result", `{"jsonrpc":"2.0","id":%d,"result":{"action":"decline"},"Result":{"action":"accept","content":` + deployJSON + `}}`},
	{"RESULT", `{"jsonrpc":"2.0","id":%d,"RESULT":{"action":"accept","content":` + deployJSON + `}}`},
	{"reſult", `{"jsonrpc":"2.0","id":%d,"reſult":{"action":"accept","content":` + deployJSON + `}}`},
	{"result-twice", `{"jsonrpc":"2.0","id":%d,"result":{"action":"decline"},"result":{"action":"accept","content":` + deployJSON + `}}`},
	{"batch", `[{"jsonrpc":"2.0","id":%d,"result":{"action":"decline","Action":"accept","content":` + deployJSON + `}}]`},
	{"Id", `{"jsonrpc":"2.0","id":%d,"Id":99,"result":{"action":"accept","content":` + deployJSON + `}}`},
	{"broken line", `{"jsonrpc":"2.0","id":%d,"result":{"action":"accept","content":{"branch":`},
}

// hostileRetries are 2026-07-28 retries of tools/call (%d: the id, %q:
// the requestState) that must never deploy.
var hostileRetries = []struct{ name, line string }{
	{"InputResponses", `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"deploy","arguments":{},"requestState":%q,"inputResponses":{"Deploy":{"action":"decline"}},"InputResponses":{"Deploy":{"action":"accept","content":` + deployJSON + `}}}}`},
	{"Params", `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"deploy","arguments":{},"requestState":%q,"inputResponses":{"Deploy":{"action":"decline"}}},"Params":{"name":"deploy","arguments":{},"inputResponses":{"Deploy":{"action":"accept","content":` + deployJSON + `}}}}`},
	{"batch", `[{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"deploy","arguments":{},"requestState":%q,"inputResponses":{"Deploy":{"action":"decline","Action":"accept","content":` + deployJSON + `}}}}]`},
	{"huge number", `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"pad":1e400,"name":"deploy","arguments":{},"requestState":%q,"inputResponses":{"Deploy":{"action":"accept","content":` + deployJSON + `}}}}`},
}

// TestEnvelopeExactKeys: at the JSON-RPC envelope, through both SDKs'
// stdio and HTTP wrappers on every era, a case-variant or repeated key,
// a batch or a broken answer line never deploys; the call ends (no
// hang) and the server goes on serving.
func TestEnvelopeExactKeys(t *testing.T) {
	transports := map[string]func(*testing.T, *server, string) *rawClient{"stdio": stdioRaw, "http": httpRaw}
	for _, sdk := range sdks {
		for tname, open := range transports {
			for _, version := range versions {
				cases := hostileAnswers
				if runtime.EraOf(version).MultiRoundTrip() {
					cases = hostileRetries
				}
				for _, tc := range cases {
					t.Run(fmt.Sprintf("%s/%s/%s/%s", sdk, tname, version, tc.name), func(t *testing.T) {
						if sdk == mcpGo && tname == "stdio" {
							stdioSingleton.Lock() // mcp-go's stdio session is process-wide
							defer stdioSingleton.Unlock()
						}
						s := newServer(t, sdk, runtime.UnavailableAuto)
						c := open(t, s, version)
						var final map[string]any
						if runtime.EraOf(version).MultiRoundTrip() {
							c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"deploy","arguments":{}}}`)
							r := c.reply(2)
							res, _ := r["result"].(map[string]any)
							state, _ := res["requestState"].(string)
							if state == "" {
								t.Fatalf("first round: %v", r)
							}
							c.send(fmt.Sprintf(tc.line, 3, state))
							final = c.reply(3)
						} else {
							c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"deploy","arguments":{}}}`)
							q := c.next("elicitation/create", func(m map[string]any) bool { return m["method"] == "elicitation/create" })
							id, _ := q["id"].(float64)
							c.send(fmt.Sprintf(tc.line, int(id)))
							final = c.reply(2)
						}
						if b, _ := json.Marshal(final); strings.Contains(string(b), "deployed") {
							t.Fatalf("%s deployed: %s", tc.name, b)
						}
						if e, _ := final["error"].(map[string]any); runtime.EraOf(version).MultiRoundTrip() && (e == nil || (e["code"] != -32600.0 && e["code"] != -32602.0)) {
							t.Errorf("%s: %v, want a -32600 or -32602 refusal", tc.name, final)
						}
						c.send(`{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{}}`)
						if r := c.reply(7); r["result"] == nil {
							t.Errorf("tools/list after %s: %v", tc.name, r)
						}
					})
				}
			}
		}
	}
}

// stdioSingleton serializes the tests that run mcp-go's stdio server.
var stdioSingleton sync.Mutex

// TestArgumentsOneReading: tool arguments the key check cannot read to
// the end (a number out of float64's range hiding a case-variant key, a
// value followed by more) are refused with -32602 through both SDKs'
// stdio and HTTP wrappers on every era, before the handler runs.
func TestArgumentsOneReading(t *testing.T) {
	transports := map[string]func(*testing.T, *server, string) *rawClient{"stdio": stdioRaw, "http": httpRaw}
	for _, sdk := range sdks {
		for tname, open := range transports {
			for _, version := range versions {
				for name, args := range map[string]string{
					"1e400":     `{"pad":1e400,"SERVICE":"web","service":"billing"}`,
					"-1e999":    `{"service":"billing","x":[-1e999]}`,
					"1e400-top": `{"SERVICE":"web","pad":{"n":1E+400},"service":"billing"}`,
				} {
					t.Run(fmt.Sprintf("%s/%s/%s/%s", sdk, tname, version, name), func(t *testing.T) {
						if sdk == mcpGo && tname == "stdio" {
							stdioSingleton.Lock()
							defer stdioSingleton.Unlock()
						}
						s := newServer(t, sdk, runtime.UnavailableAuto)
						c := open(t, s, version)
						c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"deploy","arguments":` + args + `}}`)
						r := c.reply(2)
						// Refused: by the adapter (-32602; mcp-go v1.2.1 sends
						// handler errors as -32603) or, where the SDK's own
						// decoding fails first, by the SDK (-32600, -32020).
						e, _ := r["error"].(map[string]any)
						switch {
						case e == nil:
							t.Errorf("reply %v, want a refusal", r)
						case e["code"] == -32602.0 || e["code"] == -32603.0:
							if !strings.Contains(fmt.Sprint(e["message"]), "out of range") {
								t.Errorf("reply %v does not name the number out of range", r)
							}
						case e["code"] != -32600.0 && e["code"] != -32020.0:
							t.Errorf("reply %v, want -32602", r)
						}
						if s.runs.Load() != 0 {
							t.Error("the handler ran")
						}
					})
				}
			}
		}
	}
}
