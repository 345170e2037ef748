package runtime

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"strings"
	"time"
	"unsafe"
)

// Form ties a generated form type T to its schema and to the table-driven
// engine that decodes, validates and encodes T. Generated code does not
// build it: it declares a static descriptor per form
// (elicitimpl.Form{Type: (*T)(nil), Spec: ...}), which builds the Form
// with NewForm on the form's first use, and calls it from one-line
// wrappers. Form is
// not generic: values travel as a *T in an interface, checked against T on
// every call, so a form adds no generic instantiation to a build.
type Form struct {
	// Locales are the form's translations (elicit.<tag>.json), picked per
	// ask by WithLocale or the request's language preference. Generated
	// code sets them once, before the form is used.
	Locales []Locale

	e   *engine
	ptr reflect.Type // *T
}

// NewForm returns the form of T, given a nil *T: s is its static schema,
// and paths[i] is the Go selector path ("Branch", or "Base.Branch"
// through an embedded struct) of the field that holds s.Properties[i].
// Field offsets and kinds are resolved once, with reflect; a path that
// does not match T makes every use of the form fail with an error rather
// than panic.
func NewForm(nilPtr any, s *Schema, paths ...string) *Form {
	t := reflect.TypeOf(nilPtr)
	if t == nil || t.Kind() != reflect.Pointer {
		e := &engine{schema: s, err: fmt.Errorf("elicit: form %s: NewForm needs a nil pointer to the form type, got %T", s.Name, nilPtr)}
		return &Form{e: e}
	}
	return &Form{e: newEngine(t.Elem(), s, paths), ptr: t}
}

// Schema returns the form's static schema. Callers must not modify it.
func (f *Form) Schema() *Schema { return f.e.schema }

// pointer returns the data pointer of v, a *T.
func (f *Form) pointer(v any) (unsafe.Pointer, error) {
	if f.e.err != nil {
		return nil, f.e.err
	}
	if reflect.TypeOf(v) != f.ptr {
		return nil, fmt.Errorf("elicit: form %s works on %s, got %T", f.e.schema.Name, f.ptr, v)
	}
	p := (*[2]unsafe.Pointer)(unsafe.Pointer(&v))[1]
	if p == nil {
		return nil, fmt.Errorf("elicit: form %s: nil %s", f.e.schema.Name, f.ptr)
	}
	return p, nil
}

// Decode decodes and validates content, a client's accepted answer,
// against the static schema into *dst, a *T. On error *dst is zero.
func (f *Form) Decode(content map[string]any, dst any) error {
	p, err := f.pointer(dst)
	if err != nil {
		return err
	}
	return f.e.decodeInto(f.e.schema, content, p)
}

// Validate checks *v, a *T, against every rule of the schema.
func (f *Form) Validate(v any) error {
	p, err := f.pointer(v)
	if err != nil {
		return err
	}
	return f.e.validate(p)
}

// Encode writes *v, a *T, as the content of an accept, leaving out
// optional fields that hold their zero value.
func (f *Form) Encode(v any) (map[string]any, error) {
	p, err := f.pointer(v)
	if err != nil {
		return nil, err
	}
	return f.e.encode(p), nil
}

// Accept builds the client-side answer that submits *v, a *T. It refuses
// a v that does not validate.
func (f *Form) Accept(v any) (*Response, error) {
	p, err := f.pointer(v)
	if err != nil {
		return nil, err
	}
	return f.e.accept(p)
}

// Ask asks the form through a, with message as the question, and decodes
// an accepted answer into *dst, a *T. Only an accept whose content decodes
// and validates returns ActionAccept; an invalid answer is a
// *ValidationError, an unknown action ErrInvalidAction, and an Asker
// failure is returned wrapped. On error, *dst is zero and the action "".
func (f *Form) Ask(ctx context.Context, a Asker, dst any, message string, opts ...AskOption) (Action, error) {
	p, err := f.pointer(dst)
	if err != nil {
		return "", err
	}
	return f.e.ask(ctx, a, message, opts, f.Locales, p)
}

// Ask asks the form f through a and returns the typed outcome; see
// Form.Ask.
func Ask[T any](ctx context.Context, a Asker, f *Form, message string, opts ...AskOption) (Outcome[T], error) {
	var o Outcome[T]
	act, err := f.Ask(ctx, a, &o.Value, message, opts...)
	o.Action = act
	return o, err
}

// goKind is how the engine reads and writes one field's Go value. Each
// kind is one case of each of the switches below.
type goKind uint8

const (
	gkString goKind = iota + 1
	gkBool
	gkInt
	gkUint
	gkFloat
	gkTime
	gkMulti
)

