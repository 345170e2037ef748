package tasks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/elicitgen/elicitgen/runtime/internal/wire"
)

// DefaultPollInterval is the pollIntervalMs a Server suggests when its
// PollInterval is zero.
const DefaultPollInterval = 2 * time.Second

// Step is what one run of a task's tool came to: new input requests
// (the task waits for them), a result (completed, also for a tool result
// with isError) or a JSON-RPC error (failed). Exactly one is set.
type Step struct {
	Requests map[string]json.RawMessage
	// State is the sealed requestState that came with Requests; the task
	// keeps it for the next run and never sends it.
	State  string
	Result json.RawMessage
	Err    *Error
}

// Server serves the tasks/* methods over a Store and settles tasks as
// their tool runs. Adapters put one in front of an SDK; it is safe for
// concurrent use and holds no goroutine for a waiting task.
type Server struct {
	// Store keeps the records; required.
	Store *Store
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// PollInterval is the pollIntervalMs suggested to clients; zero means
	// DefaultPollInterval.
	PollInterval time.Duration
	// Run runs the task's tool again from the top with the record's
	// answers so far, once an update has answered every outstanding
	// request. It is called once per such update across every instance
	// that shares the store (the update that emptied the outstanding set
	// wins), after the update is stored and before it is acknowledged.
	// nil leaves such a task working.
	Run func(ctx context.Context, r Record) Step

	running sync.Map // task id -> context.CancelFunc of a background run here
}

func (s *Server) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Server) poll() time.Duration {
	if s.PollInterval > 0 {
		return s.PollInterval
	}
	return DefaultPollInterval
}

// Create stores a new working task for principal's call of tool, readable
// for ttl (zero: no expiry), and returns it once the store has it: its
// CreateResult may be sent from then on.
func (s *Server) Create(ctx context.Context, principal, tool, argsDigest string, args json.RawMessage, ttl time.Duration) (Record, error) {
	now := s.now()
	r := Record{
		ID:         wire.NewID(),
		Principal:  principal,
		Tool:       tool,
		ArgsDigest: argsDigest,
		Args:       args,
		Status:     StatusWorking,
		Created:    now,
		Updated:    now,
	}
	if ttl > 0 {
		r.Expires = now.Add(ttl)
	}
	if err := s.Store.Create(ctx, r); err != nil {
		return Record{}, fmt.Errorf("tasks: storing the new task: %w", err)
	}
	r.Version = 1
	return r, nil
}

// CreateResult returns the tools/call result that names task r.
func (s *Server) CreateResult(r Record) CreateResult {
	return CreateResult{ResultType: "task", Task: r.Task(s.poll())}
}

// ErrInvalidStep: a run's Step cannot be recorded (a key used before in
// the task, an invalid key, a request or result that is not a JSON
// object). Settle's error wraps it and the cause.
var ErrInvalidStep = errors.New("tasks: invalid step")

// Settle records what a run of task id's tool came to. A task that ended
// meanwhile (a cancel that won) stays as it is: Settle returns ErrTerminal
// and the run's outcome is dropped.
func (s *Server) Settle(ctx context.Context, id string, st Step) (Record, error) {
	return s.Store.Update(ctx, id, func(r *Record) error {
		now := s.now()
		var err error
		switch {
		case st.Err != nil:
			err = r.Fail(now, st.Err)
		case st.Requests != nil:
			if err = r.Ask(now, st.Requests); err == nil {
				r.State = st.State
			}
		default:
			err = r.Complete(now, st.Result)
		}
		if err != nil && !errors.Is(err, ErrTerminal) {
			err = fmt.Errorf("%w: %w", ErrInvalidStep, err)
		}
		return err
	})
}

// Call is one tasks/* request as an adapter read it.
type Call struct {
	// Method is tasks/get, tasks/update or tasks/cancel; any other method
	// is answered -32601.
	Method string
	// Params are the request's params.
	Params json.RawMessage
	// Principal is who sent the request; only the principal that created
	// a task can read, answer or cancel it.
	Principal string
	// Declared reports whether the request declared the extension in its
	// client capabilities (on protocol 2026-07-28). Without it every
	// method is answered -32021.
	Declared bool
	// Run, when set, runs the task's tool again for this call instead of
	// Server.Run (an HTTP front runs it with the update's own headers).
	Run func(ctx context.Context, r Record) Step

	// decoded, when set, is Params as the front decoded them already.
	decoded *updateParams
}

// params decodes c.Params, or returns what the front decoded.
func (c *Call) params() (updateParams, error) {
	if c.decoded != nil {
		return *c.decoded, nil
	}
	if c.Method != MethodUpdate {
		var p getParams
		err := decodeParams(c.Params, &p)
		return updateParams{TaskID: p.TaskID}, err
	}
	var p updateParams
	err := decodeParams(c.Params, &p)
	return p, err
}

