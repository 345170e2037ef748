package gen

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/elicitgen/elicitgen/gen/schemadiff"
	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/elicitimpl"
)

// The runtime.Property model has five codecs: the wire writer and reader
// (Schema.AppendJSON, runtime.ParseSchema), the generated spec
// (elicitimpl.AppendSpec, ParseSpec), the output cache's digest, and the
// schema file with the diff's model (EmitSchemaFile, schemadiff).
// TestPropertyCodecs changes each field of Property in turn and checks
// that every codec carries the change, so that a field added to Property
// and forgotten in one codec fails here.

// codecBases are properties that together set every field of Property.
func codecBases() []runtime.Property {
	one, two := 1, 8
	lo, hi := 1.0, 9.0
	return []runtime.Property{
		{Name: "s", Kind: runtime.KindString, Title: "S", Description: "d", Required: true,
			MinLength: &one, MaxLength: &two, Format: "email", Default: "a@b.c",
			Pattern: "^a", PatternMessage: "starts with a"},
		{Name: "i", Kind: runtime.KindInteger, Minimum: &lo, Maximum: &hi, Default: int64(3)},
		{Name: "e", Kind: runtime.KindEnum, Options: []runtime.Option{{Value: "a", Title: "A"}, {Value: "b", Title: "B"}}, Style: runtime.EnumTitled},
		{Name: "m", Kind: runtime.KindMulti, Options: []runtime.Option{{Value: "a"}, {Value: "b"}}, MinItems: &one, MaxItems: &one, Default: []string{"a"}},
		{Name: "b", Kind: runtime.KindBoolean, Default: false, Confirm: true},
		{Name: "d", Kind: runtime.KindEnum, Options: []runtime.Option{{Value: "a"}}, Dynamic: true},
	}
}

// codecMutations changes one field of Property: the base it applies to
// (an index of codecBases) and how.
var codecMutations = map[string]struct {
	base   int
	mutate func(p *runtime.Property)
}{
	"Name":        {0, func(p *runtime.Property) { p.Name = "t" }},
	"Kind":        {5, func(p *runtime.Property) { p.Kind = runtime.KindMulti }},
	"Title":       {0, func(p *runtime.Property) { p.Title = "T" }},
	"Description": {0, func(p *runtime.Property) { p.Description = "e" }},
	"Required":    {0, func(p *runtime.Property) { p.Required = false }},
	"MinLength":   {0, func(p *runtime.Property) { n := 2; p.MinLength = &n }},
	"MaxLength":   {0, func(p *runtime.Property) { n := 7; p.MaxLength = &n }},
	"Format":      {0, func(p *runtime.Property) { p.Format = "uri" }},
	"Minimum":     {1, func(p *runtime.Property) { f := 2.0; p.Minimum = &f }},
	"Maximum":     {1, func(p *runtime.Property) { f := 8.0; p.Maximum = &f }},
	"Options": {2, func(p *runtime.Property) {
		p.Options = []runtime.Option{{Value: "a", Title: "A"}, {Value: "c", Title: "C"}}
	}},
	"Style":          {2, func(p *runtime.Property) { p.Style = runtime.EnumLegacy }},
	"Dynamic":        {5, func(p *runtime.Property) { p.Dynamic = false }},
	"MinItems":       {3, func(p *runtime.Property) { p.MinItems = nil }},
	"MaxItems":       {3, func(p *runtime.Property) { n := 2; p.MaxItems = &n }},
	"Default":        {1, func(p *runtime.Property) { p.Default = int64(4) }},
	"Pattern":        {0, func(p *runtime.Property) { p.Pattern = "^b" }},
	"PatternMessage": {0, func(p *runtime.Property) { p.PatternMessage = "starts with b" }},
	"Confirm":        {4, func(p *runtime.Property) { p.Confirm = false }},
}

// notOnWire are the fields the wire never carries: the server-side rules
// (never sent), and Dynamic (the runtime fills ask-time options before
// sending: the wire holds the options, not the flag).
var notOnWire = map[string]bool{"Pattern": true, "PatternMessage": true, "Confirm": true, "Dynamic": true}

