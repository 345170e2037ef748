package gen

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/elicitgen/elicitgen/gen/schemadiff"
	"github.com/elicitgen/elicitgen/internal/jsonobj"
	"github.com/elicitgen/elicitgen/runtime"
)

// AskTimeKey is the form-level keyword of elicit_gen.json that holds the
// fields tagged `options`, whose choices are supplied when asking
// (runtime.WithOptions). They are left out of the form's "properties" and
// "required", so that every form in the file is a requestedSchema a client
// could be sent (an enum without values is not), and described under this
// key as {"properties": {...}, "required": [...]}: each property as sent
// but without its choices (a single-select is {"type":"string"}, a
// multi-select's items are {"type":"string"}).
const AskTimeKey = schemadiff.AskTimeKey

// EmitSchemaFile returns elicit_gen.json for pkg: one object keyed by form
// name, each value the requestedSchema as sent to a 2025-11-25 or later
// client, properties in declaration order, 2-space indent, trailing
// newline.
//
// Unlike the requestedSchema sent, the file also records the rules the
// server applies but never sends, as extension keys a JSON Schema reader
// ignores (see formRules), and starts with its format version
// (schemadiff.VersionKey), so that `elicitgen diff` can compare them.
func EmitSchemaFile(pkg *Package) ([]byte, error) {
	version, _ := json.Marshal(schemadiff.VersionKey) // a constant: always marshals
	b := append([]byte{'{'}, version...)
	b = append(b, ':')
	b = strconv.AppendInt(b, schemadiff.FormatVersion, 10)
	for _, f := range pkg.Forms {
		k, err := json.Marshal(f.Name)
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, ','), k...), ':')
		start := len(b)
		if b, err = appendFormSchema(b, f, runtime.Version20251125); err != nil {
			return nil, err
		}
		if hasRules(f) {
			entry, err := formRules(b[start:], f)
			if err != nil {
				return nil, err
			}
			b = append(b[:start], entry...)
		}
	}
	b = append(b, '}')
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "  "); err != nil {
		return nil, generatorBug("schema file does not parse: %v\n%s", err, b)
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// EmitSchemas returns one JSON object of every form of every package:
// keys are type names, or importpath.TypeName when pkgs holds more than
// one package.
func EmitSchemas(pkgs []*Package) ([]byte, error) {
	forms, keys := schemaKeys(pkgs)
	return emitSchemas(forms, func(f *Form) string { return keys[f] }, "")
}

// schemaKeys returns every form of pkgs and its key in `elicitgen
// schema`: the type name, or importpath.TypeName when more than one
// package has forms.
func schemaKeys(pkgs []*Package) ([]*Form, map[*Form]string) {
	var forms []*Form
	keys := map[*Form]string{}
	multi := 0
	for _, p := range pkgs {
		if len(p.Forms) > 0 {
			multi++
		}
	}
	for _, p := range pkgs {
		for _, f := range p.Forms {
			forms = append(forms, f)
			keys[f] = f.Name
			if multi > 1 {
				keys[f] = p.PkgPath + "." + f.Name
			}
		}
	}
	return forms, keys
}

// emitSchemas writes the forms' schemas as sent to a client speaking
// version ("": 2025-11-25 or later). Forms that cannot be asked on
// version must have been left out by the caller.
func emitSchemas(forms []*Form, key func(*Form) string, version string) ([]byte, error) {
	if version == "" {
		version = runtime.Version20251125
	}
	b := []byte{'{'}
	for i, f := range forms {
		if i > 0 {
			b = append(b, ',')
		}
		k, err := json.Marshal(key(f))
		if err != nil {
			return nil, err
		}
		b = append(b, k...)
		b = append(b, ':')
		b, err = appendFormSchema(b, f, version)
		if err != nil {
			return nil, err
		}
	}
	b = append(b, '}')
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "  "); err != nil {
		return nil, generatorBug("schema JSON does not parse: %v\n%s", err, b)
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// appendFormSchema appends the form's entry of the schema file: the
// requestedSchema of its fixed fields, plus AskTimeKey for the fields
// whose options are supplied when asking. On 2025-06-18 optional
// multi-select fields are left out, as the runtime leaves them out of the
// request, and required ones are written as one boolean per option
// (runtime.LegacySchema).
func appendFormSchema(b []byte, f *Form, version string) ([]byte, error) {
	fixed := &runtime.Schema{Name: f.Name, Properties: make([]runtime.Property, 0, len(f.Fields))}
	var ask []runtime.Property
	for _, fld := range f.Fields {
		if runtime.EraOf(version).LegacySchema() && fld.Prop.Kind == runtime.KindMulti && !fld.Prop.Required {
			continue
		}
		if fld.Prop.Dynamic {
			ask = append(ask, fld.Prop)
			continue
		}
		fixed.Properties = append(fixed.Properties, fld.Prop)
	}
	b, err := fixed.AppendJSON(b, version)
	if err != nil {
		return nil, generatorBug("schema of %s: %v", f.Name, err)
	}
	if len(ask) == 0 {
		return b, nil
	}
	b = b[:len(b)-1] // reopen the object
	b = append(b, `,"`+AskTimeKey+`":`...)
	// Encode the fields as a requestedSchema of their own, without their
	// (unknown) choices, then drop the empty choice lists the encoder
	// writes for multi-selects (a JSON string cannot hold the unescaped
	// pattern) and the object's "type".
	sub := &runtime.Schema{Name: f.Name, Properties: make([]runtime.Property, len(ask))}
	for i, p := range ask {
		p.Options, p.Dynamic, p.Style = nil, false, runtime.EnumPlain
		if p.Kind == runtime.KindEnum {
			p.Kind = runtime.KindString
		}
		sub.Properties[i] = p
	}
	enc, err := sub.AppendJSON(nil, version)
	if err != nil {
		return nil, generatorBug("ask-time fields of %s: %v", f.Name, err)
	}
	enc = bytes.ReplaceAll(enc, []byte(`"items":{"type":"string","enum":[]}`), []byte(`"items":{"type":"string"}`))
	enc = bytes.Replace(enc, []byte(`{"type":"object",`), []byte(`{`), 1)
	b = append(b, enc...)
	return append(b, '}'), nil
}

// hasRules reports whether f has a server-side rule the schema file
// records (see formRules).
func hasRules(f *Form) bool {
	if f.Checked {
		return true
	}
	for i := range f.Fields {
		if len(rulesOf(&f.Fields[i].Prop, f.Args)) > 0 {
			return true
		}
	}
	return false
}

// formRules returns the compact schema-file entry raw of form f (as
// appendFormSchema writes it) with the server-side rules the server
// applies but never sends: per property schemadiff.PatternKey,
// PatternMessageKey, ConfirmKey and AskKey (a tool argument asked when
// the model leaves it out), per form schemadiff.CheckKey (a CheckElicit
// method).
func formRules(raw []byte, f *Form) ([]byte, error) {
	fms, _, err := jsonobj.Parse(raw)
	if err != nil {
		return nil, generatorBug("schema of %s does not parse: %v", f.Name, err)
	}
	for j := range fms {
		switch fms[j].Key {
		case "properties":
			fms[j].Value = propertyRules(fms[j].Value, f)
		case AskTimeKey:
			sub, _, _ := jsonobj.Parse(fms[j].Value)
			for k := range sub {
				if sub[k].Key == "properties" {
					sub[k].Value = propertyRules(sub[k].Value, f)
				}
			}
			fms[j].Value = jsonobj.Append(nil, sub)
		}
	}
	if f.Checked {
		fms = append(fms, jsonobj.Member{Key: schemadiff.CheckKey, Value: json.RawMessage("true")})
	}
	return jsonobj.Append(nil, fms), nil
}

// propertyRules adds the server-side rules of f's fields to the
// "properties" object raw.
func propertyRules(raw json.RawMessage, f *Form) json.RawMessage {
	props, _, _ := jsonobj.Parse(raw)
	for i, pm := range props {
		var p *runtime.Property
		for _, fld := range f.Fields {
			if fld.Prop.Name == pm.Key {
				p = &fld.Prop
			}
		}
		if p == nil {
			continue
		}
		rules := rulesOf(p, f.Args)
		if len(rules) == 0 {
			continue
		}
		ms, _, _ := jsonobj.Parse(pm.Value)
		props[i].Value = jsonobj.Append(nil, append(ms, rules...))
	}
	return jsonobj.Append(nil, props)
}

// rulesOf returns the extension keys of the server-side rules of p, as
// the schema file records them: the pattern and its words, confirm, and
// ask (args: p belongs to a tool's arguments struct, whose properties are
// asked when the model leaves them out).
func rulesOf(p *runtime.Property, args bool) []jsonobj.Member {
	var ms []jsonobj.Member
	str := func(k, v string) {
		if v != "" {
			q, _ := json.Marshal(v) // strings always marshal
			ms = append(ms, jsonobj.Member{Key: k, Value: q})
		}
	}
	str(schemadiff.PatternKey, p.Pattern)
	str(schemadiff.PatternMessageKey, p.PatternMessage)
	if p.Confirm {
		ms = append(ms, jsonobj.Member{Key: schemadiff.ConfirmKey, Value: json.RawMessage("true")})
	}
	if args {
		ms = append(ms, jsonobj.Member{Key: schemadiff.AskKey, Value: json.RawMessage("true")})
	}
	return ms
}
