package adapter

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// Origin describes a call for Options.Observer: what the adapter knows
// beyond the Call's binding. Adapters fill it only when an Observer is
// set.
type Origin struct {
	// Context is the request's context, handed to the Observer for the
	// events that happen outside an ask (a refused state, the call's
	// end). Nil means context.Background().
	Context context.Context
	// Method is the request's method: "tools/call" or "prompts/get".
	Method string
	// Name is the tool or prompt name as the client sent it ("" means
	// Call.Tool).
	Name string
	// Session is the MCP session id, when the transport has one.
	Session string
	// ClientName and ClientVersion identify the client software: from
	// initialize or the request's _meta (MetaKeyClientInfo).
	ClientName, ClientVersion string
}

// MetaKeyClientInfo is the _meta key under which a 2026-07-28 request
// names the client software ({"name", "version"}), a SHOULD of the
// specification.
const MetaKeyClientInfo = "io.modelcontextprotocol/clientInfo"

// observing is the observer state of one exchange: nil when no Observer
// is set, so that an unobserved call pays one pointer test per hook.
type observing struct {
	obs   runtime.Observer
	ctx   context.Context
	start time.Time
	now   func() time.Time // the Options clock
	base  runtime.Event    // the call's fields, copied into every event

	mu sync.Mutex // guards the fields below
	// emitted counts the pending questions already reported as asked.
	emitted int
	// unavailable is set once an EventUnavailable was reported.
	unavailable bool
	// held are the EventAnswered of the answers this round received, in
	// the order received, each waiting for the runtime's Decision
	// (Decided), which completes and reports it.
	held []runtime.Event
}

// hold keeps e, the EventAnswered of an answer, until its Decision.
func (o *observing) hold(e runtime.Event) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for i := range o.held {
		if o.held[i].Key == e.Key {
			o.held[i] = e // a later answer under the same key replaces it
			return
		}
	}
	o.held = append(o.held, e)
}

// take removes and returns the held EventAnswered under key.
func (o *observing) take(key string) (runtime.Event, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for i := range o.held {
		if o.held[i].Key == key {
			e := o.held[i]
			o.held = append(o.held[:i], o.held[i+1:]...)
			return e, true
		}
	}
	return runtime.Event{}, false
}

// newCallID returns a random call id.
func newCallID() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return hex.EncodeToString(b[:])
}

// observeStart reports a refused state (x nil, err set) or sets up the
// observation of x. It does nothing without an Observer.
func (s *Options) observeStart(c *Call, x *Exchange, err error) {
	if s.Observer == nil {
		return
	}
	origin := c.Origin
	if origin == nil {
		origin = &Origin{}
	}
	now := s.clock()
	o := &observing{obs: s.Observer, ctx: origin.Context, start: now(), now: now}
	if o.ctx == nil {
		o.ctx = context.Background()
	}
	name := origin.Name
	if name == "" {
		name = c.Tool
	}
	o.base = runtime.Event{
		Method: origin.Method, Tool: name, Protocol: c.Version,
		ClientName: origin.ClientName, ClientVersion: origin.ClientVersion,
		Principal: c.Principal, Session: origin.Session, Round: 1,
	}
	if err != nil {
		o.base.CallID = newCallID()
		if c.State != "" {
			o.base.Round = 2
		}
		e := o.event(runtime.EventStateRefused, "", nil)
		if e.Reason = seal.RefusalReason(err); e.Reason == "" {
			e.Kind, e.Reason = runtime.EventFailed, auditReason(err)
		}
		e.Reply = "invalid_params"
		o.obs.Observe(o.ctx, e)
		end := o.event(runtime.EventCallEnd, "", nil)
		end.Reply = "invalid_params"
		end.RoundTime = o.since(o.start)
		end.CallTime = end.RoundTime
		o.obs.Observe(o.ctx, end)
		return
	}
	x.obs = o
	if !x.era.MultiRoundTrip() {
		o.base.CallID = newCallID()
		return
	}
	if x.state.Call == nil {
		x.state.Call = &seal.CallInfo{}
	}
	ci := x.state.Call
	switch {
	case ci.ID != "":
		o.base.Round = ci.Round + 1
	case c.State != "":
		// Sealed by an instance that observed nothing: a later round.
		ci.ID, o.base.Round = newCallID(), 2
	default:
		ci.ID, ci.Started = newCallID(), o.start
	}
	o.base.CallID = ci.ID
}

