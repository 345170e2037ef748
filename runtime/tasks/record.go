package tasks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"
)

// Errors of the state machine. A transition that returns one of them
// changed nothing.
var (
	// ErrTerminal: the task is completed, failed or cancelled already.
	ErrTerminal = errors.New("tasks: task is in a terminal state")
	// ErrKeyReused: an input request's key was issued earlier in the
	// task's life (keys are unique over the whole life of a task).
	ErrKeyReused = errors.New("tasks: input request key already used in this task")
	// ErrNoRequests: a task cannot wait for input without a request.
	ErrNoRequests = errors.New("tasks: input_required needs at least one input request")
)

// Record is one task as the store keeps it. Its methods are the state
// machine: working <-> input_required, either -> completed, failed or
// cancelled, and terminal states are final.
type Record struct {
	// ID is the task id: unguessable, from NewID.
	ID string `json:"id"`
	// Principal is who created the task; every tasks/* call for it must
	// come from the same principal ("" on a transport without one).
	Principal string `json:"principal"`
	// Tool is the name of the tool the task runs.
	Tool string `json:"tool"`
	// ArgsDigest is a digest of the tool's arguments.
	ArgsDigest string `json:"args,omitempty"`
	// Args are the tool's arguments, for running it again.
	Args json.RawMessage `json:"argv,omitempty"`
	// Status is where the task stands.
	Status Status `json:"status"`
	// Message is the statusMessage shown with the status.
	Message string `json:"msg,omitempty"`
	// Created and Updated are the times of creation and of the last
	// change of status or input.
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
	// Expires is when the task stops being readable; zero is never.
	Expires time.Time `json:"expires,omitzero"`
	// Pending holds the outstanding input requests by key.
	Pending map[string]json.RawMessage `json:"pending,omitempty"`
	// Answers holds every answer received so far by key: what the tool is
	// run again with.
	Answers map[string]json.RawMessage `json:"answers,omitempty"`
	// Issued is every key ever asked in this task, in order.
	Issued []string `json:"issued,omitempty"`
	// Round holds the keys of the current round of input requests: what
	// the tool is run again with.
	Round []string `json:"round,omitempty"`
	// State is the sealed requestState of the current round, as the
	// tool's input_required result carried it; it never goes on the task
	// wire.
	State string `json:"state,omitempty"`
	// Result is the tool's result once completed (a CallToolResult).
	Result json.RawMessage `json:"result,omitempty"`
	// Err is the JSON-RPC error once failed.
	Err *Error `json:"error,omitempty"`
	// Version counts the stored changes (the page store's version of the
	// record); Store.Update uses it to apply updates atomically. It is not
	// part of the stored JSON.
	Version uint64 `json:"-"`
}

// Alive reports whether the record is still readable at now.
func (r *Record) Alive(now time.Time) bool {
	return r.Expires.IsZero() || now.Before(r.Expires)
}

// Task returns the record as the wire's task object, with poll as the
// suggested poll interval (zero: none).
func (r *Record) Task(poll time.Duration) Task {
	t := Task{
		TaskID:        r.ID,
		Status:        r.Status,
		StatusMessage: r.Message,
		CreatedAt:     timeText(r.Created),
		LastUpdatedAt: timeText(r.Updated),
	}
	if !r.Expires.IsZero() {
		ms := r.Expires.Sub(r.Created).Milliseconds()
		if ms < 1 {
			ms = 1 // the wire never says 0
		}
		t.TTLMs = &ms
	}
	if poll > 0 && !r.Status.Terminal() {
		t.PollIntervalMs = max(poll.Milliseconds(), 1)
	}
	return t
}

// Detailed returns the record as tasks/get shows it: the task with every
// outstanding request, its result or its error, as its status carries.
func (r *Record) Detailed(poll time.Duration) Detailed {
	d := Detailed{Task: r.Task(poll)}
	switch r.Status {
	case StatusInputRequired:
		d.InputRequests = maps.Clone(r.Pending)
	case StatusCompleted:
		d.Result = r.Result
	case StatusFailed:
		d.Error = r.Err
	}
	return d
}

