package runtime_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
)

// TestParseSchemaRoundTrip: what AppendJSON writes for each era,
// ParseSchema reads back as the same properties (2025-06-18 drops
// non-boolean defaults and multi-selects, as the writer does).
func TestParseSchemaRoundTrip(t *testing.T) {
	s := &runtime.Schema{Name: "Everything", Properties: []runtime.Property{
		{Name: "branch", Kind: runtime.KindString, Title: "Branch", Description: "Git branch", Required: true, MinLength: ptr(1), MaxLength: ptr(40), Default: "main"},
		{Name: "email", Kind: runtime.KindString, Format: "email"},
		{Name: "replicas", Kind: runtime.KindInteger, Minimum: ptr(1.0), Maximum: ptr(10.0), Default: int64(2), Required: true},
		{Name: "ratio", Kind: runtime.KindNumber, Maximum: ptr(1.5), Default: 0.5},
		{Name: "confirm", Kind: runtime.KindBoolean, Default: false, Required: true},
		{Name: "env", Kind: runtime.KindEnum, Style: runtime.EnumTitled, Options: []runtime.Option{{Value: "staging", Title: "Staging"}, {Value: "prod", Title: "Production"}}, Default: "staging"},
		{Name: "region", Kind: runtime.KindEnum, Style: runtime.EnumPlain, Options: []runtime.Option{{Value: "eu"}, {Value: "us"}}},
		{Name: "legacy", Kind: runtime.KindEnum, Style: runtime.EnumLegacy, Options: []runtime.Option{{Value: "a", Title: "A"}}},
		{Name: "tags", Kind: runtime.KindMulti, Style: runtime.EnumPlain, Options: []runtime.Option{{Value: "x"}, {Value: "y"}}, MinItems: ptr(1), MaxItems: ptr(2), Default: []string{"x"}},
		{Name: "channels", Kind: runtime.KindMulti, Style: runtime.EnumTitled, Options: []runtime.Option{{Value: "email", Title: "E-mail"}}},
	}}
	for _, v := range []string{runtime.Version20251125, runtime.Version20260728} {
		b, err := s.JSON(v)
		if err != nil {
			t.Fatal(err)
		}
		got, err := runtime.ParseSchema(s.Name, b)
		if err != nil {
			t.Fatalf("%s: %v\n%s", v, err, b)
		}
		if !reflect.DeepEqual(got, s) {
			t.Errorf("%s: read back\n%+v\nwant\n%+v", v, got.Properties, s.Properties)
		}
	}
	b, err := s.JSON(runtime.Version20250618)
	if err != nil {
		t.Fatal(err)
	}
	got, err := runtime.ParseSchema(s.Name, b)
	if err != nil {
		t.Fatal(err)
	}
	if p := got.Property("env"); p == nil || p.Style != runtime.EnumLegacy || p.Default != nil || p.Options[1].Title != "Production" {
		t.Errorf("2025-06-18 env read back as %+v", p)
	}
	if p := got.Property("confirm"); p == nil || p.Default != false {
		t.Errorf("2025-06-18 keeps boolean defaults: %+v", p)
	}
	if got.Property("tags") != nil {
		t.Error("2025-06-18 schema has a multi-select")
	}
}

func TestParseSchemaRefuses(t *testing.T) {
	for _, in := range []string{
		`{"type":"object","properties":{"o":{"type":"object"}}}`,
		`{"type":"object","properties":{"s":{"type":"string"},"s":{"type":"string"}}}`,
		`{"type":"object","properties":{"s":{"type":"string"}},"required":["t"]}`,
		`{"type":"object","properties":{"s":{"type":"string","format":"ipv4"}}}`,
		`{"type":"object","properties":{"m":{"type":"array","items":{"type":"string"}}}}`,
		`{"type":"object","properties":{"b":{"type":"boolean","default":"yes"}}}`,
		`{"type":"object","properties":{"e":{"type":"string","enum":["a","a"]}}}`,
		`{"type":"object"`,
	} {
		_, err := runtime.ParseSchema("F", []byte(in))
		var se *runtime.SchemaError
		if !errors.Is(err, runtime.ErrInvalidSchema) || !errors.As(err, &se) || se.Form != "F" {
			t.Errorf("%s: %v, want a *SchemaError matching ErrInvalidSchema", in, err)
		}
	}
}

// FuzzParseSchema: whatever ParseSchema accepts, AppendJSON can write,
// and writing what was read back is a fixed point (the writer fills in
// option titles; nothing else changes). No input panics.
func FuzzParseSchema(f *testing.F) {
	f.Add(`{"type":"object","properties":{"s":{"type":"string","minLength":1,"format":"email"}},"required":["s"]}`)
	f.Add(`{"type":"object","properties":{"e":{"type":"string","oneOf":[{"const":"a","title":"A"}],"default":"a"},"n":{"type":"integer","minimum":-3,"default":2}}}`)
	f.Add(`{"type":"object","properties":{"m":{"type":"array","items":{"anyOf":[{"const":"x"}]},"maxItems":2,"default":["x"]},"b":{"type":"boolean","default":true}}}`)
	f.Add(`{"type":"object","properties":{"l":{"type":"string","enum":["a"],"enumNames":["A"]}}}`)
	f.Fuzz(func(t *testing.T, in string) {
		s, err := runtime.ParseSchema("F", []byte(in))
		if err != nil {
			return
		}
		for i := range s.Properties {
			if s.Properties[i].Dynamic {
				return // ask-time options are written by the generator, not AppendJSON
			}
		}
		b, err := s.JSON(runtime.Version20251125)
		if err != nil {
			t.Fatalf("accepted %s but cannot write it: %v", in, err)
		}
		again, err := runtime.ParseSchema("F", b)
		if err != nil {
			t.Fatalf("cannot read back %s: %v", b, err)
		}
		b2, err := again.JSON(runtime.Version20251125)
		if err != nil || string(b2) != string(b) {
			t.Fatalf("writing %s read back gives %s (%v)", b, b2, err)
		}
	})
}
