package tasks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// protocolVersion is the protocol the extension exists on.
const protocolVersion = "2026-07-28"

// codeHeaderMismatch is SEP-2243's error for an Mcp-Name or Mcp-Method
// header that does not match the body.
const codeHeaderMismatch = -32020

// HTTPOptions configures Server.HTTP.
type HTTPOptions struct {
	// Principal names the person behind an HTTP request: the creator of a
	// task, and the only one whose tasks/* calls reach it. It must read
	// what the tool handlers' own principal reads (the same trusted
	// header or token), since an answer runs the tool again with the
	// headers of the tasks/update that brought it. Nil binds every task
	// to "": its unguessable id is then its only guard.
	Principal func(*http.Request) string
	// TTL is how long a task stays readable; zero means DefaultTTL.
	TTL time.Duration
	// Tools returns the policy of a tool by name; nil means the zero
	// Policy (ModeAsk, not required) for every tool.
	Tools func(name string) Policy
	// MaxBodyBytes bounds the body of a request the front reads; zero
	// means DefaultMaxBodyBytes. A larger body is refused with HTTP 413.
	MaxBodyBytes int64
}

// DefaultMaxBodyBytes bounds a request body when HTTPOptions.MaxBodyBytes
// is zero: the adapters' own default.
const DefaultMaxBodyBytes = 4 << 20

// Mode is how a tool's calls from clients that declare the extension
// become tasks.
type Mode uint8

// The modes of a tool.
const (
	// ModeAsk, the default: the call runs at once, and becomes a task
	// when the tool asks a person (answers input_required); the task then
	// waits, with no goroutine, for tasks/update.
	ModeAsk Mode = iota
	// ModeBackground: the call becomes a task at once and the tool runs
	// in the background on this instance (work that takes time, not a
	// person); tasks/cancel stops it. A client without the extension
	// gets the call run at once.
	ModeBackground
	// ModeInputFirst: input_required rounds go to the client as
	// 2026-07-28 retries, and the call's result is delivered as a task
	// (the extension's "resolve input before the task").
	ModeInputFirst
	// ModeNever: never a task.
	ModeNever
)

// Policy is how one tool's calls become tasks.
type Policy struct {
	Mode Mode
	// Required refuses the tool to clients that do not declare the
	// extension, with -32021 naming it, before the tool runs.
	Required bool
}

// DefaultTTL is how long a task stays readable when HTTPOptions.TTL is
// zero.
const DefaultTTL = 72 * time.Hour

// envelope is a JSON-RPC request.
type envelope struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
}

// requestMeta is the part of a request's params the extension reads.
type requestMeta struct {
	Name string `json:"name"`
	Meta struct {
		ProtocolVersion string `json:"io.modelcontextprotocol/protocolVersion"`
		Capabilities    struct {
			Extensions map[string]json.RawMessage `json:"extensions"`
		} `json:"io.modelcontextprotocol/clientCapabilities"`
	} `json:"_meta"`
	TaskID         *string                    `json:"taskId"`
	InputResponses map[string]json.RawMessage `json:"inputResponses"`
	// decoded reports that the params decoded into the fields above
	// without error: a tasks/* request then need not decode them again.
	decoded bool
}

// toolName returns params.name: as decoded with m, or decoded alone from
// params when they did not decode whole.
func (m *requestMeta) toolName(params json.RawMessage) string {
	if m.decoded {
		return m.Name
	}
	return toolName(params)
}

// taskID returns params.taskId, "" when absent.
func (m *requestMeta) taskID() string {
	if m.TaskID == nil {
		return ""
	}
	return *m.TaskID
}

// params returns the params of a tasks/* request as decoded with m, nil
// when they did not decode.
func (m *requestMeta) params() *updateParams {
	if !m.decoded {
		return nil
	}
	return &updateParams{TaskID: m.TaskID, InputResponses: m.InputResponses}
}

// declared reports whether the request declares the extension.
func (m *requestMeta) declared() bool {
	return isObject(m.Meta.Capabilities.Extensions[Extension])
}

