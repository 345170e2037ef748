package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/elicitgen/elicitgen/internal/jsonobj"
)

// SchemaError says why a requestedSchema (ParseSchema) or a schema file
// of `elicitgen diff` could not be read, and where. It matches
// ErrInvalidSchema and, for a JSON syntax error, wraps the
// *json.SyntaxError. It is the one error type of both readers.
type SchemaError struct {
	// File is the schema file ("" for a requestedSchema given to
	// ParseSchema); Line and Column the 1-based position in it (0 when
	// not known).
	File         string
	Line, Column int
	// Form is the form's name, as given to ParseSchema.
	Form string
	// Property is the property at fault ("" for the form itself).
	Property string
	// Msg says what is wrong.
	Msg string
	// Err is the JSON syntax error behind Msg, if any.
	Err error
}

// Error implements error: "file:line:col: Form.property: msg", each
// part present when known.
func (e *SchemaError) Error() string {
	where := ""
	switch {
	case e.File != "" && e.Line > 0:
		where = fmt.Sprintf("%s:%d:%d: ", e.File, e.Line, e.Column)
	case e.File != "":
		where = e.File + ": "
	}
	switch {
	case e.Form != "" && e.Property != "":
		where += e.Form + "." + quoteName(e.Property) + ": "
	case e.Form != "":
		where += e.Form + ": "
	case e.Property != "":
		where += quoteName(e.Property) + ": "
	}
	return where + e.Msg
}

// quoteName quotes a property name for messages when it is not a plain
// identifier.
func quoteName(name string) string {
	for _, r := range name {
		if !(r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return strconv.Quote(name)
		}
	}
	return name
}

// Unwrap returns ErrInvalidSchema and the syntax error, if any.
func (e *SchemaError) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrInvalidSchema, e.Err}
	}
	return []error{ErrInvalidSchema}
}

// ParseSchema reads a requestedSchema written for any protocol era (the
// reader beside AppendJSON, which writes it): a flat object whose
// properties are strings (with length bounds and a format), numbers and
// integers (with bounds), booleans, single-selects (plain enum, titled
// oneOf, or 2025-06-18's enum + enumNames) and multi-selects (items.enum
// or items.anyOf), in the order the JSON lists them. It refuses anything
// else MCP does not allow, duplicate keys and defaults of the wrong type;
// keywords MCP does not define are ignored. A single-select with an empty
// enum reads as a property whose options are supplied at ask time
// (Dynamic), as earlier elicitgen releases wrote them.
//
// Integer defaults read as int64, other numbers as float64, multi-select
// defaults as []string.
func ParseSchema(name string, data []byte) (*Schema, error) {
	r := &schemaReader{form: name}
	if err := jsonobj.Invalid(data); err != nil {
		return nil, &SchemaError{Form: name, Msg: "invalid JSON: " + err.Error(), Err: err}
	}
	return r.schema(data)
}

// jsonKind names the kind of the JSON value raw for messages.
func jsonKind(raw []byte) string { return jsonobj.Kind(raw) }

type schemaReader struct {
	form string
}

func (r *schemaReader) errf(property, format string, args ...any) error {
	return &SchemaError{Form: r.form, Property: property, Msg: fmt.Sprintf(format, args...)}
}

func (r *schemaReader) object(raw json.RawMessage, property, what string) ([]jsonobj.Member, bool, error) {
	ms, ok, err := jsonobj.Parse(raw)
	if err != nil {
		return nil, false, r.errf(property, "%v in %s", err, what)
	}
	return ms, ok, nil
}

