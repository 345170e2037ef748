package gen

import (
	"go/token"
	"unicode"
	"unicode/utf8"
)

// Names are the identifiers generated for one form type. Exported form
// types get the exported API of the contract (AskT, AcceptT, DeclineT,
// CancelT, TSchema); an unexported type t gets the same names unexported
// (askT, acceptT, declineT, cancelT, tSchema). Descriptor is the
// unexported variable holding the form's descriptor, elicitFormT, which
// the API calls.
type Names struct {
	SchemaFunc, Ask, Accept, Decline, Cancel string
	Descriptor                               string
}

// NamesOf returns the generated names for form type typeName.
func NamesOf(typeName string) Names {
	exported := token.IsExported(typeName)
	api := func(prefix string) string {
		if exported {
			return prefix + typeName
		}
		return prefix + upperFirst(typeName)
	}
	n := Names{
		SchemaFunc: typeName + "Schema",
		Ask:        api("Ask"),
		Accept:     api("Accept"),
		Decline:    api("Decline"),
		Cancel:     api("Cancel"),
		Descriptor: formVar(typeName),
	}
	if !exported {
		n.Ask, n.Accept, n.Decline, n.Cancel = lowerFirst(n.Ask), lowerFirst(n.Accept), lowerFirst(n.Decline), lowerFirst(n.Cancel)
	}
	return n
}

// formVar returns the name of the descriptor of form type t, a
// package-level variable of the generated file. Its name holds the form's
// own, never its position, so that adding a form changes no other form's
// code; no other form's generated names can be it (they start with Ask,
// Accept, Decline, Cancel or end with Schema), and the user's declaration
// of it is reported (checkNames).
func formVar(t string) string { return "elicitForm" + t }

// guardSuffix ends the name of each guard type alias:
// _T_changed_since_elicitgen_ran_run_go_generate, so that the compiler's
// error says what to do.
const guardSuffix = "_changed_since_elicitgen_ran_run_go_generate"

// guardName returns the name of the guard type alias of struct name.
func guardName(name string) string { return "_" + name + guardSuffix }

// list returns every generated top-level name.
func (n Names) list() []string {
	return []string{n.SchemaFunc, n.Ask, n.Accept, n.Decline, n.Cancel, n.Descriptor}
}

func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

func lowerFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToLower(r)) + s[n:]
}
