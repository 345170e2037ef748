package gen

import (
	"go/token"

	"github.com/elicitgen/elicitgen/runtime"
)

// Package is the plain-data model of one Go package's forms. It holds no
// go/types values, so emitters and tests can build it from literals.
type Package struct {
	// Name and PkgPath identify the Go package.
	Name    string
	PkgPath string
	// Dir is the package directory, where generated files are written.
	Dir string `json:"-"`
	// Forms in source order.
	Forms []*Form
	// BuildConstraint is the //go:build expression of the files that
	// declare the forms ("" for none); the generated file repeats it.
	BuildConstraint string
	// HasGenerated reports whether the package, as loaded, compiles an
	// elicit_gen.go of ours (so one with no forms left is an orphan).
	HasGenerated bool `json:"-"`
	// Lang is the language of the forms' own text ("en" unless a file
	// says //elicit:lang TAG); Locales are the translation catalogs
	// (elicit.<tag>.json) beside the forms, by tag. See locale.go.
	Lang    string
	Locales []*Locale
	// Warnings are problems that do not stop generation, sorted: a title
	// or description that shows Go names to a person (warn.go), a
	// translation whose source text changed (locale.go).
	Warnings Diagnostics `json:"-"`
}

// Form is one struct type that becomes an elicitation form.
type Form struct {
	// Name is the Go type name.
	Name string
	Pos  token.Position `json:"-"`
	// Doc is the type's doc comment text (elicit: and go: directives
	// removed).
	Doc string
	// SourceFile is the base name of the file that declares the type.
	SourceFile string
	// Fields are the form's properties in declaration order, embedded
	// structs flattened.
	Fields []*Field
	// Guard describes the struct as generated, for the compile-time check.
	Guard *Struct
	// Embedded lists the embedded structs whose fields were flattened,
	// each guarded too.
	Embedded []*Struct
	// Enums lists the named enum types used, for the constant guard.
	Enums []*Enum
	// Args marks a tool's arguments struct: its properties are the
	// fields tagged ask, asked when the model leaves them out (args.go).
	Args bool
	// Checked says the type has the CheckElicit method of
	// runtime.FormChecker.
	Checked bool
}

// Schema returns the form's requestedSchema.
func (f *Form) Schema() *runtime.Schema {
	s := &runtime.Schema{Name: f.Name, Properties: make([]runtime.Property, len(f.Fields))}
	for i, fld := range f.Fields {
		s.Properties[i] = fld.Prop
	}
	return s
}

// GoKind says how a field's Go value is decoded, checked and encoded.
type GoKind uint8

// Go kinds of form fields.
const (
	GoString GoKind = iota + 1
	GoBool
	GoInt
	GoUint
	GoFloat
	GoTime
	GoMulti
)

// Field is one property of a form.
type Field struct {
	// Access is the selector path from the form value, e.g. "Branch" or
	// "Base.Branch" for a field of an embedded struct.
	Access []string
	Pos    token.Position `json:"-"`
	// GoKind and Pointer describe the Go value.
	GoKind  GoKind
	Pointer bool
	// Prop is the property as sent (name, kind, bounds, options...).
	Prop runtime.Property
}

// Struct is a struct type as it was when generated: the compile-time guard
// fails when the type no longer matches.
type Struct struct {
	// Name is the type's name in its package; PkgPath its import path.
	Name    string
	PkgPath string
	Fields  []StructField
}

// StructField is one field of a guarded struct.
type StructField struct {
	// Name is empty for an embedded field.
	Name string
	Type *TypeRef
	Tag  string
}

// TypeRef is a Go type expression, as plain data.
type TypeRef struct {
	// Kind is one of "name", "pointer", "slice", "array", "map", "chan",
	// "func", "struct", "interface" (empty interface only).
	Kind string `json:",omitempty"`
	// PkgPath and Name name a declared or predeclared type (Kind "name").
	PkgPath string `json:",omitempty"`
	Name    string `json:",omitempty"`
	// Args are type arguments (Kind "name").
	Args []*TypeRef `json:",omitempty"`
	// Elem is the element (pointer, slice, array, chan, map value).
	Elem *TypeRef `json:",omitempty"`
	// Key is a map's key type.
	Key *TypeRef `json:",omitempty"`
	// Len is an array's length.
	Len int64 `json:",omitempty"`
	// Dir is a channel's direction: 0 both, 1 send-only, 2 receive-only.
	Dir int `json:",omitempty"`
	// Params, Results and Variadic describe a func type.
	Params, Results []*TypeRef `json:",omitempty"`
	Variadic        bool       `json:",omitempty"`
	// Fields of an anonymous struct type.
	Fields []StructField `json:",omitempty"`
}

// Enum is a named string type whose constants are a form's options.
type Enum struct {
	PkgPath string
	Name    string
	// Consts are the constants' names, in declaration order.
	Consts []string
	// Values are the constants' values, parallel to Consts.
	Values []string
}
