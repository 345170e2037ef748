package gen

import (
	"bytes"
	"encoding/json"
)

// EmitSchemaFile returns elicit_gen.json for pkg: one object keyed by form
// name, each value the requestedSchema as sent to a 2025-11-25 or later
// client, properties in declaration order, 2-space indent, trailing
// newline.
func EmitSchemaFile(pkg *Package) ([]byte, error) {
	return emitSchemas(pkg.Forms, func(f *Form) string { return f.Name })
}

// EmitSchemas returns one JSON object of every form of every package:
// keys are type names, or importpath.TypeName when pkgs holds more than
// one package.
func EmitSchemas(pkgs []*Package) ([]byte, error) {
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
	return emitSchemas(forms, func(f *Form) string { return keys[f] })
}

func emitSchemas(forms []*Form, key func(*Form) string) ([]byte, error) {
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
		b, err = f.Schema().AppendJSON(b, "")
		if err != nil {
			return nil, generatorBug("schema of %s: %v", f.Name, err)
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
