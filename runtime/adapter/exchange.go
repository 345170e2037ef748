package adapter

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"github.com/elicitgen/elicitgen/runtime/internal/exact"
	"strconv"
	"sync"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/deliver"
	"github.com/elicitgen/elicitgen/runtime/internal/wire"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// Call is one tools/call (or prompts/get, resources/read) as an SDK
// adapter received it: enough to pick the era, check the client's
// capabilities and bind sealed state. Adapters fill it; handlers never
// see it.
type Call struct {
	// Tool is the tool name.
	Tool string
	// Args is the raw JSON of the call's arguments.
	Args []byte
	// Principal identifies the authenticated user, when known.
	Principal string
	// Client names the client of the request for the replay store's
	// budget per client (seal.Claim.Client) when there is no
	// Principal: what the transport knows of it, such as the remote
	// address's host that the adapters' HTTP handlers pass on
	// (serve.ClientFrom); "" for one client (stdio) or none known. See
	// ReplayClient.
	Client string
	// Version is the protocol version of this request: the negotiated one
	// on 2025-era connections, _meta's on 2026-07-28 requests.
	Version string
	// Caps are the elicitation modes the client declared for this request.
	Caps ClientCaps
	// Language is the user's language preference for this request, a BCP
	// 47 tag or an Accept-Language list (SEP-2792); "" for none. Asks
	// without WithLocale use it to pick a form's translation.
	Language string

	// State is the requestState the client echoed (2026-07-28).
	State string
	// Responses are the client's inputResponses that answer elicitations,
	// by key (2026-07-28).
	Responses map[string]*runtime.Response
	// Malformed lists inputResponses keys whose answer could not be read
	// as an elicitation result, with the reason (2026-07-28).
	Malformed map[string]string

	// Peer is who the client is (ClientName, ClientVersion: adapters set
	// them when Options.Pages is set) and what the adapter can do with
	// it besides reading its answers: Push sends one elicitation/create
	// and waits for the answer (2025 eras only; the Exchange has already
	// checked the capabilities and the form), Complete and KeepAlive
	// serve hosted pages (see deliver.Peer).
	deliver.Peer

	// Origin describes the call for Options.Observer; adapters set it
	// only when one is set (nil otherwise).
	Origin *Origin
}

// MaxInputResponses bounds the number of inputResponses entries the
// runtime looks at in one request: far above the forms any tool asks in
// one call, far below what a hostile client can fit in a request body.
// A request with more is invalid params (-32602) before any entry is
// read; see CheckInputResponses.
const MaxInputResponses = 256

// ErrTooManyInputResponses is matched (errors.Is) by the error of a
// request carrying more than MaxInputResponses inputResponses entries.
var ErrTooManyInputResponses = errors.New("elicit: too many inputResponses")

// CheckInputResponses returns an error matching ErrTooManyInputResponses
// when a request carries n > MaxInputResponses inputResponses entries.
// Adapters call it with the map's length before converting any entry,
// and answer the error with JSON-RPC -32602.
func CheckInputResponses(n int) error {
	if n > MaxInputResponses {
		return fmt.Errorf("%w: %d entries, at most %d", ErrTooManyInputResponses, n, MaxInputResponses)
	}
	return nil
}

