package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/elicitgen/elicitgen/runtime"
)

// The translator's template: elicitgen locale writes every translatable
// string of the forms, with what the catalog already has.

// LocaleTemplate returns the catalog of pkg for tag, for translators:
// every translatable string of every form (titles, descriptions, option
// titles), with the translations the package's catalog for tag already
// has and "" for the rest, and under each property the key "//" holding
// its source text as a hint (the loader ignores it). Forms, properties
// and options are in source order; the bytes are deterministic. Running
// it again after the forms change keeps what was translated, adds the
// new strings and drops the ones that are gone.
func LocaleTemplate(pkg *Package, tag string) ([]byte, error) {
	if !ValidLangTag(tag) {
		return nil, fmt.Errorf("%q is not a BCP 47 language tag (e.g. ja, ja-JP, pt-BR)", tag)
	}
	if strings.EqualFold(tag, pkg.Lang) {
		return nil, fmt.Errorf("%s is the language the forms of %s are written in", tag, pkg.PkgPath)
	}
	have := &Locale{}
	for _, l := range pkg.Locales {
		if strings.EqualFold(l.Tag, tag) {
			have = l
		}
	}
	w := &jsonWriter{}
	w.open()
	w.key(1, commentKey)
	w.str(fmt.Sprintf("%s translations of the elicitation forms of %s (source language %s): fill in the empty strings; an empty string shows the source text. \"//\" keys are comments. Update with: elicitgen locale %s", tag, pkg.PkgPath, pkg.Lang, tag))
	for _, f := range pkg.Forms {
		if len(f.Fields) == 0 {
			continue
		}
		fl := have.form(f.Name)
		w.key(1, f.Name)
		if slices.Contains(have.Skip, f.Name) {
			w.buf.WriteString("null")
			continue
		}
		w.open()
		for _, fld := range f.Fields {
			p := &fld.Prop
			pl := fl.prop(p.Name)
			w.key(2, p.Name)
			w.open()
			if p.Title != "" || p.Description != "" || len(p.Options) > 0 && !p.Dynamic {
				w.key(3, commentKey)
				w.hint(p, pl)
			}
			w.key(3, "title")
			w.str(pl.Title)
			w.key(3, "description")
			w.str(pl.Description)
			if p.PatternMessage != "" {
				w.key(3, "patternMessage")
				w.str(pl.PatternMessage)
			}
			if len(p.Options) > 0 && !p.Dynamic {
				w.key(3, "options")
				w.open()
				for _, o := range p.Options {
					w.key(4, o.Value)
					w.str(pl.option(o.Value))
				}
				w.close(3)
			}
			w.close(2)
		}
		w.close(1)
	}
	w.close(0)
	w.buf.WriteByte('\n')
	return w.buf.Bytes(), nil
}

// jsonWriter writes the indented catalog template in a fixed order.
type jsonWriter struct {
	buf   bytes.Buffer
	first bool
}

func (w *jsonWriter) open() { w.buf.WriteByte('{'); w.first = true }

func (w *jsonWriter) close(depth int) {
	w.buf.WriteString("\n" + strings.Repeat("  ", depth) + "}")
	w.first = false
}

// key writes a key at depth, after a comma unless it opens its object.
func (w *jsonWriter) key(depth int, k string) {
	if !w.first {
		w.buf.WriteByte(',')
	}
	w.first = false
	w.buf.WriteString("\n" + strings.Repeat("  ", depth))
	w.str(k)
	w.buf.WriteString(": ")
}

func (w *jsonWriter) str(s string) {
	enc := json.NewEncoder(&w.buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // strings always encode
	w.buf.Truncate(w.buf.Len() - 1)
}

// hint writes the source text of p on one line. Where a translation is
// stale (pl.stale), the old source text stays, so that the next check
// still reports it until the translator has reviewed it and removed the
// hint.
func (w *jsonWriter) hint(p *runtime.Property, pl *PropLocale) {
	kept := map[string]string{}
	for _, st := range pl.stale(p) {
		kept[st.part] = st.was
	}
	source := func(part, now string) string {
		if was, ok := kept[part]; ok {
			return was
		}
		return now
	}
	w.buf.WriteByte('{')
	n := 0
	item := func(k, v string) {
		if n > 0 {
			w.buf.WriteString(", ")
		}
		n++
		w.str(k)
		w.buf.WriteString(": ")
		w.str(v)
	}
	if p.Title != "" {
		item("title", source("title", p.Title))
	}
	if p.Description != "" {
		item("description", source("description", p.Description))
	}
	if len(p.Options) > 0 && !p.Dynamic {
		if n > 0 {
			w.buf.WriteString(", ")
		}
		n++
		w.str("options")
		w.buf.WriteString(": {")
		for i, o := range p.Options {
			if i > 0 {
				w.buf.WriteString(", ")
			}
			w.str(o.Value)
			w.buf.WriteString(": ")
			w.str(source(o.Value, optionSource(p, o.Value))) // what clients show
		}
		w.buf.WriteByte('}')
	}
	w.buf.WriteByte('}')
}
