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

	"github.com/elicitgen/elicitgen/runtime"
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
	// Limits lists every known client limit (ClientLimits), each with the
	// forms it concerns; LimitsReviewed is the day the table was checked
	// (ClientLimitsReviewed) and LimitsAnchor the id of the catalog's
	// heading "Known client limits".
	Limits         []*DocsLimit
	LimitsReviewed string
	LimitsAnchor   string
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
	// Arguments is set for a tool's arguments struct (fields tagged ask):
	// a Markdown sentence saying that the form is asked only for what the
	// model left out, and with which generated function. It is empty for
	// an ordinary form.
	Arguments string
	Fields    []*DocsField
	// Translations say, per catalog (elicit.<tag>.json) of the package,
	// how much of the form is translated; none without catalogs.
	Translations []*DocsTranslation
	// AskedOn names the protocol eras that can ask the form: "every
	// era", or the versions, comma-separated.
	AskedOn string
	// Eras say, per protocol version (ProtocolVersions), how the form is
	// asked and what the client receives.
	Eras []*DocsEra
	// Limits are the known client limits that concern fields of this
	// form, in ClientLimits order; limits of every form are listed only
	// in DocsCatalog.Limits.
	Limits []*DocsLimit
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

// DocsEra is how a form is asked on one protocol era.
type DocsEra struct {
	// Version is the protocol version, e.g. "2025-06-18" (plain text).
	Version string
	// AskedWith names the exchange that carries the form (Markdown).
	AskedWith string
	// Available reports whether the runtime asks the form on this era.
	Available bool
	// Receives says what the client is sent: how the schema differs from
	// the one `elicitgen schema` prints, or why the form cannot be asked
	// (Markdown).
	Receives string
}

// DocsLimit is one known client limit (see ClientLimits) in the catalog.
type DocsLimit struct {
	// Client, Limit and Version are the limit's words (Markdown).
	Client  string
	Limit   string
	Version string
	// Fields lists the form's fields the limit concerns (code spans),
	// in a form's Limits; empty in the catalog's.
	Fields string
	// Forms lists the forms the limit concerns as links to their
	// sections, or says "every form" or "none", in the catalog's Limits;
	// empty in a form's.
	Forms string
	// Sources are the limit's public sources as Markdown links.
	Sources string
	// ClientLimit is the underlying fact, for custom templates.
	ClientLimit ClientLimit
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
				row := docsField(p, f, fld)
				if f.Args && fld.Prop.Required {
					row.Required = "when missing"
				}
				df.Fields = append(df.Fields, row)
			}
			if f.Args {
				df.Arguments = "A tool's arguments: the model gives them, and each property below is asked of the person only when the model left it out or gave an invalid value, never the whole form at once (" +
					codeSpan(askMissingName(f.Name)) + ", or the adapters' `HandleArgs`). The struct's other fields are the model's alone."
			}
			df.Translations = docsTranslations(p, f) // locale.go
			df.Eras, df.AskedOn = docsEras(f)
			cat.Forms = append(cat.Forms, df)
		}
	}
	docsLimits(cat)
	cat.LimitsAnchor = slugs.slug("Known client limits")
	return cat
}

// docsEras says how f is asked on each protocol era, and on which.
func docsEras(f *Form) (eras []*DocsEra, askedOn string) {
	var on []string
	for _, v := range ProtocolVersions() {
		e := &DocsEra{Version: v, AskedWith: "`elicitation/create` request", Available: true}
		era := runtime.EraOf(v)
		if era.MultiRoundTrip() {
			e.AskedWith = "`input_required` result (multi round-trip)"
		}
		switch reason := unavailableReason(f, v); {
		case reason != "":
			e.Available = false
			e.Receives = "**unavailable**: " + mdText(reason)
		case era.LegacySchema():
			e.Receives = legacyChanges(f)
		case !era.MultiRoundTrip():
			e.Receives = "the schema `elicitgen schema` prints"
		default:
			e.Receives = "the same schema as " + runtime.Version20251125
		}
		if e.Available {
			on = append(on, v)
		}
		eras = append(eras, e)
	}
	switch len(on) {
	case len(eras):
		askedOn = "every era"
	case 0:
		askedOn = "none"
	default:
		askedOn = strings.Join(on, ", ")
	}
	return eras, askedOn
}