// since is the time elapsed from t on the Options clock.
func (o *observing) since(t time.Time) time.Duration { return o.now().Sub(t) }

// event returns an event of kind about req (nil: the call) under key,
// with the call's fields.
func (o *observing) event(kind runtime.EventKind, key string, req *runtime.Request) runtime.Event {
	e := o.base
	e.Kind, e.Time, e.Key = kind, o.now(), key
	if req != nil {
		e.Mode = req.Mode
		if req.Schema != nil {
			e.Form = req.Schema.Name
		}
	}
	return e
}

// question returns the event of kind about req under key, with its
// schema digest and attempt number.
func (x *Exchange) question(kind runtime.EventKind, key string, req *runtime.Request, attempt int) runtime.Event {
	e := x.obs.event(kind, key, req)
	e.SchemaDigest = SchemaDigest(req, x.era.SchemaVersion())
	e.Attempt = attempt
	e.Rendering, e.RenderingReason = x.rendering(key)
	return e
}

// SchemaDigest returns the first 16 hex digits of the SHA-256 of req's
// requestedSchema as sent to a client speaking version (the bytes
// Schema.AppendJSON gives), or "" for a URL-mode request.
func SchemaDigest(req *runtime.Request, version string) string {
	if req == nil || req.Mode != runtime.ModeForm || req.Schema == nil {
		return ""
	}
	var buf [2048]byte
	b, err := req.Schema.AppendJSON(buf[:0], version)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// attempt returns the attempt number of the question under key: 1, plus
// the retries counted so far. It runs with x.mu held.
func (x *Exchange) attempt(key string) int {
	used, _ := strconv.Atoi(x.state.Flows[retryKey(key)])
	return used + 1
}

// outcome fills e (an event about an ask that returned resp, err) and
// reports it. An *InputRequiredError reports the question as asked. An
// answer is held until the runtime decides it (Decided), which reports
// it: this function never judges an answer.
func (x *Exchange) outcome(ctx context.Context, e runtime.Event, req *runtime.Request, resp *runtime.Response, err error) {
	var ire *runtime.InputRequiredError
	var ue *runtime.UnavailableError
	switch {
	case err == nil && resp != nil:
		e.Kind, e.Action = runtime.EventAnswered, resp.Action
		x.obs.hold(e)
		return
	case errors.As(err, &ire):
		e.Kind, e.Key, e.Asked, e.WaitTime = runtime.EventAsked, ire.Key, true, 0
		x.obs.mu.Lock()
		x.obs.emitted++
		x.obs.mu.Unlock()
	case errors.Is(err, runtime.ErrUnavailable):
		e.Kind, e.Reason, e.WaitTime = runtime.EventUnavailable, err.Error(), 0
		if errors.As(err, &ue) {
			e.Reason = ue.Reason
		}
		x.obs.mu.Lock()
		x.obs.unavailable = true
		x.obs.mu.Unlock()
	case errors.Is(err, runtime.ErrMalformedInput):
		// Not an elicitation result at all: a protocol error the runtime
		// never decides.
		e.Kind, e.InvalidFields = runtime.EventInvalid, []string{""}
	case errors.Is(err, runtime.ErrInvalidContent):
		// The SDK rejected an accepted answer before the runtime saw it;
		// the ask function decides it invalid next.
		e.Kind, e.Action = runtime.EventAnswered, runtime.ActionAccept
		x.obs.hold(e)
		return
	case errors.Is(err, context.DeadlineExceeded):
		e.Kind, e.Reason = runtime.EventTimedOut, err.Error()
	default:
		e.Kind, e.Reason = runtime.EventFailed, auditReason(err)
	}
	x.obs.obs.Observe(ctx, e)
}

// observePush asks req through push, reporting the question and its
// outcome. key names it as it would be named on 2026-07-28.
func (x *Exchange) observePush(ctx context.Context, key string, req *runtime.Request) (*runtime.Response, error) {
	x.mu.Lock()
	attempt := x.attempt(key)
	x.mu.Unlock()
	e := x.question(runtime.EventAsked, key, req, attempt)
	e.Asked = true
	if x.checkCaps(req) == nil && x.call.Push != nil {
		x.obs.obs.Observe(ctx, e)
	}
	start := x.obs.now()
	resp, err := x.askPush(ctx, req)
	e.Time = x.obs.now()
	e.WaitTime = e.Time.Sub(start)
	x.outcome(ctx, e, req, resp, err)
	return resp, err
}

// observeModern is askModern, reporting what happened: the question
// asked, or the answer the request brought. An answer from the sealed
// state was reported in the round that received it. It runs with x.mu
// held.
func (x *Exchange) observeModern(ctx context.Context, key string, req *runtime.Request) (*runtime.Response, error) {
	_, had := x.state.Answer(key)
	had = had && !x.expired // an expired call reports its declines
	var ci seal.CallInfo
	if x.state.Call != nil {
		ci = *x.state.Call
	}
	asked := x.call.State != "" && x.state.WasAsked(key)
	attempt := x.attempt(key)
	resp, err := x.askModern(key, req)
	if had && err == nil {
		return resp, err
	}
	e := x.question(runtime.EventAsked, key, req, attempt)
	e.Asked = asked
	if asked && !ci.Sealed.IsZero() {
		e.WaitTime = x.obs.since(ci.Sealed)
	}
	x.outcome(ctx, e, req, resp, err)
	return resp, err
}

// observeRetry is the 2026-07-28 end of AskAgain: the question asked
// again, in the next round. It runs with x.mu held.
func (x *Exchange) observeRetry(ctx context.Context, key string, req *runtime.Request) error {
	err := x.checkCaps(req)
	if err == nil {
		err = x.addPending(key, req)
	}
	x.outcome(ctx, x.question(runtime.EventAsked, key, req, x.attempt(key)), req, nil, err)
	return err
}

// Decided reports the runtime's Decision about an answer this round
// received (see runtime.Asker): EventAnswered with the decided action
// (an unticked confirm box makes it a decline, with Reason
// runtime.ReasonUnconfirmed) and the validated audit values, or, for an
// answer that did not validate, EventAnswered (accept) and EventInvalid
// naming the form's fields. An answer decided again in a later round of
// a 2026-07-28 call (from the sealed state) was reported in the round
// that received it. It never refuses a Decision.
func (x *Exchange) Decided(ctx context.Context, d *runtime.Decision) error {
	if err := x.record(ctx, d); err != nil {
		return err
	}
	if x.obs == nil || d == nil || d.Request == nil {
		return nil
	}
	x.mu.Lock()
	base := baseKey(d.Request)
	key := numberedKey(base, x.counts[base])
	x.mu.Unlock()
	e, ok := x.obs.take(key)
	if !ok {
		return nil
	}
	e.Decision = d
	if d.Valid() {
		e.Action, e.Content = d.Action, d.AuditMap()
		switch {
		case d.Unconfirmed:
			e.Reason = runtime.ReasonUnconfirmed
		case d.Action.Expired():
			e.Reason = runtime.ReasonExpired
		}
		x.obs.obs.Observe(ctx, e)
		return nil
	}
	e.Action = runtime.ActionAccept // only an accept is validated
	x.obs.obs.Observe(ctx, e)
	inv := e
	inv.Kind, inv.Time, inv.Action, inv.WaitTime = runtime.EventInvalid, x.obs.now(), "", 0
	inv.InvalidFields = decisionFields(d)
	x.obs.obs.Observe(ctx, inv)
	return nil
}

// noteSeal records in the state the sealing round and time (what it
// asked is State.Asked, set by SealState). It runs with x.mu held.
func (x *Exchange) noteSeal() {
	ci := x.state.Call
	if ci == nil {
		return // set by observeStart; never nil here
	}
	ci.Round = x.obs.base.Round
	ci.Sealed = x.obs.now()
}

// replyNames are the Event.Reply names of the reply kinds.
var replyNames = [...]string{
	ReplyResult:            "result",
	ReplyInputRequired:     "input_required",
	ReplyInvalidParams:     "invalid_params",
	ReplyMissingCapability: "missing_capability",
	ReplyToolError:         "tool_error",
	ReplyURLRequired:       "url_required",
	ReplyLink:              "link",
}

// replyName returns the Event.Reply name of r: "result", "error" (a
// result kind carrying an error), "input_required", "invalid_params",
// "missing_capability", "tool_error" or "url_required".
func replyName(r Reply) string {
	if r.Kind == ReplyResult && r.Err != nil {
		return "error"
	}
	if int(r.Kind) < len(replyNames) {
		return replyNames[r.Kind]
	}
	return "unknown"
}

// ObserveEnd reports the end of the call answered with r
// (EventCallEnd), and the questions r carries that no ask reported (the
// URL-mode steps of a *URLRequiredError). Options.Finish calls it;
// adapters that call Reply directly call it themselves. It does nothing
// without an Observer.
func (x *Exchange) ObserveEnd(r Reply) {
	o := x.obs
	if o == nil {
		return
	}
	ctx := o.ctx
	o.mu.Lock()
	emitted, unavailable, held := o.emitted, o.unavailable, o.held
	o.held = nil
	o.mu.Unlock()
	for _, e := range held {
		// Answers no ask function decided (the handler called Ask
		// itself): the client's action, as received.
		o.obs.Observe(ctx, e)
	}
	switch r.Kind {
	case ReplyInputRequired:
		for _, p := range r.Requests[min(emitted, len(r.Requests)):] {
			e := x.question(runtime.EventAsked, p.Key, p.Request, 1)
			e.Asked = true
			o.obs.Observe(ctx, e)
		}
	case ReplyURLRequired:
		for _, p := range r.Requests {
			e := x.question(runtime.EventAsked, p.Key, p.Request, 1)
			e.Asked = true
			o.obs.Observe(ctx, e)
		}
	}
	var ue *runtime.UnavailableError
	if !unavailable && errors.As(r.Err, &ue) {
		e := o.event(runtime.EventUnavailable, "", &runtime.Request{Mode: ue.Mode, Schema: ue.Schema})
		e.Reason = ue.Reason
		o.obs.Observe(ctx, e)
	}
	e := o.event(runtime.EventCallEnd, "", nil)
	e.Reply = replyName(r)
	if r.Kind != ReplyInputRequired {
		e.Reason = errorClass(r.Err)
	}
	e.RoundTime = o.since(o.start)
	e.CallTime = e.RoundTime
	if ci := x.state.Call; ci != nil && !ci.Started.IsZero() && x.era.MultiRoundTrip() {
		e.CallTime = o.since(ci.Started)
	}
	o.obs.Observe(ctx, e)
}

// errorClass names the kind of a call's failure without its text, which
// may quote an answer: "" for none, "invalid_content", "invalid_action",
// "unavailable", "timeout", "canceled", "invalid_state" or "error".
func errorClass(err error) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, runtime.ErrInvalidContent):
		return "invalid_content"
	case errors.Is(err, runtime.ErrInvalidAction):
		return "invalid_action"
	case errors.Is(err, runtime.ErrUnavailable):
		return "unavailable"
	case errors.Is(err, runtime.ErrTimeout), errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.Is(err, runtime.ErrInvalidState):
		return "invalid_state"
	}
	return "error"
}

// observeRefused reports a state that opened but was refused afterwards
// (spent, or a replay store that failed), and the end of the call.
func (x *Exchange) observeRefused(err error) {
	o := x.obs
	if o == nil {
		return
	}
	e := o.event(runtime.EventStateRefused, "", nil)
	reply := "invalid_params"
	if e.Reason = seal.RefusalReason(err); e.Reason == "" {
		e.Kind, e.Reason, reply = runtime.EventFailed, auditReason(err), "internal_error"
	}
	e.Reply = reply
	o.obs.Observe(o.ctx, e)
	end := o.event(runtime.EventCallEnd, "", nil)
	end.Reply = reply
	end.RoundTime = o.since(o.start)
	o.obs.Observe(o.ctx, end)
}
