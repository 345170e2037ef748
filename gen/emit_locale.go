package gen

import (
	"github.com/dave/jennifer/jen"
)

// emitLocales emits the translations of pkg's catalogs as data: one init
// function that gives each translated form's Form value its locales,
//
//	func init() {
//		elicitFormT.Locales = []elicitimpl.Locale{
//			{Tag: "en"},
//			{Tag: "ja", Props: []elicitimpl.PropText{{Name: "branch", Title: "ブランチ"}}},
//		}
//	}
//
// the source language first (so that a request preferring it gets the
// source text), then the catalogs by tag. Only translated strings are
// written; a package without catalogs gets nothing. The strings were
// checked when the catalogs were loaded, so the runtime neither parses
// nor checks anything.
func emitLocales(f *jen.File, pkg *Package) {
	var assigns []jen.Code
	for _, form := range pkg.Forms {
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
			continue
		}
		assigns = append(assigns, jen.Id(NamesOf(form.Name).FormVar).Dot("Locales").Op("=").Index().Add(impl("Locale")).Add(multi(locales...)))
	}
	if len(assigns) == 0 {
		return
	}
	f.Comment("init attaches the translations of the elicit.<tag>.json catalogs.")
	f.Func().Id("init").Params().Block(assigns...)
}

// hasLocales reports whether emitLocales emits anything for pkg: a
// catalog translates some property of some form.
func hasLocales(pkg *Package) bool {
	for _, form := range pkg.Forms {
		for _, l := range pkg.Locales {
			if fl := l.form(form.Name); fl != nil && len(fl.Props) > 0 {
				return true
			}
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
