package gen

import (
	"strings"

	"github.com/elicitgen/elicitgen/runtime"
)

// Translations live beside the forms, one catalog per language:
// elicit.<tag>.json, keyed form -> property -> {"title", "description",
// "options": {value: title}}. The key "//" is a comment anywhere (the
// catalog template puts the source text there). A form whose entry is
// null stays in the source language on purpose (no warnings). A form entry holds
// properties only: the message of an ask is the handler's argument, not
// part of the form, so handlers translate it themselves
// (runtime.LanguagePreference, runtime.MatchLanguage).

// DefaultLang is the language of a package's own form text unless one of
// its files says //elicit:lang TAG.
const DefaultLang = "en"

// langDirective declares the language of a package's form text.
const langDirective = "//elicit:lang "

// commentKey is the catalog key that is a comment at every level.
const commentKey = "//"

// Locale is one checked translation catalog (elicit.<tag>.json) of a
// package.
type Locale struct {
	// Tag is the BCP 47 tag of the file name, as written there.
	Tag string
	// File is the catalog's path.
	File string `json:"-"`
	// Forms hold the translations, forms and properties in the order of
	// the model; untranslated strings are empty.
	Forms []*FormLocale
	// Skip names the forms whose entry is null: left in the source
	// language on purpose, so nothing of them is reported missing.
	Skip []string `json:"-"`
}

// FormLocale is one form's translations in a catalog.
type FormLocale struct {
	Form  string
	Props []*PropLocale
}

// PropLocale is one property's translations: empty strings keep the
// source text; Options map option values to titles, in option order.
type PropLocale struct {
	Prop        string
	Title       string
	Description string
	Options     []runtime.Option
	// PatternMessage translates the property's patternMessage, the
	// words a person reads when an answer breaks its pattern= rule.
	PatternMessage string
	// hint is the source text the catalog's "//" key recorded when the
	// translations were written; nil when it has none.
	hint *sourceHint
}

// sourceHint is the "//" key of a property's entry: the source text its
// translations were made from, as LocaleTemplate writes it.
type sourceHint struct {
	Title, Description *string
	Options            map[string]string
}

// LocaleFileName returns the catalog file name of tag.
func LocaleFileName(tag string) string { return "elicit." + tag + ".json" }

// localeTag returns the tag of a catalog file name, or false when name
// is not one.
func localeTag(name string) (string, bool) {
	tag, ok := strings.CutPrefix(name, "elicit.")
	if !ok {
		return "", false
	}
	tag, ok = strings.CutSuffix(tag, ".json")
	return tag, ok && tag != ""
}

// ValidLangTag reports whether tag is a well-formed BCP 47 language tag
// of the common shape: a 2-3 or 5-8 letter language, then subtags of 1
// to 8 letters or digits (script, region, variants, extensions).
func ValidLangTag(tag string) bool {
	subs := strings.Split(tag, "-")
	if l := len(subs[0]); !(l >= 2 && l <= 3 || l >= 5 && l <= 8) || !isAlpha(subs[0]) {
		return false
	}
	for _, s := range subs[1:] {
		if len(s) == 0 || len(s) > 8 || !isAlnum(s) {
			return false
		}
	}
	return true
}

func isAlpha(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

func isAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9') && !isAlpha(s[i:i+1]) {
			return false
		}
	}
	return true
}

func (l *Locale) form(name string) *FormLocale {
	for _, f := range l.Forms {
		if f.Form == name {
			return f
		}
	}
	return nil
}

func (f *FormLocale) prop(name string) *PropLocale {
	if f != nil {
		for _, p := range f.Props {
			if p.Prop == name {
				return p
			}
		}
	}
	return &PropLocale{}
}

func (p *PropLocale) option(value string) string {
	for _, o := range p.Options {
		if o.Value == value {
			return o.Title
		}
	}
	return ""
}
