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

// Origin describes a call for Settings.Observer: what the adapter knows
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
	base  runtime.Event // the call's fields, copied into every event

	mu sync.Mutex // guards the fields below
	// emitted counts the pending questions already reported as asked.
	emitted int
	// unavailable is set once an EventUnavailable was reported.
	unavailable bool
	// asked holds Event.Asked of the last answer under each key, for
	// the EventInvalid that may follow.
	asked map[string]bool
}

// newCallID returns a random call id.
func newCallID() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return hex.EncodeToString(b[:])
}

// observeStart reports a refused state (x nil, err set) or sets up the
// observation of x. It does nothing without an Observer.
func (s *Settings) observeStart(c *Call, x *Exchange, err error) {
	if s.Observer == nil {
		return
	}
	origin := c.Origin
	if origin == nil {
		origin = &Origin{}
	}
	o := &observing{obs: s.Observer, ctx: origin.Context, start: time.Now()}
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
		end.RoundTime = time.Since(o.start)
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

// event returns an event of kind about req (nil: the call) under key,
// with the call's fields.
func (o *observing) event(kind runtime.EventKind, key string, req *runtime.Request) runtime.Event {
	e := o.base
	e.Kind, e.Time, e.Key = kind, time.Now(), key
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
// reports it. An *InputRequiredError reports the question as asked.
func (x *Exchange) outcome(ctx context.Context, e runtime.Event, req *runtime.Request, resp *runtime.Response, err error) {
	var ire *runtime.InputRequiredError
	var ue *runtime.UnavailableError
	switch {
	case err == nil && resp != nil:
		e.Kind, e.Action, e.Content = runtime.EventAnswered, resp.Action, auditContent(req, resp)
		if resp.Action == runtime.ActionAccept && unconfirmed(req.Schema, resp.Content) {
			e.Reason = runtime.ReasonUnconfirmed // the ask returns it as a decline
		}
		x.noteAsked(e.Key, e.Asked)
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
		e.Kind, e.InvalidFields = runtime.EventInvalid, invalidFields(req, err)
	case errors.Is(err, runtime.ErrInvalidContent):
		// The SDK rejected an accepted answer before the runtime saw it;
		// the ask function reports it invalid next.
		e.Kind, e.Action = runtime.EventAnswered, runtime.ActionAccept
		x.noteAsked(e.Key, e.Asked)
	case errors.Is(err, context.DeadlineExceeded):
		e.Kind, e.Reason = runtime.EventTimedOut, err.Error()
	default:
		e.Kind, e.Reason = runtime.EventFailed, auditReason(err)
	}
	x.obs.obs.Observe(ctx, e)
}

// unconfirmed reports whether content, an accepted answer to s, leaves a
// box tagged confirm (Property.Confirm) unticked: the ask returns such an
// accept as a decline, and the event records runtime.ReasonUnconfirmed.
func unconfirmed(s *runtime.Schema, content map[string]any) bool {
	if s == nil {
		return false
	}
	for i := range s.Properties {
		if p := &s.Properties[i]; p.Confirm {
			if v, _ := content[p.Name].(bool); !v {
				return true
			}
		}
	}
	return false
}

// noteAsked records Event.Asked of the answer under key.
func (x *Exchange) noteAsked(key string, asked bool) {
	x.obs.mu.Lock()
	defer x.obs.mu.Unlock()
	if x.obs.asked == nil {
		x.obs.asked = make(map[string]bool, 1)
	}
	x.obs.asked[key] = asked
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
	start := time.Now()
	resp, err := x.askPush(ctx, req)
	e.WaitTime = time.Since(start)
	e.Time = time.Now()
	x.outcome(ctx, e, req, resp, err)
	return resp, err
}

// observeModern is askModern, reporting what happened: the question
// asked, or the answer the request brought. An answer from the sealed
// state was reported in the round that received it. It runs with x.mu
// held.
func (x *Exchange) observeModern(ctx context.Context, key string, req *runtime.Request) (*runtime.Response, error) {
	_, had := x.state.Answer(key)
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
		e.WaitTime = time.Since(ci.Sealed)
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

// InvalidAnswer reports the answer to req, which did not validate, as
// EventInvalid (see runtime.Asker).
func (x *Exchange) InvalidAnswer(ctx context.Context, req *runtime.Request, err error) {
	if x.obs == nil || req == nil {
		return
	}
	x.mu.Lock()
	base := baseKey(req)
	key := numberedKey(base, x.counts[base])
	attempt := x.attempt(key)
	x.mu.Unlock()
	e := x.question(runtime.EventInvalid, key, req, attempt)
	e.InvalidFields = invalidFields(req, err)
	x.obs.mu.Lock()
	e.Asked = x.obs.asked[key]
	x.obs.mu.Unlock()
	x.obs.obs.Observe(ctx, e)
}

// noteSeal records in the state the sealing round and time (what it
// asked is State.Asked, set by SealState). It runs with x.mu held.
func (x *Exchange) noteSeal() {
	ci := x.state.Call
	if ci == nil {
		return // set by observeStart; never nil here
	}
	ci.Round = x.obs.base.Round
	ci.Sealed = time.Now()
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
// URL-mode steps of a *URLRequiredError). Settings.Finish calls it;
// adapters that call Reply directly call it themselves. It does nothing
// without an Observer.
func (x *Exchange) ObserveEnd(r Reply) {
	o := x.obs
	if o == nil {
		return
	}
	ctx := o.ctx
	o.mu.Lock()
	emitted, unavailable := o.emitted, o.unavailable
	o.mu.Unlock()
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
	e.RoundTime = time.Since(o.start)
	e.CallTime = e.RoundTime
	if ci := x.state.Call; ci != nil && !ci.Started.IsZero() && x.era.MultiRoundTrip() {
		e.CallTime = time.Since(ci.Started)
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
	end.RoundTime = time.Since(o.start)
	o.obs.Observe(o.ctx, end)
}