// Exchange is the Asker an adapter hands to one tool handler invocation.
// On a push-era request it asks through Call.Push; on a 2026-07-28
// request it answers from the sealed state and the inputResponses, and
// otherwise records the question and returns *InputRequiredError, which
// the adapter turns into an input_required result (see Reply).
//
// inputRequests keys are Request.Key (set with WithKey) or by default
// the form name (Schema.Name) for a form and "url" for a URL-mode
// request, with "#2", "#3"... for the second and later asks of the same
// key in one invocation: stable and readable.
//
// An Exchange is safe for concurrent use by the handler's goroutines.
type Exchange struct {
	call   *Call
	sealer *seal.Sealer
	era    runtime.Era
	bound  *seal.Binding

	mu      sync.Mutex
	counts  map[string]int
	state   seal.State
	pending []*runtime.InputRequiredError

	obs *observing // nil without Options.Observer; see observe.go
	// needClaim: the state must be spent (Claim) before answers are read;
	// claimed: it was. askedFirst applies WithAskedFirst to every ask.
	needClaim, claimed, askedFirst bool
	// replay and replayCtx are the store and request context Claim was
	// given; epochKnown: state.Epoch holds the store's current epoch (see
	// epoch, replay.go).
	replay     seal.ReplayStore
	replayCtx  context.Context
	epochKnown bool

	// routes choose the deliveries of questions off the client's form
	// (hosted pages, links) and keep the choices and links.
	routes deliver.Routes

	// recorder is Options.Record; started is when the exchange began;
	// replayed are the keys whose answer came from the sealed state (an
	// earlier round's, already recorded then).
	recorder func(context.Context, Decided) error
	started  time.Time
	replayed map[string]bool
	// maxWait caps a question's runtime.WithWait (Options.MaxWait).
	maxWait time.Duration
	// expired: the call's requestState expired before the answers it
	// brought; every ask answers runtime.ExpiredDecline.
	expired bool
}

// NewExchange starts the exchange of one call. On a 2026-07-28 request
// with a requestState it opens the state with s and fails with an error
// matching ErrInvalidState (answer -32602) when it is tampered, expired
// or foreign. s may be nil only for push-era requests.
func NewExchange(s *seal.Sealer, c *Call) (*Exchange, error) {
	x := &Exchange{
		call:   c,
		sealer: s,
		era:    runtime.EraOf(c.Version),
		counts: make(map[string]int, 2),
		state:  seal.State{Answers: map[string]*runtime.Response{}, Flows: map[string]string{}},
	}
	if x.era.MultiRoundTrip() {
		if err := CheckInputResponses(len(c.Responses) + len(c.Malformed)); err != nil {
			return nil, err
		}
	}
	if x.era.MultiRoundTrip() && c.State != "" {
		st, err := s.Open(x.binding(), c.State)
		var late *seal.ExpiredError
		switch {
		case errors.As(err, &late) && answersAsked(late.State, c):
			// Answered too late: the call is decided, once (Claim), and
			// every question of it declines as expired.
			st, x.expired = late.State, true
		case err != nil:
			return nil, err
		}
		x.state = *st
		x.needClaim = x.expired || st.HasAnswers() || len(c.Responses) > 0
	}
	return x, nil
}

// answersAsked reports whether c brings an answer (well-formed or not)
// to a question st asked.
func answersAsked(st *seal.State, c *Call) bool {
	for k := range c.Responses {
		if st.WasAsked(k) {
			return true
		}
	}
	for k := range c.Malformed {
		if st.WasAsked(k) {
			return true
		}
	}
	return false
}

// binding returns the call's state binding, digesting the arguments once
// per exchange (NewExchange, then SealState under x.mu).
func (x *Exchange) binding() seal.Binding {
	if x.bound == nil {
		b := seal.BindCall(x.call.Tool, x.call.Args, x.call.Principal)
		x.bound = &b
	}
	return *x.bound
}

// Era returns the rules of the call's protocol version.
func (x *Exchange) Era() runtime.Era { return x.era }

// Caps returns the elicitation modes the client declared for the call.
func (x *Exchange) Caps() ClientCaps { return x.call.Caps }

// baseKey returns the inputRequests key of req before numbering.
func baseKey(req *runtime.Request) string {
	switch {
	case req.Key != "":
		return req.Key
	case req.Mode == runtime.ModeURL:
		return "url"
	case req.Schema != nil && req.Schema.Name != "":
		return req.Schema.Name
	}
	return "form"
}

func numberedKey(base string, n int) string {
	if n <= 1 {
		return base
	}
	return base + "#" + strconv.Itoa(n)
}

