package gen

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// Analyze turns one type-checked package into the model, in passes, one
// idea a file:
//
//	build.go       finding the forms (tags, //elicit:form, --type) and the driver
//	structtag.go   struct tags reflect must read as written
//	field.go       fields to properties: Go types to kinds, embedded structs flattened
//	enum.go        named string types with constants to options
//	check.go       tag options applied and checked (kind, text, format, bounds, default)
//	secret.go      credentials refused in form mode
//	warn.go        Go names shown to people (warnings)
//	collide.go     names the generated file would clash with
//	constraint.go  the build constraint the generated file repeats
//	directive.go   the --type of the //go:generate line
//
// and LoadLocales (locale*.go) adds the translation catalogs.

// Source is one type-checked package, as go/packages or go/analysis
// provide it. Analyze reads nothing else.
type Source struct {
	Fset  *token.FileSet
	Files []*ast.File
	Types *types.Package
	Info  *types.Info
	// Dir is the package directory.
	Dir string
	// HasGenerated reports that the package builds an elicit_gen.go of
	// ours that Files leave out (Load stubs it out).
	HasGenerated bool

	// log, when set, records the translation catalogs LoadLocales reads
	// (rawcache.go).
	log *readLog
}

// Analyze finds the forms of src, builds their model and checks every MCP
// and Go-type rule. When only is non-empty, just the named types are
// forms. Diagnostics are sorted; a non-empty list means the model must not
// be emitted.
//
// When only is empty and a //go:generate line of the package runs
// elicitgen with --type, those types are the forms, exactly as go
// generate makes them: generate, check and the analyzer then agree with
// what the directive produced.
func Analyze(src *Source, only []string) (*Package, Diagnostics) {
	b := &builder{enums: map[*types.TypeName]*enumInfo{}, src: src, docs: map[token.Pos]*ast.Field{}, consts: map[token.Pos]*ast.ValueSpec{}, constDocs: map[token.Pos]*ast.CommentGroup{}}
	b.index()
	var onlyPos token.Position
	if len(only) == 0 {
		var at token.Pos
		if only, at = DirectiveTypes(src.Files); len(only) > 0 {
			onlyPos = b.pos(at)
		}
	}
	pkg := &Package{Name: src.Types.Name(), PkgPath: src.Types.Path(), Dir: src.Dir}
	want := map[string]bool{}
	for _, n := range only {
		want[n] = true
	}
	found := map[string]bool{}
	specs := b.typeSpecs()
	embedded := embeddedInForms(specs)
	for _, ts := range specs {
		if st, ok := ts.spec.Type.(*ast.StructType); ok {
			b.checkStructTags(st, isForm(ts.doc, st) || embedded[ts.spec.Name.Name])
		}
	}
	for _, ts := range specs {
		st, ok := ts.spec.Type.(*ast.StructType)
		if !ok {
			if want[ts.spec.Name.Name] {
				b.sink.errorf(b.pos(ts.spec.Name.Pos()), "%s is not a struct type: only structs can be forms", ts.spec.Name.Name)
				found[ts.spec.Name.Name] = true
			}
			continue
		}
		name := ts.spec.Name.Name
		if len(want) > 0 {
			if !want[name] {
				continue
			}
			found[name] = true
		} else if !isForm(ts.doc, st) || (embedded[name] && !hasFormMarker(ts.doc)) {
			// A struct only embedded in forms lends them its fields; it
			// is a form of its own only when marked //elicit:form.
			continue
		}
		if ts.spec.TypeParams != nil {
			b.sink.errorf(b.pos(ts.spec.Name.Pos()), "form %s is generic: forms must be plain struct types", name)
			continue
		}
		obj, _ := src.Info.Defs[ts.spec.Name].(*types.TypeName)
		if obj == nil {
			continue
		}
		if f := b.form(obj); f != nil {
			f.Doc = strings.TrimSpace(commentText(ts.doc))
			pkg.Forms = append(pkg.Forms, f)
		}
	}
	b.checkCollisions(pkg) // collide.go
	b.buildConstraint(pkg)
	names := make([]string, len(src.Files))
	for i, f := range src.Files {
		names[i] = src.Fset.File(f.Pos()).Name()
	}
	pkg.HasGenerated = src.HasGenerated || compilesOwnOutput(names)
	for _, n := range only {
		if !found[n] {
			b.sink.errorf(onlyPos, "type %s not found in package %s%s", n, src.Types.Path(), suggestType(n, specNames(b.typeSpecs())))
		}
	}
	pkg.Warnings = b.warnings.Sort()
	return pkg, b.sink.list.Sort()
}