func (r *schemaReader) schema(raw json.RawMessage) (*Schema, error) {
	ms, ok, err := r.object(raw, "", "the form")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, r.errf("", "want a requestedSchema object, got %s", jsonKind(raw))
	}
	s := &Schema{Name: r.form}
	var sawType, sawProps bool
	var required []string
	for _, m := range ms {
		switch m.Key {
		case "type":
			sawType = true
			var t string
			if err := json.Unmarshal(m.Value, &t); err != nil || t != "object" {
				return nil, r.errf("", `"type" must be "object", got %s`, compactJSON(m.Value))
			}
		case "properties":
			sawProps = true
			pms, ok, err := r.object(m.Value, "", "properties")
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, r.errf("", `"properties" must be an object, got %s`, jsonKind(m.Value))
			}
			for _, pm := range pms {
				p, err := r.property(pm.Key, pm.Value)
				if err != nil {
					return nil, err
				}
				s.Properties = append(s.Properties, *p)
			}
		case "required":
			if required, err = jsonStrings(m.Value); err != nil {
				return nil, r.errf("", `"required" must be an array of strings`)
			}
		}
	}
	if !sawType {
		return nil, r.errf("", `missing "type": "object"`)
	}
	if !sawProps {
		return nil, r.errf("", `missing "properties"`)
	}
	for _, name := range required {
		p := s.Property(name)
		if p == nil {
			return nil, r.errf("", "required property %q is not in properties", name)
		}
		if p.Required {
			return nil, r.errf("", "property %q is listed twice in required", name)
		}
		p.Required = true
	}
	return s, nil
}

// property reads one PrimitiveSchemaDefinition.
func (r *schemaReader) property(name string, raw json.RawMessage) (*Property, error) {
	ms, ok, err := r.object(raw, name, "the property")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, r.errf(name, "want a property schema object, got %s", jsonKind(raw))
	}
	typ := ""
	for _, m := range ms {
		if m.Key == "type" {
			if err := json.Unmarshal(m.Value, &typ); err != nil {
				return nil, r.errf(name, `"type" must be a string, got %s`, compactJSON(m.Value))
			}
		}
	}
	p := &Property{Name: name}
	switch typ {
	case "string":
		p.Kind = KindString
	case "integer":
		p.Kind = KindInteger
	case "number":
		p.Kind = KindNumber
	case "boolean":
		p.Kind = KindBoolean
	case "array":
		p.Kind = KindMulti
	case "":
		return nil, r.errf(name, `missing "type"`)
	default:
		return nil, r.errf(name, "type %q is not allowed in a requestedSchema (want string, integer, number, boolean or array)", typ)
	}
	var enumVals, enumNames []string
	var oneOf, rawDefault json.RawMessage
	var sawEnum, sawEnumNames, sawItems bool
	for _, m := range ms {
		var err error
		switch key := m.Key; {
		case key == "type":
		case key == "title":
			p.Title, err = jsonString(m.Value)
		case key == "description":
			p.Description, err = jsonString(m.Value)
		case key == "default":
			rawDefault = m.Value
		case typ == "string" && key == "minLength":
			p.MinLength, err = jsonCount(m.Value)
			if p.MinLength != nil && *p.MinLength == 0 {
				p.MinLength = nil
			}
		case typ == "string" && key == "maxLength":
			p.MaxLength, err = jsonCount(m.Value)
		case typ == "string" && key == "format":
			var f string
			if f, err = jsonString(m.Value); err == nil {
				switch f {
				case "email", "uri", "date", "date-time":
					p.Format = f
				default:
					return nil, r.errf(name, "format %q is not allowed (want email, uri, date or date-time)", f)
				}
			}
		case typ == "string" && key == "enum":
			sawEnum = true
			enumVals, err = jsonStrings(m.Value)
		case typ == "string" && key == "enumNames":
			sawEnumNames = true
			enumNames, err = jsonStrings(m.Value)
		case typ == "string" && key == "oneOf":
			oneOf = m.Value
		case (typ == "integer" || typ == "number") && key == "minimum":
			p.Minimum, err = jsonNumber(m.Value)
		case (typ == "integer" || typ == "number") && key == "maximum":
			p.Maximum, err = jsonNumber(m.Value)
		case typ == "array" && key == "minItems":
			p.MinItems, err = jsonCount(m.Value)
			if p.MinItems != nil && *p.MinItems == 0 {
				p.MinItems = nil
			}
		case typ == "array" && key == "maxItems":
			p.MaxItems, err = jsonCount(m.Value)
		case typ == "array" && key == "items":
			sawItems = true
			err = r.items(p, m.Value)
		}
		if err != nil {
			var se *SchemaError
			if errors.As(err, &se) {
				return nil, err
			}
			return nil, r.errf(name, "%q: %v", m.Key, err)
		}
	}
	switch {
	case oneOf != nil && (sawEnum || sawEnumNames):
		return nil, r.errf(name, `"oneOf" cannot be combined with "enum" or "enumNames"`)
	case oneOf != nil:
		opts, err := r.options(name, "oneOf", oneOf)
		if err != nil {
			return nil, err
		}
		p.Kind, p.Style, p.Options = KindEnum, EnumTitled, opts
	case sawEnumNames && !sawEnum:
		return nil, r.errf(name, `"enumNames" without "enum"`)
	case sawEnum:
		if err := r.unique(name, enumVals); err != nil {
			return nil, err
		}
		p.Kind, p.Style = KindEnum, EnumPlain
		p.Options = make([]Option, len(enumVals))
		for i, v := range enumVals {
			p.Options[i].Value = v
		}
		if sawEnumNames {
			if len(enumNames) != len(enumVals) {
				return nil, r.errf(name, `"enumNames" has %d entries, "enum" has %d`, len(enumNames), len(enumVals))
			}
			p.Style = EnumLegacy
			for i, t := range enumNames {
				p.Options[i].Title = t
			}
		}
	}
	if (p.Kind == KindEnum || p.Kind == KindMulti) && len(p.Options) == 0 {
		// No answer is valid against an empty list: it is how earlier
		// elicitgen releases wrote ask-time options.
		p.Options, p.Dynamic = nil, true
	}
	if typ == "array" && !sawItems {
		return nil, r.errf(name, `type "array" needs "items" (a multi-select enum)`)
	}
	if rawDefault != nil {
		v, err := r.defaultValue(p, typ, rawDefault)
		if err != nil {
			return nil, err
		}
		p.Default = v
	}
	return p, nil
}

