package gen_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/gen"
	"github.com/elicitgen/elicitgen/runtime"
)

// TestProtocolVersions: the eras end with the newest the runtime speaks,
// so a new era cannot go unlisted.
func TestProtocolVersions(t *testing.T) {
	vs := gen.ProtocolVersions()
	if len(vs) == 0 || vs[0] != runtime.Version20250618 || vs[len(vs)-1] != runtime.LatestVersion {
		t.Fatalf("ProtocolVersions() = %v, want 2025-06-18 first and runtime.LatestVersion (%s) last", vs, runtime.LatestVersion)
	}
	for _, v := range append(vs, "") {
		if err := gen.CheckProtocolVersion(v); err != nil {
			t.Errorf("CheckProtocolVersion(%q) = %v", v, err)
		}
	}
	for v, want := range map[string]string{
		"2025-03-26": "has no elicitation, which first appeared in 2025-06-18",
		"2024-11-05": "has no elicitation",
		"2027-01-01": "want one of 2025-06-18, 2025-11-25, 2026-07-28",
		"latest":     "want one of",
		"2025-6-18":  "want one of",
	} {
		err := gen.CheckProtocolVersion(v)
		if !errors.Is(err, gen.ErrProtocolVersion) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), `"`+v+`"`) {
			t.Errorf("CheckProtocolVersion(%q) = %v, want ErrProtocolVersion quoting it and saying %q", v, err, want)
		}
	}
}

// TestEmitSchemasFor: 2025-11-25 and 2026-07-28 clients get the default
// schemas byte for byte; an unknown version writes nothing.
func TestEmitSchemasFor(t *testing.T) {
	two := 2
	pkg := &gen.Package{Name: "p", PkgPath: "example.com/p", Forms: []*gen.Form{
		{Name: "Pick", Fields: []*gen.Field{{Access: []string{"Env"}, Prop: runtime.Property{
			Name: "env", Kind: runtime.KindEnum, Required: true, Style: runtime.EnumTitled, Default: "a",
			Options: []runtime.Option{{Value: "a", Title: "A"}, {Value: "b", Title: "B"}},
		}}}},
		{Name: "Many", Fields: []*gen.Field{{Access: []string{"Tags"}, Prop: runtime.Property{
			Name: "tags", Kind: runtime.KindMulti, Required: true, MaxItems: &two, Options: []runtime.Option{{Value: "x"}},
		}}}},
	}}
	pkgs := []*gen.Package{pkg}
	def, err := gen.EmitSchemas(pkgs)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"", runtime.Version20251125, runtime.Version20260728} {
		out, unavailable, err := gen.EmitSchemasFor(pkgs, v)
		if err != nil || len(unavailable) != 0 || !bytes.Equal(out, def) {
			t.Errorf("EmitSchemasFor(%q): err %v, unavailable %v, output differs from EmitSchemas:\n%s", v, err, unavailable, out)
		}
	}
	out, unavailable, err := gen.EmitSchemasFor(pkgs, runtime.Version20250618)
	if err != nil {
		t.Fatal(err)
	}
	// Many's required multi-select is asked as one boolean per option.
	if len(unavailable) != 0 {
		t.Errorf("2025-06-18 unavailable = %+v, want none", unavailable)
	}
	if !bytes.Contains(out, []byte(`"tags.x": {`)) || bytes.Contains(out, []byte(`"array"`)) || !bytes.Contains(out, []byte(`"enumNames"`)) || bytes.Contains(out, []byte(`"default": "a"`)) {
		t.Errorf("2025-06-18 schemas: want Pick with enumNames and without its default, Many as booleans:\n%s", out)
	}
	if out, _, err := gen.EmitSchemasFor(pkgs, "2025-03-26"); !errors.Is(err, gen.ErrProtocolVersion) || out != nil {
		t.Errorf("EmitSchemasFor(2025-03-26) = %q, %v; want no output and ErrProtocolVersion", out, err)
	}
}

// TestDocsLegacyMatchesRuntime: what the catalog says a 2025-06-18 client
// receives is what the runtime sends, property by property: a default it
// says is not sent is missing from the runtime's JSON (and only then),
// options it says become enumNames do, a field it says is left out is.
func TestDocsLegacyMatchesRuntime(t *testing.T) {
	opts := []runtime.Option{{Value: "a", Title: "A"}, {Value: "b"}}
	props := []runtime.Property{
		{Name: "s", Kind: runtime.KindString, Default: "x"},
		{Name: "i", Kind: runtime.KindInteger, Default: int64(0)},
		{Name: "n", Kind: runtime.KindNumber, Default: 1.5},
		{Name: "t", Kind: runtime.KindBoolean, Default: false},
		{Name: "e", Kind: runtime.KindEnum, Options: opts, Style: runtime.EnumTitled},
		{Name: "ed", Kind: runtime.KindEnum, Options: opts, Style: runtime.EnumTitled, Default: "a"},
		{Name: "p", Kind: runtime.KindEnum, Options: opts, Style: runtime.EnumPlain, Default: "b"},
		{Name: "l", Kind: runtime.KindEnum, Options: opts, Style: runtime.EnumLegacy},
		{Name: "m", Kind: runtime.KindMulti, Options: opts, Default: []string{"a"}},
		{Name: "mt", Kind: runtime.KindMulti, Options: opts, Style: runtime.EnumTitled},
	}
	for _, p := range props {
		filler := runtime.Property{Name: "z", Kind: runtime.KindString, Required: true}
		form := &gen.Form{Name: "F", Fields: []*gen.Field{{Access: []string{"P"}, Prop: p}, {Access: []string{"Z"}, Prop: filler}}}
		cat := gen.NewDocsCatalog([]*gen.Package{{Name: "p", PkgPath: "example.com/p", Forms: []*gen.Form{form}}})
		era := cat.Forms[0].Eras[0]
		if era.Version != runtime.Version20250618 || !era.Available {
			t.Fatalf("%s: first era %+v, want 2025-06-18, available", p.Name, era)
		}
		says := era.Receives
		wire, err := form.Schema().JSON(runtime.Version20250618)
		if err != nil {
			t.Fatal(err)
		}
		var sent struct {
			Properties map[string]map[string]any `json:"properties"`
		}
		if err := json.Unmarshal(wire, &sent); err != nil {
			t.Fatal(err)
		}
		got, present := sent.Properties[p.Name]
		if leftOut := strings.Contains(says, "`"+p.Name+"`: left out"); leftOut == present {
			t.Errorf("%s: catalog says %q; runtime sends the field: %v", p.Name, says, present)
			continue
		}
		if !present {
			continue
		}
		_, hasDefault := got["default"]
		if dropped := strings.Contains(says, "`"+p.Name+"`:") && strings.Contains(says, "not sent"); p.Default != nil && dropped == hasDefault {
			t.Errorf("%s: catalog says %q; runtime sends a default: %v", p.Name, says, hasDefault)
		}
		_, hasNames := got["enumNames"]
		if converted := strings.Contains(says, "`"+p.Name+"`: options"); converted != (hasNames && p.Style != runtime.EnumLegacy) {
			t.Errorf("%s: catalog says %q; runtime sends enumNames: %v", p.Name, says, hasNames)
		}
	}
}
