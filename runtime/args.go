package runtime

import (
	"context"
	"errors"
	"reflect"
	"sort"
	"strings"
	"time"
	"unsafe"
)

// AskMissing completes *v, a tool's arguments struct T whose properties
// are the fields tagged `elicit:"ask"`: the ones the model left out (a
// field holding its zero value, or a nil pointer) are asked of the person
// in one form, and merged into *v. A value the model supplied is not asked
// again, but it is checked by the same rules as an answer (bounds,
// formats, enum options, WithOptions choices, patterns); an invalid one
// is asked again, with the reason added to message.
//
// It returns ActionAccept when *v is complete: at once, without asking,
// when nothing was missing or invalid, or once the person answered. It
// returns ActionDecline or ActionCancel, with *v unchanged, when the
// person would not answer. On error *v is unchanged. Options are those of
// Ask: WithOptions supplies the choices of a field tagged `options`, and
// is needed even when the model supplied the value, which is checked
// against them.
func (f *Form) AskMissing(ctx context.Context, a Asker, v any, message string, opts ...AskOption) (Action, error) {
	base, err := f.pointer(v)
	if err != nil {
		return "", err
	}
	return f.e.askMissing(ctx, a, message, opts, f.Locales, base)
}

func (e *engine) askMissing(ctx context.Context, a Asker, message string, opts []AskOption, locales []Locale, base unsafe.Pointer) (Action, error) {
	if e.err != nil {
		return "", e.err
	}
	cfg, err := newAskConfig(opts)
	if err != nil {
		return "", askErr(e.schema.Name, err)
	}
	cfg.args = true
	full, err := prepareSchema(e.schema, &cfg)
	if err != nil {
		return "", err
	}
	asked := make([]bool, len(e.fields))
	var reasons errList
	missing := false
	for i := range e.fields {
		fd := &e.fields[i]
		p := &full.Properties[fd.prop]
		src := fd.at(base)
		if src == nil || !fd.ptr && isZero(fd, src) {
			asked[i], missing = true, true
			continue
		}
		n := reasons.Len()
		checkField(&reasons, p, fd, src)
		if fd.re != nil && fd.kind == gkString {
			checkPattern(&reasons, p, fd.re, *(*string)(src))
		}
		if reasons.Len() > n {
			asked[i], missing = true, true
		}
	}
	if !missing {
		// Complete: the form's own check decides, on the whole value.
		var hook errList
		e.checkHook(&hook, base)
		if hook.Len() == 0 {
			return ActionAccept, nil
		}
		for _, fe := range hook.list {
			i := e.fieldIndex(full, fe.Field)
			if i < 0 {
				return "", hook.Err(e.schema.Name)
			}
			asked[i] = true
		}
		reasons = hook
	}
	sub := &Schema{Name: full.Name}
	for i := range e.fields {
		if asked[i] {
			sub.Properties = append(sub.Properties, full.Properties[e.fields[i].prop])
		}
	}
	if a == nil {
		return "", &UnavailableError{Reason: "no asker (nil)", Mode: ModeForm, Schema: sub, Message: message}
	}
	reasons.sourceTitles(e.schema)
	sub, lang := localize(sub, true, locales, &cfg, a)
	req := &Request{Mode: ModeForm, Key: cfg.key, Message: message, Schema: sub, Language: lang}
	plang := personLanguage(req, &cfg, a)
	if len(sub.Properties) < len(full.Properties) {
		req.Message = partialMessage(cfg.messages, plang, sub)
	}
	if err := reasons.Err(e.schema.Name); err != nil {
		req.Message = invalidArgsMessage(cfg.messages, plang, sub, req.Message, err)
	}
	var merged reflect.Value
	out, err := askDecode(ctx, a, req, &cfg, func(s *Schema, content map[string]any) (struct{}, error) {
		var err error
		merged, err = e.mergeAnswer(full, s, content, asked, base)
		return struct{}{}, err
	})
	if err == nil && out.Action == ActionAccept {
		reflect.NewAt(e.typ, base).Elem().Set(merged.Elem())
	}
	return out.Action, err
}

// mergeAnswer decodes content, the answer to sub (the asked properties),
// together with the supplied values of the others at base, into a new
// value, which it returns (a pointer) when all of it is valid; the value
// at base does not change.
func (e *engine) mergeAnswer(full, sub *Schema, content map[string]any, asked []bool, base unsafe.Pointer) (reflect.Value, error) {
	var errs errList
	merged := make(map[string]any, len(e.fields))
	for _, k := range sortedKeys(content) {
		if sub.Property(k) == nil {
			errs.addKey(k, MsgNotField, "is not a field of this form")
			continue
		}
		merged[k] = content[k]
	}
	if err := errs.Err(sub.Name); err != nil {
		return reflect.Value{}, err
	}
	tmp := reflect.New(e.typ)
	tmp.Elem().Set(reflect.NewAt(e.typ, base).Elem())
	tp := tmp.UnsafePointer()
	for i := range e.fields {
		fd := &e.fields[i]
		if asked[i] {
			zeroField(fd, tp) // an invalid supplied value is replaced, or cleared
			continue
		}
		p := &full.Properties[fd.prop]
		merged[p.Name] = encodeField(p, fd, fd.at(tp))
	}
	if err := e.decode(full, merged, tp); err != nil {
		return reflect.Value{}, err
	}
	return tmp, nil
}

// fieldIndex returns the index in e.fields of the property named name,
// or -1.
func (e *engine) fieldIndex(s *Schema, name string) int {
	for i := range e.fields {
		if s.Properties[e.fields[i].prop].Name == name {
			return i
		}
	}
	return -1
}