// NextFlowID returns the flow id the next URL-mode ask of this invocation
// with key (Request.Key; empty for the default "url") will carry: the one
// sealed in requestState when an earlier round asked it, or the one whose
// link the tool result of an earlier call of the same call carried
// (deliver.FlowLink), else a fresh random id. See AskURLFlow.
func (x *Exchange) NextFlowID(ctx context.Context, key string) string {
	base := baseKey(&runtime.Request{Mode: runtime.ModeURL, Key: key})
	x.mu.Lock()
	defer x.mu.Unlock()
	key = numberedKey(base, x.counts[base]+1)
	id := x.state.Flows[key]
	if id == "" && x.routes.Pages != nil && x.checkCaps(&runtime.Request{Mode: runtime.ModeURL}) != nil {
		b := x.binding()
		x.mu.Unlock()
		id = x.routes.OpenFlow(ctx, b, key)
		x.mu.Lock()
	}
	if id == "" {
		id = wire.NewID()
		if x.era.MultiRoundTrip() {
			x.state.Flows[key] = id
		}
	}
	return id
}

// Ask implements Asker. A re-ask (req.Attempt > 0) is asked under the key
// of the last ask with the same key, unless req.Retries re-asks of that
// key were used, when it returns an error matching ErrRetriesUsed. On
// 2026-07-28 the re-ask is another input_required round for the same key,
// counted in the sealed state, so the retries span the rounds.
func (x *Exchange) Ask(ctx context.Context, req *runtime.Request) (*runtime.Response, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if req == nil || (req.Mode == runtime.ModeForm && req.Schema == nil) {
		return nil, errors.New("elicit: ask: form request without schema")
	}
	if req.Key != "" {
		if err := wire.CheckKey(req.Key); err != nil {
			return nil, err
		}
	}
	x.mu.Lock()
	key, err := x.nextKey(req)
	if err != nil {
		x.mu.Unlock()
		return nil, err
	}
	if !x.expired { // an expired call delivers nothing: its time is over
		if d, err := x.route(ctx, key, req); err != nil || d != nil {
			if req.Attempt > 0 {
				delete(x.state.Flows, key)
			}
			x.mu.Unlock()
			if err != nil {
				return nil, err
			}
			return x.deliver(ctx, key, req, d)
		}
	}
	if !x.era.MultiRoundTrip() {
		x.mu.Unlock()
		if x.obs != nil {
			return x.observePush(ctx, key, req)
		}
		return x.askPush(ctx, req)
	}
	defer x.mu.Unlock()
	switch {
	case req.Attempt == 0 && x.obs != nil:
		return x.observeModern(ctx, key, req)
	case req.Attempt == 0:
		return x.askModern(key, req)
	case x.obs != nil:
		return nil, x.observeRetry(ctx, key, req)
	}
	if err := x.checkCaps(req); err != nil {
		return nil, err
	}
	return nil, x.addPending(key, req)
}

// nextKey returns the inputRequests key of req and counts it: a new key
// for a first ask; for a re-ask the last ask's, while re-asks are left
// (ErrRetriesUsed otherwise), without its answer. It runs with x.mu held.
func (x *Exchange) nextKey(req *runtime.Request) (string, error) {
	base := baseKey(req)
	if req.Attempt == 0 {
		x.counts[base]++
		return numberedKey(base, x.counts[base]), nil
	}
	key := numberedKey(base, x.counts[base])
	rk := retryKey(key)
	used, _ := strconv.Atoi(x.state.Flows[rk]) // push era: never sealed, counted all the same
	if used >= req.Retries {
		return "", runtime.ErrRetriesUsed
	}
	x.state.Flows[rk] = strconv.Itoa(used + 1)
	delete(x.state.Answers, key)
	return key, nil
}

func (x *Exchange) unavailable(req *runtime.Request, reason string) error {
	return &runtime.UnavailableError{Reason: reason, Mode: req.Mode, Schema: req.Schema, Message: req.Message}
}

func (x *Exchange) checkCaps(req *runtime.Request) error {
	v := x.call.Version
	switch {
	case !x.era.CanElicit():
		return x.unavailable(req, "protocol version "+v+" has no elicitation")
	case req.Mode == runtime.ModeURL && !x.era.URLMode():
		return x.unavailable(req, "URL mode needs protocol version 2025-11-25 or later, the client speaks "+v)
	case !x.call.Caps.Allows(req.Mode):
		if req.Mode == runtime.ModeURL {
			return x.unavailable(req, "the client did not declare URL-mode elicitation")
		}
		if x.call.Caps.URL {
			return x.unavailable(req, "the client declared only URL-mode elicitation")
		}
		return x.unavailable(req, "the client did not declare the elicitation capability")
	}
	if req.Mode == runtime.ModeForm && x.era.LegacySchema() {
		if reason := req.Schema.LegacyUnavailable(); reason != "" {
			return x.unavailable(req, reason)
		}
	}
	return nil
}

