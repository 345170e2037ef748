package gosdk

import (
	"encoding/json"
	"regexp"
	goruntime "runtime"
	"strings"
	"sync"

	"github.com/elicitgen/elicitgen/runtime"
)

// sentSchema is a requestedSchema as written for the client, exactly.
//
// go-sdk's ServerSession.Elicit checks an accepted answer against the
// requestedSchema itself (jsonschema-go) before returning it, and on a
// mismatch returns only its own text ("validating /properties/workspace:
// oneOf: did not validate against any of [...]"), without the content.
// That text would then reach the person and the model on 2025-era
// connections, where a 2026-07-28 request gets elicitgen's message for
// the same answer. The form engine validates every answer anyway, with
// defaults and every rule, so go-sdk's check is skipped: the schema reads
// as null when go-sdk re-reads it to validate the result (it then returns
// the content as the client sent it), and as itself everywhere else (the
// wire, logging middleware, stores).
//
// go-sdk v1.8.0 has no public way to skip that check (no option, and a
// sending middleware belongs to a whole mcp.Server, which elicitgen's
// handlers do not own), so the workaround is this file alone:
// elicitParams wraps a form's schema in sentSchema, and nothing else
// depends on go-sdk's internals. schema_sdk_test.go names the go-sdk
// release it was verified against and fails on another one.
type sentSchema json.RawMessage

// MarshalJSON implements json.Marshaler.
func (s sentSchema) MarshalJSON() ([]byte, error) {
	if len(s) == 0 || readForValidation() {
		return []byte("null"), nil
	}
	return s, nil
}

// validateElicitSchema is the go-sdk function that re-reads a sent
// requestedSchema to validate the client's answer.
const validateElicitSchema = "github.com/modelcontextprotocol/go-sdk/mcp.validateElicitSchema"

// readForValidation reports whether the schema is being marshalled by
// go-sdk's result validation. Only the return addresses are read on each
// call; what function each one lies in is looked up once (validationPCs).
// In go-sdk v1.8.0 validateElicitSchema is the seventh caller of
// MarshalJSON (through remarshal and encoding/json); twelve callers are
// read, so that the wire's deeper marshalling unwinds no further
// (TestPushInvalidAnswerOwnMessage fails if go-sdk moves it beyond).
func readForValidation() bool {
	var pcs [12]uintptr
	n := goruntime.Callers(3, pcs[:])
	for _, pc := range pcs[:n] {
		if inValidation(pc) {
			return true
		}
	}
	return false
}

// validationPCs memoizes inValidation: return address -> whether it lies
// in validateElicitSchema. It holds one entry per call site on the way to
// a schema's MarshalJSON, a set fixed by the program's code, so it stays
// small.
var validationPCs sync.Map

// inValidation reports whether the return address pc lies in
// validateElicitSchema or a closure of it, inlined or not.
func inValidation(pc uintptr) bool {
	if in, ok := validationPCs.Load(pc); ok {
		return in.(bool)
	}
	in := false
	frames := goruntime.CallersFrames([]uintptr{pc})
	for {
		f, more := frames.Next()
		if f.Function == validateElicitSchema || strings.HasPrefix(f.Function, validateElicitSchema+".") {
			in = true
			break
		}
		if !more {
			break
		}
	}
	validationPCs.Store(pc, in)
	return in
}

// propertyPath finds the properties named in jsonschema-go's validation
// text ("validating /properties/choice: enum: ...").
var propertyPath = regexp.MustCompile(`/properties/([^/:\s]+)`)

// clientRefused is the validation error of an answer that a go-sdk client
// checked against the schema itself and refused to send, so the server
// never saw it: it names the fields in elicitgen's words, not in
// jsonschema-go's, since its text reaches the person (WithRetries) and the
// model.
func clientRefused(s *runtime.Schema, msg string) *runtime.ValidationError {
	ve := &runtime.ValidationError{}
	if s != nil {
		ve.Form = s.Name
	}
	seen := map[string]bool{}
	for _, m := range propertyPath.FindAllStringSubmatch(msg, -1) {
		name := m[1]
		if seen[name] || s == nil || s.Property(name) == nil {
			continue
		}
		seen[name] = true
		ve.Fields = append(ve.Fields, &runtime.FieldError{Field: name, Title: s.Property(name).Title, ID: runtime.MsgRefused, Msg: "the answer does not fit this field (the client's own check refused it)"})
	}
	if len(ve.Fields) == 0 {
		ve.Fields = []*runtime.FieldError{{ID: runtime.MsgRefused, Msg: "the answer does not fit the form (the client's own check refused it)"}}
	}
	return ve
}
