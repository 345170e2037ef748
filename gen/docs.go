package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/doc"
	"go/doc/comment"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"text/template"
	"unicode"

	"github.com/elicitgen/elicitgen/templates"
)

// docsTemplateName is the embedded default template of the docs catalog.
const docsTemplateName = "docs.md.tmpl"

// defaultDocs is the embedded catalog template, parsed once.
var defaultDocs = template.Must(template.New(docsTemplateName).Option("missingkey=error").ParseFS(templates.FS, docsTemplateName))

// DocsCatalog is the view model of the docs catalog, the data a docs
// template renders (its first line names this type). Every decision is
// made here, in Go: the order of forms, the wording of bounds and
// defaults, and escaping. All strings of DocsForm and DocsField are
// Markdown, safe inside a table cell unless noted.
type DocsCatalog struct {
	// Forms of every package, packages in import-path order, forms in
	// source order.
	Forms []*DocsForm
}

// DocsForm is one form of the catalog.
type DocsForm struct {
	// Key names the form as `elicitgen schema` does: the type name, or
	// importpath.TypeName when forms come from more than one package.
	// It is plain text (not escaped); Heading is the same as Markdown.
	Key     string
	Heading string
	// Anchor is the id GitHub gives the heading "## Heading", made unique
	// across the catalog, for links from a table of contents.
	Anchor string
	// PkgPath is the import path (Markdown code span).
	PkgPath string
	// Source is the base name of the file declaring the type (code span).
	Source string
	// Summary is the first sentence of the type's doc comment.
	Summary string
	// Doc is the type's whole doc comment as Markdown blocks (not for a
	// table cell), without a trailing newline; empty when there is none.
	Doc string
	// NumFields and NumRequired count the form's properties.
	NumFields   int
	NumRequired int
	Fields      []*DocsField
	// Translations say, per catalog (elicit.<tag>.json) of the package,
	// how much of the form is translated; none without catalogs.
	Translations []*DocsTranslation
	// Form is the underlying model, for custom templates.
	Form *Form
}

// DocsField is one property of a form, one row of its table.
type DocsField struct {
	// Name is the property name (code span); Title its label.
	Name  string
	Title string
	// Type is the property kind with the Go type, e.g. "integer (`uint8`)".
	Type string
	// Required is "yes" or "no".
	Required string
	// Bounds lists lengths, numeric bounds or item counts, e.g.
	// "minLength 1, maxLength 64".
	Bounds string
	// Format is the string format (email, uri, date, date-time).
	Format string
	// Options lists the choices of an enum, one per line, each value with
	// its title; or says they are supplied when asking.
	Options string
	// Default is the default value as JSON (code span).
	Default string
	// Description is the field's description.
	Description string
	// Field is the underlying model, for custom templates.
	Field *Field
}

// DocsTemplate returns the catalog template: the embedded default when
// path is empty, else the text/template file at path. Templates execute
// with a *DocsCatalog; a field the view model lacks is an error.
func DocsTemplate(path string) (*template.Template, error) {
	if path == "" {
		return defaultDocs.Clone()
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("docs template: %w", err)
	}
	t, err := template.New(filepath.Base(path)).Option("missingkey=error").Parse(string(src))
	if err != nil {
		return nil, fmt.Errorf("docs template: %w", err)
	}
	return t, nil
}

// Docs renders the Markdown catalog of every form of pkgs with tmpl (see
// DocsTemplate). The output depends only on the model and the forms' doc
// comments: no timestamps, versions or absolute paths.
func Docs(pkgs []*Package, tmpl *template.Template) ([]byte, error) {
	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, NewDocsCatalog(pkgs)); err != nil {
		return nil, fmt.Errorf("docs template: %w", err)
	}
	return buf.Bytes(), nil
}

// NewDocsCatalog builds the catalog view model of pkgs.
func NewDocsCatalog(pkgs []*Package) *DocsCatalog {
	sorted := append([]*Package(nil), pkgs...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].PkgPath < sorted[j].PkgPath })
	multi := 0
	for _, p := range sorted {
		if len(p.Forms) > 0 {
			multi++
		}
	}
	cat := &DocsCatalog{}
	slugs := slugger{}
	for _, p := range sorted {
		for _, f := range p.Forms {
			key := f.Name
			if multi > 1 {
				key = p.PkgPath + "." + f.Name
			}
			text := f.Doc
			df := &DocsForm{
				Key:       key,
				Heading:   mdText(key),
				Anchor:    slugs.slug(key),
				PkgPath:   codeSpan(p.PkgPath),
				Source:    codeSpan(f.SourceFile),
				Summary:   mdText(new(doc.Package).Synopsis(text)),
				Doc:       docMarkdown(text),
				NumFields: len(f.Fields),
				Form:      f,
			}
			for _, fld := range f.Fields {
				if fld.Prop.Required {
					df.NumRequired++
				}
				df.Fields = append(df.Fields, docsField(p, f, fld))
			}
			df.Translations = docsTranslations(p, f) // locale.go
			cat.Forms = append(cat.Forms, df)
		}
	}
	return cat
}

