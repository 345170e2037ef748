package gen

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/elicitgen/elicitgen/runtime"
)

var formats = []string{"email", "uri", "date", "date-time"}

// optNotSecret is the tag option that tells the secret check a string
// field is not a secret.
const optNotSecret = "notSecret"

// maxSafeInt is the largest integer a JSON number carries exactly in
// every client (2^53-1): bounds and defaults beyond it cannot be stated.
const maxSafeInt = 1<<53 - 1

// fieldOpts is the per-field state of the tag passes: the field being
// finished, its Go declaration and its parsed options. The builder holds
// the file-wide state (package, enums, diagnostics).
type fieldOpts struct {
	b     *builder
	fld   *Field
	v     *types.Var
	opts  tagOptions
	field *ast.Field
}

func (o *fieldOpts) at(t tagOption) token.Position { return o.b.tagPos(o.field, o.v, t.Offset) }

func (o *fieldOpts) lazy(t tagOption) func() token.Position {
	return func() token.Position { return o.at(t) }
}

func (o *fieldOpts) goType() string { return typeName(o.b.src.Types, o.v.Type()) }

func (o *fieldOpts) numeric() bool {
	k := o.fld.GoKind
	return k == GoInt || k == GoUint || k == GoFloat
}

func (o *fieldOpts) plainString() bool {
	return o.fld.GoKind == GoString && o.fld.Prop.Kind == runtime.KindString
}

// finish applies the elicit tag options to fld and checks the MCP rules
// that involve them, as a sequence of passes: each pass reads what the
// earlier ones settled (the kind before formats and bounds, bounds before
// their consistency, everything before the default). It returns nil when
// the field was rejected.
func (b *builder) finish(fld *Field, v *types.Var, opts tagOptions, astField *ast.Field) *Field {
	o := &fieldOpts{b: b, fld: fld, v: v, opts: opts, field: astField}
	n := len(b.sink.list)
	passes := []func(){o.kindPass, o.textPass, o.formatPass, o.boundsPass, o.consistencyPass, o.patternPass, o.confirmPass, o.argsPass}
	for _, pass := range passes {
		pass()
	}
	if len(b.sink.list) == n {
		o.defaultPass()
		o.warnGoText()
	}
	if len(b.sink.list) > n {
		return nil
	}
	return fld
}

// kindPass applies the options that change the property's kind: enum=,
// options and legacyTitles.
func (o *fieldOpts) kindPass() {
	b, p, fld := o.b, &o.fld.Prop, o.fld
	if t, ok := o.opts.get("enum"); ok {
		vals := splitList(t.Value)
		switch {
		case p.Kind == runtime.KindEnum || (fld.GoKind == GoMulti && len(p.Options) > 0):
			b.sink.errorf(o.at(t), "enum= on %s: its options already come from the constants of its type", o.v.Name())
		case o.plainString() || fld.GoKind == GoMulti:
			if o.plainString() {
				p.Kind = runtime.KindEnum
			}
			seen := map[string]bool{}
			for _, s := range vals {
				switch {
				case s == "":
					b.sink.errorf(o.at(t), "enum= has an empty value")
				case seen[s]:
					b.sink.errorf(o.at(t), "enum= lists %q twice", s)
				}
				seen[s] = true
				p.Options = append(p.Options, runtime.Option{Value: s})
			}
			if len(vals) == 0 {
				b.sink.errorf(o.at(t), "enum= needs at least one value: enum=a|b|c")
			}
		default:
			b.sink.errorf(o.at(t), "enum= applies to string and []string fields, not %s", o.goType())
		}
	}
	if t, ok := o.opts.get("options"); ok {
		switch {
		case hasKey(o.opts, "enum"):
			b.sink.errorf(o.at(t), "options and enum= exclude each other: options are supplied when asking, enum= fixes them here")
		case o.plainString():
			p.Kind, p.Dynamic = runtime.KindEnum, true
		case fld.GoKind == GoMulti && len(p.Options) == 0:
			p.Dynamic = true
		default:
			b.sink.errorf(o.at(t), "options applies to string and []string fields whose choices are supplied when asking")
		}
	}
	if fld.GoKind == GoMulti && len(p.Options) == 0 && !p.Dynamic && !hasKey(o.opts, "enum") {
		b.sink.errorf(fld.Pos, "field %s is []string without enum=: a multi-select needs its options (enum=a|b|c, or options to supply them when asking); free-form lists cannot be asked", o.v.Name())
	}
	if t, ok := o.opts.get("legacyTitles"); ok {
		if p.Kind != runtime.KindEnum || p.Dynamic {
			b.sink.errorf(o.at(t), "legacyTitles applies to single-select enums with constant options")
		} else {
			p.Style = runtime.EnumLegacy
		}
	}
}

