package gen

import (
	"fmt"
	"go/ast"
	"go/build/constraint"
	"go/constant"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/elicitgen/elicitgen/runtime"
)

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
			b.checkTagKeys(st)
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
	b.checkNames(pkg)
	b.buildConstraint(pkg)
	pkg.HasGenerated = src.HasGenerated
	for _, f := range src.Files {
		if name := src.Fset.File(f.Pos()).Name(); filepath.Base(name) == GoFile && isGenerated(name) {
			pkg.HasGenerated = true
		}
	}
	for _, n := range only {
		if !found[n] {
			b.sink.errorf(onlyPos, "type %s not found in package %s%s", n, src.Types.Path(), suggestType(n, specNames(b.typeSpecs())))
		}
	}
	return pkg, b.sink.list.Sort()
}

// buildConstraint sets pkg.BuildConstraint from the //go:build lines of
// the files that declare forms: the generated file must build exactly when
// they do. Forms under different constraints cannot share one file.
func (b *builder) buildConstraint(pkg *Package) {
	var first *Form
	for _, f := range pkg.Forms {
		c := b.constraintOf(f.Pos.Filename)
		if first == nil {
			first, pkg.BuildConstraint = f, c
			continue
		}
		if c != pkg.BuildConstraint {
			b.sink.errorf(f.Pos, "form %s builds under %q but form %s under %q: one generated file cannot serve both; move the forms so they share a build constraint", f.Name, c, first.Name, pkg.BuildConstraint)
			return
		}
	}
}

// constraintOf returns the //go:build expression of the named file.
func (b *builder) constraintOf(filename string) string {
	for _, f := range b.src.Files {
		if b.src.Fset.File(f.Pos()).Name() != filename {
			continue
		}
		for _, cg := range f.Comments {
			if cg.Pos() > f.Package {
				break
			}
			for _, c := range cg.List {
				if constraint.IsGoBuild(c.Text) {
					if expr, err := constraint.Parse(c.Text); err == nil {
						return expr.String()
					}
				}
			}
		}
	}
	return ""
}

