package adapter

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/elicitgen/elicitgen/runtime/internal/exact"
	"io"
	"strconv"
	"sync"

	"github.com/elicitgen/elicitgen/runtime/serve"
)

// JSON-RPC codes of a line the filter refuses.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
)

// LineFilter stands between a stdio transport's input and an SDK that
// ends the connection on the first line it cannot decode. It passes on
// the lines that are JSON-RPC messages and answers every other one
// itself, with JSON-RPC -32700 (not JSON: NaN, a truncated value, nesting
// deeper than serve.MaxLineDepth, a line longer than its limit) or -32600 (JSON
// that is not a message), carrying the line's id when one can be read
// (so the caller's pending call ends) and null otherwise. The server goes
// on with the next line. A refused line that is a response (the client's
// answer to the server's elicitation/create) and has an id is passed on
// as an error response with that id instead, so the server's pending
// request fails with the reason rather than waiting. CheckEnvelope runs
// on every line: batches and case-variant or repeated envelope keys are
// refused. An accepted line passes through ExactAnswers, so
// that the SDK never reads a case-variant answer key as the real one.
//
// Give the SDK Reader as its input and Writer as its output: the filter's
// replies are written through the same lock, never inside another
// message.
type LineFilter struct {
	in      *bufio.Reader
	max     int
	check   func(line []byte) error
	pending []byte
	out     *LockedWriter
	report  func(error)
}

// NewLineFilter returns the filter of in, whose replies go to out. max
// bounds a line (<= 0: serve.DefaultMaxLineBytes); check, when not nil, tells
// whether a line that is JSON is a message the SDK accepts; report, when
// not nil, is told of every refused line.
func NewLineFilter(in io.Reader, out io.Writer, max int, check func(line []byte) error, report func(error)) *LineFilter {
	if max <= 0 {
		max = serve.DefaultMaxLineBytes
	}
	return &LineFilter{in: bufio.NewReaderSize(in, 64<<10), max: max, check: check, out: &LockedWriter{w: out}, report: report}
}

// Writer returns the writer the SDK must write its messages to.
func (f *LineFilter) Writer() *LockedWriter { return f.out }

// Read implements io.Reader: the accepted lines, each ending in '\n'.
func (f *LineFilter) Read(p []byte) (int, error) {
	for len(f.pending) == 0 {
		line, err := f.next()
		if err != nil {
			return 0, err
		}
		f.pending = line
	}
	n := copy(p, f.pending)
	f.pending = f.pending[n:]
	return n, nil
}

// next returns the next accepted line, answering the refused ones.
func (f *LineFilter) next() ([]byte, error) {
	for {
		line, long, err := f.readLine()
		if len(bytes.TrimSpace(line)) == 0 && !long {
			if err != nil {
				return nil, err
			}
			continue
		}
		var problem error
		code := CodeParseError
		switch {
		case long:
			problem = fmt.Errorf("line longer than %d bytes", f.max)
		case tooDeep(line):
			problem = fmt.Errorf("JSON nested deeper than %d levels", serve.MaxLineDepth)
		case !json.Valid(line):
			problem = errors.New("not valid JSON")
		default:
			if eerr := CheckEnvelope(line); eerr != nil {
				problem, code = eerr, CodeInvalidRequest
			} else if f.check != nil {
				if cerr := f.check(line); cerr != nil {
					problem, code = fmt.Errorf("not a JSON-RPC message: %v", cerr), CodeInvalidRequest
				}
			}
		}
		if problem == nil {
			return append(ExactAnswers(line), '\n'), nil
		}
		if f.report != nil {
			f.report(problem)
		}
		if t := bytes.TrimSpace(line); !long && len(t) > 0 && t[0] == '[' && code == CodeInvalidRequest {
			pass, werr := f.refuseBatch(t, problem)
			if werr != nil {
				return nil, werr
			}
			if len(pass) > 0 {
				return pass, nil
			}
			if err != nil {
				return nil, err
			}
			continue
		}
		if id := lineID(line); id != nil && !long && lineIsResponse(line) {
			// A client's reply to the server's request (an elicitation
			// result) that cannot be read: the server's pending request
			// fails with the reason, instead of waiting for ever.
			return append(ErrorResponse(id, code, problem), '\n'), nil
		}
		if werr := f.reply(lineID(line), code, problem); werr != nil {
			return nil, werr
		}
		if err != nil {
			return nil, err
		}
	}
}

// readLine reads one line without its end; a line longer than f.max is
// returned cut at f.max with long set, the rest of it discarded.
func (f *LineFilter) readLine() (line []byte, long bool, err error) {
	for {
		chunk, rerr := f.in.ReadSlice('\n')
		if !long {
			if len(line)+len(chunk) > f.max+1 { // +1: the '\n'
				keep := f.max - len(line)
				line = append(line, chunk[:max(keep, 0)]...)
				long = true
			} else {
				line = append(line, chunk...)
			}
		}
		switch {
		case errors.Is(rerr, bufio.ErrBufferFull):
			continue
		case rerr != nil && (len(line) > 0 || long):
			return bytes.TrimRight(line, "\r\n"), long, nil // the last line; EOF comes next
		case rerr != nil:
			return nil, false, rerr
		}
		return bytes.TrimRight(line, "\r\n"), long, nil
	}
}

