package gen

import (
	"path/filepath"
	"slices"
	"strings"
)

// Translation coverage per form, for the docs catalog.

// DocsTranslation is one catalog's coverage of one form, for the docs
// catalog.
type DocsTranslation struct {
	// Tag is the catalog's language; File its name (code span).
	Tag  string
	File string
	// Translated of Total source strings (titles, descriptions, option
	// titles) have a translation.
	Translated, Total int
	// Missing lists the untranslated strings, e.g. "`branch` description,
	// `environment` option `staging`" (Markdown); empty when complete.
	Missing string
	// Skipped: the catalog's entry for the form is null, so it stays in
	// the source language on purpose.
	Skipped bool
}

func docsTranslations(p *Package, f *Form) []*DocsTranslation {
	var out []*DocsTranslation
	for _, l := range p.Locales {
		one := &Package{Forms: []*Form{f}}
		var missing []string
		for _, m := range missingIn(one, l) {
			what := codeSpan(m.Prop) + " " + m.Key
			if v, ok := strings.CutPrefix(m.Key, "options."); ok {
				what = codeSpan(m.Prop) + " option " + codeSpan(v)
			}
			missing = append(missing, what)
		}
		total := 0
		for _, fld := range f.Fields {
			pr := &fld.Prop
			if pr.Title != "" {
				total++
			}
			if pr.Description != "" {
				total++
			}
			if !pr.Dynamic {
				for _, o := range pr.Options {
					if o.Title != "" {
						total++
					}
				}
			}
		}
		skipped := slices.Contains(l.Skip, f.Name)
		if skipped {
			missing = nil
		}
		out = append(out, &DocsTranslation{
			Tag: mdText(l.Tag), File: codeSpan(filepath.Base(l.File)),
			Translated: total - len(missing), Total: total, Missing: strings.Join(missing, ", "),
			Skipped: skipped,
		})
		if skipped {
			out[len(out)-1].Translated = 0
		}
	}
	return out
}