// docsField builds one table row.
func docsField(p *Package, f *Form, fld *Field) *DocsField {
	pr := &fld.Prop
	row := &DocsField{
		Name:        codeSpan(pr.Name),
		Title:       mdText(pr.Title),
		Type:        pr.Kind.String(),
		Required:    "no",
		Format:      mdText(pr.Format),
		Description: mdText(pr.Description),
		Field:       fld,
	}
	if gt := goType(p, f, fld); gt != "" {
		row.Type += " (" + codeSpan(gt) + ")"
	}
	if pr.Required {
		row.Required = "yes"
	}
	var bounds []string
	count := func(name string, n *int) {
		if n != nil {
			bounds = append(bounds, name+" "+strconv.Itoa(*n))
		}
	}
	number := func(name string, f *float64) {
		if f != nil {
			bounds = append(bounds, name+" "+fmtNum(*f))
		}
	}
	count("minLength", pr.MinLength)
	count("maxLength", pr.MaxLength)
	number("min", pr.Minimum)
	number("max", pr.Maximum)
	count("minItems", pr.MinItems)
	count("maxItems", pr.MaxItems)
	if pr.Pattern != "" {
		bounds = append(bounds, "pattern "+codeSpan(pr.Pattern)+" (server-side, not sent)")
	}
	row.Bounds = strings.Join(bounds, ", ")
	switch {
	case pr.Dynamic:
		row.Options = "*supplied when asking*"
	case len(pr.Options) > 0:
		opts := make([]string, len(pr.Options))
		for i, o := range pr.Options {
			opts[i] = codeSpan(o.Value)
			if o.Title != "" {
				opts[i] += " " + mdText(o.Title)
			}
		}
		row.Options = strings.Join(opts, "<br>")
	}
	if pr.Default != nil {
		if b, err := json.Marshal(pr.Default); err == nil {
			row.Default = codeSpan(string(b))
		}
	}
	return row
}

// goType returns the Go type of a form field as written in its package,
// found through the form's guarded struct and its embedded structs; ""
// when the model does not say.
func goType(p *Package, f *Form, fld *Field) string {
	st := f.Guard
	for i, name := range fld.Access {
		if st == nil {
			return ""
		}
		last := i == len(fld.Access)-1
		var ref *TypeRef
		for _, sf := range st.Fields {
			if last && sf.Name == name {
				ref = sf.Type
				break
			}
			if !last && sf.Name == "" && sf.Type != nil && sf.Type.Kind == "name" && sf.Type.Name == name {
				ref = sf.Type
				break
			}
		}
		if ref == nil {
			return ""
		}
		if last {
			return typeString(ref, p.PkgPath)
		}
		st = nil
		for _, e := range f.Embedded {
			if e.Name == name && e.PkgPath == ref.PkgPath {
				st = e
				break
			}
		}
	}
	return ""
}

// typeString writes the field types forms allow; "" for anything else.
func typeString(r *TypeRef, from string) string {
	switch r.Kind {
	case "name":
		if r.PkgPath == "" || r.PkgPath == from {
			return r.Name
		}
		return path.Base(r.PkgPath) + "." + r.Name
	case "pointer", "slice":
		elem := typeString(r.Elem, from)
		if elem == "" {
			return ""
		}
		if r.Kind == "pointer" {
			return "*" + elem
		}
		return "[]" + elem
	}
	return ""
}

// docMarkdown renders doc comment text as Markdown blocks: headings
// nested below the form's own, doc links as plain text, no heading ids.
func docMarkdown(text string) string {
	if text == "" {
		return ""
	}
	var p comment.Parser
	pr := comment.Printer{
		HeadingLevel: 3,
		HeadingID:    func(*comment.Heading) string { return "" },
		DocLinkURL:   func(*comment.DocLink) string { return "" },
	}
	return strings.TrimRight(string(pr.Markdown(p.Parse(text))), "\n")
}

// mdText escapes s as inline Markdown text that is safe in a table cell.
func mdText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '\\', '`', '*', '_', '[', ']', '<', '>', '|', '~':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n', '\r', '\t':
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// codeSpan writes s as an inline code span that is safe in a table cell:
// its fence is longer than any run of backticks in s, and '|' is escaped
// (GitHub tables split on '|' even inside code).
func codeSpan(s string) string {
	if s == "" {
		return ""
	}
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	s = strings.NewReplacer("|", `\|`, "\n", " ", "\r", " ").Replace(s)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || (strings.HasPrefix(s, " ") && strings.HasSuffix(s, " ") && strings.TrimSpace(s) != "") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// slugger makes GitHub-style heading anchors, unique within one document.
type slugger struct {
	seen map[string]int // slug -> repeats of it as a base
}

// slug lower-cases text, keeps letters, digits, '-' and '_', turns spaces
// into '-', drops everything else and numbers repeats as GitHub's
// github-slugger does ("deploy", "deploy-1", ...).
func (s *slugger) slug(text string) string {
	if s.seen == nil {
		s.seen = map[string]int{}
	}
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case unicode.IsLetter(r), unicode.IsDigit(r), unicode.IsMark(r), r == '-', r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	base := b.String()
	id := base
	for {
		if _, taken := s.seen[id]; !taken {
			break
		}
		s.seen[base]++
		id = base + "-" + strconv.Itoa(s.seen[base])
	}
	s.seen[id] = 0
	return id
}
