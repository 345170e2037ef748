package gen

import (
	"fmt"
	"slices"
)

// Missing translations: source strings a catalog does not translate,
// listed by elicitgen check and counted by elicitgen locale.

// Missing is one source string a catalog does not translate.
type Missing struct {
	// File is the catalog's path; Tag its language.
	File, Tag string
	// Form and Prop name the property; Key is "title", "description" or
	// "options.<value>"; Source is the text that is shown instead.
	Form, Prop, Key, Source string
}

func (m Missing) String() string {
	return fmt.Sprintf("%s: warning: %s.%s %s not translated to %s (shows %q)", m.File, m.Form, m.Prop, m.Key, m.Tag, m.Source)
}

// MissingTranslations lists, per catalog of pkgs, every title,
// description and option title that the forms' source has and the
// catalog does not translate (absent or empty), in file, form and
// property order. Those strings are asked in the source language.
func MissingTranslations(pkgs []*Package) []Missing {
	var out []Missing
	for _, pkg := range pkgs {
		for _, l := range pkg.Locales {
			out = append(out, missingIn(pkg, l)...)
		}
	}
	return out
}

func missingIn(pkg *Package, l *Locale) []Missing {
	var out []Missing
	for _, f := range pkg.Forms {
		if slices.Contains(l.Skip, f.Name) {
			continue
		}
		fl := l.form(f.Name)
		for _, fld := range f.Fields {
			p := &fld.Prop
			pl := fl.prop(p.Name)
			add := func(key, source string) {
				out = append(out, Missing{File: l.File, Tag: l.Tag, Form: f.Name, Prop: p.Name, Key: key, Source: source})
			}
			if p.Title != "" && pl.Title == "" {
				add("title", p.Title)
			}
			if p.Description != "" && pl.Description == "" {
				add("description", p.Description)
			}
			if p.PatternMessage != "" && pl.PatternMessage == "" {
				add("patternMessage", p.PatternMessage)
			}
			if p.Dynamic {
				continue
			}
			for _, o := range p.Options {
				if o.Title != "" && pl.option(o.Value) == "" {
					add("options."+o.Value, o.Title)
				}
			}
		}
	}
	return out
}