// textPass applies what a person reads and whether an answer is needed:
// title, desc, optional, required, default (optional unless required),
// notSecret.
func (o *fieldOpts) textPass() {
	p := &o.fld.Prop
	if t, ok := o.opts.get("title"); ok {
		p.Title = t.Value
	}
	if t, ok := o.opts.get("desc"); ok {
		p.Description = foldSpace(t.Value)
	}
	_, req := o.opts.get("required")
	if t, ok := o.opts.get("optional"); ok {
		if req {
			o.b.sink.errorf(o.at(t), "a field cannot be both optional and required")
		}
		p.Required = false
	}
	// A field with a default is optional, as with every peer (Pydantic,
	// FastMCP): a client that leaves it out gets the default. required
	// keeps it required.
	if hasKey(o.opts, "default") {
		p.Required = false
	}
	if req {
		p.Required = true
	}
	if t, ok := o.opts.get(optNotSecret); ok && o.fld.GoKind != GoString {
		o.b.sink.errorf(o.at(t), "%s applies only to string fields (only they are checked for secrets), not %s", optNotSecret, o.goType())
	}
}

// formatPass applies format=.
func (o *fieldOpts) formatPass() {
	t, ok := o.opts.get("format")
	if !ok {
		return
	}
	b, p := o.b, &o.fld.Prop
	switch {
	case !contains(formats, t.Value):
		b.sink.errorf(o.at(t), "unknown format %q: MCP allows email, uri, date and date-time", t.Value)
	case o.fld.GoKind == GoTime:
		if t.Value != "date" && t.Value != "date-time" {
			b.sink.errorf(o.at(t), "format=%s on time.Time: use date or date-time", t.Value)
		}
		p.Format = t.Value
	case o.plainString():
		p.Format = t.Value
	default:
		b.sink.errorf(o.at(t), "format applies only to string fields, not %s", o.goType())
	}
}

// bound is one numeric tag option: the field kinds it applies to, what
// to say otherwise, and where its value goes.
type bound struct {
	key     string
	applies func(*fieldOpts) bool
	// wrong says why the option does not apply to this field.
	wrong func(*fieldOpts) string
	// set parses and stores the value; false when it was rejected.
	set func(*fieldOpts, tagOption) bool
}

// bounds are the length, item and number bounds, in the order they are
// applied.
var bounds = []bound{
	countBound("minLength", func(p *runtime.Property) **int { return &p.MinLength }, (*fieldOpts).plainString, "string fields"),
	countBound("maxLength", func(p *runtime.Property) **int { return &p.MaxLength }, (*fieldOpts).plainString, "string fields"),
	countBound("minItems", func(p *runtime.Property) **int { return &p.MinItems }, isMulti, "multi-select fields"),
	countBound("maxItems", func(p *runtime.Property) **int { return &p.MaxItems }, isMulti, "multi-select fields"),
	numberBound("min", func(p *runtime.Property) **float64 { return &p.Minimum }),
	numberBound("max", func(p *runtime.Property) **float64 { return &p.Maximum }),
}

func isMulti(o *fieldOpts) bool { return o.fld.GoKind == GoMulti }

func countBound(key string, dst func(*runtime.Property) **int, applies func(*fieldOpts) bool, what string) bound {
	return bound{
		key:     key,
		applies: applies,
		wrong: func(o *fieldOpts) string {
			if what == "string fields" {
				return fmt.Sprintf("%s applies only to %s, not %s", key, what, o.goType())
			}
			return fmt.Sprintf("%s applies only to %s", key, what)
		},
		set: func(o *fieldOpts, t tagOption) bool {
			n, ok := o.b.count(o.lazy(t), key, t.Value)
			if ok {
				*dst(&o.fld.Prop) = &n
			}
			return ok
		},
	}
}

func numberBound(key string, dst func(*runtime.Property) **float64) bound {
	return bound{
		key:     key,
		applies: (*fieldOpts).numeric,
		wrong: func(o *fieldOpts) string {
			hint := ""
			switch o.fld.GoKind {
			case GoString:
				hint = " (use " + key + "Length for strings)"
			case GoMulti:
				hint = " (use " + key + "Items for multi-select)"
			}
			return fmt.Sprintf("%s applies only to number fields%s", key, hint)
		},
		set: func(o *fieldOpts, t tagOption) bool {
			f, ok := o.b.number(o.lazy(t), o.fld, o.v, key, t.Value)
			if ok {
				*dst(&o.fld.Prop) = &f
			}
			return ok
		},
	}
}