// items reads the items of a multi-select: {"type":"string","enum":[...]}
// or {"anyOf":[{"const","title"}]}.
func (r *schemaReader) items(p *Property, raw json.RawMessage) error {
	ms, ok, err := r.object(raw, p.Name, "items")
	if err != nil {
		return err
	}
	if !ok {
		return r.errf(p.Name, `"items" must be an object, got %s`, jsonKind(raw))
	}
	seen := false
	for _, m := range ms {
		switch m.Key {
		case "type":
			var t string
			if err := json.Unmarshal(m.Value, &t); err != nil || t != "string" {
				return r.errf(p.Name, `"items.type" must be "string", got %s`, compactJSON(m.Value))
			}
		case "enum", "anyOf":
			if seen {
				return r.errf(p.Name, `"items" cannot have both "enum" and "anyOf"`)
			}
			seen = true
			if m.Key == "anyOf" {
				opts, err := r.options(p.Name, "items.anyOf", m.Value)
				if err != nil {
					return err
				}
				p.Options, p.Style = opts, EnumTitled
				continue
			}
			vals, err := jsonStrings(m.Value)
			if err != nil {
				return r.errf(p.Name, `"items.enum" must be an array of strings`)
			}
			if err := r.unique(p.Name, vals); err != nil {
				return err
			}
			p.Options, p.Style = make([]Option, len(vals)), EnumPlain
			for i, v := range vals {
				p.Options[i].Value = v
			}
		}
	}
	if !seen {
		return r.errf(p.Name, `"items" needs "enum" or "anyOf" (arrays are only allowed as multi-select enums)`)
	}
	return nil
}