func (x *Exchange) askPush(ctx context.Context, req *runtime.Request) (*runtime.Response, error) {
	if err := x.checkCaps(req); err != nil {
		return nil, err
	}
	if x.call.Push == nil {
		return nil, x.unavailable(req, "the adapter has no way to send elicitation/create")
	}
	if req.Mode == runtime.ModeURL && req.ElicitationID == "" {
		r := *req
		r.ElicitationID = wire.NewID()
		req = &r
	}
	return exact.AcceptContent(req)(x.call.Push.Ask(ctx, req))
}

// askModern runs with x.mu held.
func (x *Exchange) askModern(key string, req *runtime.Request) (*runtime.Response, error) {
	if x.needClaim && !x.claimed {
		return nil, errUnclaimed
	}
	if x.expired {
		return runtime.ExpiredDecline(), nil
	}
	if r, ok := x.state.Answer(key); ok {
		x.noteReplayed(key)
		return r, nil
	}
	if reason, bad := x.call.Malformed[key]; bad {
		name := ""
		if req.Schema != nil {
			name = req.Schema.Name
		}
		return nil, fmt.Errorf("%w: %w", runtime.ErrMalformedInput, &runtime.ValidationError{Form: name, Fields: []*runtime.FieldError{{Msg: "inputResponses[" + strconv.Quote(key) + "]: " + reason}}})
	}
	if r, ok := x.call.Responses[key]; ok && r != nil && (!x.askedFirst && !req.AskedFirst || x.state.WasAsked(key)) {
		if _, err := exact.AcceptContent(req)(r, nil); err != nil {
			return nil, err
		}
		x.state.Answers[key] = r
		if req.Mode == runtime.ModeURL && x.state.Flows[key] == "" && req.ElicitationID != "" {
			x.state.Flows[key] = req.ElicitationID
		}
		return r, nil
	}
	if err := x.checkCaps(req); err != nil {
		return nil, err
	}
	return nil, x.addPending(key, req)
}

// addPending runs with x.mu held.
func (x *Exchange) addPending(key string, req *runtime.Request) error {
	r := *req
	if r.Mode == runtime.ModeURL {
		id := x.state.Flows[key]
		if id == "" {
			id = r.ElicitationID
			if id == "" {
				id = wire.NewID()
			}
			x.state.Flows[key] = id
		}
		r.ElicitationID = id
	}
	e := &runtime.InputRequiredError{Key: key, Request: &r}
	x.pending = append(x.pending, e)
	return e
}

// Pending returns the questions the handler could not get answered in
// this round, in the order asked (2026-07-28 only).
func (x *Exchange) Pending() []*runtime.InputRequiredError {
	x.mu.Lock()
	defer x.mu.Unlock()
	return append([]*runtime.InputRequiredError(nil), x.pending...)
}

