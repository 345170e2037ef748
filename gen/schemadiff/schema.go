package schemadiff

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/elicitgen/elicitgen/gen/internal/jsonkind"
)

// ErrInvalidSchema is wrapped by every error that reports input which is not
// a schema file: invalid JSON, or a value that is not a flat requestedSchema.
var ErrInvalidSchema = errors.New("invalid schema file")

// SchemaError reports why a schema file could not be read. It wraps
// ErrInvalidSchema and, for a JSON syntax error, the *json.SyntaxError.
type SchemaError struct {
	File     string // the file name given to CompareFiles ("old" or "new" for Compare)
	Form     string // the form, or "" for a file-level problem
	Property string // the property, or "" for a form-level problem
	Msg      string // what is wrong
	Err      error  // the underlying error, or nil
}

// Error returns "file: Form.property: msg".
func (e *SchemaError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	b.WriteString(": ")
	if e.Form != "" {
		b.WriteString(subject(e.Form, e.Property))
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap returns ErrInvalidSchema and the underlying error, if any.
func (e *SchemaError) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrInvalidSchema, e.Err}
	}
	return []error{ErrInvalidSchema}
}

// schemaFile is a parsed elicit_gen.json: forms in file order.
type schemaFile struct {
	forms  []*form
	byName map[string]*form
}

// form is one requestedSchema.
type form struct {
	name     string
	props    []*prop
	byName   map[string]*prop
	required map[string]bool
	extra    []keyword // unknown top-level keywords
}

// keyword is an unknown keyword and its compact JSON value.
type keyword struct {
	name, value string
}

// number is a JSON number: its value for comparisons and its literal for
// messages.
type number struct {
	v    float64
	text string
}

// value is a default: its compact JSON for messages and equality, and its
// numeric value when it is a number (so that 1 and 1.0 are equal).
type value struct {
	text string
	num  *number
}

func (v *value) equal(w *value) bool {
	if v == nil || w == nil {
		return v == w
	}
	if v.num != nil && w.num != nil {
		return v.num.v == w.num.v
	}
	return v.text == w.text
}

// prop is one property, normalised: absent minLength and minItems read as 0
// and are stored as nil.
type prop struct {
	name                 string
	typ                  string // string, integer, number, boolean, array
	title, desc          *string
	minLength, maxLength *number
	format               string
	minimum, maximum     *number
	enum                 *enumSet // string single-select, or the items of an array
	minItems, maxItems   *number
	def                  *value
	extra                []keyword
	// askTime marks a field whose choices are supplied when asking: it
	// is listed under AskTimeKey, without choices.
	askTime bool
}

// AskTimeKey is the form-level keyword under which elicit_gen.json lists
// the fields whose options are supplied when asking, as
// {"properties": {...}, "required": [...]}, each property without its
// choices.
const AskTimeKey = "x-elicitgen-options"

// enumSet is the list of choices of a single- or multi-select property.
type enumSet struct {
	style  string   // styleEnum, styleOneOf, styleLegacy, styleItemsEnum, styleItemsAnyOf
	values []string // in declaration order
	titles []string // parallel to values; "" when untitled
}

const (
	styleEnum       = "plain enum"
	styleOneOf      = "titled oneOf"
	styleLegacy     = "legacy enum+enumNames"
	styleItemsEnum  = "plain items.enum"
	styleItemsAnyOf = "titled items.anyOf"
)

func (s *enumSet) index(v string) int {
	for i, x := range s.values {
		if x == v {
			return i
		}
	}
	return -1
}

// member is one key of a JSON object, in document order.
type member struct {
	key string
	val json.RawMessage
}

// parser parses one file and builds positioned errors.
type parser struct {
	file string
}

func (p *parser) errf(form, property, format string, args ...any) error {
	return &SchemaError{File: p.file, Form: form, Property: property, Msg: fmt.Sprintf(format, args...)}
}

