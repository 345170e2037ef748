package gen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/elicitgen/elicitgen/internal/jsonobj"
	"github.com/elicitgen/elicitgen/runtime"
)

// Reading a catalog: elicit.<tag>.json is decoded key by key, each key
// checked against the forms, every error positioned (one line table per
// file) and capped.

// LoadLocales reads the translation catalogs (elicit.<tag>.json) in the
// directory of src into pkg.Locales, checked against pkg's forms, and
// sets pkg.Lang; pkg comes from Analyze(src, ...). Every problem is a
// Diagnostic at its file:line:col. When partial is set (--type), keys
// naming forms outside pkg.Forms are tolerated: they may be forms that
// were not selected.
func LoadLocales(src *Source, pkg *Package, partial bool) Diagnostics {
	var sink diagSink
	pkg.Lang = DefaultLang
	var langPos token.Position
	for _, f := range src.Files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				tag, ok := strings.CutPrefix(c.Text, langDirective)
				if !ok {
					continue
				}
				tag, pos := strings.TrimSpace(tag), src.Fset.Position(c.Pos())
				switch {
				case !ValidLangTag(tag):
					sink.errorf(pos, "//elicit:lang %q is not a BCP 47 language tag (e.g. en, ja, pt-BR)", tag)
				case langPos.IsValid() && !strings.EqualFold(tag, pkg.Lang):
					sink.errorf(pos, "//elicit:lang %s, but %s:%d says %s: a package's forms have one language", tag, filepath.Base(langPos.Filename), langPos.Line, pkg.Lang)
				default:
					pkg.Lang, langPos = tag, pos
				}
			}
		}
	}
	if src.Dir == "" {
		return sink.list
	}
	entries, err := os.ReadDir(src.Dir)
	if err != nil {
		sink.errorf(token.Position{}, "reading translations: %v", err)
		return sink.list
	}
	src.log.localesListed(src.Dir)
	seen := map[string]string{}
	for _, e := range entries {
		tag, ok := localeTag(e.Name())
		if !ok || e.IsDir() {
			if ok {
				src.log.localeRead(src.Dir, e.Name(), true, nil)
			}
			continue
		}
		path := filepath.Join(src.Dir, e.Name())
		at := token.Position{Filename: path, Line: 1, Column: 1}
		switch low := strings.ToLower(tag); {
		case !ValidLangTag(tag):
			sink.errorf(at, "%q in the file name is not a BCP 47 language tag: name translation files elicit.<tag>.json, e.g. elicit.ja.json, elicit.pt-BR.json", tag)
			continue
		case seen[low] != "":
			sink.errorf(at, "%s and %s translate into the same language: keep one", e.Name(), seen[low])
			continue
		case strings.EqualFold(tag, pkg.Lang):
			sink.errorf(at, "%s translates into %s, the language the forms are written in: edit the Go source instead, or declare another language with //elicit:lang", e.Name(), pkg.Lang)
			continue
		default:
			seen[low] = e.Name()
		}
		data, err := os.ReadFile(path)
		if err != nil {
			sink.errorf(at, "%v", err)
			continue
		}
		src.log.localeRead(src.Dir, e.Name(), false, data)
		l := &Locale{Tag: tag, File: path}
		r := &catalogReader{file: path, tag: tag, data: data, sink: &sink, pkg: pkg, partial: partial}
		r.read(l)
		r.flush()
		pkg.Locales = append(pkg.Locales, l)
	}
	sort.Slice(pkg.Locales, func(i, j int) bool { return pkg.Locales[i].Tag < pkg.Locales[j].Tag })
	pkg.Warnings = pkg.Warnings.Sort()
	return sink.list
}

// maxCatalogErrors caps the errors reported for one catalog, as answer
// errors are capped (runtime.MaxErrors): the first ones by position, then
// one line that says how many more there are.
const maxCatalogErrors = 20

// catalogReader checks one catalog against the package's forms.
type catalogReader struct {
	file    string
	tag     string
	data    []byte
	sink    *diagSink
	pkg     *Package
	partial bool
	// lines holds the offset of each line's first byte, built once, so
	// that a position costs a binary search, not a scan of the file.
	lines []int
	// errs holds the first maxCatalogErrors errors by offset; dropped
	// counts the others.
	errs         []catalogError
	dropped      int
	firstDropped int // the least offset of the errors left out
}

// catalogError is one error of a catalog, at a byte offset.
type catalogError struct {
	off int
	msg string
}

