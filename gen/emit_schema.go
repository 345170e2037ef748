package gen

import (
	"bytes"
	"encoding/json"

	"github.com/elicitgen/elicitgen/gen/schemadiff"
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
func EmitSchemaFile(pkg *Package) ([]byte, error) {
	return emitSchemas(pkg.Forms, func(f *Form) string { return f.Name }, "")
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
