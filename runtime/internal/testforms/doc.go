// Package testforms holds form types for the runtime's adapter tests, with
// the code elicitgen generates for them (elicit_gen.go). It is test-only
// support: nothing outside runtime imports it.
package testforms

//go:generate go run github.com/elicitgen/elicitgen/cmd/elicitgen