// Front returns the middleware HTTP(next, opts) for serve.Options.Tasks,
// which puts it inside an adapter's body limits and deadlines.
func (s *Server) Front(opts HTTPOptions) func(next http.Handler) http.Handler {
	return func(next http.Handler) http.Handler { return s.HTTP(next, opts) }
}

// HTTP returns next with the extension served in front of it, for
// 2026-07-28 JSON-RPC POSTs (everything else goes to next unchanged):
//
//   - tasks/get, tasks/update and tasks/cancel are answered by s, after the
//     Mcp-Name header is checked against params.taskId (-32020, HTTP 400);
//   - a tools/call that declares the extension and that the tool answers
//     with input_required becomes a task: its input requests and sealed
//     requestState are stored in the task, and the client gets the
//     CreateTaskResult; an answer that completes them runs the tool again
//     through next with the task's answers and state, exactly as a
//     2026-07-28 retry, with the headers of the tasks/update that
//     brought it.
//
// No goroutine waits for a person: a waiting task is its record. next is
// typically an adapter's handler inside its body limits.
func (s *Server) HTTP(next http.Handler, opts HTTPOptions) http.Handler {
	ttl := opts.TTL
	if ttl <= 0 {
		ttl = DefaultTTL
	}
	limit := opts.MaxBodyBytes
	if limit <= 0 {
		limit = DefaultMaxBodyBytes
	}
	principal := opts.Principal
	if principal == nil {
		principal = func(*http.Request) string { return "" }
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Header.Get("Mcp-Protocol-Version") != protocolVersion {
			next.ServeHTTP(w, r)
			return
		}
		body, err := readBody(w, r, limit)
		if err != nil {
			status := http.StatusBadRequest
			if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
				status = http.StatusRequestEntityTooLarge
			}
			http.Error(w, "reading the request body: "+err.Error(), status)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		if opts.Tools == nil && !mayConcernTasks(body) {
			next.ServeHTTP(w, r) // neither a tasks/* request nor a call declaring the extension
			return
		}
		var env envelope
		if json.Unmarshal(body, &env) != nil || len(env.ID) == 0 {
			next.ServeHTTP(w, r) // a batch, a notification or malformed: next answers
			return
		}
		var meta requestMeta
		meta.decoded = json.Unmarshal(env.Params, &meta) == nil
		var policy Policy
		if env.Method == "tools/call" && opts.Tools != nil {
			policy = opts.Tools(meta.Name)
		}
		switch {
		case strings.HasPrefix(env.Method, "tasks/"):
			s.serveMethod(w, r, env, &meta, next, principal)
		case env.Method != "tools/call" || policy.Mode == ModeNever:
			next.ServeHTTP(w, r)
		case !meta.declared() && policy.Required:
			writeError(w, env.ID, MissingCapability("tool "+meta.Name+" runs only as a task: declare the "+Extension+" extension in the request's client capabilities"))
		case !meta.declared():
			next.ServeHTTP(w, r)
		case policy.Mode == ModeBackground:
			s.serveBackground(w, r, env, meta.toolName(env.Params), next, principal(r), ttl)
		default:
			s.serveCall(w, r, env, meta.toolName(env.Params), next, principal(r), ttl, policy.Mode)
		}
	})
}

// readBody reads the body of r, at most limit bytes.
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	var buf bytes.Buffer
	if r.ContentLength > 0 && r.ContentLength <= limit {
		buf.Grow(int(r.ContentLength) + bytes.MinRead) // room for the read that finds the end
	}
	_, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, limit))
	return buf.Bytes(), err
}

// mayConcernTasks reports whether body may be a tasks/* request or declare
// the extension: false only when neither name is in it and it has no
// escape that could spell one.
func mayConcernTasks(body []byte) bool {
	return bytes.IndexByte(body, '\\') >= 0 || bytes.Contains(body, []byte(`"tasks/`)) ||
		bytes.Contains(body, []byte(Extension))
}