// boundsPass applies every bound of the bounds table; unsigned integers
// imply a minimum of 0.
func (o *fieldOpts) boundsPass() {
	for _, bd := range bounds {
		t, ok := o.opts.get(bd.key)
		if !ok {
			continue
		}
		if !bd.applies(o) {
			o.b.sink.errorf(o.at(t), "%s", bd.wrong(o))
			continue
		}
		bd.set(o, t)
	}
	if p := &o.fld.Prop; o.fld.GoKind == GoUint && p.Minimum == nil {
		zero := 0.0
		p.Minimum = &zero
	}
}

// consistencyPass checks that the bounds make sense together and with the
// options.
func (o *fieldOpts) consistencyPass() {
	b, p := o.b, &o.fld.Prop
	if p.MinLength != nil && p.MaxLength != nil && *p.MinLength > *p.MaxLength {
		b.sink.errorf(o.at(o.opts.must("minLength")), "minLength %d is above maxLength %d", *p.MinLength, *p.MaxLength)
	}
	if p.MinItems != nil && p.MaxItems != nil && *p.MinItems > *p.MaxItems {
		b.sink.errorf(o.at(o.opts.must("minItems")), "minItems %d is above maxItems %d", *p.MinItems, *p.MaxItems)
	}
	if p.Minimum != nil && p.Maximum != nil && *p.Minimum > *p.Maximum {
		t, ok := o.opts.get("min")
		if !ok {
			t = o.opts.must("max")
		}
		b.sink.errorf(o.at(t), "min %s is above max %s", fmtNum(*p.Minimum), fmtNum(*p.Maximum))
	}
	if p.MaxItems != nil && !p.Dynamic && *p.MaxItems > len(p.Options) && len(p.Options) > 0 {
		b.sink.errorf(o.at(o.opts.must("maxItems")), "maxItems %d is above the %d options", *p.MaxItems, len(p.Options))
	}
	if p.MinItems != nil && !p.Dynamic && *p.MinItems > len(p.Options) && len(p.Options) > 0 {
		b.sink.errorf(o.at(o.opts.must("minItems")), "minItems %d is above the %d options: no answer could be valid", *p.MinItems, len(p.Options))
	}
}

// defaultPass applies default=, checked against everything settled
// before; it runs only when the field has no other problem.
//
// A boolean without default= is sent with default false, so that a
// client pre-selects "no" rather than holding its form until the box is
// touched (false is never consent). That wire default alone does not make
// the field optional: a required boolean stays required. A *bool has
// none: nil is its "not given", which a default would fill.
func (o *fieldOpts) defaultPass() {
	if t, ok := o.opts.get("default"); ok {
		if d, ok := o.b.defaultValue(o.lazy(t), o.fld, o.v, t.Value); ok {
			o.fld.Prop.Default = d
		}
		return
	}
	if o.fld.GoKind == GoBool && !o.fld.Pointer {
		o.fld.Prop.Default = false
	}
}

// tagOptions looks options up by key; a tag has only a few.
type tagOptions []tagOption

func (t tagOptions) get(key string) (tagOption, bool) {
	for _, o := range t {
		if o.Key == key {
			return o, true
		}
	}
	return tagOption{}, false
}

// must returns the option with key, or the zero option.
func (t tagOptions) must(key string) tagOption {
	o, _ := t.get(key)
	return o
}

func hasKey(t tagOptions, k string) bool { _, ok := t.get(k); return ok }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// count parses a non-negative length or item count.
func (b *builder) count(pos func() token.Position, key, s string) (int, bool) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		b.sink.errorf(pos(), "%s=%s: want a whole number of 0 or more", key, s)
		return 0, false
	}
	return n, true
}

// intRange returns the range of an integer type, for 64-bit platforms.
func intRange(t types.Type) (lo, hi float64, bits int, signed bool) {
	u, _ := t.Underlying().(*types.Basic)
	if ptr, ok := t.Underlying().(*types.Pointer); ok {
		u, _ = ptr.Elem().Underlying().(*types.Basic)
	}
	if u == nil {
		return 0, 0, 0, false
	}
	switch u.Kind() {
	case types.Int8:
		return math.MinInt8, math.MaxInt8, 8, true
	case types.Int16:
		return math.MinInt16, math.MaxInt16, 16, true
	case types.Int32:
		return math.MinInt32, math.MaxInt32, 32, true
	case types.Int, types.Int64:
		return math.MinInt64, math.MaxInt64, 64, true
	case types.Uint8:
		return 0, math.MaxUint8, 8, false
	case types.Uint16:
		return 0, math.MaxUint16, 16, false
	case types.Uint32:
		return 0, math.MaxUint32, 32, false
	default:
		return 0, math.MaxUint64, 64, false
	}
}

