package runtime

import (
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Kind is the shape of one property in a flat requestedSchema.
type Kind uint8

// Property kinds.
const (
	KindString  Kind = iota + 1 // {"type":"string"}, also time.Time
	KindInteger                 // {"type":"integer"}
	KindNumber                  // {"type":"number"}
	KindBoolean                 // {"type":"boolean"}
	KindEnum                    // single select: string with enum or oneOf
	KindMulti                   // multi select: array of enum strings
)

var kindNames = [...]string{"", "string", "integer", "number", "boolean", "enum", "multi-select"}

// String returns the kind's name.
func (k Kind) String() string {
	if int(k) < len(kindNames) && k != 0 {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// EnumStyle chooses how enum options are written.
type EnumStyle uint8

// Enum styles.
const (
	// EnumPlain writes "enum": [...] (single) or "items": {"enum": [...]}.
	EnumPlain EnumStyle = iota
	// EnumTitled writes "oneOf": [{"const","title"}] (single) or
	// "items": {"anyOf": [...]} (multi).
	EnumTitled
	// EnumLegacy writes "enum" plus "enumNames" (single select only).
	EnumLegacy
)

// Option is one choice of an enum property.
type Option struct {
	// Value is what the client sends back; it never changes with the
	// language.
	Value string
	// Title is what the person sees ("" shows the value).
	Title string
}

// Schema is a flat MCP requestedSchema: an object whose properties are
// primitives, in declaration order.
type Schema struct {
	// Name is the form's name (its Go type name).
	Name string
	// Properties in declaration order.
	Properties []Property
}

// Property is one field of a form.
type Property struct {
	// Name is the property name: the field's json name.
	Name string
	// Kind is the property's shape.
	Kind Kind
	// Title is the label a client shows ("" for none).
	Title string
	// Description is the help text a client shows ("" for none).
	Description string
	// Required: an accept must carry the property.
	Required bool

	// MinLength and MaxLength bound a string's length, in characters
	// (nil: no bound).
	MinLength *int
	MaxLength *int
	// Format is a string's format: "", "email", "uri", "date" or
	// "date-time".
	Format string

	// Minimum and Maximum bound a number or integer (nil: no bound).
	Minimum *float64
	Maximum *float64

	// Options are the choices of a single- or multi-select, in order.
	Options []Option
	// Style is how the options are written.
	Style EnumStyle
	// Dynamic marks options supplied at ask time (see WithOptions).
	Dynamic bool

	// MinItems and MaxItems bound how many choices a multi-select
	// answer holds (nil: no bound).
	MinItems *int
	MaxItems *int

	// Default is the value applied to an omitted optional field and sent
	// to clients that pre-fill: string, bool, float64, int64, uint64 or
	// []string, matching Kind.
	Default any

	// Pattern is an RE2 regular expression (Go's regexp syntax) a string
	// answer must match. MCP schemas cannot carry it: it is a server-side
	// rule, checked on answers and never sent.
	Pattern string
	// PatternMessage is what a person reads when an answer does not
	// match Pattern, in place of the expression (tag option
	// patternMessage='...'; translated like titles). "" says only that
	// the answer is not in the expected form. Server-side, never sent.
	PatternMessage string

	// Confirm marks the boolean box that approves (the tag option
	// confirm): an accept with it false is a decline. Server-side, never
	// sent.
	Confirm bool
}

// Property returns the property named name, or nil.
func (s *Schema) Property(name string) *Property {
	for i := range s.Properties {
		if s.Properties[i].Name == name {
			return &s.Properties[i]
		}
	}
	return nil
}

// Clone returns a deep copy of s that can be changed freely.
func (s *Schema) Clone() *Schema {
	c := &Schema{Name: s.Name, Properties: make([]Property, len(s.Properties))}
	copy(c.Properties, s.Properties)
	for i := range c.Properties {
		p := &c.Properties[i]
		p.Options = append([]Option(nil), p.Options...)
		if d, ok := p.Default.([]string); ok {
			p.Default = append([]string(nil), d...)
		}
	}
	return c
}

// MarshalJSON writes the schema as sent to a client of the latest
// protocol version.
func (s *Schema) MarshalJSON() ([]byte, error) {
	return s.AppendJSON(nil, LatestVersion)
}

// JSON returns the schema written for a client of the given protocol
// version (see AppendJSON).
func (s *Schema) JSON(version string) (json.RawMessage, error) {
	return s.AppendJSON(nil, version)
}

// AppendJSON appends the compact requestedSchema for a client speaking
// version. For 2025-06-18 titled enums become enum + enumNames and
// non-boolean defaults are dropped; a multi-select property cannot be
// expressed there: an optional one is left out of the form (the answer
// then gets its default or zero value), a required one is asked as one
// boolean per option (legacySchema), and a form that would be left empty
// yields an *UnavailableError (see LegacyUnavailable). An empty (unknown)
// version gets the 2025-06-18 dialect, as Era says.
func (s *Schema) AppendJSON(b []byte, version string) ([]byte, error) {
	legacy := EraOf(version).LegacySchema()
	if legacy {
		if reason := s.LegacyUnavailable(); reason != "" {
			return nil, &UnavailableError{Reason: reason, Mode: ModeForm, Schema: s}
		}
		s = legacySchema(s)
	}
	b = append(b, `{"type":"object","properties":{`...)
	n := 0
	for i := range s.Properties {
		p := &s.Properties[i]
		if legacy && p.Kind == KindMulti {
			continue // optional (LegacyUnavailable): left out, the value gets its default
		}
		if n > 0 {
			b = append(b, ',')
		}
		n++
		b = appendString(b, p.Name)
		b = append(b, ':')
		b = p.appendJSON(b, legacy)
	}
	b = append(b, '}')
	n = 0
	for i := range s.Properties {
		if !s.Properties[i].Required {
			continue
		}
		if n == 0 {
			b = append(b, `,"required":[`...)
		} else {
			b = append(b, ',')
		}
		b = appendString(b, s.Properties[i].Name)
		n++
	}
	if n > 0 {
		b = append(b, ']')
	}
	return append(b, '}'), nil
}

func (p *Property) appendJSON(b []byte, legacy bool) []byte {
	b = append(b, `{"type":"`...)
	b = append(b, p.Kind.JSONType()...)
	b = append(b, '"')
	if p.Title != "" {
		b = appendKey(b, "title")
		b = appendString(b, p.Title)
	}
	if p.Description != "" {
		b = appendKey(b, "description")
		b = appendString(b, p.Description)
	}
	b = appendInt(b, "minLength", p.MinLength)
	b = appendInt(b, "maxLength", p.MaxLength)
	if p.Format != "" {
		b = appendKey(b, "format")
		b = appendString(b, p.Format)
	}
	b = appendFloat(b, "minimum", p.Minimum)
	b = appendFloat(b, "maximum", p.Maximum)
	switch p.Kind {
	case KindEnum:
		style := p.Style
		if legacy && style == EnumTitled {
			style = EnumLegacy
		}
		switch style {
		case EnumTitled:
			b = appendKey(b, "oneOf")
			b = appendConsts(b, p.Options)
		default:
			b = appendKey(b, "enum")
			b = appendValues(b, p.Options)
			if style == EnumLegacy {
				b = appendKey(b, "enumNames")
				b = append(b, '[')
				for i, o := range p.Options {
					if i > 0 {
						b = append(b, ',')
					}
					b = appendString(b, o.title())
				}
				b = append(b, ']')
			}
		}
	case KindMulti:
		b = appendInt(b, "minItems", p.MinItems)
		b = appendInt(b, "maxItems", p.MaxItems)
		if p.Style == EnumTitled {
			b = append(b, `,"items":{"anyOf":`...)
			b = appendConsts(b, p.Options)
		} else {
			b = append(b, `,"items":{"type":"string","enum":`...)
			b = appendValues(b, p.Options)
		}
		b = append(b, '}')
	}
	if p.Default != nil && (!legacy || p.Kind == KindBoolean) {
		b = appendKey(b, "default")
		b = appendValue(b, p.Default)
	}
	return append(b, '}')
}

func (o Option) title() string {
	if o.Title != "" {
		return o.Title
	}
	return o.Value
}

func appendKey(b []byte, k string) []byte {
	b = append(b, ',', '"')
	b = append(b, k...)
	return append(b, '"', ':')
}

// appendString appends s as a JSON string, byte for byte as json.Marshal
// writes it (HTML characters escaped), without allocating for the common
// case of plain text.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' || c >= utf8.RuneSelf {
			q, _ := json.Marshal(s) // strings always marshal
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

func appendInt(b []byte, k string, v *int) []byte {
	if v == nil {
		return b
	}
	return strconv.AppendInt(appendKey(b, k), int64(*v), 10)
}

func appendFloat(b []byte, k string, v *float64) []byte {
	if v == nil {
		return b
	}
	return appendNumber(appendKey(b, k), *v)
}

func appendNumber(b []byte, f float64) []byte {
	return strconv.AppendFloat(b, f, 'f', -1, 64)
}

func appendValues(b []byte, opts []Option) []byte {
	b = append(b, '[')
	for i, o := range opts {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, o.Value)
	}
	return append(b, ']')
}

func appendConsts(b []byte, opts []Option) []byte {
	b = append(b, '[')
	for i, o := range opts {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"const":`...)
		b = appendString(b, o.Value)
		b = append(b, `,"title":`...)
		b = appendString(b, o.title())
		b = append(b, '}')
	}
	return append(b, ']')
}

func appendValue(b []byte, v any) []byte {
	switch v := v.(type) {
	case string:
		return appendString(b, v)
	case bool:
		return strconv.AppendBool(b, v)
	case float64:
		return appendNumber(b, v)
	case int64:
		return strconv.AppendInt(b, v, 10)
	case uint64:
		return strconv.AppendUint(b, v, 10)
	case int:
		return strconv.AppendInt(b, int64(v), 10)
	case []string:
		b = append(b, '[')
		for i, s := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, s)
		}
		return append(b, ']')
	}
	q, err := json.Marshal(v)
	if err != nil {
		return append(b, "null"...)
	}
	return append(b, q...)
}

// LegacyUnavailable returns why s cannot be asked of a 2025-06-18 client,
// or "" when it can: a form whose only fields are optional multi-selects
// would be sent empty (which some clients cannot render), and a required
// multi-select without options has no booleans to be asked as. Optional
// multi-select fields are left out of the form; required ones are asked
// as one boolean per option (legacySchema).
func (s *Schema) LegacyUnavailable() string {
	kept := 0
	for i := range s.Properties {
		p := &s.Properties[i]
		if p.Kind != KindMulti {
			kept++
			continue
		}
		if p.Required {
			if len(p.Options) == 0 {
				return fmt.Sprintf("multi-select field %q has no options to ask of a %s client", p.Name, Version20250618)
			}
			kept++ // asked as one boolean per option (legacySchema)
		}
	}
	if kept == 0 && len(s.Properties) > 0 {
		return fmt.Sprintf("multi-select fields cannot be asked of a %s client, and the form would be empty without them", Version20250618)
	}
	return ""
}

// JSONType is the JSON Schema type a property of kind k is written with:
// "string", "integer", "number", "boolean" or "array".
func (k Kind) JSONType() string {
	switch k {
	case KindInteger:
		return "integer"
	case KindNumber:
		return "number"
	case KindBoolean:
		return "boolean"
	case KindMulti:
		return "array"
	}
	return "string"
}
