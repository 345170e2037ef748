package tasks

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/elicitgen/elicitgen/runtime/internal/wire"
)

// StdioOptions configures Server.Stdio.
type StdioOptions struct {
	// Principal is who every request on the stream comes from: on stdio
	// the process's user, which the transport cannot tell apart. "" (the
	// default) binds every task to the empty principal, as on HTTP without
	// a Principal hook.
	Principal string
	// TTL is how long a task stays readable; zero means DefaultTTL.
	TTL time.Duration
	// Tools returns the policy of a tool by name; nil means the zero
	// Policy (ModeAsk, not required) for every tool.
	Tools func(name string) Policy
}

// maxStdioMethods bounds the tasks/* requests of one stream served at
// once; the next one waits for a slot.
const maxStdioMethods = 32

// Stdio serves the extension in front of an SDK on one newline-delimited
// JSON-RPC stream: the SDK reads the client's lines from Read and writes
// its own to Write. See Server.Stdio.
type Stdio struct {
	s      *Server
	opts   StdioOptions
	in     *bufio.Reader
	out    io.Writer
	sdkR   *io.PipeReader
	sdkW   *io.PipeWriter
	inMu   sync.Mutex // one whole line at a time into sdkW
	wmu    sync.Mutex // the SDK's writes, and buf
	buf    []byte     // the SDK's unfinished line
	prefix string     // of the ids of the front's own tools/call lines
	seq    atomic.Uint64
	ctx    context.Context
	stop   context.CancelFunc
	start  sync.Once
	sem    chan struct{}
	work   sync.WaitGroup // the tasks/* requests being served

	mu    sync.Mutex
	calls map[string]stdioCall   // id key -> a declared tools/call the SDK has not answered
	runs  map[string]chan []byte // id key -> the front's own tools/call waiting for its answer
}

// stdioCall is a client's tools/call that may become a task.
type stdioCall struct {
	id     json.RawMessage
	params json.RawMessage
	mode   Mode
}

// Stdio returns the extension served in front of an SDK on a
// newline-delimited JSON-RPC stream (stdio): in holds the client's lines,
// valid and bounded (as adapter.LineFilter passes them on: the front reads
// a whole line into memory), and out
// takes every line for the client, each in one Write (a locked writer,
// such as adapter.LineFilter's). The SDK reads the returned Stdio and
// writes to it. Lines of the 2026-07-28 protocol (their _meta names it)
// are served as Server.HTTP serves them:
//
//   - tasks/get, tasks/update and tasks/cancel are answered by s for
//     opts.Principal and never reach the SDK;
//   - a tools/call that declares the extension reaches the SDK; when the
//     SDK answers it with input_required, the client gets the
//     CreateTaskResult instead, and the task keeps the input requests and
//     the sealed requestState;
//   - the tasks/update that answers the last outstanding request writes a
//     tools/call retry (the task's answers and state) into the SDK's
//     input with an id of the front's own (a string no client holds: a
//     random prefix per stream), takes the SDK's answer off its output
//     (the client never sees it), settles the task and then acknowledges
//     the update.
//
// Every other line passes through unchanged, byte for byte. Close ends the
// stream's waits; no goroutine waits for a person.
func (s *Server) Stdio(in io.Reader, out io.Writer, opts StdioOptions) *Stdio {
	if opts.TTL <= 0 {
		opts.TTL = DefaultTTL
	}
	r, w := io.Pipe()
	ctx, stop := context.WithCancel(context.Background())
	br, ok := in.(*bufio.Reader)
	if !ok {
		br = bufio.NewReaderSize(in, 64<<10)
	}
	return &Stdio{
		s: s, opts: opts, in: br, out: out, sdkR: r, sdkW: w,
		prefix: "io.modelcontextprotocol/tasks#" + wire.NewID() + "/",
		ctx:    ctx, stop: stop, sem: make(chan struct{}, maxStdioMethods),
		calls: map[string]stdioCall{}, runs: map[string]chan []byte{},
	}
}

// Read implements io.Reader: the lines the SDK is to read.
func (f *Stdio) Read(p []byte) (int, error) {
	f.start.Do(func() { go f.pump() })
	return f.sdkR.Read(p)
}

// Close ends the stream: the SDK's reads end, and the front's waits for
// the SDK's answers end with an error.
func (f *Stdio) Close() error {
	f.stop()
	return f.sdkR.Close()
}

// pump routes the client's lines until in ends, then lets the tasks/*
// requests being served finish (an update may run the tool) before the
// SDK reads the end.
func (f *Stdio) pump() {
	err := f.readLines()
	f.work.Wait()
	if errors.Is(err, io.EOF) {
		err = nil
	}
	_ = f.sdkW.CloseWithError(err)
}

func (f *Stdio) readLines() error {
	for {
		line, err := f.in.ReadBytes('\n')
		if len(line) > 0 {
			if line[len(line)-1] != '\n' {
				line = append(line, '\n')
			}
			if werr := f.route(line); werr != nil {
				return werr
			}
		}
		if err != nil {
			return err
		}
	}
}

