package gen

import (
	"go/types"
)

// typeRef turns t into plain data, or nil when t cannot be written in the
// generated file (an unexported type of another package, an interface with
// methods...).
func typeRef(from *types.Package, t types.Type) *TypeRef {
	switch t := t.(type) {
	case *types.Alias:
		return typeRef(from, types.Unalias(t))
	case *types.Basic:
		if t.Kind() == types.UnsafePointer {
			return &TypeRef{Kind: "name", PkgPath: "unsafe", Name: "Pointer"}
		}
		return &TypeRef{Kind: "name", Name: t.Name()}
	case *types.Named:
		obj := t.Obj()
		r := &TypeRef{Kind: "name", Name: obj.Name()}
		if obj.Pkg() != nil {
			if obj.Pkg() != from && !obj.Exported() {
				return nil
			}
			r.PkgPath = obj.Pkg().Path()
		} else if obj.Name() != "error" && obj.Name() != "comparable" {
			return nil
		}
		if t.Obj().Parent() != nil && t.Obj().Parent() != t.Obj().Pkg().Scope() && obj.Pkg() != nil {
			return nil // a local type cannot be named at package level
		}
		if args := t.TypeArgs(); args != nil {
			for i := 0; i < args.Len(); i++ {
				a := typeRef(from, args.At(i))
				if a == nil {
					return nil
				}
				r.Args = append(r.Args, a)
			}
		}
		return r
	case *types.Pointer:
		return wrap("pointer", typeRef(from, t.Elem()))
	case *types.Slice:
		return wrap("slice", typeRef(from, t.Elem()))
	case *types.Array:
		r := wrap("array", typeRef(from, t.Elem()))
		if r != nil {
			r.Len = t.Len()
		}
		return r
	case *types.Map:
		k, v := typeRef(from, t.Key()), typeRef(from, t.Elem())
		if k == nil || v == nil {
			return nil
		}
		return &TypeRef{Kind: "map", Key: k, Elem: v}
	case *types.Chan:
		r := wrap("chan", typeRef(from, t.Elem()))
		if r != nil {
			switch t.Dir() {
			case types.SendOnly:
				r.Dir = 1
			case types.RecvOnly:
				r.Dir = 2
			}
		}
		return r
	case *types.Signature:
		if t.TypeParams() != nil || t.Recv() != nil {
			return nil
		}
		r := &TypeRef{Kind: "func", Variadic: t.Variadic()}
		for i := 0; i < t.Params().Len(); i++ {
			p := typeRef(from, t.Params().At(i).Type())
			if p == nil {
				return nil
			}
			r.Params = append(r.Params, p)
		}
		for i := 0; i < t.Results().Len(); i++ {
			p := typeRef(from, t.Results().At(i).Type())
			if p == nil {
				return nil
			}
			r.Results = append(r.Results, p)
		}
		return r
	case *types.Struct:
		r := &TypeRef{Kind: "struct"}
		for i := 0; i < t.NumFields(); i++ {
			f := t.Field(i)
			if !f.Exported() && f.Pkg() != from {
				return nil
			}
			ft := typeRef(from, f.Type())
			if ft == nil {
				return nil
			}
			sf := StructField{Name: f.Name(), Type: ft, Tag: t.Tag(i)}
			if f.Embedded() {
				sf.Name = ""
			}
			r.Fields = append(r.Fields, sf)
		}
		return r
	case *types.Interface:
		if t.NumMethods() == 0 && t.NumEmbeddeds() == 0 {
			return &TypeRef{Kind: "interface"}
		}
	}
	return nil
}

func wrap(kind string, elem *TypeRef) *TypeRef {
	if elem == nil {
		return nil
	}
	return &TypeRef{Kind: kind, Elem: elem}
}
