package benchforms

import (
	"encoding/json"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/elicitimpl"

	"github.com/google/jsonschema-go/jsonschema"
)

// content is an accepted answer as an SDK hands it over: decoded JSON.
func content(tb testing.TB) map[string]any {
	var c map[string]any
	err := json.Unmarshal([]byte(`{"service":"billing","branch":"release-7","environment":"production",
		"replicas":3,"canary":10,"ratio":0.25,"confirmed":true,"notify":false}`), &c)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// form is the runtime form of Scalars.
func form(tb testing.TB) *runtime.Form {
	f, err := elicitimpl.Runtime(&elicitFormScalars)
	if err != nil {
		tb.Fatal(err)
	}
	return f
}

func TestDecodeMatchesJSONSchema(t *testing.T) {
	c := content(t)
	var v Scalars
	err := form(t).Decode(c, &v)
	if err != nil || v.Service != "billing" || v.Env != EnvProduction || v.Replicas != 3 {
		t.Fatalf("decode: %+v %v", v, err)
	}
	rs := resolved(t)
	if err := rs.Validate(c); err != nil {
		t.Fatalf("jsonschema-go rejects valid content: %v", err)
	}
	c["replicas"] = 21.0
	if err := form(t).Decode(c, &v); err == nil {
		t.Fatal("generated decoder accepted replicas=21")
	}
	if rs.Validate(c) == nil {
		t.Fatal("jsonschema-go accepted replicas=21")
	}
}

func resolved(tb testing.TB) *jsonschema.Resolved {
	b, err := ScalarsSchema().JSON(runtime.Version20251125)
	if err != nil {
		tb.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		tb.Fatal(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		tb.Fatal(err)
	}
	return rs
}

// BenchmarkDecode compares decoding and validating one accepted answer
// with the generated code against validating the same content with
// github.com/google/jsonschema-go against the same schema (which does not
// even produce a typed value).
func BenchmarkDecode(b *testing.B) {
	c := content(b)
	f := form(b)
	b.Run("generated", func(b *testing.B) {
		b.ReportAllocs()
		var v Scalars
		for b.Loop() {
			if err := f.Decode(c, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
	rs := resolved(b)
	b.Run("jsonschema-go", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := rs.Validate(c); err != nil {
				b.Fatal(err)
			}
		}
	})
}