// The engine's behaviour per Go kind is spread over four switch
// statements below (decodeField, checkField, encodeField, isZero), one
// case per kind each, rather than function values in a table: a call
// through a function value makes every pointer argument escape, and
// decoding an answer must not allocate.

func decodeField(errs *errList, p *Property, fd *fieldDesc, v any, present bool, dst unsafe.Pointer) bool {
	switch fd.kind {
	case gkString:
		return decodeStringField(errs, p, v, present, dst)
	case gkBool:
		return decodeBoolField(errs, p, v, dst)
	case gkInt, gkUint:
		return decodeIntField(errs, p, fd, v, present, dst)
	case gkFloat:
		return decodeFloatField(errs, p, fd, v, present, dst)
	case gkTime:
		return decodeTimeField(errs, p, v, present, dst)
	case gkMulti:
		return decodeMultiField(errs, p, v, present, dst)
	}
	return false
}

func checkField(errs *errList, p *Property, fd *fieldDesc, src unsafe.Pointer) {
	switch fd.kind {
	case gkString:
		checkString(errs, p, *(*string)(src))
	case gkInt, gkUint:
		checkIntField(errs, p, fd, src)
	case gkFloat:
		checkNumber(errs, p, loadFloat(fd, src))
	case gkMulti:
		checkMulti(errs, p, *(*[]string)(src))
	}
}

func encodeField(p *Property, fd *fieldDesc, src unsafe.Pointer) any {
	switch fd.kind {
	case gkString:
		return *(*string)(src)
	case gkBool:
		return *(*bool)(src)
	case gkInt:
		return loadInt(fd, src)
	case gkUint:
		return loadUint(fd, src)
	case gkFloat:
		return loadFloat(fd, src)
	case gkTime:
		return formatTime(p.Format, *(*time.Time)(src))
	case gkMulti:
		return append([]string{}, *(*[]string)(src)...)
	}
	return nil
}

func isZero(fd *fieldDesc, src unsafe.Pointer) bool {
	switch fd.kind {
	case gkString:
		return *(*string)(src) == ""
	case gkBool:
		return !*(*bool)(src)
	case gkInt, gkUint:
		return loadUint(fd, src) == 0
	case gkFloat:
		return loadFloat(fd, src) == 0
	case gkTime:
		return (*time.Time)(src).IsZero()
	case gkMulti:
		return len(*(*[]string)(src)) == 0
	}
	return false
}

// fieldDesc locates the Go value of one property inside a form value.
type fieldDesc struct {
	prop   int     // index in the schema's properties
	offset uintptr // from the start of the form value
	kind   goKind
	size   uintptr      // of the value (integers and floats)
	ptr    bool         // the field is a pointer to the value
	elem   reflect.Type // the pointed-to type, when ptr
	lo, hi int64        // the range of the Go integer type (gkInt, gkUint)
	// checkStr and checkNum say whether a string needs checkString (a
	// length, format or enum rule, or free text) and a number checkNumber
	// (a bound).
	// Per-ask copies of the schema keep these rules.
	checkStr, checkNum bool
	// re is the compiled server-side pattern (Property.Pattern), or nil.
	re *regexp.Regexp
}

// engine is the non-generic descriptor of one form: its schema and where
// each property lives in the Go value.
type engine struct {
	typ    reflect.Type // the form's Go type
	schema *Schema
	fields []fieldDesc
	err    error // a generator/runtime mismatch, reported on every use
	hook   bool  // *T implements FormChecker
}

var timeType = reflect.TypeFor[time.Time]()