// serveMethod answers a tasks/* request.
func (s *Server) serveMethod(w http.ResponseWriter, r *http.Request, env envelope, meta *requestMeta, next http.Handler, principal func(*http.Request) string) {
	switch env.Method {
	case MethodGet, MethodUpdate, MethodCancel:
		if name := strings.TrimSpace(r.Header.Get("Mcp-Name")); meta.declared() && name != meta.taskID() {
			writeError(w, env.ID, &Error{Code: codeHeaderMismatch, Message: "the Mcp-Name header does not match params.taskId"})
			return
		}
	}
	c := Call{Method: env.Method, Params: env.Params, Principal: principal(r), Declared: meta.declared(), decoded: meta.params()}
	c.Run = func(ctx context.Context, rec Record) Step { return s.rerun(ctx, r, rec, next) }
	res, err := s.Serve(r.Context(), c)
	if err != nil {
		writeError(w, env.ID, err)
		return
	}
	writeResult(w, env.ID, res)
}

// serveCall runs a tools/call that declares the extension through next and
// turns an input_required answer into a task.
func (s *Server) serveCall(w http.ResponseWriter, r *http.Request, env envelope, tool string, next http.Handler, principal string, ttl time.Duration, mode Mode) {
	rec := newRecorder()
	next.ServeHTTP(rec, r)
	step, ok := readStep(rec)
	if !ok || (mode == ModeAsk) != (step.Requests != nil) || step.Err != nil {
		// ModeAsk: a call that did not ask; ModeInputFirst: a round of
		// input; either: an error. The client gets it as it is.
		copyResponse(w, rec)
		return
	}
	args, err := callArgs(env.Params)
	if err != nil {
		copyResponse(w, rec)
		return
	}
	task, err := s.Create(r.Context(), principal, tool, "", args, ttl)
	if err == nil {
		task, err = s.Settle(r.Context(), task.ID, step)
	}
	if err != nil {
		writeError(w, env.ID, &Error{Code: CodeInternal, Message: "the task could not be stored: " + err.Error()})
		return
	}
	b, err := json.Marshal(s.CreateResult(task))
	if err != nil {
		writeError(w, env.ID, &Error{Code: CodeInternal, Message: err.Error()})
		return
	}
	writeResult(w, env.ID, b)
}

// serveBackground answers a tools/call with a new working task and runs
// the tool in the background on this instance; tasks/cancel stops it.
func (s *Server) serveBackground(w http.ResponseWriter, r *http.Request, env envelope, tool string, next http.Handler, principal string, ttl time.Duration) {
	args, err := callArgs(env.Params)
	if err != nil {
		next.ServeHTTP(w, r)
		return
	}
	task, err := s.Create(r.Context(), principal, tool, "", args, ttl)
	if err != nil {
		writeError(w, env.ID, &Error{Code: CodeInternal, Message: "the task could not be stored: " + err.Error()})
		return
	}
	ctx, cancel := context.WithCancel(context.WithoutCancel(r.Context()))
	s.running.Store(task.ID, cancel)
	req := r.Clone(ctx)
	req.Body = io.NopCloser(bytes.NewReader(mustBody(r)))
	go func() {
		defer cancel()
		defer s.running.Delete(task.ID)
		rec := newRecorder()
		next.ServeHTTP(rec, req)
		step, ok := readStep(rec)
		if !ok {
			step = Step{Err: &Error{Code: CodeInternal, Message: "the tool gave no JSON-RPC response (HTTP " + strconv.Itoa(rec.status()) + ")"}}
		}
		if step.Requests != nil {
			step = Step{Err: &Error{Code: CodeInternal, Message: "a background task cannot ask for input"}}
		}
		// Settle fails with ErrTerminal when a cancel came first: the
		// cancel stands. A store that cannot record the outcome leaves
		// the task to its expiry.
		_, _ = s.Settle(ctx, task.ID, step)
	}()
	b, err := json.Marshal(s.CreateResult(task))
	if err != nil {
		writeError(w, env.ID, &Error{Code: CodeInternal, Message: err.Error()})
		return
	}
	writeResult(w, env.ID, b)
}

// mustBody returns the body of r, which HTTP buffered.
func mustBody(r *http.Request) []byte {
	b, _ := io.ReadAll(r.Body)
	return b
}

// toolName returns params.name.
func toolName(params json.RawMessage) string {
	var p struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(params, &p)
	return p.Name
}

