package gen

import (
	"github.com/dave/jennifer/jen"
)

// localesVar names the translations of form t.
func localesVar(t string) string { return "elicitLocales" + t }

// formLocales returns the locales of form as literals, the source language
// first (so that a request preferring it gets the source text), then the
// catalogs by tag; nil when no catalog translates the form.
func formLocales(pkg *Package, form *Form) []jen.Code {
	locales := []jen.Code{jen.Values(kv("Tag", jen.Lit(pkg.Lang)))}
	for _, l := range pkg.Locales {
		fl := l.form(form.Name)
		if fl == nil || len(fl.Props) == 0 {
			continue
		}
		props := make([]jen.Code, len(fl.Props))
		for i, p := range fl.Props {
			props[i] = propTextLit(p)
		}
		locales = append(locales, multi(
			kv("Tag", jen.Lit(l.Tag)),
			kv("Props", jen.Index().Add(impl("PropText")).Add(multi(props...))),
		))
	}
	if len(locales) == 1 {
		return nil
	}
	return locales
}

// emitLocales emits the translations of pkg's catalogs as data, one
// variable per translated form, which the form's descriptor names (so that
// no form is changed after its declaration, in init or elsewhere):
//
//	var elicitLocalesT = []elicitimpl.Locale{
//		{Tag: "en"},
//		{Tag: "ja", Props: []elicitimpl.PropText{{Name: "branch", Title: "ブランチ"}}},
//	}
//
// Only translated strings are written; a package without catalogs gets
// nothing. The strings were checked when the catalogs were loaded, so the
// runtime neither parses nor checks anything.
func emitLocales(f *jen.File, pkg *Package) {
	first := true
	for _, form := range pkg.Forms {
		locales := formLocales(pkg, form)
		if locales == nil {
			continue
		}
		if first {
			f.Comment("The translations of the elicit.<tag>.json catalogs, one variable per translated form.")
			first = false
		}
		f.Var().Id(localesVar(form.Name)).Op("=").Index().Add(impl("Locale")).Add(multi(locales...))
	}
}

// hasLocales reports whether emitLocales emits anything for pkg: a
// catalog translates some property of some form.
func hasLocales(pkg *Package) bool {
	for _, form := range pkg.Forms {
		if translated(pkg, form) {
			return true
		}
	}
	return false
}

// translated reports whether a catalog translates some property of form.
func translated(pkg *Package, form *Form) bool {
	for _, l := range pkg.Locales {
		if fl := l.form(form.Name); fl != nil && len(fl.Props) > 0 {
			return true
		}
	}
	return false
}

// propTextLit emits one elicitimpl.PropText literal: non-empty fields
// only.
func propTextLit(p *PropLocale) jen.Code {
	items := []jen.Code{kv("Name", jen.Lit(p.Prop))}
	if p.Title != "" {
		items = append(items, kv("Title", jen.Lit(p.Title)))
	}
	if p.Description != "" {
		items = append(items, kv("Description", jen.Lit(p.Description)))
	}
	if p.PatternMessage != "" {
		items = append(items, kv("PatternMessage", jen.Lit(p.PatternMessage)))
	}
	if len(p.Options) > 0 {
		opts := make([]jen.Code, len(p.Options))
		for i, o := range p.Options {
			opts[i] = jen.Values(kv("Value", jen.Lit(o.Value)), kv("Title", jen.Lit(o.Title)))
		}
		items = append(items, kv("Options", jen.Index().Add(rt("Option")).Add(multi(opts...))))
	}
	return jen.Values(items...)
}

// locales digests the translations (see digest.go): the output cache's
// key changes when a catalog does.
func (d *digest) locales(lang string, ls []*Locale) {
	d.str(lang)
	d.num(uint64(len(ls)))
	for _, l := range ls {
		d.str(l.Tag)
		d.num(uint64(len(l.Forms)))
		for _, f := range l.Forms {
			d.str(f.Form)
			d.num(uint64(len(f.Props)))
			for _, p := range f.Props {
				d.str(p.Prop)
				d.str(p.Title)
				d.str(p.Description)
				d.str(p.PatternMessage)
				d.num(uint64(len(p.Options)))
				for _, o := range p.Options {
					d.str(o.Value)
					d.str(o.Title)
				}
			}
		}
	}
}

// multi is a composite literal body with one item per line.
func multi(items ...jen.Code) *jen.Statement {
	return jen.Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, items...)
}