// errorf records an error at byte offset off, keeping only the first
// maxCatalogErrors by offset (a catalog may be any size: each error costs
// at most a pass over those kept).
// The message is formatted only when the error is kept, so arguments
// that cost (a suggestion) should be lazy fmt.Stringers (suggestion).
func (r *catalogReader) errorf(off int, format string, args ...any) {
	if len(r.errs) < maxCatalogErrors {
		r.errs = append(r.errs, catalogError{off, fmt.Sprintf(format, args...)})
		return
	}
	last := 0
	for i, k := range r.errs {
		if k.off > r.errs[last].off {
			last = i
		}
	}
	out := off
	if off < r.errs[last].off {
		out = r.errs[last].off
		r.errs[last] = catalogError{off, fmt.Sprintf(format, args...)}
	}
	if r.dropped == 0 || out < r.firstDropped {
		r.firstDropped = out
	}
	r.dropped++
}

// suggestion is didYouMean(key, names), computed only when printed.
type suggestion struct {
	key   string
	names []string
}

func (s suggestion) String() string { return didYouMean(s.key, s.names) }

// flush reports the kept errors in file order, then how many more there
// are, at the first one left out.
func (r *catalogReader) flush() {
	sort.SliceStable(r.errs, func(i, j int) bool { return r.errs[i].off < r.errs[j].off })
	for _, e := range r.errs {
		r.sink.list = append(r.sink.list, Diagnostic{Pos: r.pos(e.off), Msg: e.msg})
	}
	if r.dropped > 0 {
		r.sink.list = append(r.sink.list, Diagnostic{Pos: r.pos(r.firstDropped), Msg: fmt.Sprintf("and %d more problems in %s (only the first %d are listed)", r.dropped, filepath.Base(r.file), maxCatalogErrors)})
	}
}

// member is one key of a JSON object with the offsets of the key and of
// its value, and the raw value.
type member struct {
	key            string
	keyOff, valOff int
	val            json.RawMessage
}

// pos turns a byte offset of the file into a position.
func (r *catalogReader) pos(off int) token.Position {
	off = min(max(off, 0), len(r.data))
	if r.lines == nil {
		r.lines = lineStarts(r.data)
	}
	// The line is the last one starting at or before off.
	i := sort.SearchInts(r.lines, off+1) - 1
	return token.Position{Filename: r.file, Offset: off, Line: i + 1, Column: off - r.lines[i] + 1}
}