// callArgs returns the params of a tools/call to run again: name,
// arguments and _meta, without the answers and state of the round.
func callArgs(params json.RawMessage) (json.RawMessage, error) {
	if t := bytes.TrimSpace(params); len(t) > 0 && t[0] == '{' && bytes.IndexByte(t, '\\') < 0 &&
		!bytes.Contains(t, []byte("inputResponses")) && !bytes.Contains(t, []byte("requestState")) && json.Valid(t) {
		return append(json.RawMessage(nil), t...), nil // nothing to leave out
	}
	var p map[string]json.RawMessage
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, err
	}
	delete(p, "inputResponses")
	delete(p, "requestState")
	return json.Marshal(p)
}

// rerun runs task rec's tool again through next with its answers and
// state, with the headers of the request r that brought the last answer.
func (s *Server) rerun(ctx context.Context, r *http.Request, rec Record, next http.Handler) Step {
	if next == nil {
		return Step{Err: &Error{Code: CodeInternal, Message: "no handler to run the task's tool"}}
	}
	body, perr := retryBody(rec)
	if perr != nil {
		return Step{Err: perr}
	}
	req := r.Clone(ctx)
	req.Body, req.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	req.Header.Set("Content-Length", strconv.Itoa(len(body)))
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", rec.Tool)
	out := newRecorder()
	next.ServeHTTP(out, req)
	step, ok := readStep(out)
	if !ok {
		return Step{Err: &Error{Code: CodeInternal, Message: "the tool's run gave no JSON-RPC response (HTTP " + strconv.Itoa(out.status()) + ")"}}
	}
	return step
}

