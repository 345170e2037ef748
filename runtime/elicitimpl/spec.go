package elicitimpl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/elicitgen/elicitgen/runtime"
)

// A form's spec is its runtime.Schema and the Go field of each property,
// as one JSON object the generator writes into a Go raw string:
//
//	{"name":"Deploy","properties":[
//	{"name":"branch","field":"Branch","kind":"string","minLength":1,"default":"main"},
//	{"name":"confirmed","field":"Confirmed","kind":"boolean","required":true,"default":false}]}
//
// Keys follow runtime.Property, in its field order, and only non-zero
// ones are written. "kind" is runtime.Kind's name ("multi" for
// KindMulti), "style" is "titled" or "legacy" (absent: plain), and an
// integer default held by an unsigned Go field is marked "unsigned". The
// text is ASCII-safe for a raw string: no backquote, no control or
// invisible formatting character (each is a \u escape), one property per
// line. A spec is one string literal for the compiler to read, where the
// equivalent composite literal costs a compile several times as much.

// ErrSpec is matched (errors.Is) by every error of ParseSpec.
var ErrSpec = errors.New("elicit: invalid form spec")

var specKinds = map[runtime.Kind]string{
	runtime.KindString: "string", runtime.KindInteger: "integer", runtime.KindNumber: "number",
	runtime.KindBoolean: "boolean", runtime.KindEnum: "enum", runtime.KindMulti: "multi",
}

var specStyles = map[runtime.EnumStyle]string{runtime.EnumTitled: "titled", runtime.EnumLegacy: "legacy"}

// AppendSpec appends the spec of s, whose property i is held by the Go
// field at selector path paths[i] ("Branch", "Base.Branch"). Defaults
// must be of the types the generator writes: string, bool, int64, uint64,
// float64 or []string.
func AppendSpec(dst []byte, s *runtime.Schema, paths []string) []byte {
	dst = append(dst, `{"name":`...)
	dst = appendString(dst, s.Name)
	dst = append(dst, `,"properties":[`...)
	for i := range s.Properties {
		if i > 0 {
			dst = append(dst, ',')
		}
		path := ""
		if i < len(paths) {
			path = paths[i]
		}
		dst = appendProp(append(dst, '\n'), &s.Properties[i], path)
	}
	return append(dst, "]}"...)
}