// lineStarts returns the offset of the first byte of each line of data.
func lineStarts(data []byte) []int {
	starts := make([]int, 1, 1+bytes.Count(data, []byte("\n")))
	for i, c := range data {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// object returns the members of the JSON object at data[off:], whose raw
// text is raw, in order; duplicate keys are reported. ok is false when
// raw is not an object (reported as what).
func (r *catalogReader) object(raw []byte, off int, what string) ([]member, bool) {
	if len(raw) == 0 || raw[0] != '{' {
		r.errorf(off, "%s must be a JSON object, not %s", what, jsonobj.Kind(raw))
		return nil, false
	}
	jms, ok, err := jsonobj.Scan(raw, func(d *jsonobj.DuplicateKeyError) {
		r.errorf(off+d.Offset, "%s", d.Error())
	})
	if err != nil || !ok {
		return nil, false
	}
	out := make([]member, len(jms))
	for i, m := range jms {
		out[i] = member{key: m.Key, keyOff: off + m.KeyOffset, valOff: off + m.ValueOffset, val: m.Value}
	}
	return out, true
}

// text decodes a JSON string member.
func (r *catalogReader) text(m member, what string) (string, bool) {
	var s string
	if len(m.val) == 0 || m.val[0] != '"' || json.Unmarshal(m.val, &s) != nil {
		r.errorf(m.valOff, "%s must be a string, not %s", what, jsonobj.Kind(m.val))
		return "", false
	}
	return s, true
}

// read checks the catalog and fills l.
func (r *catalogReader) read(l *Locale) {
	var top any
	if err := json.Unmarshal(r.data, &top); err != nil {
		off := 0
		var se *json.SyntaxError
		if errors.As(err, &se) {
			off = int(se.Offset)
			if off > 0 {
				off-- // Offset is just past the bad byte
			}
		}
		r.errorf(off, "malformed JSON: %v", err)
		return
	}
	start := len(r.data) - len(bytes.TrimLeft(r.data, " \t\r\n"))
	forms, ok := r.object(r.data[start:], start, "a translation file")
	if !ok {
		return
	}
	byName := map[string]*Form{}
	var names []string
	for _, f := range r.pkg.Forms {
		byName[f.Name] = f
		names = append(names, f.Name)
	}
	got := map[string]*FormLocale{}
	for _, m := range forms {
		if m.key == commentKey {
			continue
		}
		f := byName[m.key]
		if f == nil {
			if !r.partial {
				r.errorf(m.keyOff, "no form %s in package %s%s", m.key, r.pkg.PkgPath, suggestion{m.key, names})
			}
			continue
		}
		if string(m.val) == "null" {
			l.Skip = append(l.Skip, f.Name)
			continue
		}
		got[f.Name] = r.form(f, m)
	}
	for _, f := range r.pkg.Forms {
		if fl := got[f.Name]; fl != nil && len(fl.Props) > 0 {
			l.Forms = append(l.Forms, fl)
		}
	}
}

// form checks one form's entry.
func (r *catalogReader) form(f *Form, fm member) *FormLocale {
	props, ok := r.object(fm.val, fm.valOff, "the entry of form "+f.Name)
	if !ok {
		return nil
	}
	byName := map[string]*Field{}
	var names []string
	for _, fld := range f.Fields {
		byName[fld.Prop.Name] = fld
		names = append(names, fld.Prop.Name)
	}
	got := map[string]*PropLocale{}
	for _, m := range props {
		if m.key == commentKey {
			continue
		}
		fld := byName[m.key]
		if fld == nil {
			r.errorf(m.keyOff, "form %s has no property %q%s", f.Name, m.key, suggestion{m.key, names})
			continue
		}
		got[m.key] = r.prop(f, &fld.Prop, m)
	}
	fl := &FormLocale{Form: f.Name}
	for _, fld := range f.Fields {
		if pl := got[fld.Prop.Name]; pl != nil && (pl.Title != "" || pl.Description != "" || len(pl.Options) > 0 || pl.PatternMessage != "") {
			fl.Props = append(fl.Props, pl)
		}
	}
	return fl
}

// prop checks one property's entry.
func (r *catalogReader) prop(f *Form, p *runtime.Property, pm member) *PropLocale {
	where := f.Name + "." + p.Name
	keys, ok := r.object(pm.val, pm.valOff, "the entry of "+where)
	if !ok {
		return nil
	}
	pl := &PropLocale{Prop: p.Name}
	var hintAt member
	for _, m := range keys {
		switch m.key {
		case commentKey:
			pl.hint, hintAt = readHint(m.val), m
		case "title":
			pl.Title, _ = r.text(m, where+" title")
		case "description":
			pl.Description, _ = r.text(m, where+" description")
		case "options":
			pl.Options = r.options(where, p, m)
		case "patternMessage":
			if p.Pattern == "" {
				r.errorf(m.keyOff, "%s has no pattern= rule whose message to translate", where)
				continue
			}
			pl.PatternMessage, _ = r.text(m, where+" patternMessage")
		default:
			r.errorf(m.keyOff, "unknown key %q in %s: a property translates \"title\", \"description\", \"options\" and \"patternMessage\"%s", m.key, where, suggestion{m.key, []string{"title", "description", "options", "patternMessage"}})
		}
	}
	for _, st := range pl.stale(p) {
		r.pkg.Warnings = append(r.pkg.Warnings, Diagnostic{Pos: r.pos(hintAt.keyOff), Msg: fmt.Sprintf(
			"warning: %s %s: the source text changed since it was translated (the hint says %q, the source now %q): review the %s translation, then delete this \"//\" line (elicitgen locale %s then records the new source)", where, st.key, st.was, st.now, r.tag, r.tag)})
	}
	return pl
}

// readHint reads a "//" key of a property entry; nil when it is not an
// object of source texts (a comment of the translator's own).
func readHint(raw json.RawMessage) *sourceHint {
	var h struct {
		Title       *string           `json:"title"`
		Description *string           `json:"description"`
		Options     map[string]string `json:"options"`
	}
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &h) != nil {
		return nil
	}
	return &sourceHint{Title: h.Title, Description: h.Description, Options: h.Options}
}

// options checks a property's option titles, keyed by option value.
func (r *catalogReader) options(where string, p *runtime.Property, om member) []runtime.Option {
	switch {
	case p.Dynamic:
		r.errorf(om.keyOff, "%s has no options to translate: its options are supplied when asking, so give their titles in runtime.WithOptions", where)
		return nil
	case len(p.Options) == 0:
		r.errorf(om.keyOff, "%s has no options to translate: it is a %s property", where, p.Kind)
		return nil
	}
	ms, ok := r.object(om.val, om.valOff, "the options of "+where)
	if !ok {
		return nil
	}
	values := make([]string, len(p.Options))
	for i, o := range p.Options {
		values[i] = o.Value
	}
	got := map[string]string{}
	for _, m := range ms {
		if m.key == commentKey {
			continue
		}
		known := false
		for _, v := range values {
			known = known || v == m.key
		}
		if !known {
			r.errorf(m.keyOff, "%s has no option %q (options are %s)%s", where, m.key, quoteList(values), suggestion{m.key, values})
			continue
		}
		got[m.key], _ = r.text(m, where+" option "+m.key)
	}
	var out []runtime.Option
	for _, v := range values {
		if t := got[v]; t != "" {
			out = append(out, runtime.Option{Value: v, Title: t})
		}
	}
	return out
}

func quoteList(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

// didYouMean suggests the name of names closest to key, if one is close.
func didYouMean(key string, names []string) string {
	if best := closest(key, names); best != "" {
		return fmt.Sprintf(" (did you mean %q?)", best)
	}
	return ""
}
