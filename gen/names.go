package gen

import (
	"go/token"
	"unicode"
	"unicode/utf8"
)

// Names are the identifiers generated for one form type. Exported form
// types get the exported API of the contract (AskT, AcceptT, DeclineT,
// CancelT, TSchema); an unexported type t gets the same names unexported
// (askT, acceptT, declineT, cancelT, tSchema). Internal names start with
// "elicit" so they cannot meet the user's own.
type Names struct {
	SchemaFunc, Ask, Accept, Decline, Cancel string
	FormVar                                  string
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
		FormVar:    "elicitForm" + typeName,
	}
	if !exported {
		n.Ask, n.Accept, n.Decline, n.Cancel = lowerFirst(n.Ask), lowerFirst(n.Accept), lowerFirst(n.Decline), lowerFirst(n.Cancel)
	}
	return n
}

// descriptorsVar is the generated list of the package's descriptors. No
// form's names can be it: each form's own internal name starts with
// "elicitForm".
const descriptorsVar = "elicitDescriptors"

// guardSuffix ends the name of each guard type alias:
// _T_changed_since_elicitgen_ran_run_go_generate, so that the compiler's
// error says what to do.
const guardSuffix = "_changed_since_elicitgen_ran_run_go_generate"

// guardName returns the name of the guard type alias of struct name.
func guardName(name string) string { return "_" + name + guardSuffix }

// list returns every generated top-level name.
func (n Names) list() []string {
	return []string{n.SchemaFunc, n.Ask, n.Accept, n.Decline, n.Cancel, n.FormVar}
}

func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

func lowerFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToLower(r)) + s[n:]
}