// embeddedInForms returns the names of the package's struct types that a
// form candidate embeds (by value or pointer).
func embeddedInForms(specs []typeSpec) map[string]bool {
	out := map[string]bool{}
	for _, ts := range specs {
		st, ok := ts.spec.Type.(*ast.StructType)
		if !ok || !isForm(ts.doc, st) {
			continue
		}
		for _, f := range st.Fields.List {
			if len(f.Names) > 0 {
				continue
			}
			e := f.Type
			if star, ok := e.(*ast.StarExpr); ok {
				e = star.X
			}
			if id, ok := e.(*ast.Ident); ok && id.Name != ts.spec.Name.Name {
				out[id.Name] = true
			}
		}
	}
	return out
}

func hasFormMarker(doc *ast.CommentGroup) bool {
	if doc != nil {
		for _, c := range doc.List {
			if strings.TrimSpace(c.Text) == "//elicit:form" {
				return true
			}
		}
	}
	return false
}

// isForm reports whether a struct declaration is a form: a field with an
// elicit tag, or the doc line //elicit:form.
func isForm(doc *ast.CommentGroup, st *ast.StructType) bool {
	if hasFormMarker(doc) {
		return true
	}
	for _, f := range st.Fields.List {
		if f.Tag != nil {
			if tag, err := strconv.Unquote(f.Tag.Value); err == nil {
				if _, ok := reflect.StructTag(tag).Lookup("elicit"); ok {
					return true
				}
			}
		}
	}
	return false
}

type builder struct {
	enums     map[*types.TypeName]*enumInfo // by named type; nil value: no constants
	src       *Source
	sink      diagSink
	warnings  Diagnostics                     // warn.go
	camel     map[string]bool                 // goNames
	docs      map[token.Pos]*ast.Field        // field name (or embedded type) pos -> field
	consts    map[token.Pos]*ast.ValueSpec    // const name pos -> spec
	constDocs map[token.Pos]*ast.CommentGroup // const name pos -> decl doc (single const)
}

type typeSpec struct {
	spec *ast.TypeSpec
	doc  *ast.CommentGroup
}

func (b *builder) pos(p token.Pos) token.Position { return b.src.Fset.Position(p) }

// files returns the package's files sorted by name, for a stable order.
func (b *builder) files() []*ast.File {
	files := append([]*ast.File(nil), b.src.Files...)
	sort.Slice(files, func(i, j int) bool {
		return b.src.Fset.File(files[i].Pos()).Name() < b.src.Fset.File(files[j].Pos()).Name()
	})
	return files
}

func (b *builder) index() {
	// Forms, embedded structs and enum constants are package-level
	// declarations: function bodies are never walked.
	for _, f := range b.src.Files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			switch gd.Tok {
			case token.TYPE:
				for _, s := range gd.Specs {
					if st, ok := s.(*ast.TypeSpec).Type.(*ast.StructType); ok {
						b.indexFields(st)
					}
				}
			case token.CONST:
				for _, s := range gd.Specs {
					vs := s.(*ast.ValueSpec)
					for _, id := range vs.Names {
						b.consts[id.Pos()] = vs
						if len(gd.Specs) == 1 {
							b.constDocs[id.Pos()] = gd.Doc
						}
					}
				}
			}
		}
	}
}

func (b *builder) indexFields(st *ast.StructType) {
	for _, fld := range st.Fields.List {
		if len(fld.Names) == 0 {
			b.docs[embeddedPos(fld.Type)] = fld
		}
		for _, id := range fld.Names {
			b.docs[id.Pos()] = fld
		}
	}
}

// embeddedPos is the position go/types gives an embedded field: that of
// the type name.
func embeddedPos(e ast.Expr) token.Pos {
	switch e := e.(type) {
	case *ast.StarExpr:
		return embeddedPos(e.X)
	case *ast.SelectorExpr:
		return e.Sel.Pos()
	case *ast.IndexExpr:
		return embeddedPos(e.X)
	case *ast.IndexListExpr:
		return embeddedPos(e.X)
	}
	return e.Pos()
}

func (b *builder) typeSpecs() []typeSpec {
	var out []typeSpec
	for _, f := range b.files() {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, s := range gd.Specs {
				ts := s.(*ast.TypeSpec)
				if ts.Assign.IsValid() {
					continue // alias
				}
				doc := ts.Doc
				if doc == nil && len(gd.Specs) == 1 {
					doc = gd.Doc
				}
				out = append(out, typeSpec{ts, doc})
			}
		}
	}
	return out
}

func specNames(specs []typeSpec) []string {
	out := make([]string, len(specs))
	for i, ts := range specs {
		out[i] = ts.spec.Name.Name
	}
	return out
}

// suggestType returns " (did you mean X?)" for the declared type name
// closest to name, or "".
func suggestType(name string, declared []string) string {
	if best := closest(name, declared); best != "" {
		return fmt.Sprintf(" (did you mean %s?)", best)
	}
	return ""
}
