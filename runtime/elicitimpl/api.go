package elicitimpl

import (
	"time"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/internal/core"
)

// Form ties a generated form type T to its schema and to the runtime's
// table-driven engine, which decodes, validates and encodes T through a
// per-form descriptor of field offsets. It is not generic: values travel
// as a *T in an interface, checked on every call. Generated code declares
// one per form with NewForm and calls its methods (Ask, Accept, Validate,
// Schema) from one-line wrappers.
type Form = core.Form

// NewForm returns the form of T, given a nil *T: s is its static schema
// and paths[i] the Go selector path ("Branch", "Base.Branch") of the field
// holding s.Properties[i].
func NewForm(nilPtr any, s *runtime.Schema, paths ...string) *Form {
	return core.NewForm(nilPtr, s, paths...)
}

// Errors accumulates field errors. The zero value is ready to use and
// allocates nothing until an error is added.
type Errors = core.Errors

// CheckString checks a string value against p: length bounds (in
// characters), format and enum membership.
func CheckString(errs *Errors, p *runtime.Property, v string) {
	core.CheckString(errs, p, v)
}

// CheckNumber checks a number against p's minimum and maximum.
func CheckNumber(errs *Errors, p *runtime.Property, v float64) {
	core.CheckNumber(errs, p, v)
}

// CheckMulti checks a multi-select value: the item count bounds first,
// then membership and no repeated item, in time linear in the items. It
// reports whether v is valid.
func CheckMulti(errs *Errors, p *runtime.Property, v []string) bool {
	return core.CheckMulti(errs, p, v)
}

// CheckFormat reports whether v is valid in format ("email", "uri",
// "date" or "date-time"); an unknown format accepts every value.
func CheckFormat(format, v string) bool {
	return core.CheckFormat(format, v)
}

// ParseTime parses s as a "date" (YYYY-MM-DD, UTC) or, for any other
// format, an RFC 3339 date-time.
func ParseTime(format, s string) (time.Time, error) {
	return core.ParseTime(format, s)
}

// FormatTime writes t as a "date" or an RFC 3339 date-time.
func FormatTime(format string, t time.Time) string {
	return core.FormatTime(format, t)
}

// Ptr returns a pointer to v; generated schemas use it for bounds.
func Ptr[T any](v T) *T {
	return core.Ptr[T](v)
}

// Locale is one form's text in one language, translated from an
// elicit.<tag>.json catalog beside the form. Generated code attaches the
// locales of a form to its Form; an entry without Props names the
// language the form's own text is written in (the source language).
type Locale = core.Locale

// PropText is one property's text in one language. An empty Title or
// Description keeps the source text; Options map option values (which
// never change) to translated titles.
type PropText = core.PropText
