package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/elicitgen/elicitgen/gen"
)

// sayNoForms tells w when none of the packages a generate run loaded has
// a form, so that a //go:generate line in a package without forms does not
// pass in silence: it names the packages and what makes a form.
func sayNoForms(w io.Writer, res *gen.Result) {
	var names []string
	for _, p := range res.Packages {
		if len(p.Forms) > 0 {
			return
		}
		names = append(names, p.PkgPath)
	}
	if len(names) == 0 {
		return
	}
	what := "nothing generated"
	if len(res.Orphans) > 0 {
		what = "removing the generated files left from earlier forms"
	}
	fmt.Fprintf(w, "elicitgen: no forms in %s: %s (a form is a struct with a field tagged elicit:\"...\", or a struct whose doc comment has the line //elicit:form)\n", strings.Join(names, ", "), what)
}