// checkNames reports generated names that the package already declares
// outside elicitgen's own output, or that two forms would both declare.
func (b *builder) checkNames(pkg *Package) {
	taken := map[string]string{}
	for _, f := range pkg.Forms {
		for _, name := range NamesOf(f.Name).list() {
			if other, ok := taken[name]; ok {
				b.sink.errorf(f.Pos, "form %s would declare %s, which form %s declares too: rename one of the types", f.Name, name, other)
				break
			}
			taken[name] = f.Name
			obj := b.src.Types.Scope().Lookup(name)
			if obj == nil {
				continue
			}
			if pos := b.pos(obj.Pos()); !isGenerated(pos.Filename) {
				b.sink.errorf(f.Pos, "form %s needs the name %s, which is already declared at %s:%d: rename it or the type", f.Name, name, filepath.Base(pos.Filename), pos.Line)
				break
			}
		}
	}
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

// checkTagKeys reports struct tag keys that look like a misspelt elicit:
// such a field would silently go unconstrained.
func (b *builder) checkTagKeys(st *ast.StructType) {
	for _, f := range st.Fields.List {
		if f.Tag == nil {
			continue
		}
		tag, err := strconv.Unquote(f.Tag.Value)
		if err != nil {
			continue
		}
		for _, k := range structTagKeys(tag) {
			if nearElicit(k.Key) {
				b.sink.errorf(b.pos(f.Tag.Pos()+token.Pos(1+k.Offset)), "struct tag key %q: did you mean elicit? (elicitgen reads only `elicit:\"...\"`)", k.Key)
			}
		}
	}
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

// form builds one form, recording problems.
func (b *builder) form(obj *types.TypeName) *Form {
	st := obj.Type().Underlying().(*types.Struct)
	f := &Form{
		Name:       obj.Name(),
		Pos:        b.pos(obj.Pos()),
		SourceFile: filepath.Base(b.pos(obj.Pos()).Filename),
		Guard:      b.guard(obj),
	}
	n := len(b.sink.list)
	fs := &formState{form: f, names: map[string]*Field{}, enums: map[string]bool{}, seen: map[*types.Struct]bool{st: true}}
	f.Args = isArgs(st)
	b.fields(fs, st, nil)
	b.checkMethod(f, obj) // args.go
	if len(b.sink.list) > n {
		return nil
	}
	return f
}

func (b *builder) guard(obj *types.TypeName) *Struct {
	r := typeRef(b.src.Types, obj.Type().Underlying())
	if r == nil {
		return nil
	}
	return &Struct{Name: obj.Name(), PkgPath: obj.Pkg().Path(), Fields: r.Fields}
}

// formState is what building one form tracks, apart from the file-wide
// state of the builder: the form, its property names so far, the enums it
// uses and the embedded structs already flattened.
type formState struct {
	form  *Form
	names map[string]*Field
	enums map[string]bool
	seen  map[*types.Struct]bool
}

// fields appends the form fields of st (recursing into embedded structs).
func (b *builder) fields(fs *formState, st *types.Struct, path []string) {
	f := fs.form
	for i := 0; i < st.NumFields(); i++ {
		v := st.Field(i)
		tag := reflect.StructTag(st.Tag(i))
		et, hasElicit := tag.Lookup("elicit")
		jsonName, jsonOpts, _ := strings.Cut(tag.Get("json"), ",")
		if et == "-" || (jsonName == "-" && jsonOpts == "") {
			continue
		}
		if f.Args && b.skipArg(v, et, hasElicit) { // args.go
			continue
		}
		if v.Embedded() {
			if !v.Exported() && !isStructType(v.Type()) {
				continue
			}
			if jsonName == "" && !hasElicit {
				if ptr, ok := types.Unalias(v.Type()).(*types.Pointer); ok && isStructType(ptr.Elem()) {
					b.sink.errorf(b.pos(v.Pos()), "embedded field *%s is a pointer to a struct: embed the struct itself so its fields flatten into the form", typeName(b.src.Types, ptr.Elem()))
					continue
				}
				if est, ok := v.Type().Underlying().(*types.Struct); ok && !isTime(v.Type()) {
					if fs.seen[est] {
						continue
					}
					fs.seen[est] = true
					if named, ok := types.Unalias(v.Type()).(*types.Named); ok {
						if g := typeRef(b.src.Types, est); g != nil && named.Obj().Pkg() != nil {
							f.Embedded = append(f.Embedded, &Struct{Name: named.Obj().Name(), PkgPath: named.Obj().Pkg().Path(), Fields: g.Fields})
						}
					}
					b.fields(fs, est, append(append([]string(nil), path...), v.Name()))
					continue
				}
			}
		}
		if !v.Exported() {
			continue
		}
		fld := b.field(fs, v, tag, append(append([]string(nil), path...), v.Name()))
		if fld == nil {
			continue
		}
		if prev, ok := fs.names[fld.Prop.Name]; ok {
			b.sink.errorf(fld.Pos, "property %q is also the name of field %s (%s:%d): each property needs its own name", fld.Prop.Name, strings.Join(prev.Access, "."), filepath.Base(prev.Pos.Filename), prev.Pos.Line)
			continue
		}
		fs.names[fld.Prop.Name] = fld
		f.Fields = append(f.Fields, fld)
	}
}

// unitless lists types that would reach a person as a bare number whose
// unit they cannot guess, with what to use instead.
var unitless = map[string]string{
	"time.Duration": "it would be asked as an integer of nanoseconds; use an integer field that names its unit (TimeoutSeconds int `elicit:\"min=1\"`) or a string parsed with time.ParseDuration",
	"time.Month":    "it would be asked as a number 1-12; use a named string type with constants (an enum) or an int with min=1,max=12",
	"time.Weekday":  "it would be asked as a number 0-6; use a named string type with constants (an enum)",
}

// unitlessType returns the hint for a type in unitless, or "".
func unitlessType(t types.Type) string {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return ""
	}
	return unitless[n.Obj().Pkg().Path()+"."+n.Obj().Name()]
}

func isStructType(t types.Type) bool {
	_, ok := t.Underlying().(*types.Struct)
	return ok
}

func isTime(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Time"
}

func typeName(from *types.Package, t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string {
		if p == from {
			return ""
		}
		return p.Name()
	})
}