func newEngine(t reflect.Type, s *Schema, paths []string) *engine {
	e := &engine{schema: s, typ: t}
	fail := func(format string, args ...any) *engine {
		e.err = fmt.Errorf("elicit: form %s does not match its Go type %s (regenerate with a matching runtime): "+format, append([]any{s.Name, t}, args...)...)
		return e
	}
	if t.Kind() != reflect.Struct {
		return fail("not a struct")
	}
	if len(paths) != len(s.Properties) {
		return fail("%d field paths for %d properties", len(paths), len(s.Properties))
	}
	e.fields = make([]fieldDesc, len(paths))
	for i, path := range paths {
		ft, off := t, uintptr(0)
		for _, name := range strings.Split(path, ".") {
			if ft.Kind() != reflect.Struct {
				return fail("field path %q", path)
			}
			sf, ok := ft.FieldByName(name)
			if !ok || len(sf.Index) != 1 {
				return fail("no field %q", path)
			}
			off += sf.Offset
			ft = sf.Type
		}
		fd := fieldDesc{prop: i, offset: off}
		if ft.Kind() == reflect.Pointer {
			fd.ptr, fd.elem, ft = true, ft.Elem(), ft.Elem()
		}
		fd.size = ft.Size()
		switch k := ft.Kind(); {
		case ft == timeType:
			fd.kind = gkTime
		case k == reflect.String:
			fd.kind = gkString
		case k == reflect.Bool:
			fd.kind = gkBool
		case k >= reflect.Int && k <= reflect.Int64:
			fd.kind = gkInt
		case k >= reflect.Uint && k <= reflect.Uintptr:
			fd.kind = gkUint
		case k == reflect.Float32 || k == reflect.Float64:
			fd.kind = gkFloat
		case k == reflect.Slice && ft.Elem().Kind() == reflect.String:
			fd.kind = gkMulti
		default:
			return fail("field %q has unsupported type %s", path, ft)
		}
		fd.lo, fd.hi = intRange(fd.kind, fd.size)
		p := &s.Properties[i]
		fd.checkStr = p.MinLength != nil || p.MaxLength != nil || p.Format != "" || p.Kind == KindEnum || p.Kind == KindString // free text: HiddenRune
		fd.checkNum = p.Minimum != nil || p.Maximum != nil
		re, err := compilePattern(p)
		if err != nil {
			return fail("field %q: pattern: %v", path, err)
		}
		fd.re = re
		e.fields[i] = fd
	}
	e.hook = reflect.PointerTo(t).Implements(formCheckerType)
	return e
}

// at returns the address of fd's value in the form value at base, or nil
// for a nil pointer field.
func (fd *fieldDesc) at(base unsafe.Pointer) unsafe.Pointer {
	p := unsafe.Add(base, fd.offset)
	if fd.ptr {
		return *(*unsafe.Pointer)(p)
	}
	return p
}

// decode decodes content against s (the static schema or a per-ask copy
// of it with the same properties) into the form value at base.
func (e *engine) decode(s *Schema, content map[string]any, base unsafe.Pointer) error {
	if e.err != nil {
		return e.err
	}
	var errs errList
	used := 0
	for i := range e.fields {
		fd := &e.fields[i]
		p := &s.Properties[fd.prop]
		v, ok := content[p.Name]
		if ok {
			used++
		}
		present := ok && v != nil // JSON null counts as missing
		if present && !p.Required && v == "" && (p.Kind == KindString || p.Kind == KindEnum) {
			// A cleared optional box is an absent answer: its default
			// applies, and no rule of a value is checked.
			present = false
		}
		if present && fd.re != nil {
			if sv, ok := v.(string); ok {
				checkPattern(&errs, p, fd.re, sv)
			}
		}
		if !present {
			if p.Required {
				errs.AddID(p, MsgRequired, "is required")
			}
			if p.Default == nil {
				continue
			}
			v = p.Default
		}
		if !fd.ptr {
			dst := unsafe.Add(base, fd.offset)
			// The two commonest kinds inline; the rest through decodeField.
			switch sv := v.(type) {
			case string:
				if fd.kind == gkString {
					if present && fd.checkStr {
						checkString(&errs, p, sv)
					}
					*(*string)(dst) = sv
					continue
				}
			case bool:
				if fd.kind == gkBool {
					*(*bool)(dst) = sv
					continue
				}
			case float64:
				if fd.kind == gkFloat && fd.size == 8 && !math.IsNaN(sv) && !math.IsInf(sv, 0) {
					if present && fd.checkNum {
						checkNumber(&errs, p, sv)
					}
					*(*float64)(dst) = sv
					continue
				}
				if (fd.kind == gkInt || fd.kind == gkUint) && sv >= -MaxSafeInteger && sv <= MaxSafeInteger && sv == math.Trunc(sv) {
					if n := int64(sv); n >= fd.lo && n <= fd.hi {
						if present && fd.checkNum {
							checkNumber(&errs, p, sv)
						}
						storeInt(fd, dst, n)
						continue
					}
				}
			}
			decodeField(&errs, p, fd, v, present, dst)
			continue
		}
		np := reflect.New(fd.elem).UnsafePointer()
		if decodeField(&errs, p, fd, v, present, np) {
			*(*unsafe.Pointer)(unsafe.Add(base, fd.offset)) = np
		}
	}
	if used != len(content) {
		for _, k := range sortedKeys(content) {
			if s.Property(k) == nil {
				errs.addKey(k, MsgNotField, "is not a field of this form")
			}
		}
	}
	if errs.Len() == 0 {
		e.checkHook(&errs, base)
	}
	errs.sourceTitles(e.schema)
	return errs.Err(s.Name)
}

