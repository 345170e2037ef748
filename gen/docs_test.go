package gen_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/gen"
	"github.com/elicitgen/elicitgen/internal/testmod"
	"github.com/elicitgen/elicitgen/runtime"
)

// docsTemplateFile is an optional archive file: a custom template to
// render with instead of the embedded one.
const docsTemplateFile = "docs.tmpl"

// TestDocsGolden runs every testdata/docs/*.txtar case: the archive's
// files (without a want/ prefix) form a module example.com/docs; the
// catalog of its packages (./...) must equal want/docs.md, or, for bad
// input, the diagnostics must equal want/stderr. A docs.tmpl file in the
// archive replaces the embedded template.
func TestDocsGolden(t *testing.T) {
	eachCase(t, "docs", runDocsGolden)
}

func runDocsGolden(t *testing.T, file string) {
	c := loadCase(t, file, "example.com/docs")
	tmplPath := filepath.Join(c.dir, docsTemplateFile)
	if _, err := os.Stat(tmplPath); err != nil {
		tmplPath = "" // the embedded template
	}

	got := map[string][]byte{}
	pkgs, err := gen.Models(context.Background(), gen.Config{Dir: c.dir, Patterns: []string{"./..."}})
	if !diagnosed(t, got, err, "Models") {
		tmpl, err := gen.DocsTemplate(tmplPath)
		if err != nil {
			t.Fatal(err)
		}
		out, err := gen.Docs(pkgs, tmpl)
		if err != nil {
			t.Fatalf("Docs: %v", err)
		}
		got["docs.md"] = out
		schemasPerEra(t, c, pkgs, got)
		// The same input renders the same bytes.
		again, err := gen.Docs(pkgs, tmpl)
		if err != nil || !bytes.Equal(out, again) {
			t.Errorf("Docs is not deterministic: a second run gave different output (err %v)", err)
		}
		if bytes.Contains(out, []byte(c.dir)) {
			t.Errorf("catalog holds the absolute path %s", c.dir)
		}
	}
	c.check(t, got, "go test ./gen -run Docs")
}

// schemasPerEra renders, for each want/schema@VERSION.json of the case,
// the schemas as sent on that protocol version, and the forms it cannot
// ask as schema@VERSION.unavailable (one "key: reason" line each).
func schemasPerEra(t *testing.T, c *goldenCase, pkgs []*gen.Package, got map[string][]byte) {
	t.Helper()
	for name := range c.want {
		version, ok := strings.CutPrefix(name, "schema@")
		if !ok {
			continue
		}
		if version, ok = strings.CutSuffix(version, ".json"); !ok {
			continue
		}
		out, unavailable, err := gen.EmitSchemasFor(pkgs, version)
		if err != nil {
			t.Fatalf("EmitSchemasFor(%s): %v", version, err)
		}
		got[name] = out
		if len(unavailable) > 0 {
			var b strings.Builder
			for _, u := range unavailable {
				b.WriteString(u.Key + ": " + u.Reason + "\n")
			}
			got["schema@"+version+".unavailable"] = []byte(b.String())
		}
	}
}

// TestDocsTemplateDefault checks the embedded template's contract: it
// names its view model on the first line, and each call returns a fresh
// template that callers may change without affecting the next.
func TestDocsTemplateDefault(t *testing.T) {
	tmpl, err := gen.DocsTemplate("")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tmpl.Parse(`changed`); err != nil {
		t.Fatal(err)
	}
	fresh, err := gen.DocsTemplate("")
	if err != nil {
		t.Fatal(err)
	}
	out, err := gen.Docs(nil, fresh)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(out), "# Elicitation forms\n") || !strings.Contains(string(out), "No forms.") {
		t.Errorf("default template changed by a caller, or renders an empty catalog wrongly:\n%s", out)
	}
	src, err := os.ReadFile("../templates/docs.md.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	if first, _, _ := strings.Cut(string(src), "\n"); !strings.HasPrefix(first, "{{/* gotype: github.com/elicitgen/elicitgen/gen.DocsCatalog */") {
		t.Errorf("templates/docs.md.tmpl must start with its gotype line, got %q", first)
	}
}

// TestDocsTemplateErrors checks that a bad user template is an error that
// names the file, at parse or at execution time.
func TestDocsTemplateErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := gen.DocsTemplate(filepath.Join(dir, "missing.tmpl")); err == nil {
		t.Error("DocsTemplate of a missing file: no error")
	}
	bad := filepath.Join(dir, "bad.tmpl")
	testmod.WriteFile(t, bad, []byte("{{range .Forms}}"))
	if _, err := gen.DocsTemplate(bad); err == nil || !strings.Contains(err.Error(), "bad.tmpl") {
		t.Errorf("DocsTemplate of an unclosed range: error %v, want one naming bad.tmpl", err)
	}
	unknown := filepath.Join(dir, "unknown.tmpl")
	testmod.WriteFile(t, unknown, []byte("{{range .Forms}}{{.NoSuchField}}{{end}}"))
	tmpl, err := gen.DocsTemplate(unknown)
	if err != nil {
		t.Fatal(err)
	}
	pkg := &gen.Package{Name: "p", PkgPath: "example.com/p", Forms: []*gen.Form{{Name: "F"}}}
	if _, err := gen.Docs([]*gen.Package{pkg}, tmpl); err == nil || !strings.Contains(err.Error(), "NoSuchField") {
		t.Errorf("Docs with an unknown field: error %v, want one naming NoSuchField", err)
	}
}

// TestDocsCatalogFromModel builds the catalog from a model literal: no
// source to read, so no doc, and every cell escaped for a Markdown table.
func TestDocsCatalogFromModel(t *testing.T) {
	minLen, maxLen := 1, 8
	pkg := &gen.Package{Name: "p", PkgPath: "example.com/p", Forms: []*gen.Form{
		{Name: "Deploy", SourceFile: "deploy.go", Fields: []*gen.Field{
			{Access: []string{"Note"}, GoKind: gen.GoString, Prop: runtime.Property{
				Name: "note", Kind: runtime.KindString, Required: true, Description: "a|b `x` <i>", MinLength: &minLen, MaxLength: &maxLen,
			}},
		}},
		{Name: "deploy", SourceFile: "lower.go"},
	}}
	cat := gen.NewDocsCatalog([]*gen.Package{pkg})
	if len(cat.Forms) != 2 {
		t.Fatalf("got %d forms, want 2", len(cat.Forms))
	}
	if a, b := cat.Forms[0].Anchor, cat.Forms[1].Anchor; a != "deploy" || b != "deploy-1" {
		t.Errorf("anchors %q, %q; want deploy, deploy-1 (GitHub numbering of repeated headings)", a, b)
	}
	row := cat.Forms[0].Fields[0]
	if row.Description != "a\\|b \\`x\\` \\<i\\>" {
		t.Errorf("description cell %q is not escaped for a table", row.Description)
	}
	if row.Bounds != "minLength 1, maxLength 8" || row.Required != "yes" || row.Type != "string" {
		t.Errorf("row = %+v", row)
	}
	if cat.Forms[0].NumRequired != 1 || cat.Forms[1].NumFields != 0 {
		t.Errorf("counts: %+v, %+v", cat.Forms[0], cat.Forms[1])
	}
}
