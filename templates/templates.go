// Package templates holds the text/template sources elicitgen renders for
// its non-Go outputs, such as the Markdown catalog of `elicitgen docs`.
//
// The templates only lay out data: every decision (ordering, escaping,
// wording of bounds and defaults) is made in Go by the package gen, which
// builds the view model each template names on its first line.
package templates

import "embed"

// FS holds every *.tmpl file of this directory.
//
//go:embed *.tmpl
var FS embed.FS
