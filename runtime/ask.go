package runtime

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/elicitgen/elicitgen/runtime/internal/wire"
)

// AskOption changes one call to Ask.
type AskOption func(*askConfig)

type askConfig struct {
	timeout  time.Duration
	wait     time.Duration
	key      string
	keySet   bool
	options  []fieldValue
	defaults []fieldValue
	title    string
	retries  int
	// locale is the WithLocale preference; localeSet tells it from none.
	locale    string
	localeSet bool
	// args says the question asks for missing tool arguments (AskMissing).
	args bool
	// audit names the fields an Observer may see (WithAuditFields).
	audit []string
	// askedFirst is WithAskedFirst.
	askedFirst bool
	// rendering is WithRendering.
	rendering Rendering
	// messages is WithMessages (nil: the built-in catalog).
	messages *Catalog
	// approvers is WithApprovers (nil: the requester answers).
	approvers *Approvers
	// stepUp is WithStepUp.
	stepUp bool
}

// newAskConfig applies opts and checks what can be checked without a
// schema (the key).
func newAskConfig(opts []AskOption) (askConfig, error) {
	var cfg askConfig
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.keySet {
		if err := wire.CheckKey(cfg.key); err != nil {
			return cfg, fmt.Errorf("WithKey: %w", err)
		}
	}
	if err := cfg.approvers.Check(); err != nil {
		return cfg, fmt.Errorf("WithApprovers: %w", err)
	}
	return cfg, nil
}

type fieldValue struct {
	field string
	value any
}

// WithTimeout bounds how long this question waits for the user,
// independently of the tool's context. On expiry Ask returns an error
// matching ErrTimeout. Zero means no bound beyond ctx.
func WithTimeout(d time.Duration) AskOption {
	return func(c *askConfig) { c.timeout = d }
}

// WithWait sets how long this question stays open for a person, for
// approvals that wait hours or days: the 2026-07-28 sealed state that
// carries it, its hosted page and the replay store's record of it follow
// it (the default is the adapter's StateTTL, 15 minutes). An adapter caps
// it at its Options.MaxWait (30 days at most). It does not bound a
// 2025-era push, which waits on the request (see WithTimeout).
func WithWait(d time.Duration) AskOption {
	return func(c *askConfig) { c.wait = max(d, 0) }
}

// WithKey sets the key that names this question in a 2026-07-28
// inputRequests map (and in the sealed requestState), instead of the
// default: the form's Go type name, or "url" for a URL-mode question. A
// second ask with the same key in one call is keyed key#2, a third
// key#3, and so on. A key is 1 to MaxKeyLen characters of
// [A-Za-z0-9_.:-]; a bad one fails the ask, before anything is sent,
// with an error matching ErrInvalidKey. Push-era (2025) questions carry
// no key, so there the option changes nothing.
//
// Changing a question's key between releases drops the answers of calls
// in flight, as renaming the form would.
func WithKey(key string) AskOption {
	return func(c *askConfig) { c.key, c.keySet = key, true }
}

// WithOptions supplies the choices of a field tagged `options`: only these
// are offered, and the answer is checked against them.
func WithOptions(field string, opts ...Option) AskOption {
	return func(c *askConfig) { c.options = append(c.options, fieldValue{field, opts}) }
}

// WithDefault pre-fills field with value for this call (the current
// branch, the last address). The value must satisfy the field's rules.
// Multi-select values are []string.
func WithDefault(field string, value any) AskOption {
	return func(c *askConfig) { c.defaults = append(c.defaults, fieldValue{field, value}) }
}