func appendProp(dst []byte, p *runtime.Property, path string) []byte {
	str := func(k, v string) {
		if v != "" {
			dst = appendString(append(append(append(dst, ',', '"'), k...), '"', ':'), v)
		}
	}
	num := func(k string, v []byte) { dst = append(append(append(append(dst, ',', '"'), k...), '"', ':'), v...) }
	intp := func(k string, v *int) {
		if v != nil {
			num(k, strconv.AppendInt(nil, int64(*v), 10))
		}
	}
	floatp := func(k string, v *float64) {
		if v != nil {
			num(k, appendFloat(nil, *v))
		}
	}
	flag := func(k string, v bool) {
		if v {
			num(k, []byte("true"))
		}
	}
	dst = appendString(append(dst, `{"name":`...), p.Name)
	str("field", path)
	str("kind", specKinds[p.Kind])
	str("title", p.Title)
	str("description", p.Description)
	flag("required", p.Required)
	intp("minLength", p.MinLength)
	intp("maxLength", p.MaxLength)
	str("format", p.Format)
	floatp("minimum", p.Minimum)
	floatp("maximum", p.Maximum)
	if len(p.Options) > 0 {
		dst = append(dst, `,"options":[`...)
		for i, o := range p.Options {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendString(append(dst, `{"value":`...), o.Value)
			if o.Title != "" {
				dst = appendString(append(dst, `,"title":`...), o.Title)
			}
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	str("style", specStyles[p.Style])
	flag("dynamic", p.Dynamic)
	intp("minItems", p.MinItems)
	intp("maxItems", p.MaxItems)
	switch d := p.Default.(type) {
	case nil:
	case string:
		dst = appendString(append(dst, `,"default":`...), d)
	case bool:
		num("default", strconv.AppendBool(nil, d))
	case int64:
		num("default", strconv.AppendInt(nil, d, 10))
	case uint64:
		num("default", strconv.AppendUint(nil, d, 10))
		flag("unsigned", true)
	case float64:
		num("default", appendFloat(nil, d))
	case []string:
		dst = append(dst, `,"default":[`...)
		for i, v := range d {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendString(dst, v)
		}
		dst = append(dst, ']')
	default:
		panic(fmt.Sprintf("elicitimpl: AppendSpec: default of type %T", d))
	}
	str("pattern", p.Pattern)
	str("patternMessage", p.PatternMessage)
	flag("confirm", p.Confirm)
	return append(dst, '}')
}

// appendFloat appends v as a JSON number, a whole number in full (2^53-1
// reads better than 9.007199254740991e+15).
func appendFloat(dst []byte, v float64) []byte {
	if v == math.Trunc(v) && math.Abs(v) < 1e21 {
		return strconv.AppendFloat(dst, v, 'f', -1, 64)
	}
	return strconv.AppendFloat(dst, v, 'g', -1, 64)
}

// appendString appends s as a JSON string that a Go raw string can hold
// and a reader can trust: quotes, backslashes, backquotes, control
// characters and invisible formatting characters (bidirectional
// controls among them) are \u escapes; invalid UTF-8 becomes U+FFFD.
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for len(s) > 0 {
		// Plain ASCII runs are copied as they are.
		i := 0
		for i < len(s) && s[i] >= 0x20 && s[i] < 0x7f && s[i] != '"' && s[i] != '\\' && s[i] != '`' {
			i++
		}
		dst = append(dst, s[:i]...)
		if s = s[i:]; s == "" {
			break
		}
		r, n := utf8.DecodeRuneInString(s)
		s = s[n:]
		switch {
		case r == '"' || r == '\\':
			dst = append(dst, '\\', byte(r))
		case r == '`' || r < 0x20 || r == 0x7f || unicode.Is(unicode.Cf, r) || unicode.In(r, unicode.Zl, unicode.Zp, unicode.Cc):
			dst = fmt.Appendf(dst, `\u%04x`, r)
		case r == utf8.RuneError:
			dst = append(dst, `\ufffd`...)
		default:
			dst = utf8.AppendRune(dst, r)
		}
	}
	return append(dst, '"')
}

type specForm struct {
	Name       string     `json:"name"`
	Properties []specProp `json:"properties"`
}

type specProp struct {
	Name        string          `json:"name"`
	Field       string          `json:"field"`
	Kind        string          `json:"kind"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Required    bool            `json:"required"`
	MinLength   *int            `json:"minLength"`
	MaxLength   *int            `json:"maxLength"`
	Format      string          `json:"format"`
	Minimum     *float64        `json:"minimum"`
	Maximum     *float64        `json:"maximum"`
	Options     []specOption    `json:"options"`
	Style       string          `json:"style"`
	Dynamic     bool            `json:"dynamic"`
	MinItems    *int            `json:"minItems"`
	MaxItems    *int            `json:"maxItems"`
	Default     json.RawMessage `json:"default"`
	Unsigned    bool            `json:"unsigned"`
	Pattern     string          `json:"pattern"`
	PatternMsg  string          `json:"patternMessage"`
	Confirm     bool            `json:"confirm"`
}

type specOption struct {
	Value string `json:"value"`
	Title string `json:"title"`
}

// ParseSpec reads a spec AppendSpec wrote: the schema, and the Go
// selector path of each property's field. Errors match ErrSpec.
func ParseSpec(spec string) (*runtime.Schema, []string, error) {
	var f specForm
	dec := json.NewDecoder(bytes.NewReader([]byte(spec)))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	if err := dec.Decode(&f); err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrSpec, err)
	}
	if dec.More() {
		return nil, nil, fmt.Errorf("%w: text after the spec", ErrSpec)
	}
	s := &runtime.Schema{Name: f.Name, Properties: make([]runtime.Property, len(f.Properties))}
	paths := make([]string, len(f.Properties))
	for i, sp := range f.Properties {
		p := &s.Properties[i]
		*p = runtime.Property{
			Name: sp.Name, Title: sp.Title, Description: sp.Description, Required: sp.Required,
			MinLength: sp.MinLength, MaxLength: sp.MaxLength, Format: sp.Format,
			Minimum: sp.Minimum, Maximum: sp.Maximum, Dynamic: sp.Dynamic,
			MinItems: sp.MinItems, MaxItems: sp.MaxItems, Pattern: sp.Pattern,
			PatternMessage: sp.PatternMsg, Confirm: sp.Confirm,
		}
		paths[i] = sp.Field
		bad := func(format string, args ...any) error {
			return fmt.Errorf("%w: property %q: %s", ErrSpec, sp.Name, fmt.Sprintf(format, args...))
		}
		for k, name := range specKinds {
			if name == sp.Kind {
				p.Kind = k
			}
		}
		if p.Kind == 0 {
			return nil, nil, bad("unknown kind %q", sp.Kind)
		}
		switch sp.Style {
		case "":
		case "titled":
			p.Style = runtime.EnumTitled
		case "legacy":
			p.Style = runtime.EnumLegacy
		default:
			return nil, nil, bad("unknown style %q", sp.Style)
		}
		for _, o := range sp.Options {
			p.Options = append(p.Options, runtime.Option{Value: o.Value, Title: o.Title})
		}
		if len(sp.Default) > 0 {
			d, err := specDefault(p.Kind, sp.Default, sp.Unsigned)
			if err != nil {
				return nil, nil, bad("default %s: %v", sp.Default, err)
			}
			p.Default = d
		}
	}
	return s, paths, nil
}

// specDefault reads a default of kind k.
func specDefault(k runtime.Kind, raw json.RawMessage, unsigned bool) (any, error) {
	if string(raw) == "null" {
		return nil, errors.New("null")
	}
	var err error
	switch k {
	case runtime.KindString, runtime.KindEnum:
		var s string
		err = json.Unmarshal(raw, &s)
		return s, err
	case runtime.KindBoolean:
		var b bool
		err = json.Unmarshal(raw, &b)
		return b, err
	case runtime.KindInteger:
		if unsigned {
			return strconv.ParseUint(string(raw), 10, 64)
		}
		return strconv.ParseInt(string(raw), 10, 64)
	case runtime.KindNumber:
		return strconv.ParseFloat(string(raw), 64)
	default: // KindMulti
		var v []string
		if err = json.Unmarshal(raw, &v); err == nil && v == nil {
			err = errors.New("not a list")
		}
		return v, err
	}
}
