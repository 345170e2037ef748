package schemadiff

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// kindRules is the rule table, written out independently of IsBreakingKind.
var kindRules = []struct {
	kind     string
	breaking bool
}{
	{"form-removed", true},
	{"property-removed", true},
	{"property-added-required", true},
	{"type-changed", true},
	{"made-required", true},
	{"enum-value-removed", true},
	{"enum-constraint-added", true},
	{"bound-tightened", true},
	{"length-tightened", true},
	{"format-added", true},
	{"format-changed", true},
	{"min-items-raised", true},
	{"max-items-lowered", true},
	{"form-added", false},
	{"property-added-optional", false},
	{"property-moved", false},
	{"type-widened", false},
	{"made-optional", false},
	{"enum-value-added", false},
	{"enum-constraint-removed", false},
	{"enum-title-changed", false},
	{"enum-order-changed", false},
	{"enum-style-changed", false},
	{"bound-loosened", false},
	{"length-loosened", false},
	{"format-removed", false},
	{"min-items-lowered", false},
	{"max-items-raised", false},
	{"title-changed", false},
	{"description-changed", false},
	{"default-changed", false},
	{"keyword-changed", false},
	{"pattern-added", true},
	{"pattern-changed", true},
	{"confirm-added", true},
	{"ask-added", true},
	{"check-added", true},
	{"pattern-removed", false},
	{"pattern-message-changed", false},
	{"confirm-removed", false},
	{"ask-removed", false},
	{"check-removed", false},
}

func allKinds() []string {
	var ks []string
	for _, r := range kindRules {
		ks = append(ks, r.kind)
	}
	return ks
}

func TestIsBreakingKind(t *testing.T) {
	for _, r := range kindRules {
		if got := IsBreakingKind(r.kind); got != r.breaking {
			t.Errorf("IsBreakingKind(%q) = %v, want %v", r.kind, got, r.breaking)
		}
	}
	if !IsBreakingKind("no-such-kind") {
		t.Error("an unknown kind must be treated as breaking")
	}
}

// one wraps properties and required names into a one-form file "F".
func one(props, required string) []byte {
	if required == "" {
		required = "[]"
	}
	return []byte(`{"F":{"type":"object","properties":{` + props + `},"required":` + required + `}}`)
}

type want struct {
	property, kind string
	breaking       bool
}

func kinds(r *Report) []want {
	var ws []want
	for _, c := range r.Changes {
		ws = append(ws, want{c.Property, c.Kind, c.Breaking})
	}
	return ws
}