// askDecode asks req and decodes an accepted answer with decode. An
// invalid answer is asked again, with its errors added to the message,
// as long as cfg.retries allows (see WithRetries). Each answer is
// decided once, here (decideAnswer, decideInvalid), and the Decision is
// reported to a's chain before anything returns: an accept that leaves a
// confirm box unticked returns as a decline, with the zero value.
func askDecode[T any](ctx context.Context, a Asker, req *Request, cfg *askConfig, decode func(s *Schema, content map[string]any) (T, error)) (Outcome[T], error) {
	var none Outcome[T]
	s := req.Schema
	var prev string // digest of the last invalid answer (see repeatedAnswer)
	if err := setAudit(req, cfg.audit); err != nil {
		return none, err
	}
	if !cfg.rendering.Valid() {
		return none, askErr(s.Name, fmt.Errorf("WithRendering: unknown rendering %q", cfg.rendering))
	}
	req.Rendering, req.Wait, req.Approvers, req.StepUp = cfg.rendering, cfg.wait, cfg.approvers, cfg.stepUp
	resp, err := ask(ctx, a, req, cfg.timeout)
	asked := req
	for tries := 0; ; tries++ {
		var invalid error
		var answer *Response
		switch {
		case err == nil && resp.Action == ActionAccept:
			v, derr := decode(s, resp.Content)
			if derr == nil {
				d := decideAnswer(asked, resp)
				if rerr := report(ctx, a, d); rerr != nil {
					return none, askErr(s.Name, rerr)
				}
				if d.Action != ActionAccept {
					return Outcome[T]{Action: d.Action}, nil
				}
				return Outcome[T]{Action: ActionAccept, Value: v}, nil
			}
			invalid, answer = derr, resp
		case err == nil:
			if rerr := report(ctx, a, decideAnswer(asked, resp)); rerr != nil {
				return none, askErr(s.Name, rerr)
			}
			return Outcome[T]{Action: resp.Action}, nil // ask checked the action
		case errors.Is(err, ErrInvalidContent) && !errors.Is(err, ErrMalformedInput):
			invalid = askErr(s.Name, err)
		default:
			return none, askErr(s.Name, err)
		}
		if rerr := report(ctx, a, decideInvalid(asked, answer, invalid)); rerr != nil {
			return none, askErr(s.Name, rerr)
		}
		if cfg.retries <= 0 {
			return none, invalid
		}
		if err == nil && repeatedAnswer(a, req, resp.Content, &prev) {
			return none, unfilled(s, invalid, cfg.args)
		}
		if tries >= cfg.retries {
			return none, invalid
		}
		again := *req
		asked = &again
		again.Message = retryMessage(req, cfg, a, invalid)
		if err == nil {
			again.Schema = keepValid(req.Schema, resp.Content, invalid)
		}
		again.Attempt, again.Retries = tries+1, cfg.retries
		resp, err = ask(ctx, a, &again, cfg.timeout)
		if errors.Is(err, ErrRetriesUsed) {
			return none, invalid
		}
	}
}

