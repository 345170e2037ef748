package page

import (
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/internal/wire"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// Defaults of a Config.
const (
	// DefaultTTL is how long a page stays open when neither the question
	// nor the Config says.
	DefaultTTL = 15 * time.Minute
	// DefaultKeep is how long an answer waits to be taken after its page
	// expires.
	DefaultKeep = 10 * time.Minute
	// DefaultMaxBody bounds the body of a post.
	DefaultMaxBody = 64 << 10
	// DefaultMaxValue bounds one posted value, in bytes.
	DefaultMaxValue = 8 << 10
	// DefaultMaxQuestion bounds what one page stores of its question, in
	// bytes: the form's schema with its prefilled defaults and options,
	// and the message.
	DefaultMaxQuestion = 16 << 10
)

// Config configures Pages. Keys is required, and so is one of Identity
// and LinkOnly.
type Config struct {
	// Keys seal the page and CSRF tokens. Instances that serve one
	// another's pages share the key ring (and the Store).
	Keys *seal.KeyRing
	// Store keeps questions and answers; nil means a new MemoryStore,
	// which only this instance sees.
	Store Store
	// BaseURL is the absolute URL under which the handler is mounted,
	// ending in "/" ("https://mcp.example.com/elicit/"). A link is
	// BaseURL followed by the page's token. It must be https, or http on
	// a loopback host.
	BaseURL string
	// Identity returns the person an HTTP request comes from, and false
	// when it names nobody. It must read the same identity the MCP side
	// reads for its principal (for example a header an identity-aware
	// proxy sets, or a session cookie). A page is shown, and its answer
	// counted, only to the call's principal.
	Identity func(*http.Request) (principal string, ok bool)
	// LinkOnly, without Identity, lets anyone who holds a link answer
	// it: the person, but also the model, a log reader, anyone the link
	// is forwarded to. It is ignored when Identity is set.
	LinkOnly bool
	// TTL is how long a page stays open when the question sets no
	// expiry; DefaultTTL when zero.
	TTL time.Duration
	// Keep is how long an answer can still be taken after its page
	// expired; DefaultKeep when zero.
	Keep time.Duration
	// MaxBody bounds the body of a post; DefaultMaxBody when zero.
	MaxBody int64
	// MaxValue bounds one posted value in bytes; DefaultMaxValue when
	// zero.
	MaxValue int
	// MaxQuestion bounds what one page stores of its question (schema,
	// prefill and message, encoded) in bytes; DefaultMaxQuestion when
	// zero. A larger question is refused (ErrQuestionTooLarge), so that
	// the store's budgets (Store) bound its memory.
	MaxQuestion int
	// Validate, when set, checks an answer that passed the schema's
	// rules, for rules only Go code states (the form type's CheckElicit):
	// form is the schema's name. Every instance serving pages must set
	// the same.
	Validate func(form string, content map[string]any) error
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Name is the server's name as the person knows it ("Acme
	// deploys"): each page says that it asks, and for which tool. ""
	// names only the tool.
	Name string
	// Member resolves the groups of a question's approver policy
	// (runtime.WithApprovers): whether a principal belongs to a group.
	// Nil admits no group member; every instance serving pages must set
	// the same.
	Member runtime.MemberFunc
	// Refused, when set, hears every answer (and page view) the page
	// refuses because of who gave it: the requester of a question that
	// excludes them (runtime.WithApprovers), someone the policy does not
	// name (or, without a policy, anyone but the call's principal), the
	// same approver twice, an approval that differs from the first, an
	// approval without a valid passkey step-up (runtime.WithStepUp),
	// another approver's one-time link. It is the place to record them
	// (an audit log, receipt.Refusals for a signed receipt); it runs
	// before the refusal is written, and the page records no answer and
	// refuses all the same, whatever it does.
	Refused func(ctx context.Context, r Refusal)
	// Messages writes the runtime's sentences about invalid fields on
	// the page, in the page's language (runtime.WithMessages's catalog);
	// nil is the built-in one (English, Japanese).
	Messages *runtime.Catalog
	// Notify, when set, delivers each allowed approver of a new approval
	// page (runtime.WithApprovers) a one-time link to it (Notice): the
	// policy's principals, and the members of its groups that Members
	// lists. Nil sends nothing: the requester passes the link on.
	Notify Notifier
	// NotifyFailed, when set, hears each notice Notify failed to deliver
	// (the page is issued all the same).
	NotifyFailed func(ctx context.Context, n Notice, err error)
	// Members lists the members of a group, for Notify (Member still
	// decides who may answer); nil notifies the policy's principals only.
	Members func(ctx context.Context, group string) ([]string, error)
	// StepUp checks the passkey step-up of questions asked with
	// runtime.WithStepUp (package runtime/passkey implements it with
	// WebAuthn); nil refuses to issue such a question. Every instance
	// serving pages must set one over the same credentials.
	StepUp StepUp
}

// Pages issues hosted form pages and serves them: it is the http.Handler
// to mount under Config.BaseURL's path. It is safe for concurrent use.
type Pages struct {
	cfg   Config
	store Store
	base  *url.URL
	path  string // base's path, ending in "/"
}

// New checks cfg and returns the Pages it configures.
func New(cfg Config) (*Pages, error) {
	if cfg.Keys == nil {
		return nil, errors.New("elicit page: Config.Keys is required")
	}
	if cfg.Identity == nil && !cfg.LinkOnly {
		return nil, errors.New("elicit page: Config.Identity is required (or opt in to Config.LinkOnly: then anyone holding a link can answer it, the model included)")
	}
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || !u.IsAbs() || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || !strings.HasSuffix(u.Path, "/") {
		return nil, fmt.Errorf("elicit page: Config.BaseURL %q must be an absolute URL ending in \"/\", without query or fragment", cfg.BaseURL)
	}
	probe := u.String() + "x"
	if err := wire.CheckURL(probe); err != nil {
		return nil, fmt.Errorf("elicit page: Config.BaseURL: %w", err)
	}
	p := &Pages{cfg: cfg, store: cfg.Store, base: u, path: u.Path}
	if p.store == nil {
		p.store = NewMemoryStore()
	}
	if p.cfg.TTL <= 0 {
		p.cfg.TTL = DefaultTTL
	}
	if p.cfg.Keep <= 0 {
		p.cfg.Keep = DefaultKeep
	}
	if p.cfg.MaxBody <= 0 {
		p.cfg.MaxBody = DefaultMaxBody
	}
	if p.cfg.MaxValue <= 0 {
		p.cfg.MaxValue = DefaultMaxValue
	}
	if p.cfg.MaxQuestion <= 0 {
		p.cfg.MaxQuestion = DefaultMaxQuestion
	}
	return p, nil
}

// Store returns the store the pages use.
func (p *Pages) Store() Store { return p.store }

func (p *Pages) now() time.Time {
	if p.cfg.Now != nil {
		return p.cfg.Now()
	}
	return time.Now()
}

// Question is what a page asks: one form of one call.
type Question struct {
	// ID names the page; "" gives a random one. A caller that must find
	// the page again by an id it already holds (a URL-mode flow id) sets
	// it; issuing again with the ID of an open page of the same call
	// returns a new link to that page.
	ID string
	// Key names the question within its call (runtime.Request.Key, or
	// the schema's name when ""), for Find.
	Key string
	// Schema is the form as asked: translated for the person, with
	// ask-time options and defaults applied (runtime.Request.Schema).
	Schema *runtime.Schema
	// Message is the question's text (runtime.Request.Message).
	Message string
	// Language is the BCP 47 tag of the language of Schema and Message
	// (runtime.Request.Language); "" for the form's source text, taken
	// to be English.
	Language string
	// Preference is the person's language preference the call carried
	// (runtime.LanguagePreference: a tag or an Accept-Language list), ""
	// when none. The page's own words (buttons, headings, hints, errors)
	// follow Preference, then Language, then the browser's
	// Accept-Language, so that they are in the person's language even
	// when the form has no translation.
	Preference string
	// Call binds the page to one call: its tool, the digest of its
	// arguments and its principal (seal.BindCall).
	Call seal.Binding
	// Client is the key under which the page counts against the store's
	// budget per client: the call's principal where it has one, else
	// what the transport knows of the client (adapter.ReplayClient); ""
	// counts against the total only.
	Client string
	// Expires is when the page closes; zero means TTL from now.
	Expires time.Time
	// TTL is how long the page stays open when Expires is zero (the
	// question's runtime.WithWait); zero means Config.TTL.
	TTL time.Duration
	// Approvers is who may answer the page (runtime.WithApprovers): nil
	// means the call's principal only. A page with a policy needs
	// Config.Identity.
	Approvers *runtime.Approvers
	// StepUp: an approval counts only with a passkey step-up
	// (runtime.WithStepUp, Config.StepUp).
	StepUp bool
	// ClientContinues: the person's client goes on with the call once
	// they come back to it (a 2026-07-28 URL-mode request, whose retry
	// takes the answer), so after an answer the page tells them to go
	// back and confirm there, rather than to make the request again.
	ClientContinues bool
}

// QuestionFor returns the question of req, a form-mode request as an
// Asker receives it, for the call b; its key is KeyFor(req).
func QuestionFor(req *runtime.Request, b seal.Binding) *Question {
	return &Question{Key: KeyFor(req), Schema: req.Schema, Message: req.Message, Language: req.Language, Call: b, Approvers: req.Approvers, StepUp: req.StepUp}
}

// KeyFor returns the key that names req's question within its call, for
// Find: the request's Key, or its form's name when it has none.
func KeyFor(req *runtime.Request) string {
	if req.Key != "" || req.Schema == nil {
		return req.Key
	}
	return req.Schema.Name
}

// Link is an issued page.
type Link struct {
	// ID names the page in the Store (for Take).
	ID string
	// URL opens the page: Config.BaseURL followed by its token.
	URL string
	// Expires is when the page closes.
	Expires time.Time
}

// Errors of Issue, Take and the page handler, besides the Store's
// (ErrNotFound, ErrAnswered, ErrNotAnswered, ErrTaken).
var (
	// ErrInvalidLink: a token that does not open (tampered, or sealed
	// under other keys).
	ErrInvalidLink = errors.New("elicit page: invalid link")
	// ErrExpired: the page closed before it was answered.
	ErrExpired = errors.New("elicit page: expired")
	// ErrForeign: the page belongs to another call (another tool,
	// arguments or principal).
	ErrForeign = errors.New("elicit page: page of another call")
	// ErrStore: the store failed; nothing was recorded.
	ErrStore = errors.New("elicit page: answer store unavailable")
	// ErrQuestionTooLarge: the question (schema, prefill and message)
	// exceeds Config.MaxQuestion; no page was issued.
	ErrQuestionTooLarge = errors.New("elicit page: question too large for a page")
)

// stored is a question as kept in the Store.
type stored struct {
	Key       string            `json:"key"`
	Form      string            `json:"form"`
	Schema    json.RawMessage   `json:"schema"`
	Patterns  map[string]string `json:"patterns,omitempty"`
	Message   string            `json:"message"`
	Language  string            `json:"lang,omitempty"`
	Tool      string            `json:"tool"`
	Args      string            `json:"args"`
	Principal string            `json:"principal,omitempty"`
	Expires   int64             `json:"expires"` // Unix milliseconds
	// Issued is when the page was issued, in Unix milliseconds (0 for a
	// page stored by an earlier release).
	Issued int64 `json:"issued,omitempty"`

	// The other server-side rules JSON schemas do not carry: pattern
	// messages by property, the boxes tagged confirm.
	PatternMessages map[string]string `json:"patternMessages,omitempty"`
	Confirm         []string          `json:"confirm,omitempty"`
	// Preference is Question.Preference.
	Preference string `json:"pref,omitempty"`
	// Approvers is Question.Approvers.
	Approvers *runtime.Approvers `json:"approvers,omitempty"`
	// StepUp is Question.StepUp.
	StepUp bool `json:"stepUp,omitempty"`
	// ClientContinues is Question.ClientContinues.
	ClientContinues bool `json:"cc,omitempty"`
}

// answer is an answer as kept in the Store.
type answer struct {
	Action  runtime.Action `json:"action"`
	Content map[string]any `json:"content,omitempty"`
	// By are the approvers who gave it (runtime.WithApprovers), in order.
	By []string `json:"by,omitempty"`
	// Verified is "passkey" when every approval passed a step-up
	// (Question.StepUp).
	Verified string `json:"verified,omitempty"`
}

func (s *stored) binding() seal.Binding {
	b := seal.Binding{Tool: s.Tool, Principal: s.Principal}
	if d, err := hex.DecodeString(s.Args); err == nil && len(d) == len(b.ArgsDigest) {
		copy(b.ArgsDigest[:], d)
	}
	return b
}

// question is a decoded stored question.
type question struct {
	stored
	schema  *runtime.Schema
	expires time.Time
}

func decodeQuestion(b []byte) (*question, error) {
	var q question
	if err := json.Unmarshal(b, &q.stored); err != nil {
		return nil, fmt.Errorf("%w: stored question does not decode: %v", ErrStore, err)
	}
	s, err := runtime.ParseSchema(q.Form, q.Schema)
	if err != nil {
		return nil, fmt.Errorf("%w: stored schema: %v", ErrStore, err)
	}
	for name, re := range q.Patterns {
		if pr := s.Property(name); pr != nil {
			pr.Pattern = re
		}
	}
	for name, msg := range q.PatternMessages {
		if pr := s.Property(name); pr != nil {
			pr.PatternMessage = msg
		}
	}
	for _, name := range q.Confirm {
		if pr := s.Property(name); pr != nil && pr.Kind == runtime.KindBoolean {
			pr.Confirm = true
		}
	}
	q.schema = s
	q.expires = time.UnixMilli(q.Expires)
	return &q, nil
}

// callKey is the Store's key for the question key of the call b.
func callKey(b seal.Binding, key string) string {
	h := sha256.New()
	for _, s := range []string{"elicitgen page call", b.Tool, string(b.ArgsDigest[:]), b.Principal, key} {
		var n [binary.MaxVarintLen64]byte
		h.Write(n[:binary.PutUvarint(n[:], uint64(len(s)))])
		h.Write([]byte(s))
	}
	return hex.EncodeToString(h.Sum(nil))
}

func newID() string {
	var b [16]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	return hex.EncodeToString(b[:])
}

// validID reports whether id may name a page: 1 to 128 letters, digits,
// '-' and '_'.
func validID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// Issue stores q and returns the link to its page. A question with
// Identity configured must have a principal (Call.Principal): nobody else
// could answer it.
func (p *Pages) Issue(ctx context.Context, q *Question) (*Link, error) {
	if q == nil || q.Schema == nil {
		return nil, errors.New("elicit page: issue: no question schema")
	}
	if q.Approvers != nil {
		if p.cfg.Identity == nil {
			return nil, errors.New("elicit page: issue: a question with approvers needs Config.Identity, to tell the approvers apart")
		}
		if err := q.Approvers.Check(); err != nil {
			return nil, fmt.Errorf("elicit page: issue: %w", err)
		}
	}
	if q.StepUp && (p.cfg.Identity == nil || p.cfg.StepUp == nil) {
		return nil, errors.New("elicit page: issue: a question with a passkey step-up needs Config.Identity and Config.StepUp")
	}
	if p.cfg.Identity != nil && q.Call.Principal == "" {
		return nil, errors.New("elicit page: issue: the call has no principal, and Config.Identity admits only the call's principal to its page")
	}
	now := p.now()
	expires := q.Expires
	if expires.IsZero() {
		expires = now.Add(cmp.Or(q.TTL, p.cfg.TTL))
	}
	if !expires.After(now.Add(time.Second)) {
		return nil, fmt.Errorf("elicit page: issue: expiry %s is not in the future", expires.Format(time.RFC3339))
	}
	key := q.Key
	if key == "" {
		key = q.Schema.Name
	}
	schema, err := q.Schema.JSON(runtime.LatestVersion)
	if err != nil {
		return nil, fmt.Errorf("elicit page: issue: %w", err)
	}
	st := stored{
		Key: key, Form: q.Schema.Name, Schema: schema, Message: q.Message, Language: q.Language, Preference: q.Preference,
		Tool: q.Call.Tool, Args: hex.EncodeToString(q.Call.ArgsDigest[:]), Principal: q.Call.Principal,
		Expires: expires.UnixMilli(), Issued: now.UnixMilli(), Approvers: q.Approvers, StepUp: q.StepUp, ClientContinues: q.ClientContinues,
	}
	for i := range q.Schema.Properties {
		if pr := &q.Schema.Properties[i]; pr.Pattern != "" {
			if st.Patterns == nil {
				st.Patterns = map[string]string{}
			}
			st.Patterns[pr.Name] = pr.Pattern
		}
		if pr := &q.Schema.Properties[i]; pr.PatternMessage != "" {
			if st.PatternMessages == nil {
				st.PatternMessages = map[string]string{}
			}
			st.PatternMessages[pr.Name] = pr.PatternMessage
		}
		if pr := &q.Schema.Properties[i]; pr.Confirm {
			st.Confirm = append(st.Confirm, pr.Name)
		}
	}
	enc, err := json.Marshal(&st)
	if err != nil {
		return nil, fmt.Errorf("elicit page: issue: %w", err)
	}
	if len(enc) > p.cfg.MaxQuestion {
		return nil, fmt.Errorf("%w: %d bytes (the message %d, the schema with its prefill %d), at most %d", ErrQuestionTooLarge, len(enc), len(q.Message), len(schema), p.cfg.MaxQuestion)
	}
	id := q.ID
	if id == "" {
		id = newID()
	} else if !validID(id) {
		return nil, fmt.Errorf("elicit page: issue: page id %q: want 1 to 128 letters, digits, '-' or '_'", id)
	}
	rec := Record{ID: id, Call: callKey(q.Call, key), Client: q.Client, Question: enc, Closes: expires, Until: expires.Add(p.cfg.Keep)}
	if err := p.store.Put(ctx, rec); err != nil {
		if !errors.Is(err, ErrExists) || q.ID == "" {
			return nil, storeErr("issue", err)
		}
		// Issued before: a new link to the same page, if it is this
		// call's and still open.
		e, gerr := p.store.Get(ctx, id)
		if gerr != nil {
			return nil, storeErr("issue", gerr)
		}
		old, derr := decodeQuestion(e.Question)
		if derr != nil {
			return nil, derr
		}
		switch {
		case old.binding() != q.Call || old.Key != key:
			return nil, fmt.Errorf("elicit page: issue: page id %q: %w", id, ErrForeign)
		case e.Status != StatusOpen:
			return nil, fmt.Errorf("elicit page: issue: page id %q: %w", id, ErrAnswered)
		case !now.Before(old.expires):
			return nil, fmt.Errorf("elicit page: issue: page id %q: %w", id, ErrExpired)
		}
		expires = old.expires
		// Filed again (File is idempotent), in case the first filing
		// failed; the approvers were notified when it was new.
		if err := p.file(ctx, id, old); err != nil {
			return nil, storeErr("issue", err)
		}
	} else if q.Approvers != nil {
		if err := p.issued(ctx, id, &question{stored: st, expires: expires}); err != nil {
			return nil, storeErr("issue", err)
		}
	}
	tok, err := p.sealPage(id, q.Call, now, expires)
	if err != nil {
		return nil, err
	}
	return &Link{ID: id, URL: p.base.String() + tok, Expires: expires}, nil
}

// storeErr wraps a failure of the store in ErrStore, keeping the Store's
// own sentinel errors matchable.
func storeErr(op string, err error) error {
	for _, e := range []error{ErrExists, ErrNotFound, ErrAnswered, ErrNotAnswered, ErrTaken, ErrStore} {
		if errors.Is(err, e) {
			return fmt.Errorf("elicit page: %s: %w", op, err)
		}
	}
	return fmt.Errorf("elicit page: %s: %w: %w", op, ErrStore, err)
}

// Take returns the answer given on page id, once, for the call b: an
// accept (its content checked against the page's schema) or a decline.
// It fails with ErrNotAnswered while the page is open, ErrExpired when it
// closed unanswered, ErrTaken when the answer was taken already,
// ErrForeign when the page belongs to another call (the tool, arguments
// or principal differ), ErrNotFound when there is no such page, and
// ErrStore when the store fails.
func (p *Pages) Take(ctx context.Context, id string, b seal.Binding) (*runtime.Response, error) {
	e, err := p.store.Get(ctx, id)
	if err != nil {
		return nil, storeErr("take", err)
	}
	q, err := decodeQuestion(e.Question)
	if err != nil {
		return nil, err
	}
	if q.binding() != b {
		return nil, fmt.Errorf("elicit page: take: %w", ErrForeign)
	}
	switch e.Status {
	case StatusOpen:
		if !p.now().Before(q.expires) {
			return nil, fmt.Errorf("elicit page: take: %w", ErrExpired)
		}
		return nil, fmt.Errorf("elicit page: take: %w", ErrNotAnswered)
	case StatusTaken:
		return nil, fmt.Errorf("elicit page: take: %w", ErrTaken)
	}
	raw, err := p.store.Take(ctx, id)
	if err != nil {
		return nil, storeErr("take", err)
	}
	var a answer
	if err := json.Unmarshal(raw, &a); err != nil || !a.Action.Valid() {
		return nil, fmt.Errorf("elicit page: take: %w: stored answer does not decode", ErrStore)
	}
	return &runtime.Response{Action: a.Action, Content: a.Content, Approvers: a.By, Verified: a.Verified}, nil
}

// Find returns the id of the page last issued for the question key of
// the call b (Question.Key, or the schema's name when that was empty: as
// KeyFor returns it for a request), so that the same call made again can
// take the answer given on the page: ErrNotFound when there is none.
func (p *Pages) Find(ctx context.Context, b seal.Binding, key string) (string, error) {
	id, err := p.store.Find(ctx, callKey(b, key))
	if err != nil {
		return "", storeErr("find", err)
	}
	return id, nil
}

// DefaultPoll is how often Wait looks for an answer.
const DefaultPoll = 500 * time.Millisecond

// Wait takes the answer of page id for the call b as soon as it is given
// (looking every DefaultPoll, or poll when positive), for a handler that
// holds the call open while the person answers (URL mode on 2025-11-25).
// It returns what Take returns, except that it keeps waiting while the
// page is open, and returns ctx's error when ctx ends first.
func (p *Pages) Wait(ctx context.Context, id string, b seal.Binding, poll time.Duration) (*runtime.Response, error) {
	if poll <= 0 {
		poll = DefaultPoll
	}
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		resp, err := p.Take(ctx, id, b)
		if !errors.Is(err, ErrNotAnswered) {
			return resp, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}