// parseFile parses a schema file: a JSON object keyed by form name.
func parseFile(name string, data []byte) (*schemaFile, error) {
	p := &parser{file: name}
	if !json.Valid(data) {
		var v any
		err := json.Unmarshal(data, &v) // a *json.SyntaxError with the offset
		if err == nil {
			err = errors.New("not valid JSON")
		}
		return nil, &SchemaError{File: name, Msg: "invalid JSON: " + err.Error(), Err: err}
	}
	ms, ok, err := p.object(data, "", "", "the file")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, p.errf("", "", "want a JSON object keyed by form name, got %s", jsonkind.Of(data))
	}
	f := &schemaFile{byName: make(map[string]*form, len(ms))}
	for _, m := range ms {
		fm, err := p.form(m.key, m.val)
		if err != nil {
			return nil, err
		}
		f.forms = append(f.forms, fm)
		f.byName[fm.name] = fm
	}
	return f, nil
}

// object returns the members of raw in order; ok is false when raw is not an
// object. Duplicate keys are an error.
func (p *parser) object(raw json.RawMessage, form, property, what string) ([]member, bool, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, false, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return nil, false, p.errf(form, property, "invalid JSON: %v", err)
	}
	var ms []member
	seen := make(map[string]bool)
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, false, p.errf(form, property, "invalid JSON: %v", err)
		}
		key, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, false, p.errf(form, property, "invalid JSON: %v", err)
		}
		if seen[key] {
			return nil, false, p.errf(form, property, "duplicate key %q in %s", key, what)
		}
		seen[key] = true
		ms = append(ms, member{key, v})
	}
	return ms, true, nil
}

// form parses one requestedSchema.
func (p *parser) form(name string, raw json.RawMessage) (*form, error) {
	ms, ok, err := p.object(raw, name, "", "the form")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, p.errf(name, "", "want a requestedSchema object, got %s", jsonkind.Of(raw))
	}
	f := &form{name: name, byName: make(map[string]*prop), required: make(map[string]bool)}
	var sawType, sawProps bool
	var required []string
	for _, m := range ms {
		switch m.key {
		case "type":
			sawType = true
			var t string
			if err := json.Unmarshal(m.val, &t); err != nil || t != "object" {
				return nil, p.errf(name, "", `"type" must be "object", got %s`, compact(m.val))
			}
		case "properties":
			sawProps = true
			if err := p.addProps(f, "properties", m.val, false); err != nil {
				return nil, err
			}
		case "required":
			if err := p.strings(m.val, &required); err != nil {
				return nil, p.errf(name, "", `"required" must be an array of strings`)
			}
		case AskTimeKey:
			req, err := p.askTime(f, m.val)
			if err != nil {
				return nil, err
			}
			required = append(required, req...)
		default:
			f.extra = append(f.extra, keyword{m.key, compact(m.val)})
		}
	}
	if !sawType {
		return nil, p.errf(name, "", `missing "type": "object"`)
	}
	if !sawProps {
		return nil, p.errf(name, "", `missing "properties"`)
	}
	for _, r := range required {
		if f.byName[r] == nil {
			return nil, p.errf(name, "", "required property %q is not in properties", r)
		}
		if f.required[r] {
			return nil, p.errf(name, "", "property %q is listed twice in required", r)
		}
		f.required[r] = true
	}
	return f, nil
}

// askTime parses the AskTimeKey object of form f, adds its properties to f
// and returns the names it lists as required.
func (p *parser) askTime(f *form, raw json.RawMessage) ([]string, error) {
	ms, ok, err := p.object(raw, f.name, "", AskTimeKey)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, p.errf(f.name, "", "%q must be an object, got %s", AskTimeKey, jsonkind.Of(raw))
	}
	var required []string
	for _, m := range ms {
		switch m.key {
		case "properties":
			if err := p.addProps(f, AskTimeKey+".properties", m.val, true); err != nil {
				return nil, err
			}
		case "required":
			if err := p.strings(m.val, &required); err != nil {
				return nil, p.errf(f.name, "", "%q must be an array of strings", AskTimeKey+".required")
			}
		default:
			return nil, p.errf(f.name, "", "unknown key %q in %s (want properties and required)", m.key, AskTimeKey)
		}
	}
	return required, nil
}

