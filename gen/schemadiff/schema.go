package schemadiff

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/elicitgen/elicitgen/internal/jsonobj"
	"github.com/elicitgen/elicitgen/runtime"
)

// ErrInvalidSchema is wrapped by every error that reports input which is not
// a schema file: invalid JSON, or a value that is not a flat requestedSchema.
// It is runtime.ErrInvalidSchema.
var ErrInvalidSchema = runtime.ErrInvalidSchema

// SchemaError reports why a schema file could not be read: the file, the
// position when known, the form and property. It is runtime.SchemaError,
// the one error type of both schema readers; it wraps ErrInvalidSchema and,
// for a JSON syntax error, the *json.SyntaxError.
type SchemaError = runtime.SchemaError

// schemaFile is a parsed elicit_gen.json: forms in file order.
type schemaFile struct {
	version int // the format version (1 when the file does not say)
	forms   []*form
	byName  map[string]*form
}

// form is one requestedSchema.
type form struct {
	name     string
	props    []*prop
	byName   map[string]*prop
	required map[string]bool
	extra    []keyword // unknown top-level keywords
	check    bool      // CheckKey: the form has a CheckElicit method
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
	// rules are the server-side rules the file records (rules.go).
	rules rules
}

// AskTimeKey is the form-level keyword under which elicit_gen.json lists
// the fields whose options are supplied when asking, as
// {"properties": {...}, "required": [...]}, each property without its
// choices.
const AskTimeKey = "x-elicitgen-options"

// The schema file records the rules the server applies but never sends
// under these extension keys, which a JSON Schema reader ignores (see the
// package documentation).
const (
	// VersionKey is the file-level key of the file's format version,
	// FormatVersion; a file without it is version 1 (no server-side
	// rules recorded).
	VersionKey = "x-elicitgen-version"
	// PatternKey holds a string field's pattern= (RE2), PatternMessageKey
	// its patternMessage= words.
	PatternKey        = "x-elicitgen-pattern"
	PatternMessageKey = "x-elicitgen-patternMessage"
	// ConfirmKey (true) marks the box tagged confirm: an accept with it
	// unticked is a decline.
	ConfirmKey = "x-elicitgen-confirm"
	// AskKey (true) marks a tool argument asked of the person when the
	// model leaves it out (the tag option ask).
	AskKey = "x-elicitgen-ask"
	// CheckKey (true, form level) says the form has a CheckElicit method
	// that checks every answer further.
	CheckKey = "x-elicitgen-check"
)

// FormatVersion is the schema file format this elicitgen writes and the
// newest it reads.
const FormatVersion = 2

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

// parseFile parses a schema file: a JSON object keyed by form name, each
// a requestedSchema read by runtime.ParseSchema (the reader beside the
// runtime's writer), plus the generator's AskTimeKey. Keywords MCP does
// not define are kept for the comparison.
func parseFile(name string, data []byte) (*schemaFile, error) {
	if err := jsonobj.Invalid(data); err != nil {
		return nil, &SchemaError{File: name, Msg: "invalid JSON: " + err.Error(), Err: err}
	}
	ms, ok, err := jsonobj.Parse(data)
	if err != nil {
		return nil, &SchemaError{File: name, Msg: err.Error() + " in the file"}
	}
	if !ok {
		return nil, &SchemaError{File: name, Msg: "want a JSON object keyed by form name, got " + jsonobj.Kind(data)}
	}
	f := &schemaFile{version: 1, byName: make(map[string]*form, len(ms))}
	for _, m := range ms {
		if m.Key == VersionKey {
			if f.version, err = readVersion(name, data, m); err != nil { // rules.go
				return nil, err
			}
			continue
		}
		fm, err := parseForm(m.Key, m.Value)
		if err != nil {
			var re *runtime.SchemaError
			if errors.As(err, &re) {
				re.File = name
				return nil, re
			}
			return nil, &SchemaError{File: name, Form: m.Key, Msg: err.Error()}
		}
		f.forms = append(f.forms, fm)
		f.byName[fm.name] = fm
	}
	return f, nil
}

// member is one key of a JSON object, in document order.
type member struct {
	key string
	val json.RawMessage
}

// members returns the members of raw in order; ok is false when raw is
// not an object. Duplicate keys are an error.
func members(raw json.RawMessage) ([]member, bool, error) {
	jms, ok, err := jsonobj.Parse(raw)
	if err != nil || !ok {
		return nil, ok, err
	}
	ms := make([]member, len(jms))
	for i, m := range jms {
		ms[i] = member{m.Key, m.Value}
	}
	return ms, true, nil
}

func errf(form, property, format string, args ...any) error {
	return &runtime.SchemaError{Form: form, Property: property, Msg: fmt.Sprintf(format, args...)}
}

