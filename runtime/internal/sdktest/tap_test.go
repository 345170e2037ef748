package sdktest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/internal/wiretest"
)

// tap records the JSON messages between client and server and may
// rewrite the requestState of tools/call requests on their way.
type tap struct {
	mu       sync.Mutex
	toServer [][]byte
	toClient [][]byte
	// mutate, when set, edits the params of every tools/call retry (one
	// that carries requestState) on its way to the server.
	mutate func(params map[string]any)
	// first, when set, edits the params of every tools/call without
	// requestState on its way to the server.
	first func(params map[string]any)
	// result, when set, replaces the result of every response the client
	// sends (to elicitation/create) with this raw JSON.
	result json.RawMessage
}

func (t *tap) record(toServer bool, b []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	b = bytes.Clone(bytes.TrimSpace(b))
	if toServer {
		t.toServer = append(t.toServer, b)
	} else {
		t.toClient = append(t.toClient, b)
	}
}

// rewrite applies mutate to a tools/call retry.
func (t *tap) rewrite(b []byte) []byte {
	t.mu.Lock()
	mutate, result, first := t.mutate, t.result, t.first
	t.mu.Unlock()
	if first != nil && bytes.Contains(b, []byte(`"tools/call"`)) && !bytes.Contains(b, []byte(`"requestState"`)) {
		var m map[string]any
		if json.Unmarshal(b, &m) == nil && m["method"] == "tools/call" {
			p, _ := m["params"].(map[string]any)
			first(p)
			if out, err := json.Marshal(m); err == nil {
				return out
			}
		}
	}
	if result != nil && bytes.Contains(b, []byte(`"result"`)) {
		var m map[string]any
		if json.Unmarshal(b, &m) == nil && m["method"] == nil && m["result"] != nil {
			m["result"] = result
			if out, err := json.Marshal(m); err == nil {
				return out
			}
		}
	}
	if mutate == nil || !bytes.Contains(b, []byte(`"requestState"`)) {
		return b
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil || m["method"] != "tools/call" {
		return b
	}
	p, _ := m["params"].(map[string]any)
	if _, ok := p["requestState"].(string); !ok {
		return b
	}
	mutate(p)
	out, err := json.Marshal(m)
	if err != nil {
		return b
	}
	return out
}

func (t *tap) setMutate(f func(params map[string]any)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.mutate = f
}

// messages returns the recorded messages in one direction, decoded.
func (t *tap) messages(toServer bool) []map[string]any {
	t.mu.Lock()
	defer t.mu.Unlock()
	src := t.toClient
	if toServer {
		src = t.toServer
	}
	var out []map[string]any
	for _, b := range src {
		var m map[string]any
		if json.Unmarshal(b, &m) == nil {
			out = append(out, m)
		}
	}
	return out
}

// requests returns the recorded requests with method, in one direction.
func (t *tap) requests(toServer bool, method string) []map[string]any {
	var out []map[string]any
	for _, m := range t.messages(toServer) {
		if m["method"] == method {
			out = append(out, m)
		}
	}
	return out
}

// results returns the results the server sent to tools/call requests.
func (t *tap) toolResults() []map[string]any {
	ids := map[string]bool{}
	for _, m := range t.requests(true, "tools/call") {
		ids[fmt.Sprint(m["id"])] = true
	}
	var out []map[string]any
	for _, m := range t.messages(false) {
		if r, ok := m["result"].(map[string]any); ok && m["method"] == nil && ids[fmt.Sprint(m["id"])] {
			out = append(out, r)
		}
	}
	return out
}

// transport records and rewrites the messages of a go-sdk connection.
func (t *tap) transport(inner mcp.Transport) mcp.Transport {
	return &wiretest.Transport{
		Transport: inner,
		Read: func(m jsonrpc.Message) {
			if b, err := jsonrpc.EncodeMessage(m); err == nil {
				t.record(false, b)
			}
		},
		Write: func(m jsonrpc.Message) jsonrpc.Message {
			b, err := jsonrpc.EncodeMessage(m)
			if err != nil {
				return m
			}
			if nb := t.rewrite(b); !bytes.Equal(nb, b) {
				if nm, err := jsonrpc.DecodeMessage(nb); err == nil {
					m, b = nm, nb
				}
			}
			t.record(true, b)
			return m
		},
	}
}

// pipes joins a client and a server over newline-delimited JSON, through
// a tap.
type pipes struct {
	serverIn  io.ReadCloser  // server reads
	serverOut io.WriteCloser // server writes
	clientIn  io.ReadCloser  // client reads
	clientOut io.WriteCloser // client writes
	closers   []io.Closer
	wg        sync.WaitGroup
}

func newPipes(tp *tap) *pipes {
	cr1, cw1 := io.Pipe() // client -> proxy
	sr1, sw1 := io.Pipe() // proxy -> server
	sr2, sw2 := io.Pipe() // server -> proxy
	cr2, cw2 := io.Pipe() // proxy -> client
	p := &pipes{serverIn: sr1, serverOut: sw2, clientIn: cr2, clientOut: cw1,
		closers: []io.Closer{cr1, cw1, sr1, sw1, sr2, sw2, cr2, cw2}}
	p.wg.Add(2)
	go p.copy(cr1, sw1, func(b []byte) []byte { b = tp.rewrite(b); tp.record(true, b); return b })
	go p.copy(sr2, cw2, func(b []byte) []byte { tp.record(false, b); return b })
	return p
}

func (p *pipes) copy(r io.Reader, w io.WriteCloser, f func([]byte) []byte) {
	defer p.wg.Done()
	defer w.Close()
	br := bufio.NewReaderSize(r, 1<<16)
	for {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			out := f(bytes.TrimRight(line, "\r\n"))
			if _, werr := w.Write(append(out, '\n')); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

func (p *pipes) Close() {
	for _, c := range p.closers {
		c.Close()
	}
	p.wg.Wait()
}
