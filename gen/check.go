package gen

import (
	"go/ast"
	"go/token"
	"go/types"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/elicitimpl"
)

var formats = []string{"email", "uri", "date", "date-time"}

// finish applies the elicit tag options to fld and checks the MCP rules
// that involve them. It returns nil when the field was rejected.
func (b *builder) finish(fld *Field, v *types.Var, opts []tagOption, astField *ast.Field) *Field {
	p := &fld.Prop
	n := len(b.sink.list)
	at := func(o tagOption) token.Position { return b.tagPos(astField, v, o.Offset) }
	lazy := func(o tagOption) func() token.Position { return func() token.Position { return at(o) } }
	get := tagOptions(opts)
	numeric := fld.GoKind == GoInt || fld.GoKind == GoUint || fld.GoKind == GoFloat
	plainString := fld.GoKind == GoString && p.Kind == runtime.KindString

	// Options that change the kind come first.
	if o, ok := get.get("enum"); ok {
		vals := splitList(o.Value)
		switch {
		case p.Kind == runtime.KindEnum || (fld.GoKind == GoMulti && len(p.Options) > 0):
			b.sink.errorf(at(o), "enum= on %s: its options already come from the constants of its type", v.Name())
		case plainString || fld.GoKind == GoMulti:
			if plainString {
				p.Kind = runtime.KindEnum
			}
			seen := map[string]bool{}
			for _, s := range vals {
				switch {
				case s == "":
					b.sink.errorf(at(o), "enum= has an empty value")
				case seen[s]:
					b.sink.errorf(at(o), "enum= lists %q twice", s)
				}
				seen[s] = true
				p.Options = append(p.Options, runtime.Option{Value: s})
			}
			if len(vals) == 0 {
				b.sink.errorf(at(o), "enum= needs at least one value: enum=a|b|c")
			}
		default:
			b.sink.errorf(at(o), "enum= applies to string and []string fields, not %s", typeName(b.src.Types, v.Type()))
		}
	}
	if o, ok := get.get("options"); ok {
		switch {
		case hasKey(get, "enum"):
			b.sink.errorf(at(o), "options and enum= exclude each other: options are supplied when asking, enum= fixes them here")
		case plainString:
			p.Kind, p.Dynamic = runtime.KindEnum, true
		case fld.GoKind == GoMulti && len(p.Options) == 0:
			p.Dynamic = true
		default:
			b.sink.errorf(at(o), "options applies to string and []string fields whose choices are supplied when asking")
		}
	}
	if fld.GoKind == GoMulti && len(p.Options) == 0 && !p.Dynamic && !hasKey(get, "enum") {
		b.sink.errorf(fld.Pos, "field %s is []string without enum=: a multi-select needs its options (enum=a|b|c, or options to supply them when asking); free-form lists cannot be asked", v.Name())
	}
	if o, ok := get.get("legacyTitles"); ok {
		if p.Kind != runtime.KindEnum || p.Dynamic {
			b.sink.errorf(at(o), "legacyTitles applies to single-select enums with constant options")
		} else {
			p.Style = runtime.EnumLegacy
		}
	}

	if o, ok := get.get("title"); ok {
		p.Title = o.Value
	}
	if o, ok := get.get("desc"); ok {
		p.Description = foldSpace(o.Value)
	}
	_, req := get.get("required")
	if o, ok := get.get("optional"); ok {
		if req {
			b.sink.errorf(at(o), "a field cannot be both optional and required")
		}
		p.Required = false
	}
	if req {
		p.Required = true
	}

	if o, ok := get.get("format"); ok {
		switch {
		case !contains(formats, o.Value):
			b.sink.errorf(at(o), "unknown format %q: MCP allows email, uri, date and date-time", o.Value)
		case fld.GoKind == GoTime:
			if o.Value != "date" && o.Value != "date-time" {
				b.sink.errorf(at(o), "format=%s on time.Time: use date or date-time", o.Value)
			}
			p.Format = o.Value
		case plainString:
			p.Format = o.Value
		default:
			b.sink.errorf(at(o), "format applies only to string fields, not %s", typeName(b.src.Types, v.Type()))
		}
	}

	for _, k := range []string{"minLength", "maxLength"} {
		o, ok := get.get(k)
		if !ok {
			continue
		}
		if !plainString {
			b.sink.errorf(at(o), "%s applies only to string fields, not %s", k, typeName(b.src.Types, v.Type()))
			continue
		}
		if n, ok := b.count(lazy(o), k, o.Value); ok {
			if k == "minLength" {
				p.MinLength = &n
			} else {
				p.MaxLength = &n
			}
		}
	}
	for _, k := range []string{"minItems", "maxItems"} {
		o, ok := get.get(k)
		if !ok {
			continue
		}
		if fld.GoKind != GoMulti {
			b.sink.errorf(at(o), "%s applies only to multi-select fields", k)
			continue
		}
		if n, ok := b.count(lazy(o), k, o.Value); ok {
			if k == "minItems" {
				p.MinItems = &n
			} else {
				p.MaxItems = &n
			}
		}
	}
	for _, k := range []string{"min", "max"} {
		o, ok := get.get(k)
		if !ok {
			continue
		}
		if !numeric {
			hint := ""
			if fld.GoKind == GoString {
				hint = " (use " + k + "Length for strings)"
			} else if fld.GoKind == GoMulti {
				hint = " (use " + k + "Items for multi-select)"
			}
			b.sink.errorf(at(o), "%s applies only to number fields%s", k, hint)
			continue
		}
		if f, ok := b.number(lazy(o), fld, v, k, o.Value); ok {
			if k == "min" {
				p.Minimum = &f
			} else {
				p.Maximum = &f
			}
		}
	}
	if fld.GoKind == GoUint && p.Minimum == nil {
		zero := 0.0
		p.Minimum = &zero
	}

	// Bounds must make sense together.
	if p.MinLength != nil && p.MaxLength != nil && *p.MinLength > *p.MaxLength {
		b.sink.errorf(at(get.must("minLength")), "minLength %d is above maxLength %d", *p.MinLength, *p.MaxLength)
	}
	if p.MinItems != nil && p.MaxItems != nil && *p.MinItems > *p.MaxItems {
		b.sink.errorf(at(get.must("minItems")), "minItems %d is above maxItems %d", *p.MinItems, *p.MaxItems)
	}
	if p.Minimum != nil && p.Maximum != nil && *p.Minimum > *p.Maximum {
		o, ok := get.get("min")
		if !ok {
			o = get.must("max")
		}
		b.sink.errorf(at(o), "min %s is above max %s", fmtNum(*p.Minimum), fmtNum(*p.Maximum))
	}
	if p.MaxItems != nil && !p.Dynamic && *p.MaxItems > len(p.Options) && len(p.Options) > 0 {
		b.sink.errorf(at(get.must("maxItems")), "maxItems %d is above the %d options", *p.MaxItems, len(p.Options))
	}
	if p.MinItems != nil && !p.Dynamic && *p.MinItems > len(p.Options) && len(p.Options) > 0 {
		b.sink.errorf(at(get.must("minItems")), "minItems %d is above the %d options: no answer could be valid", *p.MinItems, len(p.Options))
	}

	if o, ok := get.get("default"); ok && len(b.sink.list) == n {
		if d, ok := b.defaultValue(lazy(o), fld, v, o.Value); ok {
			p.Default = d
		}
	}
	if len(b.sink.list) > n {
		return nil
	}
	return fld
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
		return f, true
	default:
		_, _, bits, signed := intRange(v.Type())
		if signed {
			n, err := strconv.ParseInt(s, 10, bits)
			if err != nil {
				b.sink.errorf(pos(), "%s=%s %s", key, s, intErr(err, goType()))
				return 0, false
			}
			return float64(n), true
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
		return float64(n), true
	}
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
	var errs elicitimpl.Errors
	var out any
	switch fld.GoKind {
	case GoString:
		if utf8.ValidString(s) {
			elicitimpl.CheckString(&errs, p, s)
		}
		out = s
	case GoTime:
		if _, err := elicitimpl.ParseTime(p.Format, s); err != nil {
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
		elicitimpl.CheckNumber(&errs, p, f)
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
		elicitimpl.CheckMulti(&errs, p, vals)
		out = vals
	}
	if errs.Len() > 0 {
		if err, ok := errs.Err("").(*runtime.ValidationError); ok {
			for _, fe := range err.Fields {
				b.sink.errorf(pos(), "default=%s: %s", s, fe.Msg)
			}
		}
		return nil, false
	}
	return out, true
}