// Ask records new input requests and puts the task into input_required.
// Each key must be a valid inputRequests key never issued before in this
// task (ErrKeyReused); each request must be a JSON object.
func (r *Record) Ask(now time.Time, requests map[string]json.RawMessage) error {
	if r.Status.Terminal() {
		return ErrTerminal
	}
	if len(requests) == 0 {
		return ErrNoRequests
	}
	keys := slices.Sorted(maps.Keys(requests))
	for _, k := range keys {
		if err := checkKey(k); err != nil {
			return err
		}
		if slices.Contains(r.Issued, k) {
			return fmt.Errorf("%w: %q", ErrKeyReused, k)
		}
		if !isObject(requests[k]) {
			return fmt.Errorf("tasks: input request %q is not a JSON object", k)
		}
	}
	if r.Pending == nil {
		r.Pending = map[string]json.RawMessage{}
	}
	if r.Status == StatusWorking {
		r.Round = nil // a new round
	}
	for _, k := range keys {
		r.Round = append(r.Round, k)
		r.Pending[k] = append(json.RawMessage(nil), requests[k]...)
		r.Issued = append(r.Issued, k)
	}
	r.Status, r.Updated = StatusInputRequired, now
	return nil
}

// Answer records the responses to outstanding requests. Keys never issued,
// already answered or not JSON objects are ignored, as the extension says;
// applied lists the keys taken, sorted. When no request is outstanding any
// more the task is working again, and done is true: the tool is to run
// again with Answers.
func (r *Record) Answer(now time.Time, responses map[string]json.RawMessage) (applied []string, done bool, err error) {
	if r.Status.Terminal() {
		return nil, false, ErrTerminal
	}
	for _, k := range slices.Sorted(maps.Keys(responses)) {
		if _, ok := r.Pending[k]; !ok || !isObject(responses[k]) {
			continue
		}
		if r.Answers == nil {
			r.Answers = map[string]json.RawMessage{}
		}
		r.Answers[k] = append(json.RawMessage(nil), responses[k]...)
		delete(r.Pending, k)
		applied = append(applied, k)
	}
	if len(applied) == 0 {
		return nil, false, nil
	}
	r.Updated = now
	if len(r.Pending) == 0 && r.Status == StatusInputRequired {
		r.Status = StatusWorking
		return applied, true, nil
	}
	return applied, false, nil
}

// Complete ends the task with the tool's result. A tool result with
// isError true is still completed: only a JSON-RPC error fails a task.
func (r *Record) Complete(now time.Time, result json.RawMessage) error {
	if r.Status.Terminal() {
		return ErrTerminal
	}
	if !isObject(result) {
		return errors.New("tasks: a task's result must be a JSON object")
	}
	r.Status, r.Updated, r.Result, r.Pending = StatusCompleted, now, append(json.RawMessage(nil), result...), nil
	r.Message, r.State = "", ""
	return nil
}

// Fail ends the task with a JSON-RPC error, which its statusMessage
// repeats.
func (r *Record) Fail(now time.Time, e *Error) error {
	if r.Status.Terminal() {
		return ErrTerminal
	}
	if e == nil {
		e = &Error{Code: CodeInternal, Message: "internal error"}
	}
	r.Status, r.Updated, r.Err, r.Pending, r.Message, r.State = StatusFailed, now, e, nil, e.Message, ""
	return nil
}

// Cancel ends a task that has not ended. It reports whether it changed
// anything: cancelling a terminal task is no error (tasks/cancel is
// acknowledged either way) and changes nothing.
func (r *Record) Cancel(now time.Time) bool {
	if r.Status.Terminal() {
		return false
	}
	r.Status, r.Updated, r.Pending, r.State = StatusCancelled, now, nil, ""
	return true
}

// maxKeyLen bounds an input request's key.
const maxKeyLen = 256

// checkKey refuses an empty key, one longer than maxKeyLen bytes, and one
// holding control characters. Any other string is a key on the wire (the
// adapters number a form's second ask "Deploy#2").
func checkKey(k string) error {
	if k == "" || len(k) > maxKeyLen {
		return fmt.Errorf("tasks: input request key %q: want 1 to %d bytes", k, maxKeyLen)
	}
	for _, r := range k {
		if r < 0x20 || r == 0x7f {
			return fmt.Errorf("tasks: input request key %q holds a control character", k)
		}
	}
	return nil
}

// isObject reports whether raw is a JSON object.
func isObject(raw json.RawMessage) bool {
	t := bytes.TrimLeft(raw, " \t\r\n")
	return len(t) > 0 && t[0] == '{' && json.Valid(raw)
}

// RoundAnswers returns the answers to the current round's requests: the
// inputResponses of the tool's next run.
func (r *Record) RoundAnswers() map[string]json.RawMessage {
	m := make(map[string]json.RawMessage, len(r.Round))
	for _, k := range r.Round {
		if a, ok := r.Answers[k]; ok {
			m[k] = a
		}
	}
	return m
}