// SealState returns a fresh requestState carrying every answer so far,
// the flow ids of URL-mode requests and the keys of the questions pending
// in this round (those it asks), bound to this call, and the replay
// store's epoch (asked of the store when the call made no claim; a store
// that cannot answer fails it with an error matching
// seal.ErrReplayStore).
func (x *Exchange) SealState() (string, error) {
	epoch, err := x.epoch()
	if err != nil {
		return "", err
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.obs != nil {
		x.noteSeal()
	}
	x.state.Epoch = epoch
	x.state.Asked = x.state.Asked[:0]
	// The state lives as long as its longest question waits
	// (runtime.WithWait; StateTTL for a question without one).
	sealer, ttl := x.sealer, x.sealer.TTL
	if ttl <= 0 {
		ttl = seal.DefaultStateTTL
	}
	longest := time.Duration(0)
	for _, p := range x.pending {
		x.state.Asked = append(x.state.Asked, p.Key)
		longest = max(longest, cmp.Or(x.wait(p.Request), ttl))
	}
	if longest > 0 && longest != ttl {
		s := *sealer
		s.TTL, sealer = longest, &s
	}
	return sealer.Seal(x.binding(), &x.state)
}

// ReplyKind says what a tool wrapper must send after the handler ran.
type ReplyKind uint8

const (
	// ReplyResult: send the handler's own result, or Reply.Err if set.
	ReplyResult ReplyKind = iota
	// ReplyInputRequired: an input_required result with Reply.Requests
	// as inputRequests and Reply.State as requestState (2026-07-28).
	ReplyInputRequired
	// ReplyInvalidParams: JSON-RPC -32602 with Reply.Message.
	ReplyInvalidParams
	// ReplyMissingCapability: JSON-RPC -32021 with Reply.Message and
	// Reply.Data (requiredCapabilities), 2026-07-28.
	ReplyMissingCapability
	// ReplyToolError: a tool result with isError and Reply.Text.
	ReplyToolError
	// ReplyURLRequired: JSON-RPC -32042 listing Reply.Requests
	// (2025-11-25).
	ReplyURLRequired
	// ReplyLink: a tool result with Reply.Text, which carries the links
	// of hosted pages and tells the model to show them to the person and
	// call the tool again (RenderingLink). It is an error result
	// (isError): the tool has not acted.
	ReplyLink
)

// Reply is the decision of Exchange.Reply.
type Reply struct {
	// Kind says what to send.
	Kind ReplyKind
	// Requests are the inputRequests, by key (ReplyInputRequired), or the
	// URL-mode requests of a -32042 error (ReplyURLRequired).
	Requests []*runtime.InputRequiredError
	// State is the fresh sealed requestState (ReplyInputRequired).
	State string
	// Message is the JSON-RPC error message.
	Message string
	// Data is the JSON-RPC error data (ReplyMissingCapability).
	Data map[string]any
	// Text is the tool error text (ReplyToolError).
	Text string
	// Err is the handler's error, or a sealing failure (ReplyResult).
	Err error
}

// Language is the language of an input_required reply's questions
// (Request.Language), reported in the result's _meta under
// MetaKeyContentLanguage: "" unless every question has the same one.
func (r *Reply) Language() string {
	lang := ""
	for i, q := range r.Requests {
		if q.Request == nil || q.Request.Language == "" || i > 0 && q.Request.Language != lang {
			return ""
		}
		lang = q.Request.Language
	}
	return lang
}

// Reply decides what the adapter sends once the handler returned
// handlerErr, applying policy to "cannot ask" failures:
//
//   - a 2026-07-28 call with unanswered questions gets input_required
//     (whatever the handler returned: on the retry it will get its
//     answer), with fresh sealed state;
//   - a *URLRequiredError gets -32042 (2025-11-25) or input_required
//     (2026-07-28);
//   - an error matching ErrUnavailable follows policy;
//   - an invalid answer (ErrInvalidContent, ErrInvalidAction) gets
//     -32602 naming the fields;
//   - anything else is the handler's own result or error.
func (x *Exchange) Reply(handlerErr error, policy runtime.UnavailablePolicy) Reply {
	var ure *deliver.URLRequiredError
	if errors.As(handlerErr, &ure) && len(ure.Requests) > 0 {
		switch {
		case x.era.MultiRoundTrip() && x.call.Caps.URL:
			x.mu.Lock()
			for _, r := range ure.Requests {
				base := baseKey(r)
				x.counts[base]++
				_ = x.addPending(numberedKey(base, x.counts[base]), r)
			}
			x.mu.Unlock()
		case x.era.URLRequiredError() && x.call.Caps.URL:
			reqs := make([]*runtime.InputRequiredError, len(ure.Requests))
			for i, r := range ure.Requests {
				reqs[i] = &runtime.InputRequiredError{Key: r.ElicitationID, Request: r}
			}
			return Reply{Kind: ReplyURLRequired, Requests: reqs, Message: "URL elicitation required"}
		default:
			r := ure.Requests[0]
			reason := "the client did not declare URL-mode elicitation"
			if !x.era.URLMode() {
				reason = "URL mode needs protocol version 2025-11-25 or later"
			}
			handlerErr = x.unavailable(r, reason)
		}
	}
	if links := x.Links(); len(links) > 0 {
		return Reply{Kind: ReplyLink, Text: deliver.LinkText(x.call.Tool, links, x.now())}
	}
	if x.era.MultiRoundTrip() {
		if pending := x.Pending(); len(pending) > 0 {
			state, err := x.SealState()
			if err != nil {
				return Reply{Kind: ReplyResult, Err: err}
			}
			return Reply{Kind: ReplyInputRequired, Requests: pending, State: state}
		}
	}
	if handlerErr == nil {
		return Reply{Kind: ReplyResult}
	}
	if errors.Is(handlerErr, runtime.ErrUnavailable) && errors.Is(handlerErr, runtime.ErrNotApprover) && policy != runtime.UnavailablePassThrough {
		return Reply{Kind: ReplyToolError, Text: approvalText(handlerErr), Err: handlerErr}
	}
	if errors.Is(handlerErr, runtime.ErrUnavailable) {
		mode := runtime.ModeForm
		var ue *runtime.UnavailableError
		if errors.As(handlerErr, &ue) && ue.Mode == runtime.ModeURL {
			mode = runtime.ModeURL
		}
		missing := Reply{Kind: ReplyMissingCapability, Message: MissingCapabilityMessage(x.call.Tool, mode), Data: MissingCapabilityData(mode), Err: handlerErr}
		switch policy {
		case runtime.UnavailableAuto:
			if x.era.MultiRoundTrip() {
				return missing
			}
			return Reply{Kind: ReplyToolError, Text: runtime.AskUserText(handlerErr), Err: handlerErr}
		case runtime.UnavailableToolError:
			return Reply{Kind: ReplyToolError, Text: runtime.AskUserText(handlerErr), Err: handlerErr}
		case runtime.UnavailableMissingCapability:
			if x.era.MultiRoundTrip() {
				return missing
			}
		}
		return Reply{Kind: ReplyResult, Err: handlerErr}
	}
	if errors.Is(handlerErr, runtime.ErrInvalidContent) || errors.Is(handlerErr, runtime.ErrInvalidAction) {
		return Reply{Kind: ReplyInvalidParams, Message: handlerErr.Error(), Err: handlerErr}
	}
	return Reply{Kind: ReplyResult, Err: handlerErr}
}

// InvalidStateMessage returns the -32602 message for a requestState that
// failed to open with err, or for err from CheckInputResponses.
func InvalidStateMessage(err error) string {
	if errors.Is(err, ErrTooManyInputResponses) {
		return "invalid inputResponses: " + err.Error()
	}
	if errors.Is(err, ErrAmbiguousArguments) {
		return "invalid arguments: " + err.Error()
	}
	return "invalid requestState: " + err.Error()
}

// An Exchange tells the runtime all it knows of its call (see
// runtime.Asker): a method misspelt here would silently lose it.
var _ interface {
	runtime.Asker
	LanguagePreference() string
	ProtocolVersion() string
	CheckAsk(req *runtime.Request) error
	NextFlowID(ctx context.Context, key string) string
	SameInvalidAnswer(req *runtime.Request, digest string) bool
	Decided(ctx context.Context, d *runtime.Decision) error
} = (*Exchange)(nil)

// LanguagePreference returns the person's language preference the
// adapter put in Call.Language (see runtime.Asker).
func (x *Exchange) LanguagePreference() string { return x.call.Language }

// ProtocolVersion returns the call's protocol version (see runtime.Asker).
func (x *Exchange) ProtocolVersion() string { return x.call.Version }

// CheckAsk applies the checks of Ask (see runtime.Asker: protocol
// version, declared modes, what a 2025-06-18 form can express) without
// asking.
func (x *Exchange) CheckAsk(req *runtime.Request) error {
	if req == nil || (req.Mode == runtime.ModeForm && req.Schema == nil) {
		return nil
	}
	return x.checkCaps(req)
}

// retryKey names the retry count of key in State.Flows. Flows keys are
// otherwise inputRequests keys, which never contain '!'.
func retryKey(key string) string { return "!retries:" + key }
