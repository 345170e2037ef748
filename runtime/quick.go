package runtime

import (
	"context"
	"fmt"
	"reflect"
	"strconv"
	"unsafe"
)

// The property names of the quick asks' one-field forms: the names the
// client sees in requestedSchema and in the content of its answer, and
// the field to give WithDefault (an empty field name means the same).
const (
	// ConfirmField is AskConfirm's boolean property, titled "Confirm".
	ConfirmField = "confirm"
	// TextField is AskText's string property, titled "Your answer".
	TextField = "text"
	// ChoiceField is AskChoice's single-select property, titled "Your
	// choice".
	ChoiceField = "choice"
	// ChoicesField is AskChoices' multi-select property, titled "Your
	// choices".
	ChoicesField = "choices"
)

// quickSchema returns the one-property form of a quick ask, with cfg's
// title and defaults applied.
func quickSchema(name string, p Property, cfg *askConfig) (*Schema, error) {
	if cfg.title != "" {
		p.Title = cfg.title
	}
	s := &Schema{Name: name, Properties: []Property{p}}
	var errs errList
	if p.Kind == KindEnum || p.Kind == KindMulti {
		if len(p.Options) == 0 {
			errs.Add(p.Name, "no options given")
		}
		seen := make(map[string]bool, len(p.Options))
		for _, o := range p.Options {
			if seen[o.Value] {
				errs.Add(p.Name, "option "+strconv.Quote(o.Value)+" is given twice")
			}
			seen[o.Value] = true
			if o.Title != "" {
				s.Properties[0].Style = EnumTitled
			}
		}
	}
	for _, fv := range cfg.defaults {
		if fv.field != "" && fv.field != p.Name {
			errs.Add(fv.field, "WithDefault: no such field (a quick ask has one field, "+strconv.Quote(p.Name)+")")
			continue
		}
		if v, ok := checkDefault(&errs, &s.Properties[0], fv.value); ok {
			s.Properties[0].Default = v
		}
	}
	if len(cfg.options) > 0 {
		errs.Add(cfg.options[0].field, "WithOptions: a quick ask takes its options as an argument")
	}
	if err := errs.Err(name); err != nil {
		return nil, fmt.Errorf("ask %s: bad ask option: %w", name, err)
	}
	return s, nil
}

// quickValue holds a quick ask's answer: the one field the table-driven
// engine decodes into, exactly as it decodes a generated form's field.
type quickValue[T any] struct{ V T }

// quickAsk asks the one-property form of p and decodes the answer with
// the engine generated forms use, so it is checked exactly as theirs.
func quickAsk[T any](ctx context.Context, a Asker, name string, p Property, message string, opts []AskOption) (Outcome[T], error) {
	var none Outcome[T]
	cfg, err := newAskConfig(opts)
	if err != nil {
		return none, askErr(name, err)
	}
	s, err := quickSchema(name, p, &cfg)
	if err != nil {
		return none, err
	}
	if a == nil {
		return none, &UnavailableError{Reason: "no asker (nil)", Mode: ModeForm, Schema: s, Message: message}
	}
	var lang string
	if cfg.title == "" {
		s, lang = localize(s, true, quickLocales, &cfg, a)
	}
	e := newEngine(reflect.TypeFor[quickValue[T]](), s, []string{"V"})
	if e.err != nil {
		return none, e.err
	}
	req := &Request{Mode: ModeForm, Key: cfg.key, Message: message, Schema: s, Language: lang, AskedFirst: cfg.askedFirst}
	return askDecode(ctx, a, req, &cfg, func(s *Schema, content map[string]any) (T, error) {
		var w quickValue[T]
		err := e.decodeInto(s, content, unsafe.Pointer(&w))
		return w.V, err
	})
}

// AskConfirm asks a yes/no question: one required boolean field,
// ConfirmField, titled "Confirm" (WithTitle changes it), unticked unless
// WithDefault(ConfirmField, true). It works on every protocol era.
func AskConfirm(ctx context.Context, a Asker, message string, opts ...AskOption) (Outcome[bool], error) {
	p := Property{Name: ConfirmField, Kind: KindBoolean, Title: "Confirm", Required: true, Default: false}
	return quickAsk[bool](ctx, a, "Confirm", p, message, opts)
}

// AskText asks for a line of text: one required string field, TextField,
// titled "Your answer" (WithTitle changes it; WithDefault pre-fills it).
func AskText(ctx context.Context, a Asker, message string, opts ...AskOption) (Outcome[string], error) {
	p := Property{Name: TextField, Kind: KindString, Title: "Your answer", Required: true}
	return quickAsk[string](ctx, a, "Text", p, message, opts)
}

