package gen

import (
	"go/types"
	"path/filepath"
	"strconv"
)

// Collisions. The generated file declares names in the package (AskT,
// TSchema, the descriptor elicitFormT; the guard alias
// _T_changed_since_... is local to a blank function, but two guards of
// one name are still refused so that each error names one struct), a method
// Validate on each form, and imports context, runtime and elicitimpl (and
// the packages of embedded structs and enums from elsewhere). A name of
// the user's that meets one of them would make the package fail to
// compile after generation, with a message about generated code; each is
// reported here instead, before anything is written, at the user's
// declaration.

// checkCollisions reports every name of the package that the generated
// file would clash with.
func (b *builder) checkCollisions(pkg *Package) {
	b.checkNames(pkg)
	b.checkMethods(pkg)
	b.checkImports(pkg)
}

// declaredByUser returns where obj is declared when that is outside
// elicitgen's own output, or false.
func (b *builder) declaredByUser(obj types.Object) (string, bool) {
	if obj == nil || !obj.Pos().IsValid() {
		return "", false
	}
	pos := b.pos(obj.Pos())
	if isGenerated(pos.Filename) {
		return "", false
	}
	return filepath.Base(pos.Filename) + ":" + strconv.Itoa(pos.Line), true
}

// checkNames reports generated names that the package already declares
// outside elicitgen's own output, or that two forms would both declare.
func (b *builder) checkNames(pkg *Package) {
	taken := map[string]string{}
	guards := map[string]string{} // guard alias (local to its blank function) -> pkgpath.Name of its struct
	for _, f := range pkg.Forms {
		names := NamesOf(f.Name).list()
		for _, s := range append([]*Struct{f.Guard}, f.Embedded...) {
			if s == nil {
				continue
			}
			alias, id := guardName(s.Name), s.PkgPath+"."+s.Name
			if other, ok := guards[alias]; ok && other != id {
				b.sink.errorf(f.Pos, "form %s embeds %s, and another form uses %s: both would be guarded as %s; rename one of the structs", f.Name, id, other, alias)
				continue
			}
			guards[alias] = id
		}
		for _, name := range names {
			if other, ok := taken[name]; ok {
				b.sink.errorf(f.Pos, "form %s would declare %s, which form %s declares too: rename one of the types", f.Name, name, other)
				break
			}
			taken[name] = f.Name
			if at, ok := b.declaredByUser(b.src.Types.Scope().Lookup(name)); ok {
				b.sink.errorf(f.Pos, "form %s needs the name %s, which is already declared at %s: rename it or the type", f.Name, name, at)
				break
			}
		}
	}
}

// checkMethods reports a method or field named Validate on a form: the
// generated file declares the method (*T) Validate() error.
func (b *builder) checkMethods(pkg *Package) {
	for _, f := range pkg.Forms {
		obj, _ := b.src.Types.Scope().Lookup(f.Name).(*types.TypeName)
		if obj == nil {
			continue
		}
		named, ok := types.Unalias(obj.Type()).(*types.Named)
		if !ok {
			continue
		}
		for i := 0; i < named.NumMethods(); i++ {
			m := named.Method(i)
			if m.Name() != "Validate" {
				continue
			}
			if _, ok := b.declaredByUser(m); ok {
				b.sink.errorf(b.pos(m.Pos()), "method %s.Validate clashes with the Validate method elicitgen generates for form %s (it checks every rule of the schema): rename yours, e.g. to Check (a form may not declare its own Validate)", f.Name, f.Name)
			}
		}
		st, ok := named.Underlying().(*types.Struct)
		if !ok {
			continue
		}
		for i := 0; i < st.NumFields(); i++ {
			if v := st.Field(i); v.Name() == "Validate" {
				b.sink.errorf(b.pos(v.Pos()), "field %s.Validate clashes with the Validate method elicitgen generates for form %s: rename the field (its json name can stay: json:\"validate\")", f.Name, f.Name)
			}
		}
	}
}

// checkImports reports package-level names that the generated file's
// imports would clash with: context, runtime and elicitimpl. (The other
// packages it imports, those of embedded structs, enums and guarded field
// types, are imported by the forms' own files too, where such a clash
// already fails to compile.)
func (b *builder) checkImports(pkg *Package) {
	if len(pkg.Forms) == 0 {
		return
	}
	for _, imp := range []struct{ name, path string }{{"context", "context"}, {"elicitimpl", ImplPath}, {"runtime", RuntimePath}} {
		obj := b.src.Types.Scope().Lookup(imp.name)
		if _, ok := b.declaredByUser(obj); ok {
			b.sink.errorf(b.pos(obj.Pos()), "%s is declared in package %s, but the generated %s imports %q as %s: rename yours", imp.name, pkg.Name, GoFile, imp.path, imp.name)
		}
	}
}
