package main

import (
	"strings"
	"testing"
)

const argsForm = `package forms

// BookArgs are the arguments of book_table.
type BookArgs struct {
	Restaurant string ` + "`json:\"restaurant\"`" + `
	// The date to book.
	Date string ` + "`json:\"date,omitempty\" elicit:\"ask,format=date\"`" + `
}

// Deploy approves a deploy.
type Deploy struct {
	Branch string ` + "`json:\"branch\" elicit:\"minLength=1\"`" + `
}
`

// docs and schema show a tool's arguments struct as what it is: asked
// only for what the model left out.
func TestArgumentsStructInDocsAndSchema(t *testing.T) {
	newPkg(t, argsForm)
	stdout, stderr, code := runCLI("docs")
	if code != 0 {
		t.Fatalf("docs: exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"| 1 (tool arguments, asked when missing) |",
		"asked of the person only when the model left it out",
		"`AskMissingBookArgs`",
		"| `date` |  | string (`string`) | when missing |",
		"| 1 (1 required) |", // Deploy stays an ordinary form
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("docs output lacks %q:\n%s", want, stdout)
		}
	}
	stdout, stderr, code = runCLI("schema")
	if code != 0 {
		t.Fatalf("schema: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "BookArgs is a tool's arguments struct") || strings.Contains(stderr, "Deploy") {
		t.Errorf("schema's stderr: %q", stderr)
	}
	if !strings.Contains(stdout, `"BookArgs"`) {
		t.Errorf("schema left the arguments struct out:\n%s", stdout)
	}
}