// field builds one field; nil means it was rejected (and reported).
func (b *builder) field(fs *formState, v *types.Var, tag reflect.StructTag, access []string) *Field {
	astField := b.docs[v.Pos()]
	fpos := b.pos(v.Pos())
	jsonName, jsonOpts, _ := strings.Cut(tag.Get("json"), ",")
	fld := &Field{Access: access, Pos: fpos}
	p := &fld.Prop
	p.Name = v.Name()
	if jsonName != "" {
		p.Name = jsonName
	}
	p.Required = true
	for _, o := range strings.Split(jsonOpts, ",") {
		if o == "omitempty" || o == "omitzero" {
			p.Required = false
		}
	}
	if astField != nil {
		p.Description = foldSpace(commentText(astField.Doc))
		if p.Description == "" {
			p.Description = foldSpace(commentText(astField.Comment))
		}
		p.Description = stripSubject(p.Description, v.Name())
	}
	// Type.
	t := types.Unalias(v.Type())
	if ptr, ok := t.(*types.Pointer); ok {
		fld.Pointer = true
		p.Required = false
		t = types.Unalias(ptr.Elem())
		if _, ok := t.Underlying().(*types.Struct); ok && !isTime(t) {
			b.sink.errorf(fpos, "field %s is a pointer to a struct (%s): MCP forms are flat objects of strings, numbers, booleans and enums", v.Name(), typeName(b.src.Types, v.Type()))
			return nil
		}
		if _, ok := t.Underlying().(*types.Slice); ok {
			b.sink.errorf(fpos, "field %s is a pointer to a slice: use the slice itself (nil means not given)", v.Name())
			return nil
		}
		if _, ok := t.(*types.Pointer); ok {
			b.sink.errorf(fpos, "field %s is a pointer to a pointer: use a single pointer for an optional field", v.Name())
			return nil
		}
	}
	if !b.classify(fs, fld, v, t) {
		return nil
	}

	// Tag options.
	var opts tagOptions
	if raw, ok := tag.Lookup("elicit"); ok {
		var terrs []*tagError
		opts, terrs = parseTag(raw)
		for _, e := range terrs {
			b.sink.errorf(b.tagPos(astField, v, e.Offset), "%s", e.Msg)
		}
		if len(terrs) > 0 {
			return nil
		}
	}
	// Only text can carry a secret: TokenCount int and ResetPassword bool
	// are not asking for one.
	if fld.GoKind == GoString && !hasKey(opts, optNotSecret) && (looksSecret(v.Name()) || looksSecret(p.Name)) {
		b.sink.errorf(fpos, "field %s looks like a secret: form mode must not ask for passwords, tokens, API keys or card numbers; ask for it out of band with URL mode (runtime.AskURL), or, if it is not a secret, add the tag option %s (elicit:\"%s\")", v.Name(), optNotSecret, optNotSecret)
		return nil
	}
	return b.finish(fld, v, opts, astField)
}

// tagPos is the position of byte off of the elicit tag's value, inside
// the field's tag literal.
func (b *builder) tagPos(astField *ast.Field, v *types.Var, off int) token.Position {
	if astField == nil || astField.Tag == nil {
		return b.pos(v.Pos())
	}
	lit := astField.Tag.Value
	i := strings.Index(lit, `elicit:"`)
	if i < 0 {
		return b.pos(astField.Tag.Pos())
	}
	return b.pos(astField.Tag.Pos() + token.Pos(i+len(`elicit:"`)+off))
}

// classify sets the field's Go kind and the property's kind from its type.
func (b *builder) classify(fs *formState, fld *Field, v *types.Var, t types.Type) bool {
	p := &fld.Prop
	bad := func(what string) bool {
		b.sink.errorf(fld.Pos, "field %s has type %s, %s: MCP forms are flat objects of strings, numbers, booleans, enums and multi-select enums", v.Name(), typeName(b.src.Types, v.Type()), what)
		return false
	}
	if isTime(t) {
		fld.GoKind, p.Kind, p.Format = GoTime, runtime.KindString, "date-time"
		return true
	}
	if hint := unitlessType(t); hint != "" {
		b.sink.errorf(fld.Pos, "field %s has type %s, whose unit a person cannot guess: %s", v.Name(), typeName(b.src.Types, v.Type()), hint)
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsString != 0:
			fld.GoKind, p.Kind = GoString, runtime.KindString
			if named, ok := t.(*types.Named); ok {
				if e := b.enum(named); e != nil {
					p.Kind = runtime.KindEnum
					b.useEnum(fs, e, p)
				}
			}
		case u.Info()&types.IsBoolean != 0:
			fld.GoKind, p.Kind = GoBool, runtime.KindBoolean
		case u.Info()&types.IsInteger != 0:
			p.Kind = runtime.KindInteger
			fld.GoKind = GoInt
			if u.Info()&types.IsUnsigned != 0 {
				fld.GoKind = GoUint
			}
		case u.Info()&types.IsFloat != 0:
			fld.GoKind, p.Kind = GoFloat, runtime.KindNumber
		default:
			return bad("which MCP cannot express")
		}
		return true
	case *types.Slice:
		elem := types.Unalias(u.Elem())
		eb, ok := elem.Underlying().(*types.Basic)
		if !ok || eb.Info()&types.IsString == 0 {
			return bad("a slice of something other than strings")
		}
		fld.GoKind, p.Kind = GoMulti, runtime.KindMulti
		if named, ok := elem.(*types.Named); ok {
			if e := b.enum(named); e != nil {
				b.useEnum(fs, e, p)
			}
		}
		return true
	case *types.Struct:
		b.sink.errorf(fld.Pos, "field %s has type %s, a nested struct: MCP forms are flat objects; to ask for its fields, embed it (write %s without a field name) so they flatten into the form", v.Name(), typeName(b.src.Types, v.Type()), typeName(b.src.Types, v.Type()))
		return false
	case *types.Map:
		return bad("a map")
	case *types.Interface:
		return bad("an interface")
	case *types.Chan:
		return bad("a channel")
	case *types.Signature:
		return bad("a func")
	case *types.Array:
		return bad("an array")
	}
	return bad("which MCP cannot express")
}