// zeroField sets fd's value in the form value at base to its zero value
// (a nil pointer for a pointer field).
func zeroField(fd *fieldDesc, base unsafe.Pointer) {
	p := unsafe.Add(base, fd.offset)
	if fd.ptr {
		*(*unsafe.Pointer)(p) = nil
		return
	}
	switch fd.kind {
	case gkString:
		*(*string)(p) = ""
	case gkBool:
		*(*bool)(p) = false
	case gkInt, gkUint:
		storeInt(fd, p, 0)
	case gkFloat:
		if fd.size == 4 {
			*(*float32)(p) = 0
		} else {
			*(*float64)(p) = 0
		}
	case gkTime:
		*(*time.Time)(p) = time.Time{}
	case gkMulti:
		*(*[]string)(p) = nil
	}
}

// invalidArgsMessage adds to message why supplied arguments are asked
// again, for the person, naming fields by their titles in sub.
func invalidArgsMessage(c *Catalog, lang string, sub *Schema, message string, invalid error) string {
	return message + "\n\n" + c.Text(lang, MsgArgInvalid, "", c.Problems(lang, sub, invalid))
}

// partialMessage is the message of an ask of some of a tool's arguments
// only, fitting the fields asked: their descriptions (the doc comments,
// translated) when every one has one, else a sentence naming their
// titles.
func partialMessage(c *Catalog, lang string, sub *Schema) string {
	descs := make([]string, 0, len(sub.Properties))
	titles := make([]string, 0, len(sub.Properties))
	for i := range sub.Properties {
		p := &sub.Properties[i]
		if p.Description != "" {
			descs = append(descs, p.Description)
		}
		t := p.Title
		if t == "" {
			t = p.Name
		}
		titles = append(titles, t)
	}
	if len(descs) == len(sub.Properties) {
		return strings.Join(descs, " ")
	}
	return c.Text(lang, MsgPartial, "", strings.Join(titles, c.Text(lang, MsgTitleSep, "")))
}

// MissingArgs says how a tool completes its arguments T (a struct with
// fields tagged `elicit:"ask"`) before its handler runs: the adapters'
// HandleArgs (gosdk.HandleArgs, mcpgo.HandleArgs) call Complete and give
// the handler a complete T.
type MissingArgs[T any] struct {
	// Ask is the generated AskMissingT of T.
	Ask func(ctx context.Context, a Asker, v *T, message string, opts ...AskOption) (Action, error)
	// Message is the question shown with the form.
	Message string
	// Messages holds Message in other languages, by BCP 47 tag ("ja",
	// "pt-BR"): the one that best serves the person's language (a
	// WithLocale among the Options, else the call's preference; see
	// MatchLanguage) is shown instead of Message, which stays the text
	// for every other language.
	Messages map[string]string
	// Options returns the ask options of one call, computed from the
	// arguments as the model sent them: WithOptions for the choices the
	// server decides (the key results of the organisation given),
	// WithDefault, WithRetries. Nil means none. Its error fails the call
	// as the handler's error would.
	Options func(ctx context.Context, v *T) ([]AskOption, error)
}

// message returns the message of m in the language the person reads the
// form in: a WithLocale among opts, else a's preference.
func (m MissingArgs[T]) message(a Asker, opts []AskOption) string {
	if len(m.Messages) == 0 {
		return m.Message
	}
	pref := LanguagePreference(a)
	var cfg askConfig
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if cfg.localeSet {
		pref = cfg.locale
	}
	tags := make([]string, 0, len(m.Messages))
	for tag := range m.Messages {
		tags = append(tags, tag)
	}
	sort.Strings(tags) // one answer for tags equal but for case
	if tag := MatchLanguage(pref, tags...); tag != "" {
		return m.Messages[tag]
	}
	return m.Message
}

// ArgsNotGivenError is a decline or cancel of the question for a tool's
// missing arguments. Its text is for the model.
type ArgsNotGivenError struct {
	// Action is ActionDecline or ActionCancel.
	Action Action
}

// Error implements error.
func (e *ArgsNotGivenError) Error() string {
	if e.Action == ActionCancel {
		return "The user dismissed the question for the tool's missing arguments: the tool did not run. You may call it again later; do not fill the arguments in yourself."
	}
	return "The user declined to give the tool's missing arguments: the tool did not run. Do not fill them in yourself or ask for them again unless the user offers them."
}

// Is reports whether target is ErrArgsNotGiven.
func (e *ArgsNotGivenError) Is(target error) bool { return target == ErrArgsNotGiven }

// Complete asks for the missing arguments of *v through a (see
// Form.AskMissing) and returns nil once *v is complete. A decline or
// cancel is an *ArgsNotGivenError; a failed ask is returned as is, so that
// the adapter answers it like any other (input_required on 2026-07-28, a
// tool error telling the model what happened).
func (m MissingArgs[T]) Complete(ctx context.Context, a Asker, v *T) error {
	if m.Ask == nil {
		return errors.New("elicit: MissingArgs.Ask is nil: set it to the generated AskMissing function")
	}
	var opts []AskOption
	if m.Options != nil {
		var err error
		if opts, err = m.Options(ctx, v); err != nil {
			return err
		}
	}
	act, err := m.Ask(ctx, a, v, m.message(a, opts), opts...)
	switch {
	case err != nil:
		return err
	case act != ActionAccept:
		return &ArgsNotGivenError{Action: act}
	}
	return nil
}
