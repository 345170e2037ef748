package elicitimpl

import "github.com/elicitgen/elicitgen/runtime"

// Locale is one form's text in one language.
type Locale = runtime.Locale

// PropText is one property's text in one language.
type PropText = runtime.PropText

// Decline is the client-side answer that declines a form; every form's
// DeclineT returns it. It is not inlined: a call compiles to less than the
// allocation it makes, once per form (see BENCHMARKS.md).
//
//go:noinline
func Decline() *runtime.Response { return &runtime.Response{Action: runtime.ActionDecline} }

// Cancel is the client-side answer that dismisses a form; every form's
// CancelT returns it. Not inlined, as Decline.
//
//go:noinline
func Cancel() *runtime.Response { return &runtime.Response{Action: runtime.ActionCancel} }