// addProps parses the properties object raw of form f, called what in
// messages, and adds its properties to f. Ask-time properties (askTime)
// have no choices and must not repeat a property f already has.
func (p *parser) addProps(f *form, what string, raw json.RawMessage, askTime bool) error {
	pms, ok, err := p.object(raw, f.name, "", what)
	if err != nil {
		return err
	}
	if !ok {
		return p.errf(f.name, "", "%q must be an object, got %s", what, jsonkind.Of(raw))
	}
	for _, pm := range pms {
		if askTime && f.byName[pm.key] != nil {
			return p.errf(f.name, pm.key, "listed both in properties and in %s", AskTimeKey)
		}
		pr, err := p.propOf(f.name, pm.key, pm.val, askTime)
		if err != nil {
			return err
		}
		f.props = append(f.props, pr)
		f.byName[pr.name] = pr
	}
	return nil
}

// propOf parses one property (a PrimitiveSchemaDefinition); an ask-time
// property has no choices.
func (p *parser) propOf(form, name string, raw json.RawMessage, askTime bool) (*prop, error) {
	ms, ok, err := p.object(raw, form, name, "the property")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, p.errf(form, name, "want a property schema object, got %s", jsonkind.Of(raw))
	}
	pr := &prop{name: name, askTime: askTime}
	for _, m := range ms {
		if m.key == "type" {
			if err := json.Unmarshal(m.val, &pr.typ); err != nil {
				return nil, p.errf(form, name, `"type" must be a string, got %s`, compact(m.val))
			}
		}
	}
	switch pr.typ {
	case "string", "integer", "number", "boolean", "array":
	case "":
		return nil, p.errf(form, name, `missing "type"`)
	default:
		return nil, p.errf(form, name, "type %q is not allowed in a requestedSchema (want string, integer, number, boolean or array)", pr.typ)
	}
	var enumVals, enumNames []string
	var oneOf json.RawMessage
	var sawEnum, sawEnumNames, sawItems bool
	var rawDefault json.RawMessage
	for _, m := range ms {
		var err error
		switch key := m.key; {
		case key == "type":
		case key == "title":
			pr.title, err = p.str(m.val)
		case key == "description":
			pr.desc, err = p.str(m.val)
		case key == "default":
			rawDefault = m.val
		case pr.typ == "string" && key == "minLength":
			pr.minLength, err = p.count(m.val)
			if pr.minLength != nil && pr.minLength.v == 0 {
				pr.minLength = nil
			}
		case pr.typ == "string" && key == "maxLength":
			pr.maxLength, err = p.count(m.val)
		case pr.typ == "string" && key == "format":
			var s *string
			if s, err = p.str(m.val); err == nil {
				switch *s {
				case "email", "uri", "date", "date-time":
					pr.format = *s
				default:
					return nil, p.errf(form, name, "format %q is not allowed (want email, uri, date or date-time)", *s)
				}
			}
		case pr.typ == "string" && key == "enum":
			sawEnum = true
			err = p.strings(m.val, &enumVals)
		case pr.typ == "string" && key == "enumNames":
			sawEnumNames = true
			err = p.strings(m.val, &enumNames)
		case pr.typ == "string" && key == "oneOf":
			oneOf = m.val
		case (pr.typ == "integer" || pr.typ == "number") && key == "minimum":
			pr.minimum, err = p.num(m.val)
		case (pr.typ == "integer" || pr.typ == "number") && key == "maximum":
			pr.maximum, err = p.num(m.val)
		case pr.typ == "array" && key == "minItems":
			pr.minItems, err = p.count(m.val)
			if pr.minItems != nil && pr.minItems.v == 0 {
				pr.minItems = nil
			}
		case pr.typ == "array" && key == "maxItems":
			pr.maxItems, err = p.count(m.val)
		case pr.typ == "array" && key == "items":
			sawItems = true
			pr.enum, err = p.items(form, name, m.val, pr)
		default:
			pr.extra = append(pr.extra, keyword{key, compact(m.val)})
		}
		if err != nil {
			var se *SchemaError
			if errors.As(err, &se) {
				return nil, err
			}
			return nil, p.errf(form, name, "%q: %v", m.key, err)
		}
	}
	switch {
	case oneOf != nil && (sawEnum || sawEnumNames):
		return nil, p.errf(form, name, `"oneOf" cannot be combined with "enum" or "enumNames"`)
	case oneOf != nil:
		set, err := p.options(form, name, "oneOf", oneOf, pr)
		if err != nil {
			return nil, err
		}
		set.style = styleOneOf
		pr.enum = set
	case sawEnumNames && !sawEnum:
		return nil, p.errf(form, name, `"enumNames" without "enum"`)
	case sawEnum:
		set := &enumSet{style: styleEnum, values: enumVals, titles: make([]string, len(enumVals))}
		if sawEnumNames {
			if len(enumNames) != len(enumVals) {
				return nil, p.errf(form, name, `"enumNames" has %d entries, "enum" has %d`, len(enumNames), len(enumVals))
			}
			set.style = styleLegacy
			copy(set.titles, enumNames)
		}
		if err := p.checkUnique(form, name, set.values); err != nil {
			return nil, err
		}
		pr.enum = set
	}
	if pr.enum != nil && len(pr.enum.values) == 0 {
		// No answer is valid against an empty list: it is how elicitgen
		// wrote ask-time options before AskTimeKey, and means the same.
		pr.enum, pr.askTime = nil, true
	}
	if pr.typ == "array" && !sawItems {
		return nil, p.errf(form, name, `type "array" needs "items" (a multi-select enum)`)
	}
	if rawDefault != nil {
		if err := p.checkDefault(form, pr, rawDefault); err != nil {
			return nil, err
		}
		pr.def = &value{text: compact(rawDefault)}
		if pr.typ == "integer" || pr.typ == "number" {
			pr.def.num, _ = p.num(rawDefault)
		}
	}
	return pr, nil
}