// AskChoice asks the user to pick one of options: one required
// single-select field, ChoiceField, titled "Your choice". An answer
// outside options is never accepted. Options need distinct values; their
// titles, when given, are what the user sees.
func AskChoice(ctx context.Context, a Asker, message string, options []Option, opts ...AskOption) (Outcome[string], error) {
	p := Property{Name: ChoiceField, Kind: KindEnum, Title: "Your choice", Required: true, Options: append([]Option(nil), options...)}
	return quickAsk[string](ctx, a, "Choice", p, message, opts)
}

// AskChoices asks the user to pick any of options: one required
// multi-select field, ChoicesField, titled "Your choices" (an empty
// selection is a valid answer). Every item of an accepted answer is one
// of options, none repeated. A 2025-06-18 client, which has no
// multi-select, is asked with one checkbox per option instead (the
// properties are named by the option values), when the Asker reports its
// version (its ProtocolVersion method; the SDK adapters have one).
func AskChoices(ctx context.Context, a Asker, message string, options []Option, opts ...AskOption) (Outcome[[]string], error) {
	if pv, ok := findAs[protocolVersioner](a); ok && EraOf(pv.ProtocolVersion()).LegacySchema() {
		return askChoicesLegacy(ctx, a, message, options, opts)
	}
	p := Property{Name: ChoicesField, Kind: KindMulti, Title: "Your choices", Required: true, Options: append([]Option(nil), options...)}
	out, err := quickAsk[[]string](ctx, a, "Choices", p, message, opts)
	if err == nil && out.Action == ActionAccept && out.Value == nil {
		out.Value = []string{} // an empty selection, not "no answer"
	}
	return out, err
}

// askChoicesLegacy asks AskChoices' question with one optional boolean
// per option, for clients without multi-select.
func askChoicesLegacy(ctx context.Context, a Asker, message string, options []Option, opts []AskOption) (Outcome[[]string], error) {
	var none Outcome[[]string]
	cfg, err := newAskConfig(opts)
	if err != nil {
		return none, fmt.Errorf("ask Choices: %w", err)
	}
	// Check the options and defaults as the multi-select form would.
	multi, err := quickSchema("Choices", Property{Name: ChoicesField, Kind: KindMulti, Title: "Your choices", Required: true, Options: options}, &cfg)
	if err != nil {
		return none, err
	}
	chosen := map[string]bool{}
	if def, ok := multi.Properties[0].Default.([]string); ok {
		for _, v := range def {
			chosen[v] = true
		}
	}
	s := &Schema{Name: "Choices", Properties: make([]Property, len(options))}
	for i, o := range options {
		s.Properties[i] = Property{Name: o.Value, Kind: KindBoolean, Title: o.title(), Default: chosen[o.Value]}
	}
	// One bool field per option, F0..Fn, decoded by the engine generated
	// forms use.
	fields := make([]reflect.StructField, len(options))
	paths := make([]string, len(options))
	for i := range options {
		paths[i] = "F" + strconv.Itoa(i)
		fields[i] = reflect.StructField{Name: paths[i], Type: reflect.TypeFor[bool]()}
	}
	t := reflect.StructOf(fields)
	e := newEngine(t, s, paths)
	if e.err != nil {
		return none, e.err
	}
	req := &Request{Mode: ModeForm, Key: cfg.key, Message: message, Schema: s, AskedFirst: cfg.askedFirst}
	return askDecode(ctx, a, req, &cfg, func(s *Schema, content map[string]any) ([]string, error) {
		v := reflect.New(t)
		if err := e.decodeInto(s, content, v.UnsafePointer()); err != nil {
			return nil, err
		}
		out := []string{}
		for i := range s.Properties {
			if v.Elem().Field(i).Bool() {
				out = append(out, s.Properties[i].Name)
			}
		}
		return out, nil
	})
}

// CanAsk reports, before anything is asked, whether the client can
// answer every form in schemas (the generated TSchema() functions, in
// the order the tool asks them), so that a tool asking several forms
// never has the user fill the first only to find the second cannot be
// asked. It returns nil, or the error the first form that cannot be
// asked would fail with (an *UnavailableError, matching ErrUnavailable,
// which the adapters turn into the same reply as a failed ask). With an
// Asker that cannot tell (no CheckAsk method; see Asker), it returns nil; with a nil
// Asker, the unavailable error.
func CanAsk(ctx context.Context, a Asker, schemas ...*Schema) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, s := range schemas {
		if s == nil {
			continue
		}
		req := &Request{Mode: ModeForm, Schema: s}
		if a == nil {
			return &UnavailableError{Reason: "no asker (nil)", Mode: ModeForm, Schema: s}
		}
		c, ok := findAs[askChecker](a)
		if !ok {
			return nil
		}
		if err := c.CheckAsk(req); err != nil {
			return err
		}
	}
	return nil
}