// enumInfo is a named string type's constants, in declaration order.
type enumInfo struct {
	enum   *Enum
	values []runtime.Option
}

// enum returns the constants of a named string type, or nil if it has none.
func (b *builder) enum(named *types.Named) *enumInfo {
	obj := named.Obj()
	if obj.Pkg() == nil {
		return nil
	}
	if e, ok := b.enums[obj]; ok {
		return e
	}
	e := b.scanEnum(named)
	b.enums[obj] = e
	return e
}

// scanEnum finds the constants of a named string type in its package.
func (b *builder) scanEnum(named *types.Named) *enumInfo {
	obj := named.Obj()
	scope := obj.Pkg().Scope()
	var consts []*types.Const
	for _, n := range scope.Names() {
		c, ok := scope.Lookup(n).(*types.Const)
		if ok && types.Identical(c.Type(), named) {
			consts = append(consts, c)
		}
	}
	if len(consts) == 0 {
		return nil
	}
	sort.SliceStable(consts, func(i, j int) bool {
		pi, pj := b.pos(consts[i].Pos()), b.pos(consts[j].Pos())
		if pi.Filename != pj.Filename {
			return pi.Filename < pj.Filename
		}
		return pi.Offset < pj.Offset
	})
	e := &enumInfo{enum: &Enum{PkgPath: obj.Pkg().Path(), Name: obj.Name()}}
	for _, c := range consts {
		if c.Val().Kind() != constant.String {
			continue
		}
		title := ""
		if vs := b.consts[c.Pos()]; vs != nil {
			title = foldSpace(commentText(vs.Comment))
			if title == "" {
				title = foldSpace(commentText(vs.Doc))
			}
			if title == "" {
				title = foldSpace(commentText(b.constDocs[c.Pos()]))
			}
			title = stripName(title, c.Name())
		}
		if c.Exported() || obj.Pkg() == b.src.Types {
			e.enum.Consts = append(e.enum.Consts, c.Name())
			e.enum.Values = append(e.enum.Values, constant.StringVal(c.Val()))
		}
		e.values = append(e.values, runtime.Option{Value: constant.StringVal(c.Val()), Title: title})
	}
	return e
}

// stripName removes the Go doc-comment prefix of a constant's title: a
// comment that begins with the constant's name followed by "is", "means",
// ":" or "-" ("EnvProd is Production", "EnvProd: Production") keeps only
// what follows. Anything else is the author's title, kept whole: the
// constant Staging with the comment "Staging (test)" is titled
// "Staging (test)".
func stripName(title, name string) string {
	rest, ok := strings.CutPrefix(title, name)
	if !ok {
		return title
	}
	if r, ok := strings.CutPrefix(rest, ":"); ok {
		return strings.TrimSpace(r)
	}
	rest, ok = strings.CutPrefix(rest, " ")
	if !ok {
		return title
	}
	for _, w := range []string{"is ", "means ", "- ", ": "} {
		if r, ok := strings.CutPrefix(rest, w); ok && strings.TrimSpace(r) != "" {
			return strings.TrimSpace(r)
		}
	}
	return title
}

// stripSubject turns a Go doc comment that starts with the field's name
// followed by "is" or "are" into text for a person: "Branch is the git
// branch to deploy." becomes "The git branch to deploy.". Any other
// comment is the author's words and stays as written: "Branch to
// deploy." is kept whole.
func stripSubject(desc, name string) string {
	rest, ok := strings.CutPrefix(desc, name+" ")
	if !ok {
		return desc
	}
	for _, verb := range []string{"is ", "are "} {
		if r, ok := strings.CutPrefix(rest, verb); ok && r != "" {
			c, n := utf8.DecodeRuneInString(r)
			return string(unicode.ToUpper(c)) + r[n:]
		}
	}
	return desc
}