// items parses the items of a multi-select: {"type":"string","enum":[...]} or
// {"anyOf":[{"const","title"}]}.
func (p *parser) items(form, name string, raw json.RawMessage, pr *prop) (*enumSet, error) {
	ms, ok, err := p.object(raw, form, name, "items")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, p.errf(form, name, `"items" must be an object, got %s`, jsonkind.Of(raw))
	}
	var set *enumSet
	for _, m := range ms {
		switch m.key {
		case "type":
			var t string
			if err := json.Unmarshal(m.val, &t); err != nil || t != "string" {
				return nil, p.errf(form, name, `"items.type" must be "string", got %s`, compact(m.val))
			}
		case "enum":
			if set != nil {
				return nil, p.errf(form, name, `"items" cannot have both "enum" and "anyOf"`)
			}
			var vals []string
			if err := p.strings(m.val, &vals); err != nil {
				return nil, p.errf(form, name, `"items.enum" must be an array of strings`)
			}
			if err := p.checkUnique(form, name, vals); err != nil {
				return nil, err
			}
			set = &enumSet{style: styleItemsEnum, values: vals, titles: make([]string, len(vals))}
		case "anyOf":
			if set != nil {
				return nil, p.errf(form, name, `"items" cannot have both "enum" and "anyOf"`)
			}
			if set, err = p.options(form, name, "items.anyOf", m.val, pr); err != nil {
				return nil, err
			}
			set.style = styleItemsAnyOf
		default:
			pr.extra = append(pr.extra, keyword{"items." + m.key, compact(m.val)})
		}
	}
	if set == nil && !pr.askTime {
		return nil, p.errf(form, name, `"items" needs "enum" or "anyOf" (arrays are only allowed as multi-select enums)`)
	}
	return set, nil
}