// options reads [{"const":"a","title":"A"}, ...].
func (r *schemaReader) options(name, what string, raw json.RawMessage) ([]Option, error) {
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, r.errf(name, "%q must be an array of {const, title} objects", what)
	}
	opts := make([]Option, 0, len(list))
	vals := make([]string, 0, len(list))
	for i, o := range list {
		ms, ok, err := r.object(o, name, what)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, r.errf(name, "%s[%d] must be an object, got %s", what, i, jsonKind(o))
		}
		var opt Option
		sawConst := false
		for _, m := range ms {
			var err error
			switch m.Key {
			case "const":
				sawConst = true
				opt.Value, err = jsonString(m.Value)
			case "title":
				opt.Title, err = jsonString(m.Value)
			}
			if err != nil {
				return nil, r.errf(name, "%s[%d].%s: %v", what, i, m.Key, err)
			}
		}
		if !sawConst {
			return nil, r.errf(name, `%s[%d] has no "const"`, what, i)
		}
		opts = append(opts, opt)
		vals = append(vals, opt.Value)
	}
	if err := r.unique(name, vals); err != nil {
		return nil, err
	}
	return opts, nil
}

func (r *schemaReader) unique(name string, vals []string) error {
	seen := make(map[string]bool, len(vals))
	for _, v := range vals {
		if seen[v] {
			return r.errf(name, "enum value %q appears twice", v)
		}
		seen[v] = true
	}
	return nil
}

// defaultValue reads a default of the property's JSON type.
func (r *schemaReader) defaultValue(p *Property, typ string, raw json.RawMessage) (any, error) {
	var (
		v   any
		err error
	)
	switch typ {
	case "string":
		v, err = jsonString(raw)
	case "integer", "number":
		var f *float64
		if f, err = jsonNumber(raw); err == nil {
			v = *f
			if typ == "integer" && *f == math.Trunc(*f) && math.Abs(*f) <= MaxSafeInteger {
				v = int64(*f)
			}
		}
	case "boolean":
		var b bool
		if json.Unmarshal(raw, &b) != nil || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
			err = errors.New("want a boolean")
		}
		v = b
	case "array":
		v, err = jsonStrings(raw)
	}
	if err != nil {
		return nil, r.errf(p.Name, "default %s does not match type %q", compactJSON(raw), typ)
	}
	return v, nil
}

// jsonString decodes a JSON string (not null).
func jsonString(raw json.RawMessage) (string, error) {
	var s *string
	if err := json.Unmarshal(raw, &s); err != nil || s == nil {
		return "", fmt.Errorf("want a string, got %s", jsonKind(raw))
	}
	return *s, nil
}

// jsonStrings decodes a JSON array of strings (not null).
func jsonStrings(raw json.RawMessage) ([]string, error) {
	var list []*string
	if err := json.Unmarshal(raw, &list); err != nil || list == nil {
		return nil, fmt.Errorf("want an array of strings, got %s", jsonKind(raw))
	}
	out := make([]string, len(list))
	for i, s := range list {
		if s == nil {
			return nil, fmt.Errorf("want an array of strings, got null at index %d", i)
		}
		out[i] = *s
	}
	return out, nil
}

// jsonNumber decodes a finite JSON number.
func jsonNumber(raw json.RawMessage) (*float64, error) {
	var n json.Number
	if err := json.Unmarshal(raw, &n); err != nil || jsonKind(raw) != "a number" {
		return nil, fmt.Errorf("want a number, got %s", jsonKind(raw))
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || math.IsInf(f, 0) {
		return nil, fmt.Errorf("number %s is out of range", n)
	}
	return &f, nil
}

// jsonCount decodes a non-negative integer (2.0 counts as 2, as in JSON
// Schema).
func jsonCount(raw json.RawMessage) (*int, error) {
	f, err := jsonNumber(raw)
	if err != nil {
		return nil, err
	}
	if *f < 0 || *f != math.Trunc(*f) || *f > math.MaxInt32 {
		return nil, fmt.Errorf("want a non-negative integer, got %s", compactJSON(raw))
	}
	n := int(*f)
	return &n, nil
}

func compactJSON(raw json.RawMessage) string { return jsonobj.Compact(raw) }