func (f *LineFilter) reply(id json.RawMessage, code int, problem error) error {
	data := append(ErrorResponse(id, code, fmt.Errorf("%w; the line was ignored", problem)), '\n')
	_, err := f.out.Write(data)
	return err
}

// refuseBatch answers each request of a refused batch with an error
// carrying its id (one error with a null id when none has one) and
// returns the error responses the SDK must read in place of the batch's
// responses, so that no call on either side waits for ever.
func (f *LineFilter) refuseBatch(batch []byte, problem error) (pass []byte, err error) {
	toSDK, toClient := batchErrors(batch, problem)
	for _, r := range toSDK {
		pass = append(append(pass, r...), '\n')
	}
	for _, r := range toClient {
		if _, err := f.out.Write(append(r, '\n')); err != nil {
			return nil, err
		}
	}
	return pass, nil
}

// batchErrors returns, for a refused batch, the error responses the SDK
// reads in place of the batch's responses (to the server's requests) and
// those the client gets for its requests: one per element with an id,
// or a single one with a null id when no element has one.
func batchErrors(batch []byte, problem error) (toSDK, toClient [][]byte) {
	var elems []json.RawMessage
	_ = json.Unmarshal(batch, &elems)
	for _, e := range elems {
		id := lineID(e)
		switch {
		case id == nil:
		case lineIsResponse(e):
			toSDK = append(toSDK, ErrorResponse(id, CodeInvalidRequest, problem))
		default:
			toClient = append(toClient, ErrorResponse(id, CodeInvalidRequest, fmt.Errorf("%w; the line was ignored", problem)))
		}
	}
	if len(toSDK) == 0 && len(toClient) == 0 {
		toClient = append(toClient, ErrorResponse(nil, CodeInvalidRequest, fmt.Errorf("%w; the line was ignored", problem)))
	}
	return toSDK, toClient
}

// ErrorResponse returns the JSON-RPC error response with id (nil: null),
// code and problem's text as its message.
func ErrorResponse(id json.RawMessage, code int, problem error) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	msg, _ := json.Marshal(problem.Error())
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%s}}`, id, code, msg)
}

// lineIsResponse reports whether line, which may not be valid JSON, is a
// JSON-RPC response: a top-level key that folds to "result" or "error"
// and none that folds to "method".
func lineIsResponse(line []byte) bool {
	resp := false
	for _, k := range topKeys(line) {
		switch string(exact.FoldKey(nil, k)) {
		case "METHOD":
			return false
		case "RESULT", "ERROR":
			resp = true
		}
	}
	return resp
}

// topKeys returns the keys of the top-level object of line, which may not
// be valid JSON, as far as they can be read.
func topKeys(line []byte) []string {
	var keys []string
	depth := 0
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c == '"':
			end := stringEnd(line, i)
			if end < 0 {
				return keys
			}
			if depth == 1 {
				if j := skipSpace(line, end); j < len(line) && line[j] == ':' {
					var k string
					if json.Unmarshal(line[i:end], &k) == nil {
						keys = append(keys, k)
					}
				}
			}
			i = end - 1
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
		}
	}
	return keys
}

// LockedWriter serializes writes: each Write reaches the underlying
// writer whole.
type LockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

// Write implements io.Writer.
func (w *LockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(p)
}

// Close closes the underlying writer if it is an io.Closer.
func (w *LockedWriter) Close() error {
	if c, ok := w.w.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// tooDeep reports whether line's brackets nest deeper than serve.MaxLineDepth
// (outside strings).
func tooDeep(line []byte) bool {
	depth, inStr, esc := 0, false, false
	for _, c := range line {
		switch {
		case inStr:
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == '{' || c == '[':
			if depth++; depth > serve.MaxLineDepth {
				return true
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return false
}

// lineID returns the top-level "id" of a line that may not be valid JSON
// (or may be cut), when it is a number or a string; nil otherwise.
func lineID(line []byte) json.RawMessage {
	depth := 0
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c == '"':
			end := stringEnd(line, i)
			if end < 0 {
				return nil
			}
			if depth == 1 && string(line[i:end]) == `"id"` {
				j := skipSpace(line, end)
				if j < len(line) && line[j] == ':' {
					return idValue(line, skipSpace(line, j+1))
				}
			}
			i = end - 1
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
		}
	}
	return nil
}

// stringEnd returns the index just past the string starting at line[i],
// or -1.
func stringEnd(line []byte, i int) int {
	for j := i + 1; j < len(line); j++ {
		switch line[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

func skipSpace(line []byte, i int) int {
	for i < len(line) && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r' || line[i] == '\n') {
		i++
	}
	return i
}

// idValue returns the JSON-RPC id at line[i:] if it is a string or an
// integer.
func idValue(line []byte, i int) json.RawMessage {
	if i >= len(line) {
		return nil
	}
	if line[i] == '"' {
		end := stringEnd(line, i)
		if end < 0 || !json.Valid(line[i:end]) {
			return nil
		}
		return json.RawMessage(bytes.Clone(line[i:end]))
	}
	j := i
	for j < len(line) && (line[j] == '-' || line[j] >= '0' && line[j] <= '9') {
		j++
	}
	if _, err := strconv.ParseInt(string(line[i:j]), 10, 64); err != nil {
		return nil
	}
	return json.RawMessage(bytes.Clone(line[i:j]))
}