// toSDK writes one whole line into the SDK's input.
func (f *Stdio) toSDK(line []byte) error {
	f.inMu.Lock()
	defer f.inMu.Unlock()
	_, err := f.sdkW.Write(line)
	return err
}

// route serves one line of the client's.
func (f *Stdio) route(line []byte) error {
	var env envelope
	if json.Unmarshal(line, &env) != nil || env.Method == "" {
		return f.toSDK(line) // a response: the SDK's
	}
	if len(env.ID) == 0 {
		if env.Method == "notifications/cancelled" {
			var p struct {
				RequestID json.RawMessage `json:"requestId"`
			}
			if json.Unmarshal(env.Params, &p) == nil && len(p.RequestID) > 0 {
				f.mu.Lock()
				delete(f.calls, idKey(p.RequestID))
				f.mu.Unlock()
			}
		}
		return f.toSDK(line)
	}
	var meta requestMeta
	meta.decoded = json.Unmarshal(env.Params, &meta) == nil
	if meta.Meta.ProtocolVersion != protocolVersion {
		return f.toSDK(line)
	}
	if strings.HasPrefix(env.Method, "tasks/") {
		select {
		case f.sem <- struct{}{}:
		case <-f.ctx.Done():
			return f.ctx.Err()
		}
		f.work.Add(1)
		go func() {
			defer f.work.Done()
			defer func() { <-f.sem }()
			f.serveMethod(env, &meta)
		}()
		return nil
	}
	if env.Method != "tools/call" {
		return f.toSDK(line)
	}
	var policy Policy
	if f.opts.Tools != nil {
		policy = f.opts.Tools(meta.Name)
	}
	switch {
	case policy.Mode == ModeNever:
		return f.toSDK(line)
	case !meta.declared() && policy.Required:
		return f.reply(env.ID, nil, MissingCapability("tool "+meta.Name+" runs only as a task: declare the "+Extension+" extension in the request's client capabilities"))
	case !meta.declared():
		return f.toSDK(line)
	case policy.Mode == ModeBackground:
		return f.background(env)
	}
	f.mu.Lock()
	f.calls[idKey(env.ID)] = stdioCall{id: env.ID, params: env.Params, mode: policy.Mode}
	f.mu.Unlock()
	return f.toSDK(line)
}

// serveMethod answers a tasks/* request.
func (f *Stdio) serveMethod(env envelope, meta *requestMeta) {
	c := Call{Method: env.Method, Params: env.Params, Principal: f.opts.Principal, Declared: meta.declared(), decoded: meta.params()}
	c.Run = func(ctx context.Context, rec Record) Step {
		params, perr := retryParams(rec)
		if perr != nil {
			return Step{Err: perr}
		}
		return f.run(ctx, params)
	}
	res, err := f.s.Serve(f.ctx, c)
	_ = f.reply(env.ID, res, err)
}

// background answers a tools/call with a new working task and runs the
// tool through the SDK meanwhile; tasks/cancel stops it.
func (f *Stdio) background(env envelope) error {
	args, err := callArgs(env.Params)
	if err != nil {
		return f.reply(env.ID, nil, invalidParams("tools/call params", err))
	}
	task, err := f.s.Create(f.ctx, f.opts.Principal, toolName(env.Params), "", args, f.opts.TTL)
	if err != nil {
		return f.reply(env.ID, nil, &Error{Code: CodeInternal, Message: "the task could not be stored: " + err.Error()})
	}
	ctx, cancel := context.WithCancel(f.ctx)
	f.s.running.Store(task.ID, cancel)
	go func() {
		defer cancel()
		defer f.s.running.Delete(task.ID)
		step := f.run(ctx, args)
		if step.Requests != nil {
			step = Step{Err: &Error{Code: CodeInternal, Message: "a background task cannot ask for input"}}
		}
		// Settle fails with ErrTerminal when a cancel came first: the
		// cancel stands.
		_, _ = f.s.Settle(context.WithoutCancel(ctx), task.ID, step)
	}()
	return f.result(env.ID, f.s.CreateResult(task))
}

// run writes a tools/call with params into the SDK's input, with an id of
// the front's own, and returns what the SDK answered. Its answer never
// reaches the client; when ctx ends first, the SDK is told to cancel the
// call.
func (f *Stdio) run(ctx context.Context, params json.RawMessage) Step {
	var id json.RawMessage
	id, _ = json.Marshal(f.prefix + strconv.FormatUint(f.seq.Add(1), 10))
	key := idKey(id)
	answer := make(chan []byte, 1)
	f.mu.Lock()
	f.runs[key] = answer
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		delete(f.runs, key)
		f.mu.Unlock()
	}()
	line, _ := json.Marshal(envelope{JSONRPC: "2.0", ID: id, Method: "tools/call", Params: params})
	if err := f.toSDK(append(line, '\n')); err != nil {
		return Step{Err: &Error{Code: CodeInternal, Message: "the task's tool could not be run: " + err.Error()}}
	}
	select {
	case resp := <-answer:
		step, ok := stepOf(resp)
		if !ok {
			return Step{Err: &Error{Code: CodeInternal, Message: "the tool's run gave no JSON-RPC response"}}
		}
		return step
	case <-ctx.Done():
		note, _ := json.Marshal(struct {
			JSONRPC string `json:"jsonrpc"`
			Method  string `json:"method"`
			Params  any    `json:"params"`
		}{"2.0", "notifications/cancelled", map[string]any{"requestId": id, "reason": "task ended"}})
		_ = f.toSDK(append(note, '\n'))
		return Step{Err: &Error{Code: CodeInternal, Message: "the task's run ended: " + context.Cause(ctx).Error()}}
	}
}