// parseForm reads one form: its requestedSchema (without AskTimeKey) with
// runtime.ParseSchema, then the ask-time fields the same way.
func parseForm(name string, raw json.RawMessage) (*form, error) {
	ms, ok, err := members(raw)
	if err != nil {
		return nil, errf(name, "", "%v in the form", err)
	}
	if !ok {
		return nil, errf(name, "", "want a requestedSchema object, got %s", jsonobj.Kind(raw))
	}
	var askTime json.RawMessage
	wire := make([]member, 0, len(ms))
	f := &form{name: name, byName: make(map[string]*prop), required: make(map[string]bool)}
	for _, m := range ms {
		switch m.key {
		case AskTimeKey:
			askTime = m.val
			continue
		case CheckKey:
			if string(m.val) != "true" {
				return nil, errf(name, "", "%q must be true, got %s", CheckKey, compact(m.val))
			}
			f.check = true
			continue
		case "type", "properties", "required":
		default:
			f.extra = append(f.extra, keyword{m.key, compact(m.val)})
		}
		wire = append(wire, m)
	}
	s, err := runtime.ParseSchema(name, object(wire))
	if err != nil {
		return nil, err
	}
	rawProps := map[string]json.RawMessage{}
	for _, m := range wire {
		if m.key == "properties" {
			pms, _, _ := members(m.val)
			for _, pm := range pms {
				rawProps[pm.key] = pm.val
			}
		}
	}
	for i := range s.Properties {
		p := &s.Properties[i]
		pr, req := propOf(p, rawProps[p.Name], false)
		if pr.rules, err = readRules(name, p, rawProps[p.Name]); err != nil { // rules.go
			return nil, err
		}
		f.add(pr, req)
	}
	if askTime != nil {
		sub, err := parseAskTime(f, askTime)
		if err != nil {
			return nil, err
		}
		raws := map[string]json.RawMessage{}
		if ams, _, _ := members(askTime); ams != nil {
			for _, am := range ams {
				if am.key == "properties" {
					pms, _, _ := members(am.val)
					for _, pm := range pms {
						raws[pm.key] = pm.val
					}
				}
			}
		}
		for i := range sub.Properties {
			p := &sub.Properties[i]
			if f.byName[p.Name] != nil {
				return nil, errf(name, p.Name, "listed both in properties and in %s", AskTimeKey)
			}
			pr, req := propOf(p, nil, true)
			if pr.rules, err = readRules(name, p, raws[p.Name]); err != nil {
				return nil, err
			}
			f.add(pr, req)
		}
	}
	return f, nil
}

func (f *form) add(pr *prop, required bool) {
	f.props = append(f.props, pr)
	f.byName[pr.name] = pr
	if required {
		f.required[pr.name] = true
	}
}

// parseAskTime reads the AskTimeKey object of form f: properties without
// their choices, and the names of the required ones.
func parseAskTime(f *form, raw json.RawMessage) (*runtime.Schema, error) {
	ms, ok, err := members(raw)
	if err != nil {
		return nil, errf(f.name, "", "%v in %s", err, AskTimeKey)
	}
	if !ok {
		return nil, errf(f.name, "", "%q must be an object, got %s", AskTimeKey, jsonobj.Kind(raw))
	}
	wire := []member{{"type", json.RawMessage(`"object"`)}}
	for _, m := range ms {
		switch m.key {
		case "properties":
			pms, ok, err := members(m.val)
			if err != nil || !ok {
				return nil, errf(f.name, "", "%q must be an object", AskTimeKey+".properties")
			}
			// Ask-time fields are listed without choices: give each an
			// empty list, which the reader takes for ask-time options.
			for i, pm := range pms {
				pms[i].val = withEmptyChoices(pm.val)
			}
			wire = append(wire, member{"properties", object(pms)})
		case "required":
			wire = append(wire, m)
		default:
			return nil, errf(f.name, "", "unknown key %q in %s (want properties and required)", m.key, AskTimeKey)
		}
	}
	return runtime.ParseSchema(f.name, object(wire))
}

// withEmptyChoices returns a property schema with "enum": [] (strings) or
// "items": {"type": "string", "enum": []} (arrays) when it has no
// choices.
func withEmptyChoices(raw json.RawMessage) json.RawMessage {
	ms, ok, err := members(raw)
	if err != nil || !ok {
		return raw
	}
	typ := ""
	for _, m := range ms {
		switch m.key {
		case "type":
			_ = json.Unmarshal(m.val, &typ)
		case "enum", "oneOf":
			return raw
		}
	}
	switch typ {
	case "string":
		return object(append(ms, member{"enum", json.RawMessage(`[]`)}))
	case "array":
		for i, m := range ms {
			if m.key == "items" {
				ims, ok, err := members(m.val)
				if err != nil || !ok {
					return raw
				}
				for _, im := range ims {
					if im.key == "enum" || im.key == "anyOf" {
						return raw
					}
				}
				ms[i].val = object(append(ims, member{"enum", json.RawMessage(`[]`)}))
				return object(ms)
			}
		}
		return object(append(ms, member{"items", json.RawMessage(`{"type":"string","enum":[]}`)}))
	}
	return raw
}

// object writes members back as a JSON object.
func object(ms []member) json.RawMessage {
	jms := make([]jsonobj.Member, len(ms))
	for i, m := range ms {
		jms[i] = jsonobj.Member{Key: m.key, Value: m.val}
	}
	return jsonobj.Append(nil, jms)
}