// number parses a numeric bound or default as the field's Go type.
func (b *builder) number(pos func() token.Position, fld *Field, v *types.Var, key, s string) (float64, bool) {
	goType := func() string { return strings.TrimPrefix(typeName(b.src.Types, v.Type()), "*") }
	switch fld.GoKind {
	case GoFloat:
		bits := 64
		if u, ok := underBasic(v.Type()); ok && u.Kind() == types.Float32 {
			bits = 32
		}
		f, err := strconv.ParseFloat(s, bits)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			b.sink.errorf(pos(), "%s=%s is not a valid %s", key, s, goType())
			return 0, false
		}
		return f, b.safe(pos, key, s, f)
	default:
		_, _, bits, signed := intRange(v.Type())
		if signed {
			n, err := strconv.ParseInt(s, 10, bits)
			if err != nil {
				b.sink.errorf(pos(), "%s=%s %s", key, s, intErr(err, goType()))
				return 0, false
			}
			return float64(n), b.safe(pos, key, s, float64(n))
		}
		n, err := strconv.ParseUint(s, 10, bits)
		if err != nil {
			if strings.HasPrefix(s, "-") {
				b.sink.errorf(pos(), "%s=%s is negative, but %s is unsigned", key, s, goType())
			} else {
				b.sink.errorf(pos(), "%s=%s %s", key, s, intErr(err, goType()))
			}
			return 0, false
		}
		return float64(n), b.safe(pos, key, s, float64(n))
	}
}

// safe reports whether a bound or default lies within +-(2^53-1), where a
// JSON number is exact in every client; it reports the problem otherwise.
func (b *builder) safe(pos func() token.Position, key, s string, f float64) bool {
	if math.Abs(f) <= maxSafeInt {
		return true
	}
	b.sink.errorf(pos(), "%s=%s is outside -9007199254740991..9007199254740991 (+-(2^53-1)), the numbers every client reads exactly: state a smaller bound", key, s)
	return false
}

func intErr(err error, goType string) string {
	if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
		return "does not fit in " + goType
	}
	return "is not a valid " + goType + " (want a whole number)"
}

func underBasic(t types.Type) (*types.Basic, bool) {
	if ptr, ok := t.Underlying().(*types.Pointer); ok {
		t = ptr.Elem()
	}
	u, ok := t.Underlying().(*types.Basic)
	return u, ok
}

func fmtNum(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// defaultValue parses a default as the field's type and checks it against
// the field's rules, using the runtime's own checks.
func (b *builder) defaultValue(pos func() token.Position, fld *Field, v *types.Var, s string) (any, bool) {
	p := &fld.Prop
	var checkErr error
	var out any
	switch fld.GoKind {
	case GoString:
		if utf8.ValidString(s) {
			checkErr = p.Check(s)
		}
		out = s
	case GoTime:
		if p.Check(s) != nil {
			want := "an RFC 3339 date-time like 2026-01-02T15:04:05Z"
			if p.Format == "date" {
				want = "a date like 2026-01-02"
			}
			b.sink.errorf(pos(), "default=%s is not %s", s, want)
			return nil, false
		}
		out = s
	case GoBool:
		switch s {
		case "true":
			out = true
		case "false":
			out = false
		default:
			b.sink.errorf(pos(), "default=%s is not a bool (want true or false)", s)
			return nil, false
		}
	case GoInt, GoUint, GoFloat:
		f, ok := b.number(pos, fld, v, "default", s)
		if !ok {
			return nil, false
		}
		checkErr = p.Check(f)
		switch fld.GoKind {
		case GoInt:
			n, _ := strconv.ParseInt(s, 10, 64)
			out = n
		case GoUint:
			n, _ := strconv.ParseUint(s, 10, 64)
			out = n
		default:
			out = f
		}
	case GoMulti:
		vals := splitList(s)
		if vals == nil {
			vals = []string{}
		}
		checkErr = p.Check(vals)
		out = vals
	}
	if checkErr != nil {
		if err, ok := checkErr.(*runtime.ValidationError); ok {
			for _, fe := range err.Fields {
				b.sink.errorf(pos(), "default=%s: %s", s, fe.Msg)
			}
		}
		return nil, false
	}
	return out, true
}