// Serve answers one tasks/* request: the result to send, or an *Error to
// send as the JSON-RPC error. A task of another principal is answered as
// an unknown one, so ids cannot be probed.
func (s *Server) Serve(ctx context.Context, c Call) (json.RawMessage, error) {
	switch c.Method {
	case MethodGet, MethodUpdate, MethodCancel:
	default:
		return nil, &Error{Code: CodeMethodNotFound, Message: "method not found: " + c.Method}
	}
	if !c.Declared {
		return nil, MissingCapability(c.Method + " needs the " + Extension + " extension declared in the request's client capabilities")
	}
	if c.Method == MethodUpdate {
		return s.update(ctx, c)
	}
	p, err := c.params()
	if err != nil || p.TaskID == nil {
		return nil, invalidParams(c.Method+" needs params.taskId, a string", err)
	}
	if c.Method == MethodCancel {
		_, err := s.Store.Update(ctx, *p.TaskID, func(r *Record) error {
			if r.Principal != c.Principal {
				return ErrNotFound
			}
			if !r.Cancel(s.now()) {
				return errUnchanged
			}
			return nil
		})
		if err != nil && !errors.Is(err, errUnchanged) {
			return nil, s.storeError(*p.TaskID, err)
		}
		if stop, ok := s.running.Load(*p.TaskID); ok && err == nil {
			stop.(context.CancelFunc)()
		}
		return Ack(), nil
	}
	r, err := s.Store.Get(ctx, *p.TaskID)
	if err == nil && r.Principal != c.Principal {
		err = ErrNotFound
	}
	if err != nil {
		return nil, s.storeError(*p.TaskID, err)
	}
	return json.Marshal(GetResult{ResultType: "complete", Detailed: r.Detailed(s.poll())})
}

// errUnchanged ends an Update that has nothing to store.
var errUnchanged = errors.New("tasks: unchanged")

// update applies tasks/update: the answers to outstanding keys are stored
// (others ignored), and an update that answers the last of them runs the
// tool again before it is acknowledged.
func (s *Server) update(ctx context.Context, c Call) (json.RawMessage, error) {
	p, err := c.params()
	if err != nil || p.TaskID == nil || p.InputResponses == nil {
		return nil, invalidParams("tasks/update needs params.taskId, a string, and params.inputResponses, an object", err)
	}
	var done bool
	r, err := s.Store.Update(ctx, *p.TaskID, func(r *Record) error {
		if r.Principal != c.Principal {
			return ErrNotFound
		}
		if r.Status.Terminal() {
			return errUnchanged // late answers to an ended task are acknowledged and dropped
		}
		applied, d, err := r.Answer(s.now(), p.InputResponses)
		if err != nil {
			return err
		}
		if len(applied) == 0 {
			return errUnchanged
		}
		done = d
		return nil
	})
	switch {
	case errors.Is(err, errUnchanged):
		return Ack(), nil
	case err != nil:
		return nil, s.storeError(*p.TaskID, err)
	}
	run := c.Run
	if run == nil {
		run = s.Run
	}
	if done && run != nil {
		_, err := s.Settle(ctx, r.ID, run(ctx, r))
		if errors.Is(err, ErrInvalidStep) {
			// The tool's run cannot go on the wire: the task fails rather
			// than wait for ever.
			_, err = s.Settle(ctx, r.ID, Step{Err: &Error{Code: CodeInternal, Message: err.Error()}})
		}
		if err != nil && !errors.Is(err, ErrTerminal) {
			return nil, s.storeError(r.ID, err)
		}
	}
	return Ack(), nil
}

// storeError maps a store error to the JSON-RPC error to send.
func (s *Server) storeError(id string, err error) error {
	if errors.Is(err, ErrNotFound) {
		return &Error{Code: CodeInvalidParams, Message: fmt.Sprintf("no task %q: unknown, expired or not yours", id)}
	}
	if e, ok := errors.AsType[*Error](err); ok {
		return e
	}
	return &Error{Code: CodeInternal, Message: "the task store failed: " + err.Error()}
}

// invalidParams is the -32602 error for params that do not parse.
func invalidParams(msg string, err error) *Error {
	if err != nil {
		msg += ": " + err.Error()
	}
	return &Error{Code: CodeInvalidParams, Message: msg}
}

// decodeParams decodes params into v; absent params decode as {}.
func decodeParams(params json.RawMessage, v any) error {
	if len(bytes.TrimSpace(params)) == 0 {
		params = json.RawMessage(`{}`)
	}
	return json.Unmarshal(params, v)
}