// Write implements io.Writer: the SDK's lines, which go to the client
// unchanged, except the answers that become tasks and the answers to the
// front's own calls.
func (f *Stdio) Write(p []byte) (int, error) {
	f.wmu.Lock()
	defer f.wmu.Unlock()
	data := p
	if len(f.buf) > 0 {
		f.buf = append(f.buf, p...)
		data = f.buf
	}
	for {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			break
		}
		if err := f.emit(data[:i+1]); err != nil {
			f.buf = f.buf[:0]
			return 0, err
		}
		data = data[i+1:]
	}
	f.buf = append(f.buf[:0], data...)
	return len(p), nil
}

// emit sends one of the SDK's lines on.
func (f *Stdio) emit(line []byte) error {
	f.mu.Lock()
	idle := len(f.calls) == 0 && len(f.runs) == 0
	f.mu.Unlock()
	if idle && !bytes.Contains(line, []byte(f.prefix)) {
		_, err := f.out.Write(line)
		return err
	}
	var resp struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(line, &resp) != nil || resp.Method != "" || len(resp.ID) == 0 {
		_, err := f.out.Write(line)
		return err
	}
	key := idKey(resp.ID)
	f.mu.Lock()
	answer, isRun := f.runs[key]
	call, isCall := f.calls[key]
	delete(f.runs, key)
	delete(f.calls, key)
	f.mu.Unlock()
	switch {
	case isRun:
		answer <- bytes.Clone(line)
		return nil
	case strings.HasPrefix(key, "s:"+f.prefix):
		return nil // the answer to a run that gave up: never the client's
	case isCall:
		return f.settleCall(call, line)
	}
	_, err := f.out.Write(line)
	return err
}

// settleCall turns the SDK's answer to a declared tools/call into a task
// when the tool asked (ModeAsk) or completed (ModeInputFirst); any other
// answer goes to the client unchanged.
func (f *Stdio) settleCall(c stdioCall, line []byte) error {
	step, ok := stepOf(line)
	if !ok || (c.mode == ModeAsk) != (step.Requests != nil) || step.Err != nil {
		_, err := f.out.Write(line)
		return err
	}
	args, err := callArgs(c.params)
	if err != nil {
		_, err := f.out.Write(line)
		return err
	}
	task, err := f.s.Create(f.ctx, f.opts.Principal, toolName(c.params), "", args, f.opts.TTL)
	if err == nil {
		task, err = f.s.Settle(f.ctx, task.ID, step)
	}
	if err != nil {
		return f.reply(c.id, nil, &Error{Code: CodeInternal, Message: "the task could not be stored: " + err.Error()})
	}
	return f.result(c.id, f.s.CreateResult(task))
}

// result sends v as the JSON-RPC result of request id.
func (f *Stdio) result(id json.RawMessage, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return f.reply(id, nil, &Error{Code: CodeInternal, Message: err.Error()})
	}
	return f.reply(id, b, nil)
}

// reply sends the JSON-RPC response of request id: result, or err when
// not nil.
func (f *Stdio) reply(id, result json.RawMessage, err error) error {
	var b []byte
	if err != nil {
		e, ok := errors.AsType[*Error](err)
		if !ok {
			e = &Error{Code: CodeInternal, Message: err.Error()}
		}
		b, _ = json.Marshal(struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Error   *Error          `json:"error"`
		}{"2.0", id, e})
	} else {
		b, _ = json.Marshal(struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Result  json.RawMessage `json:"result"`
		}{"2.0", id, result})
	}
	_, werr := f.out.Write(append(b, '\n'))
	return werr
}

// idKey returns a JSON-RPC id as a comparable key: "s:" and the string,
// or "n:" and the number in its shortest form, so that an id matches
// however an SDK re-encodes it.
func idKey(id json.RawMessage) string {
	var s string
	if json.Unmarshal(id, &s) == nil {
		return "s:" + s
	}
	var n json.Number
	if json.Unmarshal(id, &n) == nil {
		if i, err := n.Int64(); err == nil {
			return "n:" + strconv.FormatInt(i, 10)
		}
		if x, err := n.Float64(); err == nil {
			return "n:" + strconv.FormatFloat(x, 'g', -1, 64)
		}
	}
	return "r:" + string(id)
}