// legacyChanges says how the schema a 2025-06-18 client receives differs
// from the 2025-11-25 one, field by field, as the runtime writes it
// (runtime.Schema.AppendJSON).
func legacyChanges(f *Form) string {
	var out []string
	for _, fld := range f.Fields {
		pr := &fld.Prop
		name := codeSpan(pr.Name)
		if pr.Kind == runtime.KindMulti && pr.Required && len(pr.Options) > 0 {
			keys := make([]string, len(pr.Options))
			for i, o := range pr.Options {
				keys[i] = codeSpan(runtime.LegacyOptionKey(pr.Name, o.Value))
			}
			bounds := ""
			if pr.MinItems != nil || pr.MaxItems != nil {
				bounds = "; the item bounds are checked on the server"
			}
			out = append(out, name+": asked as one checkbox per option ("+strings.Join(keys, ", ")+"), answered as the list of those checked"+bounds)
			continue
		}
		if pr.Kind == runtime.KindMulti {
			what := "the answer holds none"
			if b, err := json.Marshal(pr.Default); err == nil && pr.Default != nil {
				what = "the answer gets its default " + codeSpan(string(b))
			}
			out = append(out, name+": left out ("+what+")")
			continue
		}
		var changes []string
		if pr.Kind == runtime.KindEnum && pr.Style != runtime.EnumLegacy {
			switch {
			case pr.Dynamic:
				changes = append(changes, "options with titles sent as `enum` + `enumNames`")
			case pr.Style == runtime.EnumTitled:
				changes = append(changes, "options sent as `enum` + `enumNames`")
			}
		}
		if pr.Default != nil && pr.Kind != runtime.KindBoolean {
			if b, err := json.Marshal(pr.Default); err == nil {
				changes = append(changes, "default "+codeSpan(string(b))+" not sent")
			}
		}
		if len(changes) > 0 {
			out = append(out, name+": "+strings.Join(changes, ", "))
		}
	}
	if len(out) == 0 {
		return "the same schema as " + runtime.Version20251125
	}
	return strings.Join(out, "<br>")
}

// docsLimits fills each form's limits and the catalog's table of them.
func docsLimits(cat *DocsCatalog) {
	cat.LimitsReviewed = ClientLimitsReviewed
	for _, l := range ClientLimits() {
		row := &DocsLimit{
			Client:      mdText(l.Client),
			Limit:       mdText(l.Limit),
			Version:     mdText(l.Version),
			Sources:     sourceLinks(l.Sources),
			ClientLimit: l,
		}
		var forms []string
		for _, df := range cat.Forms {
			var fields []string
			for _, fld := range df.Form.Fields {
				if FieldFeature(&fld.Prop, l.Feature) {
					fields = append(fields, codeSpan(fld.Prop.Name))
				}
			}
			if len(fields) == 0 {
				continue
			}
			hit := *row
			hit.Fields = strings.Join(fields, ", ")
			df.Limits = append(df.Limits, &hit)
			forms = append(forms, "["+df.Heading+"](#"+df.Anchor+")")
		}
		switch {
		case l.Feature == FeatureAnyForm:
			row.Forms = "every form"
		case l.Feature == FeatureModernEra:
			row.Forms = "every form, asked on an earlier era"
		case l.Feature == FeatureURLMode:
			row.Forms = "none (URL-mode asks)"
		case len(forms) == 0:
			row.Forms = "none"
		default:
			row.Forms = strings.Join(forms, ", ")
		}
		cat.Limits = append(cat.Limits, row)
	}
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
		rule := "pattern " + codeSpan(pr.Pattern)
		if pr.PatternMessage != "" {
			rule += " (" + mdText(pr.PatternMessage) + ")"
		}
		bounds = append(bounds, rule+" (server-side, not sent)")
	}
	if pr.Confirm {
		bounds = append(bounds, "confirm: unticked is a decline (server-side, not sent)")
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

// ArgumentsForms returns the keys (as EmitSchemas names them) of the
// forms that are tools' arguments structs: a client is never sent such a
// schema whole, only the properties the model left out.
func ArgumentsForms(pkgs []*Package) []string {
	forms, keys := schemaKeys(pkgs)
	var out []string
	for _, f := range forms {
		if f.Args {
			out = append(out, keys[f])
		}
	}
	return out
}
