// Package forms holds every question the example server asks a person, as
// plain Go structs tagged for elicitgen, with the code elicitgen generated
// for them: typed AskT / AcceptT / DeclineT / CancelT functions
// (elicit_gen.go) and the byte-stable requestedSchema of each form
// (elicit_gen.json). FORMS.md is the reviewer's catalog of every question,
// written by elicitgen docs.
//
// forms.go has the forms of the example's tools; conformance.go has the
// fixture forms of the official MCP conformance suites, whose property
// names, types, defaults and titles the suites check exactly.
//
// Regenerate after changing a form, from the repository root:
//
//	go generate ./example/forms
package forms

//go:generate go run github.com/elicitgen/elicitgen/cmd/elicitgen
//go:generate go run github.com/elicitgen/elicitgen/cmd/elicitgen docs -o FORMS.md