// options parses [{"const":"a","title":"A"}, ...].
func (p *parser) options(form, name, what string, raw json.RawMessage, pr *prop) (*enumSet, error) {
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, p.errf(form, name, "%q must be an array of {const, title} objects", what)
	}
	set := &enumSet{}
	for i, o := range list {
		ms, ok, err := p.object(o, form, name, what)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, p.errf(form, name, "%s[%d] must be an object, got %s", what, i, jsonkind.Of(o))
		}
		var c, title *string
		var extra []keyword
		for _, m := range ms {
			var err error
			switch m.key {
			case "const":
				c, err = p.str(m.val)
			case "title":
				title, err = p.str(m.val)
			default:
				extra = append(extra, keyword{m.key, compact(m.val)})
			}
			if err != nil {
				return nil, p.errf(form, name, "%s[%d].%s: %v", what, i, m.key, err)
			}
		}
		if c == nil {
			return nil, p.errf(form, name, `%s[%d] has no "const"`, what, i)
		}
		for _, k := range extra {
			pr.extra = append(pr.extra, keyword{fmt.Sprintf("%s[%q].%s", what, *c, k.name), k.value})
		}
		set.values = append(set.values, *c)
		if title != nil {
			set.titles = append(set.titles, *title)
		} else {
			set.titles = append(set.titles, "")
		}
	}
	if err := p.checkUnique(form, name, set.values); err != nil {
		return nil, err
	}
	return set, nil
}

func (p *parser) checkUnique(form, name string, vals []string) error {
	seen := make(map[string]bool, len(vals))
	for _, v := range vals {
		if seen[v] {
			return p.errf(form, name, "enum value %q appears twice", v)
		}
		seen[v] = true
	}
	return nil
}

// checkDefault checks that a default has the property's JSON type.
func (p *parser) checkDefault(form string, pr *prop, raw json.RawMessage) error {
	var err error
	switch pr.typ {
	case "string":
		_, err = p.str(raw)
	case "integer", "number":
		_, err = p.num(raw)
	case "boolean":
		var b bool
		if json.Unmarshal(raw, &b) != nil || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
			err = errors.New("want a boolean")
		}
	case "array":
		var s []string
		err = p.strings(raw, &s)
	}
	if err != nil {
		return p.errf(form, pr.name, "default %s does not match type %q", compact(raw), pr.typ)
	}
	return nil
}

// str decodes a JSON string (not null).
func (p *parser) str(raw json.RawMessage) (*string, error) {
	var s *string
	if err := json.Unmarshal(raw, &s); err != nil || s == nil {
		return nil, fmt.Errorf("want a string, got %s", jsonkind.Of(raw))
	}
	return s, nil
}

// strings decodes a JSON array of strings (not null).
func (p *parser) strings(raw json.RawMessage, dst *[]string) error {
	var list []*string
	if err := json.Unmarshal(raw, &list); err != nil || list == nil {
		return fmt.Errorf("want an array of strings, got %s", jsonkind.Of(raw))
	}
	out := make([]string, len(list))
	for i, s := range list {
		if s == nil {
			return fmt.Errorf("want an array of strings, got null at index %d", i)
		}
		out[i] = *s
	}
	*dst = out
	return nil
}

// num decodes a finite JSON number.
func (p *parser) num(raw json.RawMessage) (*number, error) {
	var n json.Number
	if err := json.Unmarshal(raw, &n); err != nil || jsonkind.Of(raw) != "a number" {
		return nil, fmt.Errorf("want a number, got %s", jsonkind.Of(raw))
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || math.IsInf(f, 0) {
		return nil, fmt.Errorf("number %s is out of range", n)
	}
	return &number{v: f, text: string(n)}, nil
}

// count decodes a non-negative integer (2.0 counts as 2, as in JSON Schema).
func (p *parser) count(raw json.RawMessage) (*number, error) {
	n, err := p.num(raw)
	if err != nil {
		return nil, err
	}
	if n.v < 0 || n.v != math.Trunc(n.v) {
		return nil, fmt.Errorf("want a non-negative integer, got %s", n.text)
	}
	return n, nil
}

// compact returns raw without insignificant whitespace.
func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}