func TestRules(t *testing.T) {
	const (
		s   = `"s":{"type":"string"}`
		i   = `"i":{"type":"integer"}`
		env = `"e":{"type":"string","enum":["a","b"]}`
	)
	tests := []struct {
		name     string
		old, new []byte
		want     []want
	}{
		{"same", one(s, `["s"]`), one(s, `["s"]`), nil},
		{"form removed", []byte(`{"F":{"type":"object","properties":{}},"G":{"type":"object","properties":{}}}`), []byte(`{"G":{"type":"object","properties":{}}}`),
			[]want{{"", "form-removed", true}}},
		{"form added", []byte(`{}`), one(s, ""), []want{{"", "form-added", false}}},
		{"property removed", one(s+","+i, ""), one(s, ""), []want{{"i", "property-removed", true}}},
		{"required added", one(s, ""), one(s+","+i, `["i"]`), []want{{"i", "property-added-required", true}}},
		{"optional added", one(s, ""), one(s+","+i, ""), []want{{"i", "property-added-optional", false}}},
		{"type changed", one(`"x":{"type":"string"}`, ""), one(`"x":{"type":"boolean"}`, ""), []want{{"x", "type-changed", true}}},
		{"number to integer", one(`"x":{"type":"number"}`, ""), one(`"x":{"type":"integer"}`, ""), []want{{"x", "type-changed", true}}},
		{"integer to number", one(`"x":{"type":"integer"}`, ""), one(`"x":{"type":"number"}`, ""), []want{{"x", "type-widened", false}}},
		{"single to multi", one(env, ""), one(`"e":{"type":"array","items":{"type":"string","enum":["a","b"]}}`, ""), []want{{"e", "type-changed", true}}},
		{"made required", one(s, ""), one(s, `["s"]`), []want{{"s", "made-required", true}}},
		{"made optional", one(s, `["s"]`), one(s, ""), []want{{"s", "made-optional", false}}},
		{"enum value removed", one(env, ""), one(`"e":{"type":"string","enum":["a"]}`, ""), []want{{"e", "enum-value-removed", true}}},
		{"enum value added", one(env, ""), one(`"e":{"type":"string","enum":["a","b","c"]}`, ""), []want{{"e", "enum-value-added", false}}},
		{"enum restricted", one(`"e":{"type":"string"}`, ""), one(env, ""), []want{{"e", "enum-constraint-added", true}}},
		{"enum unrestricted", one(env, ""), one(`"e":{"type":"string"}`, ""), []want{{"e", "enum-constraint-removed", false}}},
		{"enum titled", one(env, ""), one(`"e":{"type":"string","oneOf":[{"const":"a","title":"A"},{"const":"b","title":"B"}]}`, ""),
			[]want{{"e", "enum-style-changed", false}, {"e", "enum-title-changed", false}, {"e", "enum-title-changed", false}}},
		{"enum reordered", one(env, ""), one(`"e":{"type":"string","enum":["b","a"]}`, ""), []want{{"e", "enum-order-changed", false}}},
		{"multi value removed", one(`"m":{"type":"array","items":{"anyOf":[{"const":"a","title":"A"},{"const":"b","title":"B"}]}}`, ""),
			one(`"m":{"type":"array","items":{"anyOf":[{"const":"b","title":"B"}]}}`, ""), []want{{"m", "enum-value-removed", true}}},
		{"minimum raised", one(`"n":{"type":"number","minimum":1}`, ""), one(`"n":{"type":"number","minimum":1.5}`, ""), []want{{"n", "bound-tightened", true}}},
		{"maximum added", one(`"n":{"type":"number"}`, ""), one(`"n":{"type":"number","maximum":3}`, ""), []want{{"n", "bound-tightened", true}}},
		{"maximum raised", one(`"n":{"type":"number","maximum":3}`, ""), one(`"n":{"type":"number","maximum":4}`, ""), []want{{"n", "bound-loosened", false}}},
		{"minimum removed", one(`"n":{"type":"number","minimum":1}`, ""), one(`"n":{"type":"number"}`, ""), []want{{"n", "bound-loosened", false}}},
		{"maxLength lowered", one(`"s":{"type":"string","maxLength":9}`, ""), one(`"s":{"type":"string","maxLength":8}`, ""), []want{{"s", "length-tightened", true}}},
		{"minLength added", one(s, ""), one(`"s":{"type":"string","minLength":1}`, ""), []want{{"s", "length-tightened", true}}},
		{"minLength 0 is no minimum", one(s, ""), one(`"s":{"type":"string","minLength":0}`, ""), nil},
		{"maxLength removed", one(`"s":{"type":"string","maxLength":9}`, ""), one(s, ""), []want{{"s", "length-loosened", false}}},
		{"format added", one(s, ""), one(`"s":{"type":"string","format":"uri"}`, ""), []want{{"s", "format-added", true}}},
		{"format changed", one(`"s":{"type":"string","format":"uri"}`, ""), one(`"s":{"type":"string","format":"email"}`, ""), []want{{"s", "format-changed", true}}},
		{"format removed", one(`"s":{"type":"string","format":"uri"}`, ""), one(s, ""), []want{{"s", "format-removed", false}}},
		{"minItems raised", one(`"m":{"type":"array","items":{"enum":["a","b"]}}`, ""), one(`"m":{"type":"array","items":{"enum":["a","b"]},"minItems":1}`, ""), []want{{"m", "min-items-raised", true}}},
		{"minItems lowered", one(`"m":{"type":"array","items":{"enum":["a","b"]},"minItems":2}`, ""), one(`"m":{"type":"array","items":{"enum":["a","b"]},"minItems":1}`, ""), []want{{"m", "min-items-lowered", false}}},
		{"maxItems lowered", one(`"m":{"type":"array","items":{"enum":["a","b"]},"maxItems":2}`, ""), one(`"m":{"type":"array","items":{"enum":["a","b"]},"maxItems":1}`, ""), []want{{"m", "max-items-lowered", true}}},
		{"maxItems removed", one(`"m":{"type":"array","items":{"enum":["a","b"]},"maxItems":2}`, ""), one(`"m":{"type":"array","items":{"enum":["a","b"]}}`, ""), []want{{"m", "max-items-raised", false}}},
		{"title", one(`"s":{"type":"string","title":"A"}`, ""), one(`"s":{"type":"string","title":"B"}`, ""), []want{{"s", "title-changed", false}}},
		{"description", one(s, ""), one(`"s":{"type":"string","description":"d"}`, ""), []want{{"s", "description-changed", false}}},
		{"default", one(`"b":{"type":"boolean","default":true}`, ""), one(`"b":{"type":"boolean","default":false}`, ""), []want{{"b", "default-changed", false}}},
		{"default 1 equals 1.0", one(`"n":{"type":"number","default":1}`, ""), one(`"n":{"type":"number","default":1.0}`, ""), nil},
		{"unknown keyword", one(s, ""), one(`"s":{"type":"string","x-elicitgen-options":"dynamic"}`, ""), []want{{"s", "keyword-changed", false}}},
		{"moved", one(s+","+i, ""), one(i+","+s, ""), []want{{"s", "property-moved", false}}},
		{"type change hides other keywords", one(`"x":{"type":"string","maxLength":3,"default":"a"}`, ""), one(`"x":{"type":"integer","maximum":3,"default":1}`, ""),
			[]want{{"x", "type-changed", true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Compare(tt.old, tt.new)
			if err != nil {
				t.Fatal(err)
			}
			got := kinds(r)
			if !equalWants(got, tt.want) {
				t.Errorf("changes = %v, want %v\n%s", got, tt.want, text(t, r))
			}
			if r.Breaking() != anyBreaking(tt.want) {
				t.Errorf("Breaking() = %v, want %v", r.Breaking(), anyBreaking(tt.want))
			}
		})
	}
}

func equalWants(a, b []want) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func anyBreaking(ws []want) bool {
	for _, w := range ws {
		if w.breaking {
			return true
		}
	}
	return false
}

func text(t *testing.T, r *Report) string {
	t.Helper()
	var b bytes.Buffer
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// A rename is reported as the old name removed (breaking) plus the new name
// added, never as a compatible change.
func TestRenameIsRemovedPlusAdded(t *testing.T) {
	for _, required := range []bool{false, true} {
		oldReq, newReq := "", ""
		if required {
			oldReq, newReq = `["env"]`, `["environment"]`
		}
		r, err := Compare(one(`"env":{"type":"string"}`, oldReq), one(`"environment":{"type":"string"}`, newReq))
		if err != nil {
			t.Fatal(err)
		}
		added := want{"environment", "property-added-optional", false}
		if required {
			added = want{"environment", "property-added-required", true}
		}
		// The removed property sorts first: it stood before the new one.
		wantChanges := []want{{"env", "property-removed", true}, added}
		if got := kinds(r); !equalWants(got, wantChanges) {
			t.Errorf("required=%v: changes = %v, want %v", required, got, wantChanges)
		}
		if !r.Breaking() {
			t.Errorf("required=%v: a rename must be breaking", required)
		}
	}
}

func TestOrder(t *testing.T) {
	old := []byte(`{
	  "B": {"type":"object","properties":{"x":{"type":"string"},"gone":{"type":"string"},"y":{"type":"string","title":"Y"}}},
	  "A": {"type":"object","properties":{}}
	}`)
	newJSON := []byte(`{
	  "C": {"type":"object","properties":{}},
	  "B": {"type":"object","properties":{"new":{"type":"string"},"x":{"type":"integer","title":"X"},"y":{"type":"string"}},"required":["y"]}
	}`)
	r, err := Compare(old, newJSON)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range r.Changes {
		got = append(got, c.Form+"."+c.Property+" "+c.Kind)
	}
	wantOrder := []string{
		"A. form-removed",
		"B.new property-added-optional",
		"B.x title-changed",
		"B.x type-changed",
		"B.gone property-removed",
		"B.y made-required",
		"B.y title-changed",
		"C. form-added",
	}
	if strings.Join(got, "\n") != strings.Join(wantOrder, "\n") {
		t.Errorf("order:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantOrder, "\n"))
	}
}

func TestWriteText(t *testing.T) {
	r, err := Compare(one(`"environment":{"type":"string","enum":["dev","qa"]}`, ""),
		one(`"environment":{"type":"string","enum":["dev"]},"note":{"type":"string"}`, ""))
	if err != nil {
		t.Fatal(err)
	}
	const wantText = `BREAKING F.environment: enum value "qa" removed: a client may still send "qa", which the new server rejects
compatible F.note: optional property added
2 changes: 1 breaking, 1 compatible
`
	if got := text(t, r); got != wantText {
		t.Errorf("WriteText:\n%s\nwant:\n%s", got, wantText)
	}
	empty := &Report{}
	if got := text(t, empty); got != "no changes\n" {
		t.Errorf("empty WriteText = %q", got)
	}
}

func TestWriteJSON(t *testing.T) {
	var b bytes.Buffer
	if err := (&Report{}).WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	const wantEmpty = "{\n  \"breaking\": false,\n  \"changes\": []\n}\n"
	if b.String() != wantEmpty {
		t.Errorf("empty WriteJSON = %q, want %q", b.String(), wantEmpty)
	}
	r, err := Compare(one(`"a":{"type":"string"}`, ""), one(`"a":{"type":"string"}`, `["a"]`))
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	if out["breaking"] != true {
		t.Errorf("breaking = %v", out["breaking"])
	}
	c := out["changes"].([]any)[0].(map[string]any)
	for _, k := range []string{"form", "property", "kind", "breaking", "detail", "reason"} {
		if _, ok := c[k]; !ok {
			t.Errorf("change has no %q field: %v", k, c)
		}
	}
	if c["kind"] != "made-required" || c["property"] != "a" || c["form"] != "F" {
		t.Errorf("change = %v", c)
	}
}

func TestInvalid(t *testing.T) {
	ok := one(`"s":{"type":"string"}`, "")
	tests := []struct {
		name, in, msg string
	}{
		{"syntax", `{"F":`, "invalid JSON"},
		{"trailing data", `{} {}`, "invalid JSON"},
		{"not an object", `[]`, "want a JSON object"},
		{"form not object", `{"F":1}`, "want a requestedSchema object"},
		{"form type", `{"F":{"type":"string","properties":{}}}`, `"type" must be "object"`},
		{"no type", `{"F":{"properties":{}}}`, `missing "type"`},
		{"no properties", `{"F":{"type":"object"}}`, `missing "properties"`},
		{"duplicate form", `{"F":{"type":"object","properties":{}},"F":{"type":"object","properties":{}}}`, "duplicate key"},
		{"duplicate property", string(one(`"s":{"type":"string"},"s":{"type":"string"}`, "")), "duplicate key"},
		{"required unknown", string(one(`"s":{"type":"string"}`, `["t"]`)), `required property "t"`},
		{"required twice", string(one(`"s":{"type":"string"}`, `["s","s"]`)), "listed twice"},
		{"required not strings", string(one(`"s":{"type":"string"}`, `[1]`)), `"required" must be`},
		{"nested object", string(one(`"o":{"type":"object"}`, "")), `type "object" is not allowed`},
		{"no property type", string(one(`"o":{"title":"x"}`, "")), `missing "type"`},
		{"type array of types", string(one(`"o":{"type":["string","null"]}`, "")), `"type" must be a string`},
		{"array without items", string(one(`"m":{"type":"array"}`, "")), `needs "items"`},
		{"array of strings", string(one(`"m":{"type":"array","items":{"type":"string"}}`, "")), `needs "enum" or "anyOf"`},
		{"bad format", string(one(`"s":{"type":"string","format":"ipv4"}`, "")), `format "ipv4" is not allowed`},
		{"negative length", string(one(`"s":{"type":"string","maxLength":-1}`, "")), "non-negative integer"},
		{"fractional length", string(one(`"s":{"type":"string","maxLength":1.5}`, "")), "non-negative integer"},
		{"string minimum", string(one(`"n":{"type":"number","minimum":"1"}`, "")), "want a number"},
		{"huge minimum", string(one(`"n":{"type":"number","minimum":1e999}`, "")), "out of range"},
		{"enum not strings", string(one(`"e":{"type":"string","enum":[1]}`, "")), "want an array of strings"},
		{"enum duplicate", string(one(`"e":{"type":"string","enum":["a","a"]}`, "")), "appears twice"},
		{"enumNames length", string(one(`"e":{"type":"string","enum":["a"],"enumNames":["A","B"]}`, "")), `"enumNames" has 2 entries`},
		{"enumNames alone", string(one(`"e":{"type":"string","enumNames":["A"]}`, "")), `"enumNames" without "enum"`},
		{"oneOf and enum", string(one(`"e":{"type":"string","enum":["a"],"oneOf":[{"const":"a"}]}`, "")), "cannot be combined"},
		{"oneOf no const", string(one(`"e":{"type":"string","oneOf":[{"title":"A"}]}`, "")), `has no "const"`},
		{"title not string", string(one(`"s":{"type":"string","title":3}`, "")), "want a string"},
		{"default type", string(one(`"b":{"type":"boolean","default":"yes"}`, "")), "does not match type"},
		{"default null", string(one(`"s":{"type":"string","default":null}`, "")), "does not match type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := CompareFiles("a.json", ok, "b.json", []byte(tt.in))
			if err == nil {
				t.Fatalf("no error for %s", tt.in)
			}
			if !errors.Is(err, ErrInvalidSchema) {
				t.Errorf("error %v does not wrap ErrInvalidSchema", err)
			}
			var se *SchemaError
			if !errors.As(err, &se) || se.File != "b.json" {
				t.Errorf("error %v is not a *SchemaError naming b.json", err)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q does not contain %q", err, tt.msg)
			}
			// The same file on the old side names the old file.
			_, err = CompareFiles("a.json", []byte(tt.in), "b.json", ok)
			if !errors.As(err, &se) || se.File != "a.json" {
				t.Errorf("old side: error %v is not a *SchemaError naming a.json", err)
			}
		})
	}
	var syn *json.SyntaxError
	if _, err := Compare([]byte(`{`), ok); !errors.As(err, &syn) {
		t.Errorf("syntax error %v does not wrap *json.SyntaxError", err)
	}
}

// gitRepo makes a repository in a temp dir with elicit_gen.json committed in
// pkg/ and returns its root.
func gitRepo(t *testing.T, committed string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("init", "-q")
	if err := os.MkdirAll(filepath.Join(dir, "pkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pkg", "elicit_gen.json"), []byte(committed), 0o644); err != nil {
		t.Fatal(err)
	}
	run("add", ".")
	run("commit", "-q", "-m", "init")
	return dir
}

func TestReadAtRevision(t *testing.T) {
	committed := string(one(`"environment":{"type":"string","enum":["dev","qa"]}`, `["environment"]`))
	dir := gitRepo(t, committed)
	pkg := filepath.Join(dir, "pkg")
	// Modify the working tree: remove "qa".
	modified := one(`"environment":{"type":"string","enum":["dev"]}`, `["environment"]`)
	if err := os.WriteFile(filepath.Join(pkg, "elicit_gen.json"), modified, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	got, err := ReadAtRevision(ctx, pkg, "HEAD", "elicit_gen.json")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != committed {
		t.Errorf("ReadAtRevision = %q, want %q", got, committed)
	}
	// Same file, addressed from the repository root.
	if got, err := ReadAtRevision(ctx, dir, "HEAD", "pkg/elicit_gen.json"); err != nil || string(got) != committed {
		t.Errorf("from root: %q, %v", got, err)
	}
	r, err := CompareFiles("HEAD:elicit_gen.json", got, "elicit_gen.json", modified)
	if err != nil {
		t.Fatal(err)
	}
	if w := kinds(r); !equalWants(w, []want{{"environment", "enum-value-removed", true}}) {
		t.Errorf("changes = %v", w)
	}

	// A file that is not in the revision: ErrNotExist and fs.ErrNotExist.
	_, err = ReadAtRevision(ctx, dir, "HEAD", "other/elicit_gen.json")
	if !errors.Is(err, ErrNotExist) || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: err = %v, want ErrNotExist", err)
	}
	// An unknown revision is an error, but not ErrNotExist.
	_, err = ReadAtRevision(ctx, pkg, "no-such-rev", "elicit_gen.json")
	if err == nil || errors.Is(err, ErrNotExist) || !errors.Is(err, ErrUnknownRevision) {
		t.Errorf("bad revision: err = %v, want ErrUnknownRevision", err)
	}
	if err != nil && (!strings.Contains(err.Error(), `"no-such-rev"`) || strings.Contains(err.Error(), "exit status")) {
		t.Errorf("bad revision: %q should name the revision and not git's exit status", err)
	}
	// Not a repository.
	_, err = ReadAtRevision(ctx, t.TempDir(), "HEAD", "elicit_gen.json")
	if err == nil || errors.Is(err, ErrNotExist) {
		t.Errorf("not a repository: err = %v, want a non-ErrNotExist error", err)
	}
	// Option-looking revisions are refused before git sees them.
	if _, err := ReadAtRevision(ctx, pkg, "--output=x", "elicit_gen.json"); err == nil {
		t.Error("a revision starting with - must be refused")
	}
}

func FuzzCompare(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(goldenDir, "*.txtar"))
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			f.Fatal(err)
		}
		o, _ := section(ar, "old.json")
		n, _ := section(ar, "new.json")
		f.Add(o, n)
	}
	f.Add([]byte(`{}`), []byte(`{"F":{"type":"object","properties":{}}}`))
	f.Add([]byte(``), []byte(`null`))
	f.Fuzz(func(t *testing.T, oldJSON, newJSON []byte) {
		r, err := Compare(oldJSON, newJSON)
		if err != nil {
			if !errors.Is(err, ErrInvalidSchema) {
				t.Fatalf("error %v does not wrap ErrInvalidSchema", err)
			}
			return
		}
		var b bytes.Buffer
		if err := r.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		b.Reset()
		if err := r.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		if !json.Valid(b.Bytes()) {
			t.Fatalf("WriteJSON wrote invalid JSON: %s", b.Bytes())
		}
		for _, c := range r.Changes {
			if c.Breaking != IsBreakingKind(c.Kind) {
				t.Fatalf("change %v: Breaking disagrees with its kind", c)
			}
		}
		// Both inputs are valid: each compared with itself reports nothing,
		// and comparing again gives the same report.
		for _, side := range [][]byte{oldJSON, newJSON} {
			same, err := Compare(side, side)
			if err != nil || len(same.Changes) != 0 {
				t.Fatalf("Compare(x, x) = %v, %v; want no changes", same, err)
			}
		}
		again, _ := Compare(oldJSON, newJSON)
		if len(again.Changes) != len(r.Changes) {
			t.Fatal("Compare is not deterministic")
		}
		for i := range r.Changes {
			if again.Changes[i] != r.Changes[i] {
				t.Fatalf("Compare is not deterministic: %v vs %v", again.Changes[i], r.Changes[i])
			}
		}
	})
}
