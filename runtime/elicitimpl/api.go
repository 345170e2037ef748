package elicitimpl

import "github.com/elicitgen/elicitgen/runtime"

// Form is the compiled form of a generated struct type.
type Form = runtime.Form

// NewForm returns the form of T, given a nil *T: s is its static schema
// and paths[i] the Go selector path ("Branch", "Base.Branch") of the
// field holding s.Properties[i].
func NewForm(nilPtr any, s *runtime.Schema, paths ...string) *Form {
	return runtime.NewForm(nilPtr, s, paths...)
}

// Locale is one form's text in one language.
type Locale = runtime.Locale

// PropText is one property's text in one language.
type PropText = runtime.PropText

// Ptr returns a pointer to v; generated schemas use it for bounds.
func Ptr[T any](v T) *T { return &v }