func ask(ctx context.Context, a Asker, req *Request, timeout time.Duration) (*Response, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	actx := ctx
	if timeout > 0 {
		var cancel context.CancelFunc
		actx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	resp, err := a.Ask(actx, req)
	if err != nil {
		if timeout > 0 && ctx.Err() == nil && errors.Is(actx.Err(), context.DeadlineExceeded) {
			return nil, &TimeoutError{After: timeout, Err: err}
		}
		return nil, err
	}
	if resp == nil {
		return nil, fmt.Errorf("%w: asker returned no response", ErrInvalidAction)
	}
	if !resp.Action.Valid() {
		return nil, fmt.Errorf("%w %q", ErrInvalidAction, resp.Action)
	}
	return resp, nil
}

// prepareSchema applies per-call options and defaults to a copy of s and
// makes sure every ask-time options field got its options.
func prepareSchema(s *Schema, cfg *askConfig) (*Schema, error) {
	var errs errList
	if len(cfg.options) > 0 || len(cfg.defaults) > 0 {
		s = s.Clone()
	}
	for _, fv := range cfg.options {
		p := s.Property(fv.field)
		switch {
		case p == nil:
			errs.Add(fv.field, "WithOptions: no such field"+suggestField(s, fv.field, true))
		case !p.Dynamic:
			errs.Add(fv.field, "WithOptions: field is not tagged `options`")
		default:
			opts := fv.value.([]Option)
			if len(opts) == 0 {
				errs.Add(fv.field, "WithOptions: no options given")
			}
			seen := make(map[string]bool, len(opts))
			for _, o := range opts {
				switch {
				case o.Value == "":
					errs.Add(fv.field, "WithOptions: an option has an empty value")
				case seen[o.Value]:
					errs.Add(fv.field, fmt.Sprintf("WithOptions: value %q given twice", o.Value))
				}
				seen[o.Value] = true
			}
			p.Options = opts
			if p.Style != EnumLegacy {
				p.Style = EnumPlain
				for _, o := range opts {
					if o.Title != "" {
						p.Style = EnumTitled
						break
					}
				}
			}
			if p.Default != nil {
				checkDefault(&errs, p, p.Default)
			}
		}
	}
	for _, fv := range cfg.defaults {
		p := s.Property(fv.field)
		if p == nil {
			errs.Add(fv.field, "WithDefault: no such field"+suggestField(s, fv.field, false))
			continue
		}
		if v, ok := checkDefault(&errs, p, fv.value); ok {
			p.Default = v
		}
	}
	missing := false
	for i := range s.Properties {
		if p := &s.Properties[i]; p.Dynamic && len(p.Options) == 0 {
			errs.Add(p.Name, "options must be supplied with WithOptions")
			missing = true
		}
	}
	if err := errs.Err(s.Name); err != nil {
		ve := err.(*ValidationError)
		if missing {
			return nil, askErr(s.Name, &detailError{kind: ErrMissingOptions, fields: ve})
		}
		return nil, askErr(s.Name, &detailError{label: "bad ask option", fields: ve})
	}
	return s, nil
}

// checkDefault converts v to the JSON type of p and checks it against p's
// rules, recording problems in errs.
func checkDefault(errs *errList, p *Property, v any) (any, bool) {
	n := errs.Len()
	tmp := *p
	tmp.Required, tmp.Default = true, nil
	var d errList
	var out any
	v = normalize(v)
	switch p.Kind {
	case KindString, KindEnum:
		if s, ok := v.(string); ok {
			checkString(&d, &tmp, s)
			out = s
		} else {
			typeErr(&d, &tmp, "a string", v)
		}
	case KindBoolean:
		if _, ok := v.(bool); ok {
			out = v
		} else {
			typeErr(&d, &tmp, "a boolean", v)
		}
	case KindInteger:
		if n, msg := toInt(v); msg != "" {
			d.Add(p.Name, msg)
		} else {
			checkNumber(&d, &tmp, float64(n))
			out = n
		}
	case KindNumber:
		if f, ok := toFloat(&d, &tmp, v); ok {
			checkNumber(&d, &tmp, f)
			out = f
		}
	case KindMulti:
		if m, ok := decodeStrings(&d, &tmp, v); ok {
			checkMulti(&d, &tmp, m)
			out = m
		}
	}
	for _, e := range d.list {
		errs.Add(p.Name, "default: "+e.Msg)
	}
	return out, errs.Len() == n
}

// normalize turns Go values into the types JSON decoding produces.
func normalize(v any) any {
	switch v := v.(type) {
	case int:
		return int64(v)
	case int8:
		return int64(v)
	case int16:
		return int64(v)
	case int32:
		return int64(v)
	case uint:
		return uint64(v)
	case uint8:
		return uint64(v)
	case uint16:
		return uint64(v)
	case uint32:
		return uint64(v)
	case float32:
		return float64(v)
	case time.Time:
		return v.Format(time.RFC3339Nano)
	}
	return v
}

// AskURL asks the user to open rawURL (URL mode: secrets, OAuth, payments
// never pass through the client). Only https URLs, or http on a loopback
// host, without embedded credentials, are sent. Accept means the user
// agreed to open the page, not that the out-of-band step finished.
func AskURL(ctx context.Context, a Asker, message, rawURL string, opts ...AskOption) (Action, error) {
	if err := wire.CheckURL(rawURL); err != nil {
		return "", err
	}
	cfg, err := newAskConfig(opts)
	if err == nil && cfg.approvers != nil {
		err = errApproversURL
	}
	if err == nil && cfg.stepUp {
		err = errStepUpURL
	}
	if err != nil {
		return "", askErr("url", err)
	}
	if a == nil {
		return "", &UnavailableError{Reason: "no asker (nil)", Mode: ModeURL, Message: message}
	}
	req := &Request{Mode: ModeURL, Key: cfg.key, Message: message, URL: rawURL, ElicitationID: wire.NewID(), AskedFirst: cfg.askedFirst, Wait: cfg.wait}
	resp, err := ask(ctx, a, req, cfg.timeout)
	if err != nil {
		return "", askErr("url", err)
	}
	if err := report(ctx, a, decideAnswer(req, resp)); err != nil {
		return "", askErr("url", err)
	}
	return resp.Action, nil
}

// detailError is a sentinel (or a label) with the field problems behind
// it, printed without repeating the form's name or "elicit:".
type detailError struct {
	kind   error
	label  string
	fields *ValidationError
}

func (e *detailError) Error() string {
	head := e.label
	if e.kind != nil {
		head = strings.TrimPrefix(e.kind.Error(), "elicit: ")
	}
	return withFields(head, e.fields.Fields)
}

func (e *detailError) Unwrap() []error {
	if e.kind == nil {
		return []error{e.fields}
	}
	return []error{e.kind, e.fields}
}