func codecPackage(p runtime.Property) *Package {
	kinds := map[runtime.Kind]GoKind{
		runtime.KindString: GoString, runtime.KindEnum: GoString, runtime.KindInteger: GoInt,
		runtime.KindBoolean: GoBool, runtime.KindMulti: GoMulti, runtime.KindNumber: GoFloat,
	}
	return &Package{Name: "p", PkgPath: "example.com/p", Forms: []*Form{{
		Name: "F", SourceFile: "f.go", Fields: []*Field{{Access: []string{"X"}, GoKind: kinds[p.Kind], Prop: p}},
	}}}
}

func TestPropertyCodecs(t *testing.T) {
	fields := reflect.TypeFor[runtime.Property]()
	for i := range fields.NumField() {
		name := fields.Field(i).Name
		m, ok := codecMutations[name]
		if !ok {
			t.Errorf("runtime.Property.%s has no entry in codecMutations: add one (and carry the field through every codec)", name)
			continue
		}
		t.Run(name, func(t *testing.T) {
			old := codecBases()[m.base]
			mut := codecBases()[m.base]
			m.mutate(&mut)
			if reflect.DeepEqual(old, mut) {
				t.Fatalf("the mutation of %s changes nothing", name)
			}
			field := func(p runtime.Property) any { return reflect.ValueOf(p).FieldByName(name).Interface() }

			// Digest.
			if digestOf(codecPackage(old)) == digestOf(codecPackage(mut)) {
				t.Errorf("digest: changing %s does not change the cache key", name)
			}

			// Spec: a round trip gives the property back.
			for _, p := range []runtime.Property{old, mut} {
				spec := elicitimpl.AppendSpec(nil, &runtime.Schema{Name: "F", Properties: []runtime.Property{p}}, []string{"X"})
				s, _, err := elicitimpl.ParseSpec(string(spec))
				if err != nil {
					t.Fatalf("spec: %v\n%s", err, spec)
				}
				if !reflect.DeepEqual(s.Properties[0], p) {
					t.Errorf("spec round trip of %s:\n got %#v\nwant %#v", name, s.Properties[0], p)
				}
			}

			// Wire: sent fields change the requestedSchema and read back;
			// server-side ones never reach it.
			wire := func(p runtime.Property) []byte {
				b, err := (&runtime.Schema{Name: "F", Properties: []runtime.Property{p}}).AppendJSON(nil, runtime.Version20251125)
				if err != nil {
					t.Fatal(err)
				}
				return b
			}
			ow, nw := wire(old), wire(mut)
			switch {
			case notOnWire[name] && !bytes.Equal(ow, nw):
				t.Errorf("wire: %s is not sent, but changing it changes the requestedSchema:\n%s\n%s", name, ow, nw)
			case !notOnWire[name] && bytes.Equal(ow, nw):
				t.Errorf("wire: changing %s does not change the requestedSchema %s", name, ow)
			case !notOnWire[name]:
				s, err := runtime.ParseSchema("F", nw)
				if err != nil {
					t.Fatalf("wire reader: %v\n%s", err, nw)
				}
				if got := field(s.Properties[0]); !reflect.DeepEqual(got, field(mut)) {
					t.Errorf("wire round trip of %s: got %#v, want %#v\n%s", name, got, field(mut), nw)
				}
			}

			// Schema file and the diff's model: the file changes, and the
			// diff reports the change.
			of, err := EmitSchemaFile(codecPackage(old))
			if err != nil {
				t.Fatal(err)
			}
			nf, err := EmitSchemaFile(codecPackage(mut))
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Equal(of, nf) {
				t.Fatalf("schema file: changing %s does not change elicit_gen.json:\n%s", name, of)
			}
			rep, err := schemadiff.Compare(of, nf)
			if err != nil {
				t.Fatalf("schemadiff: %v\n%s", err, nf)
			}
			if len(rep.Changes) == 0 {
				t.Errorf("schemadiff: changing %s reports no change:\n%s\n%s", name, of, nf)
			}
		})
	}
}