// decodeInto is decode that leaves the value at base zero on error.
func (e *engine) decodeInto(s *Schema, content map[string]any, base unsafe.Pointer) error {
	err := e.decode(s, content, base)
	if err != nil && e.typ != nil {
		reflect.NewAt(e.typ, base).Elem().SetZero()
	}
	return err
}

// validate checks the form value at base. A nil pointer, and an optional
// field that holds its zero value, are absent and not checked.
func (e *engine) validate(base unsafe.Pointer) error {
	if e.err != nil {
		return e.err
	}
	var errs errList
	for i := range e.fields {
		fd := &e.fields[i]
		p := &e.schema.Properties[fd.prop]
		src := fd.at(base)
		if src == nil || !fd.ptr && !p.Required && isZero(fd, src) {
			continue
		}
		checkField(&errs, p, fd, src)
		if fd.re != nil && fd.kind == gkString {
			checkPattern(&errs, p, fd.re, *(*string)(src))
		}
	}
	if errs.Len() == 0 {
		e.checkHook(&errs, base)
	}
	errs.sourceTitles(e.schema)
	return errs.Err(e.schema.Name)
}

// encode writes the form value at base as content, the way a client sends
// it: optional fields holding their zero value are left out.
func (e *engine) encode(base unsafe.Pointer) map[string]any {
	m := make(map[string]any, len(e.fields))
	for i := range e.fields {
		fd := &e.fields[i]
		p := &e.schema.Properties[fd.prop]
		src := fd.at(base)
		if src == nil || !fd.ptr && !p.Required && isZero(fd, src) {
			continue
		}
		m[p.Name] = encodeField(p, fd, src)
	}
	return m
}

func (e *engine) accept(base unsafe.Pointer) (*Response, error) {
	if err := e.validate(base); err != nil {
		return nil, err
	}
	return &Response{Action: ActionAccept, Content: e.encode(base)}, nil
}

// ask sends the form and decodes an accept into the form value at dst.
func (e *engine) ask(ctx context.Context, a Asker, message string, opts []AskOption, locales []Locale, dst unsafe.Pointer) (Action, error) {
	if e.err != nil {
		return "", e.err
	}
	cfg, err := newAskConfig(opts)
	if err != nil {
		return "", askErr(e.schema.Name, err)
	}
	if a == nil {
		return "", &UnavailableError{Reason: "no asker (nil)", Mode: ModeForm, Schema: e.schema, Message: message}
	}
	s, err := prepareSchema(e.schema, &cfg)
	if err != nil {
		return "", err
	}
	s, lang := localize(s, s != e.schema, locales, &cfg, a)
	req := &Request{Mode: ModeForm, Key: cfg.key, Message: message, Schema: s, Language: lang, AskedFirst: cfg.askedFirst}
	legacy := askerLegacy(a)
	decoded := false
	out, err := askDecode(ctx, a, req, &cfg, func(s *Schema, content map[string]any) (struct{}, error) {
		if legacy {
			content = foldLegacy(s, content) // one boolean per option -> the list
		}
		err := e.decodeInto(s, content, dst)
		decoded = err == nil
		return struct{}{}, err
	})
	if decoded && out.Action != ActionAccept && e.typ != nil {
		// Decided otherwise (an unticked confirm box, a refused
		// Decision): the handler gets no value.
		reflect.NewAt(e.typ, dst).Elem().SetZero()
	}
	return out.Action, err
}

// Per-kind operations.

func decodeStringField(errs *errList, p *Property, v any, present bool, dst unsafe.Pointer) bool {
	s, ok := v.(string)
	if !ok {
		typeErr(errs, p, "a string", v)
		return false
	}
	if present {
		checkString(errs, p, s)
	}
	*(*string)(dst) = s
	return true
}

func decodeBoolField(errs *errList, p *Property, v any, dst unsafe.Pointer) bool {
	b, ok := v.(bool)
	if !ok {
		typeErr(errs, p, "a boolean", v)
		return false
	}
	*(*bool)(dst) = b
	return true
}

func decodeIntField(errs *errList, p *Property, fd *fieldDesc, v any, present bool, dst unsafe.Pointer) bool {
	n, msg := toInt(v)
	if msg == "" {
		msg = intFits(fd, n)
	}
	if msg != "" {
		id := MsgInteger
		if strings.Contains(msg, "range") {
			id = MsgRange
		}
		errs.AddID(p, id, msg, clip(fmt.Sprint(v)))
		return false
	}
	if present {
		checkNumber(errs, p, float64(n))
	}
	storeInt(fd, dst, n)
	return true
}