func (b *builder) useEnum(fs *formState, e *enumInfo, p *runtime.Property) {
	p.Options = e.values
	p.Style = runtime.EnumPlain
	for _, o := range e.values {
		if o.Title != "" {
			p.Style = runtime.EnumTitled
			break
		}
	}
	key := e.enum.PkgPath + "." + e.enum.Name
	if !fs.enums[key] {
		fs.enums[key] = true
		fs.form.Enums = append(fs.form.Enums, e.enum)
	}
}

func commentText(cg *ast.CommentGroup) string {
	if cg == nil {
		return ""
	}
	var lines []string
	for _, line := range strings.Split(cg.Text(), "\n") {
		if strings.HasPrefix(line, "elicit:") || strings.HasPrefix(line, "go:") {
			continue
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

func foldSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// looksSecret reports whether a field name reads like a credential.
func looksSecret(name string) bool {
	if !mayBeSecret(name) {
		return false
	}
	words := splitWords(name)
	for i, w := range words {
		switch w {
		case "password", "passwd", "passphrase", "passcode", "secret", "token", "apikey", "cvv", "cvc", "pin", "ssn", "privatekey", "cardnumber", "creditcard", "pan":
			return true
		}
		if i+1 < len(words) {
			switch w + words[i+1] {
			case "apikey", "cardnumber", "creditcard", "privatekey", "accesskey", "secretkey", "clientsecret":
				return true
			}
		}
	}
	return false
}

// mayBeSecret is a cheap prefilter for looksSecret: every secret word
// contains one of these letters groups.
func mayBeSecret(name string) bool {
	l := strings.ToLower(name)
	for _, part := range []string{"pass", "secret", "token", "key", "cv", "pin", "ssn", "card", "pan"} {
		if strings.Contains(l, part) {
			return true
		}
	}
	return false
}

// splitWords splits camelCase, snake_case and kebab-case into lower-case
// words.
func splitWords(s string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case r == '_' || r == '-' || r == ' ' || r == '.':
			flush()
			continue
		case r >= 'A' && r <= 'Z':
			if i > 0 && ((rs[i-1] >= 'a' && rs[i-1] <= 'z') || (i+1 < len(rs) && rs[i+1] >= 'a' && rs[i+1] <= 'z' && rs[i-1] >= 'A' && rs[i-1] <= 'Z')) {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return words
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

// DirectiveTypes returns the --type list of the first //go:generate line
// in files that runs elicitgen's generate command (go tool elicitgen,
// elicitgen, go run .../cmd/elicitgen[@version]), and the line's position;
// nil when there is none or it has no --type.
func DirectiveTypes(files []*ast.File) ([]string, token.Pos) {
	for _, f := range files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				line, ok := strings.CutPrefix(c.Text, "//go:generate ")
				if !ok {
					continue
				}
				args, ok := generateArgs(strings.Fields(line))
				if !ok {
					continue
				}
				return typeFlag(args), c.Pos()
			}
		}
	}
	return nil, token.NoPos
}

// generateArgs returns the arguments after the elicitgen command of a
// generate directive, and whether the line runs elicitgen's generate
// command (the default) rather than another one such as docs.
func generateArgs(args []string) ([]string, bool) {
	for i, a := range args {
		name, _, _ := strings.Cut(a, "@")
		if name != "elicitgen" && !strings.HasSuffix(name, "/elicitgen") {
			continue
		}
		rest := args[i+1:]
		if len(rest) > 0 {
			switch rest[0] {
			case "schema", "check", "diff", "docs", "version", "help", "completion":
				return nil, false
			}
		}
		return rest, true
	}
	return nil, false
}

// typeFlag returns the type names of a --type flag in args.
func typeFlag(args []string) []string {
	for i, a := range args {
		var val string
		switch {
		case a == "--type" || a == "-type":
			if i+1 < len(args) {
				val = args[i+1]
			}
		case strings.HasPrefix(a, "--type=") || strings.HasPrefix(a, "-type="):
			_, val, _ = strings.Cut(a, "=")
		default:
			continue
		}
		var names []string
		for _, t := range strings.Split(val, ",") {
			if t = strings.TrimSpace(t); t != "" {
				names = append(names, t)
			}
		}
		return names
	}
	return nil
}
