package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	goruntime "runtime"
	"strings"
)

// formsDir returns the directory of package forms in this checkout (the
// demo is run from source: go run ./example/demo), or "".
func formsDir() string {
	_, file, _, ok := goruntime.Caller(0)
	if !ok {
		return ""
	}
	dir := filepath.Join(filepath.Dir(file), "..", "forms")
	if _, err := os.Stat(filepath.Join(dir, "forms.go")); err != nil {
		return ""
	}
	return dir
}

// structSource returns the Go declaration of the form struct t as its
// author wrote it in package forms (doc comments, tags), preceded by the
// declarations of the enum types its fields use and their constants.
// Without the source it renders t by reflection.
func structSource(t reflect.Type) string {
	if dir := formsDir(); dir != "" {
		if src, err := declarations(filepath.Join(dir, "forms.go"), t); err == nil && src != "" {
			return src
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "type %s struct {\n", t.Name())
	for i := range t.NumField() {
		f := t.Field(i)
		fmt.Fprintf(&b, "    %s %s `%s`\n", f.Name, f.Type.Name(), f.Tag)
	}
	b.WriteString("}")
	return b.String()
}

// declarations prints, from file, the declaration of t and of the types
// and constants of its field types declared in the same file, each with
// its doc comment.
func declarations(file string, t reflect.Type) (string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, parser.ParseComments)
	if err != nil {
		return "", err
	}
	fieldTypes := map[string]bool{}
	for i := range t.NumField() {
		fieldTypes[t.Field(i).Type.Name()] = true
	}
	var decls []ast.Decl
	var main ast.Decl
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok {
			continue
		}
		for _, s := range g.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				if s.Name.Name == t.Name() {
					main = g
				} else if fieldTypes[s.Name.Name] {
					decls = append(decls, g)
				}
			case *ast.ValueSpec:
				if id, ok := s.Type.(*ast.Ident); ok && g.Tok == token.CONST && fieldTypes[id.Name] {
					decls = append(decls, g)
				}
			}
		}
	}
	if main == nil {
		return "", nil
	}
	var buf bytes.Buffer
	cfg := printer.Config{Mode: printer.UseSpaces, Tabwidth: 4}
	seen := map[ast.Decl]bool{}
	for _, d := range append(decls, main) {
		if seen[d] {
			continue
		}
		seen[d] = true
		if buf.Len() > 0 {
			buf.WriteString("\n\n")
		}
		if err := cfg.Fprint(&buf, fset, d); err != nil {
			return "", err
		}
	}
	return buf.String(), nil
}

// sideBySide prints left and right as two columns under their headings.
func sideBySide(leftHead, left, rightHead, right string) string {
	l := append([]string{leftHead, strings.Repeat("-", len(leftHead))}, strings.Split(left, "\n")...)
	r := append([]string{rightHead, strings.Repeat("-", len(rightHead))}, strings.Split(right, "\n")...)
	width := 0
	for _, s := range l {
		width = max(width, len(s))
	}
	var b strings.Builder
	for i := range max(len(l), len(r)) {
		var a, c string
		if i < len(l) {
			a = l[i]
		}
		if i < len(r) {
			c = r[i]
		}
		line := fmt.Sprintf("  %-*s | %s", width, a, c)
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	return b.String()
}
