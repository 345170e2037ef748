package gen

import (
	"go/ast"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Comments as text for a person: a field's doc comment is its
// description, whitespace-folded and otherwise as written.

// stripSubject turns a Go doc comment that starts with the field's name
// followed by "is" or "are" into text for a person: "Branch is the git
// branch to deploy." becomes "The git branch to deploy.". Any other
// comment is the author's words and stays as written: "Branch to
// deploy." is kept whole.
func stripSubject(desc, name string) string {
	rest, ok := strings.CutPrefix(desc, name+" ")
	if !ok {
		return desc
	}
	for _, verb := range []string{"is ", "are "} {
		if r, ok := strings.CutPrefix(rest, verb); ok && r != "" {
			c, n := utf8.DecodeRuneInString(r)
			return string(unicode.ToUpper(c)) + r[n:]
		}
	}
	return desc
}

func commentText(cg *ast.CommentGroup) string {
	if cg == nil {
		return ""
	}
	var lines []string
	for _, line := range strings.Split(cg.Text(), "\n") {
		if strings.HasPrefix(line, "elicit:") || strings.HasPrefix(line, "go:") {
			continue
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

func foldSpace(s string) string { return strings.Join(strings.Fields(s), " ") }
