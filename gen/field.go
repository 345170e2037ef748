package gen

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/elicitgen/elicitgen/runtime"
)

// The field pass: each exported field of a form (embedded structs
// flattened) becomes a property; its Go type gives the kind, then its tag
// options are applied by the passes of check.go.

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
	cur   *types.Struct // the struct whose fields are being read (the form's, or one it embeds)
	names map[string]*Field
	enums map[string]bool
	seen  map[*types.Struct]bool
}

// fields appends the form fields of st (recursing into embedded structs).
func (b *builder) fields(fs *formState, st *types.Struct, path []string) {
	f := fs.form
	outer := fs.cur
	fs.cur = st
	defer func() { fs.cur = outer }()
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

// nestedHint says how to ask for the fields of v, a field of a nested
// struct type, with a change that compiles: embedding the struct, without
// a field name or tag (with one, encoding/json nests it), where that
// declares no field twice; declaring an unnamed struct as a type first;
// and, where another field of the struct has the embedded name or the
// same type (Home, Work Address), declaring the fields asked for in the
// struct itself.
func (b *builder) nestedHint(fs *formState, v *types.Var) string {
	t := types.Unalias(v.Type())
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	tn := typeName(b.src.Types, t)
	named, ok := t.(*types.Named)
	if !ok {
		decl := fs.form.Name + upperFirst(v.Name())
		return fmt.Sprintf("to ask for its fields, declare the struct as a type (type %s %s) and embed it: write %s alone, without a field name or tag, in place of field %s", decl, tn, decl, v.Name())
	}
	if v.Embedded() {
		return fmt.Sprintf("an embedded struct with a json name or an elicit tag stays nested: to ask for its fields, write %s alone, without a tag, so they flatten into the form", tn)
	}
	name := named.Obj().Name()
	if fs.cur != nil {
		for i := 0; i < fs.cur.NumFields(); i++ {
			o := fs.cur.Field(i)
			if o == v {
				continue
			}
			ot := types.Unalias(o.Type())
			if p, ok := ot.(*types.Pointer); ok {
				ot = types.Unalias(p.Elem())
			}
			switch {
			case types.Identical(ot, t):
				return fmt.Sprintf("it cannot be embedded, since field %s has the same type and a struct embeds a type once: to ask for the fields of %s, declare them as fields of the struct (for example %s%s)", o.Name(), v.Name(), v.Name(), firstFieldName(t))
			case o.Name() == name:
				return fmt.Sprintf("embedding it would declare a second field named %s: rename field %s, then write %s alone, without a field name or tag, in place of field %s, so its fields flatten into the form", name, name, tn, v.Name())
			}
		}
	}
	return fmt.Sprintf("to ask for its fields, embed it: write %s alone, without a field name or tag, in place of field %s, so they flatten into the form", tn, v.Name())
}

// firstFieldName returns the name of the first exported field of struct
// type t, or "Field".
func firstFieldName(t types.Type) string {
	if st, ok := t.Underlying().(*types.Struct); ok {
		for i := 0; i < st.NumFields(); i++ {
			if st.Field(i).Exported() {
				return st.Field(i).Name()
			}
		}
	}
	return "Field"
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
			b.sink.errorf(fpos, "field %s is a pointer to a struct (%s): MCP forms are flat objects of strings, numbers, booleans and enums; %s; or tag the field elicit:\"-\" to leave it out", v.Name(), typeName(b.src.Types, v.Type()), b.nestedHint(fs, v))
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
		for _, w := range spacedOptions(raw, opts) {
			b.warnf(b.tagPos(astField, v, w.Offset), "%s", w.Msg)
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
	const skip = "; to keep the field out of the form, tag it elicit:\"-\""
	bad := func(what, fix string) bool {
		b.sink.errorf(fld.Pos, "field %s has type %s, %s: MCP forms are flat objects of strings, numbers, booleans, enums and multi-select enums; %s%s", v.Name(), typeName(b.src.Types, v.Type()), what, fix, skip)
		return false
	}
	const basic = "use string, bool, an integer or float type, time.Time, or a named string type with constants"
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
			return bad("which MCP cannot express", basic)
		}
		return true
	case *types.Slice:
		elem := types.Unalias(u.Elem())
		eb, ok := elem.Underlying().(*types.Basic)
		if !ok || eb.Info()&types.IsString == 0 {
			return bad("a slice of something other than strings", fmt.Sprintf("a multi-select answers with strings: use []string with enum=a|b|c (or a slice of a named string type with constants) and convert the chosen values, or one %s field per value", typeName(b.src.Types, elem)))
		}
		fld.GoKind, p.Kind = GoMulti, runtime.KindMulti
		if named, ok := elem.(*types.Named); ok {
			if e := b.enum(named); e != nil {
				b.useEnum(fs, e, p)
			}
		}
		return true
	case *types.Struct:
		b.sink.errorf(fld.Pos, "field %s has type %s, a nested struct: MCP forms are flat objects; %s", v.Name(), typeName(b.src.Types, v.Type()), b.nestedHint(fs, v))
		return false
	case *types.Map:
		return bad("a map", "declare one field per key you ask for, or, for a set of choices, a []string with enum=a|b|c")
	case *types.Interface:
		return bad("an interface", "give the field the concrete type of the answer: "+basic)
	case *types.Chan:
		return bad("a channel", "a person cannot answer one")
	case *types.Signature:
		return bad("a func", "a person cannot answer one")
	case *types.Array:
		return bad("an array", "use a []string with enum=a|b|c for a multi-select, or one field per element")
	}
	return bad("which MCP cannot express", basic)
}
