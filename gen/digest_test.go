package gen

import (
	"reflect"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
)

// fullModel returns a package whose every model field is set.
func fullModel() *Package {
	leaf := func() *TypeRef { return &TypeRef{Kind: "name", PkgPath: "p", Name: "T"} }
	full := func() *TypeRef {
		return &TypeRef{
			Kind: "func", PkgPath: "q", Name: "N", Args: []*TypeRef{leaf()}, Elem: leaf(), Key: leaf(),
			Len: 3, Dir: 1, Params: []*TypeRef{leaf()}, Results: []*TypeRef{leaf()}, Variadic: true,
			Fields: []StructField{{Name: "F", Type: leaf(), Tag: `json:"f"`}},
		}
	}
	st := &Struct{Name: "S", PkgPath: "p", Fields: []StructField{{Name: "A", Type: full(), Tag: "t"}}}
	return &Package{
		Name: "p", PkgPath: "example.com/p", Dir: "/d", BuildConstraint: "linux", HasGenerated: true,
		Lang: "en", Locales: []*Locale{{Tag: "ja", File: "/d/elicit.ja.json", Forms: []*FormLocale{{Form: "F", Props: []*PropLocale{{
			Prop: "a", Title: "タ", Description: "説", Options: []runtime.Option{{Value: "v", Title: "ブイ"}},
		}}}}}},
		Forms: []*Form{{
			Name: "F", Doc: "doc", SourceFile: "f.go", Guard: st,
			Embedded: []*Struct{{Name: "E", PkgPath: "p", Fields: []StructField{{Name: "B", Type: full(), Tag: "u"}}}},
			Enums:    []*Enum{{PkgPath: "p", Name: "Env", Consts: []string{"A"}, Values: []string{"a"}}},
			Fields: []*Field{{
				Access: []string{"A"}, GoKind: GoString, Pointer: true,
				Prop: runtime.Property{
					Name: "a", Kind: runtime.KindEnum, Title: "t", Description: "d", Required: true,
					MinLength: ptrTo(1), MaxLength: ptrTo(2), Format: "email",
					Minimum: ptrTo(1.0), Maximum: ptrTo(2.0),
					Options: []runtime.Option{{Value: "v", Title: "T"}}, Style: runtime.EnumTitled, Dynamic: true,
					MinItems: ptrTo(1), MaxItems: ptrTo(2), Default: "v",
					Pattern: "^v$", PatternMessage: "the letter v", Confirm: true,
				},
			}},
		}},
	}
}

func digestOf(p *Package) string {
	d := newDigest()
	d.pkg(p)
	return d.sum()
}

// TestDigestCoversModel changes every field of the model in turn (all
// but those tagged json:"-", which the output does not depend on) and
// checks that the cache key changes each time.
func TestDigestCoversModel(t *testing.T) {
	p := fullModel()
	base := digestOf(p)
	n := 0
	var walk func(v reflect.Value, path string, refs int)
	typeRefType := reflect.TypeFor[TypeRef]()
	check := func(path string, mutate, restore func()) {
		mutate()
		if digestOf(p) == base {
			t.Errorf("changing %s does not change the cache key", path)
		}
		restore()
		if digestOf(p) != base {
			t.Fatalf("restoring %s did not restore the key", path)
		}
		n++
	}
	// refs counts the TypeRefs on the way: below the first one (the
	// leaves of fullModel's type) empty values are fine.
	walk = func(v reflect.Value, path string, refs int) {
		if v.Type() == typeRefType {
			refs++
		}
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() {
				if refs > 1 {
					return
				}
				t.Fatalf("%s is nil in fullModel", path)
			}
			old := v.Elem()
			if v.Type().Elem().Kind() != reflect.Struct {
				saved := reflect.ValueOf(v.Interface())
				check(path+"=nil", func() { v.Set(reflect.Zero(v.Type())) }, func() { v.Set(saved) })
			}
			walk(old, path, refs)
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				f := v.Type().Field(i)
				if !f.IsExported() || f.Tag.Get("json") == "-" || f.Type.PkgPath() == "go/token" {
					continue
				}
				walk(v.Field(i), path+"."+f.Name, refs)
			}
		case reflect.Slice:
			if v.Len() == 0 {
				if refs > 1 {
					return
				}
				t.Fatalf("%s is empty in fullModel", path)
			}
			saved := reflect.ValueOf(v.Interface())
			check(path+"[:0]", func() { v.Set(v.Slice(0, 0)) }, func() { v.Set(saved) })
			walk(v.Index(0), path+"[0]", refs)
		case reflect.Interface:
			saved := reflect.ValueOf(v.Interface())
			check(path+"=other", func() { v.Set(reflect.ValueOf("other")) }, func() { v.Set(saved) })
		case reflect.String:
			s := v.String()
			check(path, func() { v.SetString(s + "x") }, func() { v.SetString(s) })
		case reflect.Bool:
			b := v.Bool()
			check(path, func() { v.SetBool(!b) }, func() { v.SetBool(b) })
		case reflect.Int, reflect.Int64:
			i := v.Int()
			check(path, func() { v.SetInt(i + 1) }, func() { v.SetInt(i) })
		case reflect.Uint8:
			u := v.Uint()
			check(path, func() { v.SetUint(u + 1) }, func() { v.SetUint(u) })
		case reflect.Float64:
			f := v.Float()
			check(path, func() { v.SetFloat(f + 1) }, func() { v.SetFloat(f) })
		default:
			t.Fatalf("%s: kind %s not handled by the test", path, v.Kind())
		}
	}
	walk(reflect.ValueOf(p), "Package", 0)
	if n < 60 {
		t.Fatalf("only %d fields checked", n)
	}
	// The fields the output does not depend on are left out.
	p.Dir, p.HasGenerated = "/elsewhere", false
	p.Forms[0].Pos.Line = 99
	if digestOf(p) != base {
		t.Fatal("Dir, HasGenerated or Pos changed the cache key")
	}
}
func ptrTo[T any](v T) *T { return &v }