// retryBody returns the 2026-07-28 retry of task rec's tools/call, a
// JSON-RPC request with id "task-<id>" and the params of retryParams.
func retryBody(rec Record) ([]byte, *Error) {
	id, err := json.Marshal("task-" + rec.ID)
	if err != nil {
		return nil, &Error{Code: CodeInternal, Message: err.Error()}
	}
	b := make([]byte, 0, len(rec.Args)+len(rec.State)+len(id)+512)
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"method":"tools/call","params":`...)
	b, perr := appendRetryParams(b, rec)
	if perr != nil {
		return nil, perr
	}
	return append(b, '}'), nil
}

// retryParams returns the params of the 2026-07-28 retry of task rec's
// tools/call: its call with the answers of the round and the sealed state
// the task kept.
func retryParams(rec Record) (json.RawMessage, *Error) {
	return appendRetryParams(nil, rec)
}

// appendRetryParams appends retryParams(rec) to b.
func appendRetryParams(b []byte, rec Record) ([]byte, *Error) {
	args := bytes.TrimSpace(rec.Args)
	if len(args) < 2 || args[0] != '{' || !json.Valid(args) {
		return nil, &Error{Code: CodeInternal, Message: "the task's call is not a JSON object"}
	}
	answers, err := json.Marshal(rec.RoundAnswers())
	if err != nil {
		return nil, &Error{Code: CodeInternal, Message: err.Error()}
	}
	// The call's members (callArgs left out any answers and state of
	// its own), then the round's.
	inner := bytes.TrimSpace(args[1 : len(args)-1])
	b = append(b, '{')
	if len(inner) > 0 {
		b = append(b, inner...)
		b = append(b, ',')
	}
	b = append(b, `"inputResponses":`...)
	b = append(b, answers...)
	if rec.State != "" {
		st, err := json.Marshal(rec.State)
		if err != nil {
			return nil, &Error{Code: CodeInternal, Message: err.Error()}
		}
		b = append(b, `,"requestState":`...)
		b = append(b, st...)
	}
	return append(b, '}'), nil
}

// response is a JSON-RPC response.
type response struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *Error          `json:"error"`
}

// readStep reads the JSON-RPC response of a recorded tools/call, in JSON
// or as an event stream, as a Step: input_required (with its sealed
// state), a result or an error.
func readStep(rec *recorder) (Step, bool) {
	raw := rec.body.Bytes()
	if strings.HasPrefix(rec.header.Get("Content-Type"), "text/event-stream") {
		raw = lastEventData(raw)
	}
	return stepOf(raw)
}

// stepOf reads a JSON-RPC response to a tools/call as a Step:
// input_required (with its sealed state), a result or an error.
func stepOf(raw []byte) (Step, bool) {
	var resp response
	if len(raw) == 0 || json.Unmarshal(raw, &resp) != nil {
		return Step{}, false
	}
	if resp.Error != nil {
		return Step{Err: resp.Error}, true
	}
	if t := bytes.TrimLeft(resp.Result, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return Step{}, false // Unmarshal checked that it is JSON: an object when it starts so
	}
	if bytes.IndexByte(resp.Result, '\\') < 0 && !bytes.Contains(resp.Result, []byte("input_required")) {
		return Step{Result: resp.Result}, true // cannot say input_required, even escaped
	}
	var ir struct {
		ResultType    string                     `json:"resultType"`
		InputRequests map[string]json.RawMessage `json:"inputRequests"`
		RequestState  string                     `json:"requestState"`
	}
	_ = json.Unmarshal(resp.Result, &ir)
	if ir.ResultType == "input_required" {
		if len(ir.InputRequests) == 0 {
			return Step{Err: &Error{Code: CodeInternal, Message: "the tool answered input_required without input requests"}}, true
		}
		return Step{Requests: ir.InputRequests, State: ir.RequestState}, true
	}
	return Step{Result: resp.Result}, true
}

// lastEventData returns the data of the last event of an event stream that
// holds a JSON-RPC response.
func lastEventData(stream []byte) []byte {
	var last, data []byte
	lines := 0 // data lines of the current event
	end := func() {
		if bytes.Contains(data, []byte(`"result"`)) || bytes.Contains(data, []byte(`"error"`)) {
			last = data
		}
		data, lines = nil, 0
	}
	for len(stream) > 0 {
		line := stream
		if i := bytes.IndexByte(stream, '\n'); i >= 0 {
			line, stream = stream[:i], stream[i+1:]
		} else {
			stream = nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		switch {
		case bytes.HasPrefix(line, []byte("data:")):
			d := bytes.TrimPrefix(bytes.TrimPrefix(line, []byte("data:")), []byte(" "))
			if lines == 0 {
				data = d // the stream's own bytes: most events have one data line
			} else {
				data = append(append([]byte(nil), data...), d...)
			}
			lines++
		case len(line) == 0:
			end()
		}
	}
	end()
	return last
}

// recorder is the http.ResponseWriter a call through next is run into:
// it keeps the status, headers and body in memory.
type recorder struct {
	header http.Header
	code   int
	body   bytes.Buffer
}

func newRecorder() *recorder { return &recorder{header: http.Header{}} }

// status returns the status sent, 200 when none was.
func (w *recorder) status() int {
	if w.code == 0 {
		return http.StatusOK
	}
	return w.code
}

// Header implements http.ResponseWriter.
func (w *recorder) Header() http.Header { return w.header }

// WriteHeader implements http.ResponseWriter; the first status stands.
func (w *recorder) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
}

// Write implements http.ResponseWriter.
func (w *recorder) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(p)
}

// Flush implements http.Flusher: there is nothing to flush.
func (w *recorder) Flush() {}

// copyResponse sends a recorded response unchanged.
func copyResponse(w http.ResponseWriter, rec *recorder) {
	for k, v := range rec.header {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.status())
	_, _ = w.Write(rec.body.Bytes())
}

// writeResult sends a JSON-RPC result; id and result are JSON (the id as
// the request carried it, the result as json.Marshal or Ack made it).
func writeResult(w http.ResponseWriter, id, result json.RawMessage) {
	b := make([]byte, 0, len(id)+len(result)+32)
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"result":`...)
	b = append(b, result...)
	b = append(b, '}')
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}

// writeError sends a JSON-RPC error with the HTTP status the protocol
// gives its code.
func writeError(w http.ResponseWriter, id json.RawMessage, err error) {
	e, ok := errors.AsType[*Error](err)
	if !ok {
		e = &Error{Code: CodeInternal, Message: err.Error()}
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *Error          `json:"error"`
	}{"2.0", id, e})
	status := http.StatusOK
	switch e.Code {
	case CodeInvalidParams, CodeMissingCapability, codeHeaderMismatch:
		status = http.StatusBadRequest
	case CodeMethodNotFound:
		status = http.StatusNotFound
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
