package elicitimpl

import (
	"context"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/internal/core"
)

// Ask asks the form f through a and returns the typed outcome. Only an
// accept whose content decodes and validates yields a value; an invalid
// answer is a *ValidationError, an unknown action ErrInvalidAction, and
// an Asker failure is returned wrapped.
func Ask[T any](ctx context.Context, a runtime.Asker, f *Form[T], message string, opts ...runtime.AskOption) (runtime.Outcome[T], error) {
	return core.Ask[T](ctx, a, f, message, opts...)
}

// CheckFloat checks a float against p's bounds.
func CheckFloat[F ~float32 | ~float64](errs *Errors, p *runtime.Property, v F) {
	core.CheckFloat[F](errs, p, v)
}

// CheckFormat reports whether v is valid in format ("email", "uri",
// "date" or "date-time"); an unknown format accepts every value.
func CheckFormat(format, v string) bool {
	return core.CheckFormat(format, v)
}

// CheckInt checks a signed integer against p's bounds.
func CheckInt[I ~int | ~int8 | ~int16 | ~int32 | ~int64](errs *Errors, p *runtime.Property, v I) {
	core.CheckInt[I](errs, p, v)
}

// CheckMulti checks a multi-select value: item count bounds, membership
// and no repeated item.
func CheckMulti[S ~string](errs *Errors, p *runtime.Property, v []S) {
	core.CheckMulti[S](errs, p, v)
}

// CheckNumber checks a number against p's minimum and maximum.
func CheckNumber(errs *Errors, p *runtime.Property, v float64) {
	core.CheckNumber(errs, p, v)
}

// CheckString checks a string value against p: length bounds (in
// characters), format and enum membership.
func CheckString(errs *Errors, p *runtime.Property, v string) {
	core.CheckString(errs, p, v)
}

// CheckUint checks an unsigned integer against p's bounds.
func CheckUint[I ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr](errs *Errors, p *runtime.Property, v I) {
	core.CheckUint[I](errs, p, v)
}

// DecodeBool decodes property i into dst.
func DecodeBool[B ~bool](d *Decoder, i int, dst *B) {
	core.DecodeBool[B](d, i, dst)
}

// DecodeBoolPtr decodes optional property i into *dst.
func DecodeBoolPtr[B ~bool](d *Decoder, i int, dst **B) {
	core.DecodeBoolPtr[B](d, i, dst)
}

// DecodeFloat decodes property i into dst.
func DecodeFloat[F ~float32 | ~float64](d *Decoder, i int, dst *F) {
	core.DecodeFloat[F](d, i, dst)
}

// DecodeFloatPtr decodes optional property i into *dst.
func DecodeFloatPtr[F ~float32 | ~float64](d *Decoder, i int, dst **F) {
	core.DecodeFloatPtr[F](d, i, dst)
}

// DecodeInt decodes property i into dst, rejecting fractions and values
// outside the range of I.
func DecodeInt[I Integer](d *Decoder, i int, dst *I) {
	core.DecodeInt[I](d, i, dst)
}

// DecodeIntPtr decodes optional property i into *dst.
func DecodeIntPtr[I Integer](d *Decoder, i int, dst **I) {
	core.DecodeIntPtr[I](d, i, dst)
}

// DecodeMulti decodes multi-select property i into dst.
func DecodeMulti[S ~string](d *Decoder, i int, dst *[]S) {
	core.DecodeMulti[S](d, i, dst)
}

// DecodeString decodes property i into dst. An omitted optional field
// gets the schema default, if any.
func DecodeString[S ~string](d *Decoder, i int, dst *S) {
	core.DecodeString[S](d, i, dst)
}

// DecodeStringPtr decodes optional property i into *dst (nil when omitted
// and without default).
func DecodeStringPtr[S ~string](d *Decoder, i int, dst **S) {
	core.DecodeStringPtr[S](d, i, dst)
}

// DecodeTime decodes property i (format date-time or date) into dst.
func DecodeTime(d *Decoder, i int, dst *time.Time) {
	core.DecodeTime(d, i, dst)
}

// DecodeTimePtr decodes optional property i into *dst.
func DecodeTimePtr(d *Decoder, i int, dst **time.Time) {
	core.DecodeTimePtr(d, i, dst)
}

// Decoder decodes a client's accepted content into a form value, one
// property at a time, recording every problem. Generated code creates one
// with NewDecoder, calls a Decode function per field (by property index),
// then Finish.
type Decoder = core.Decoder

// Errors accumulates field errors. The zero value is ready to use and
// allocates nothing until an error is added.
type Errors = core.Errors

// Form ties a generated form type T to its schema and codec. Generated
// code defines one per form; users rarely touch it.
type Form[T any] = core.Form[T]

// FormatTime writes t as a "date" or an RFC 3339 date-time.
func FormatTime(format string, t time.Time) string {
	return core.FormatTime(format, t)
}

// Integer is every Go integer type.
type Integer = core.Integer

// NewDecoder returns a decoder of content against s.
func NewDecoder(s *runtime.Schema, content map[string]any) Decoder {
	return core.NewDecoder(s, content)
}

// ParseTime parses s as a "date" (YYYY-MM-DD, UTC) or, for any other
// format, an RFC 3339 date-time.
func ParseTime(format, s string) (time.Time, error) {
	return core.ParseTime(format, s)
}

// Ptr returns a pointer to v; generated schemas use it for bounds.
func Ptr[T any](v T) *T {
	return core.Ptr[T](v)
}

// Strings converts a multi-select value to []string for encoding.
func Strings[S ~string](v []S) []string {
	return core.Strings[S](v)
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
