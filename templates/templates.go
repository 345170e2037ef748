// Package templates holds the text/template sources elicitgen renders for
// its non-Go outputs, such as the Markdown catalog of `elicitgen docs`,
// and the html/template source of the hosted form page (package
// runtime/page).
//
// The templates only lay out data: every decision (ordering, escaping,
// wording of bounds and defaults) is made in Go by the package gen (or
// runtime/page), which builds the view model each template names on its
// first line.
package templates

import "embed"

// FS holds every *.tmpl file of this directory.
//
//go:embed *.tmpl
var FS embed.FS

// Page holds page.html, the html/template of the hosted form page,
// page.css, its style sheet (inlined, allowed by its hash in the page's
// Content-Security-Policy), and stepup.js, the script of a page with a
// passkey step-up (served beside the page).
//
//go:embed page.html page.css stepup.js
var Page embed.FS
