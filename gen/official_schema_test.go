package gen_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"golang.org/x/tools/txtar"

	"github.com/elicitgen/elicitgen/gen"
	"github.com/elicitgen/elicitgen/gen/schemadiff"
	"github.com/elicitgen/elicitgen/runtime"
)

// officialSchema returns a validator for the definition at ref of the
// official MCP schema of version, or skips the test when ../shared is not
// beside the checkout.
func officialSchema(t *testing.T, version, ref string) *jsonschema.Resolved {
	t.Helper()
	path := filepath.Join("..", "..", "shared", "mcp-schema", version, "schema.json")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("official MCP schema not found at %s (it ships in ../shared beside the project): %v", path, err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	doc["$ref"] = ref
	b, _ := json.Marshal(doc)
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("resolving %s: %v", ref, err)
	}
	return rs
}

func validateParams(rs *jsonschema.Resolved, schema json.RawMessage) error {
	var params map[string]any
	if err := json.Unmarshal([]byte(`{"message":"m","requestedSchema":`+string(schema)+`}`), &params); err != nil {
		return err
	}
	return rs.Validate(params)
}

// TestSchemasMatchOfficialMCPSchema validates every schema the golden
// cases emit, as sent to 2025-11-25 clients and down-converted for
// 2025-06-18 clients, against the official MCP JSON schemas.
func TestSchemasMatchOfficialMCPSchema(t *testing.T) {
	v1125 := officialSchema(t, "2025-11-25", "#/$defs/ElicitRequestFormParams")
	v0618 := officialSchema(t, "2025-06-18", "#/definitions/ElicitRequest/properties/params")

	// The validators must be able to fail.
	nested := json.RawMessage(`{"type":"object","properties":{"a":{"type":"object","properties":{}}}}`)
	if validateParams(v1125, nested) == nil || validateParams(v0618, nested) == nil {
		t.Fatal("a nested object passed the official schema: the check is not effective")
	}

	files, _ := filepath.Glob("../testdata/golden/*.txtar")
	checked := 0
	for _, file := range files {
		if strings.HasPrefix(filepath.Base(file), "bad_") {
			continue
		}
		c := loadCase(t, file, "example.com/golden")
		pkgs, err := gen.Models(context.Background(), gen.Config{Dir: c.dir})
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for _, pkg := range pkgs {
			for _, form := range pkg.Forms {
				s := form.Schema()
				for i := range s.Properties {
					if s.Properties[i].Dynamic { // options are supplied at ask time
						s.Properties[i].Options = []runtime.Option{{Value: "x", Title: "X"}}
					}
				}
				latest, err := s.JSON(runtime.Version20251125)
				if err != nil {
					t.Fatal(err)
				}
				if err := validateParams(v1125, latest); err != nil {
					t.Errorf("%s: %s does not match the 2025-11-25 schema: %v\n%s", filepath.Base(file), form.Name, err, latest)
				}
				old, err := s.JSON(runtime.Version20250618)
				if err != nil {
					continue // multi-select: unavailable on 2025-06-18 by design
				}
				if err := validateParams(v0618, old); err != nil {
					t.Errorf("%s: %s does not match the 2025-06-18 schema: %v\n%s", filepath.Base(file), form.Name, err, old)
				}
				checked++
			}
		}
	}
	if checked < 15 {
		t.Fatalf("only %d forms checked", checked)
	}
}

// TestSchemaFilesMatchOfficialMCPSchema validates every form of every
// golden's elicit_gen.json, as written, against the official 2025-11-25
// schema, and refuses an empty choice list (no client can answer one).
func TestSchemaFilesMatchOfficialMCPSchema(t *testing.T) {
	v1125 := officialSchema(t, "2025-11-25", "#/$defs/ElicitRequestFormParams")
	files, _ := filepath.Glob("../testdata/golden/*.txtar")
	checked := 0
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if f.Name != "want/"+gen.SchemaFile {
				continue
			}
			var forms map[string]json.RawMessage
			if err := json.Unmarshal(f.Data, &forms); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			delete(forms, schemadiff.VersionKey) // the file's format version, not a form
			for name, schema := range forms {
				checked++
				if err := validateParams(v1125, schema); err != nil {
					t.Errorf("%s: %s in %s does not match the 2025-11-25 schema: %v", filepath.Base(file), name, gen.SchemaFile, err)
				}
				if emptyChoices(schema) {
					t.Errorf("%s: %s in %s has an empty enum, oneOf or anyOf: no client could answer it", filepath.Base(file), name, gen.SchemaFile)
				}
			}
		}
	}
	if checked < 15 {
		t.Fatalf("only %d forms checked", checked)
	}
}

// emptyChoices reports whether a JSON value holds "enum", "oneOf" or
// "anyOf" with an empty list, at any depth.
func emptyChoices(raw json.RawMessage) bool {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return false
	}
	var walk func(any) bool
	walk = func(v any) bool {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if l, ok := x.([]any); ok && len(l) == 0 && (k == "enum" || k == "oneOf" || k == "anyOf") {
					return true
				}
				if walk(x) {
					return true
				}
			}
		case []any:
			for _, x := range v {
				if walk(x) {
					return true
				}
			}
		}
		return false
	}
	return walk(v)
}
