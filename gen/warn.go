package gen

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Go names shown to people. A title or description is read by the person
// answering, but it is often a Go doc comment: "TryAnotherDate looks for
// another date", "Confirmed acknowledges the risk". Such text is not
// wrong, so it is a warning (Package.Warnings), not an error: the
// generator still writes its files.

// goNames returns the identifiers that read as Go, not as words: the
// exported CamelCase names of the package scope and the CamelCase field
// names of its structs (TryAnotherDate, DryRun; not Branch or OK).
func (b *builder) goNames() map[string]bool {
	if b.camel != nil {
		return b.camel
	}
	b.camel = map[string]bool{}
	scope := b.src.Types.Scope()
	for _, n := range scope.Names() {
		if token.IsExported(n) && isCamel(n) {
			b.camel[n] = true
		}
	}
	for _, fld := range b.docs {
		for _, id := range fld.Names {
			if isCamel(id.Name) {
				b.camel[id.Name] = true
			}
		}
	}
	return b.camel
}

// isCamel reports whether name joins two or more words the Go way
// (TryAnotherDate, APIKey, dryRun).
func isCamel(name string) bool {
	return !strings.ContainsAny(name, "_") && len(splitWords(name)) >= 2
}

// goText returns why text shows Go to a person, or "": it holds one of
// names, or it starts with name (the field's or constant's Go name)
// followed by a verb in the third person ("Approved sends the campaign"),
// the shape of a Go doc comment.
func goText(text, name string, names map[string]bool) string {
	words := identWords(text)
	for _, w := range words {
		if names[w] || (w == name && isCamel(name)) {
			return "shows the Go name " + w + " to the person answering"
		}
	}
	if len(words) >= 2 && words[0] == name && strings.HasPrefix(text, name+" ") && isVerbS(words[1]) {
		return "reads as Go documentation (" + name + " " + words[1] + " ...), and the person answering sees it"
	}
	return ""
}

// isVerbS reports whether w looks like a lower-case verb in the third
// person singular: sends, confirms, looks (not "is", handled by the
// doc-comment rewrite, nor "class").
func isVerbS(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return len(w) > 2 && unicode.IsLower(r) && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss")
}

// identWords splits text into its identifier-like words.
func identWords(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_')
	})
}

// warnf records a warning at pos.
func (b *builder) warnf(pos token.Position, format string, args ...any) {
	b.warnings = append(b.warnings, Diagnostic{Pos: pos, Msg: "warning: " + fmt.Sprintf(format, args...)})
}

// warnGoText warns when the field's title or description shows Go to the
// person answering, at the tag option that set it, else at the comment.
func (o *fieldOpts) warnGoText() {
	p, name := &o.fld.Prop, o.v.Name()
	names := o.b.goNames()
	if t, ok := o.opts.get("title"); ok {
		if why := goText(p.Title, name, names); why != "" {
			o.b.warnf(o.at(t), "title of %s %s: %q; write it for the person in title=", name, why, p.Title)
		}
	}
	if p.Description == "" {
		return
	}
	why := goText(p.Description, name, names)
	if why == "" {
		return
	}
	if t, ok := o.opts.get("desc"); ok {
		o.b.warnf(o.at(t), "description of %s %s: %q; write it for the person in desc=", name, why, p.Description)
		return
	}
	pos := o.fld.Pos
	if o.field != nil {
		if cg := docComment(o.field); cg != nil {
			pos = o.b.pos(cg.Pos())
		}
	}
	o.b.warnf(pos, "description of %s %s: %q; write the doc comment for the person, or set desc= in the elicit tag", name, why, p.Description)
}

// docComment returns the comment a field's description comes from.
func docComment(f *ast.Field) *ast.CommentGroup {
	if f.Doc != nil && strings.TrimSpace(commentText(f.Doc)) != "" {
		return f.Doc
	}
	return f.Comment
}

// warnOptionTitle warns when a constant's title (its comment) shows Go
// to the person answering.
func (b *builder) warnOptionTitle(pos token.Position, constName, title string) {
	if why := goText(title, constName, b.goNames()); why != "" {
		b.warnf(pos, "title of option %s %s: %q; write the constant's comment for the person", constName, why, title)
	}
}