// propOf is the comparison's view of p; raw is its JSON, for the
// keywords MCP does not define.
func propOf(p *runtime.Property, raw json.RawMessage, askTime bool) (*prop, bool) {
	pr := &prop{name: p.Name, format: p.Format, askTime: askTime || p.Dynamic}
	switch p.Kind {
	case runtime.KindString, runtime.KindEnum:
		pr.typ = "string"
	case runtime.KindInteger:
		pr.typ = "integer"
	case runtime.KindNumber:
		pr.typ = "number"
	case runtime.KindBoolean:
		pr.typ = "boolean"
	case runtime.KindMulti:
		pr.typ = "array"
	}
	if p.Title != "" {
		pr.title = &p.Title
	}
	if p.Description != "" {
		pr.desc = &p.Description
	}
	pr.minLength, pr.maxLength = count(p.MinLength), count(p.MaxLength)
	pr.minimum, pr.maximum = num(p.Minimum), num(p.Maximum)
	pr.minItems, pr.maxItems = count(p.MinItems), count(p.MaxItems)
	if len(p.Options) > 0 && !p.Dynamic {
		set := &enumSet{}
		for _, o := range p.Options {
			set.values = append(set.values, o.Value)
			set.titles = append(set.titles, o.Title)
		}
		switch {
		case p.Kind == runtime.KindMulti && p.Style == runtime.EnumTitled:
			set.style = styleItemsAnyOf
		case p.Kind == runtime.KindMulti:
			set.style = styleItemsEnum
		case p.Style == runtime.EnumTitled:
			set.style = styleOneOf
		case p.Style == runtime.EnumLegacy:
			set.style = styleLegacy
		default:
			set.style = styleEnum
		}
		pr.enum = set
	}
	if p.Default != nil {
		b, _ := json.Marshal(p.Default)
		pr.def = &value{text: string(b)}
		switch d := p.Default.(type) {
		case float64:
			pr.def.num = num(&d)
		case int64:
			f := float64(d)
			pr.def.num = num(&f)
		}
	}
	pr.extra = unknownKeywords(raw)
	return pr, p.Required
}

// known lists the keywords MCP defines for a property, by type.
var known = map[string]map[string]bool{
	"":        {"type": true, "title": true, "description": true, "default": true},
	"string":  {"minLength": true, "maxLength": true, "format": true, "enum": true, "enumNames": true, "oneOf": true},
	"integer": {"minimum": true, "maximum": true},
	"number":  {"minimum": true, "maximum": true},
	"array":   {"minItems": true, "maxItems": true, "items": true},
}

// unknownKeywords returns the keywords of the property schema raw that
// MCP does not define, in document order, with those of its items and
// options.
func unknownKeywords(raw json.RawMessage) []keyword {
	ms, _, _ := members(raw)
	typ := ""
	for _, m := range ms {
		if m.key == "type" {
			_ = json.Unmarshal(m.val, &typ)
		}
	}
	var out []keyword
	for _, m := range ms {
		switch {
		case known[""][m.key] || known[typ][m.key] && m.key != "items" && m.key != "oneOf", ruleKeys[m.key]:
		case m.key == "oneOf":
			out = append(out, optionKeywords("oneOf", m.val)...)
		case m.key == "items":
			ims, _, _ := members(m.val)
			for _, im := range ims {
				switch im.key {
				case "type", "enum":
				case "anyOf":
					out = append(out, optionKeywords("items.anyOf", im.val)...)
				default:
					out = append(out, keyword{"items." + im.key, compact(im.val)})
				}
			}
		default:
			out = append(out, keyword{m.key, compact(m.val)})
		}
	}
	return out
}

// optionKeywords returns the keywords of {const, title} options other
// than those two, named by the option's value.
func optionKeywords(what string, raw json.RawMessage) []keyword {
	var list []json.RawMessage
	_ = json.Unmarshal(raw, &list)
	var out []keyword
	for _, o := range list {
		ms, _, _ := members(o)
		var c string
		for _, m := range ms {
			if m.key == "const" {
				_ = json.Unmarshal(m.val, &c)
			}
		}
		for _, m := range ms {
			if m.key != "const" && m.key != "title" {
				out = append(out, keyword{fmt.Sprintf("%s[%q].%s", what, c, m.key), compact(m.val)})
			}
		}
	}
	return out
}

func count(n *int) *number {
	if n == nil {
		return nil
	}
	return &number{v: float64(*n), text: strconv.Itoa(*n)}
}

func num(f *float64) *number {
	if f == nil {
		return nil
	}
	text := strconv.FormatFloat(*f, 'g', -1, 64)
	if *f == math.Trunc(*f) && math.Abs(*f) < 1e15 {
		text = strconv.FormatFloat(*f, 'f', -1, 64)
	}
	return &number{v: *f, text: text}
}

func compact(raw json.RawMessage) string { return jsonobj.Compact(raw) }