func checkIntField(errs *errList, p *Property, fd *fieldDesc, src unsafe.Pointer) {
	var n int64
	if fd.kind == gkUint {
		u := loadUint(fd, src)
		if u > MaxSafeInteger {
			errs.Add(p.Name, fmt.Sprintf("%d is outside the JSON-safe integer range", u))
			return
		}
		n = int64(u)
	} else {
		n = loadInt(fd, src)
	}
	if n > MaxSafeInteger || n < -MaxSafeInteger {
		errs.Add(p.Name, fmt.Sprintf("%d is outside the JSON-safe integer range", n))
		return
	}
	checkNumber(errs, p, float64(n))
}

// intRange returns the range of a Go integer type of kind k (gkInt or
// gkUint) and size bytes, clipped to int64; 0, 0 for other kinds.
func intRange(k goKind, size uintptr) (lo, hi int64) {
	bits := 8 * size
	switch {
	case k == gkUint && bits >= 64:
		return 0, math.MaxInt64
	case k == gkUint:
		return 0, 1<<bits - 1
	case k == gkInt && bits >= 64:
		return math.MinInt64, math.MaxInt64
	case k == gkInt:
		return -(1 << (bits - 1)), 1<<(bits-1) - 1
	}
	return 0, 0
}

// intFits says why n does not fit the field's Go type, or "".
func intFits(fd *fieldDesc, n int64) string {
	if n >= fd.lo && n <= fd.hi {
		return ""
	}
	typ := "int"
	if fd.kind == gkUint {
		typ = "uint"
	}
	return fmt.Sprintf("%d is out of range for %s%d", n, typ, 8*fd.size)
}

func storeInt(fd *fieldDesc, dst unsafe.Pointer, n int64) {
	switch fd.size {
	case 1:
		*(*uint8)(dst) = uint8(n)
	case 2:
		*(*uint16)(dst) = uint16(n)
	case 4:
		*(*uint32)(dst) = uint32(n)
	default:
		*(*uint64)(dst) = uint64(n)
	}
}

func loadInt(fd *fieldDesc, src unsafe.Pointer) int64 {
	if fd.kind == gkUint {
		return int64(loadUint(fd, src))
	}
	switch fd.size {
	case 1:
		return int64(*(*int8)(src))
	case 2:
		return int64(*(*int16)(src))
	case 4:
		return int64(*(*int32)(src))
	}
	return *(*int64)(src)
}

func loadUint(fd *fieldDesc, src unsafe.Pointer) uint64 {
	switch fd.size {
	case 1:
		return uint64(*(*uint8)(src))
	case 2:
		return uint64(*(*uint16)(src))
	case 4:
		return uint64(*(*uint32)(src))
	}
	return *(*uint64)(src)
}

func decodeFloatField(errs *errList, p *Property, fd *fieldDesc, v any, present bool, dst unsafe.Pointer) bool {
	f, ok := toFloat(errs, p, v)
	if !ok {
		return false
	}
	if fd.size == 4 {
		r := float32(f)
		if isInf32(r) {
			errs.AddID(p, MsgRange, formatNumber(f)+" is out of range for float32", formatNumber(f))
			return false
		}
		*(*float32)(dst) = r
	} else {
		*(*float64)(dst) = f
	}
	if present {
		checkNumber(errs, p, f)
	}
	return true
}

func loadFloat(fd *fieldDesc, src unsafe.Pointer) float64 {
	if fd.size == 4 {
		return float64(*(*float32)(src))
	}
	return *(*float64)(src)
}

func decodeTimeField(errs *errList, p *Property, v any, present bool, dst unsafe.Pointer) bool {
	s, ok := v.(string)
	if !ok {
		typeErr(errs, p, "a string", v)
		return false
	}
	t, err := parseTime(p.Format, s)
	if err != nil {
		if present && p.Format != "" {
			checkString(errs, p, s) // reports the format
		} else {
			errs.AddID(p, MsgDateTime, quote(s)+" is not a date-time (RFC 3339)", quote(s))
		}
		return false
	}
	if present && (p.MinLength != nil || p.MaxLength != nil) {
		checkString(errs, p, s)
	}
	*(*time.Time)(dst) = t
	return true
}

func decodeMultiField(errs *errList, p *Property, v any, present bool, dst unsafe.Pointer) bool {
	out, ok := decodeStrings(errs, p, v)
	if !ok {
		return false
	}
	if present && !checkMulti(errs, p, out) {
		return false
	}
	*(*[]string)(dst) = out
	return true
}
