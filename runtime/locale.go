package runtime

import (
	"sort"
	"strconv"
	"strings"
)

// The _meta keys of a person's language (SEP-2792).
const (
	// MetaKeyAcceptLanguage is the params._meta key under which a request
	// carries the user's language preference, in the syntax of the HTTP
	// Accept-Language header ("ja-JP, en;q=0.5"), as proposed by SEP-2792
	// "Per-Request User Language Preference"
	// (https://github.com/modelcontextprotocol/modelcontextprotocol/pull/2792).
	// The preference belongs to the one request: servers must not keep it as
	// session state.
	MetaKeyAcceptLanguage = "io.modelcontextprotocol/acceptLanguage"
	// MetaKeyContentLanguage is the _meta key under which, as SEP-2792
	// proposes, a server reports the language its text is actually in (the
	// syntax of the HTTP Content-Language header). The adapters put it in
	// the params of each question asked in a negotiated language
	// (Request.Language) and, on 2026-07-28, in the input_required result
	// whose questions share one.
	MetaKeyContentLanguage = "io.modelcontextprotocol/contentLanguage"
)

// Locale is one form's text in one language, translated from an
// elicit.<tag>.json catalog beside the form. Generated code attaches the
// locales of a form to its Form; an entry without Props names the
// language the form's own text is written in (the source language).
type Locale struct {
	// Tag is the BCP 47 language tag, as in the catalog's file name
	// ("ja", "pt-BR").
	Tag string
	// Props are the translated properties, in the form's property order.
	Props []PropText
}

// PropText is one property's text in one language. An empty Title or
// Description keeps the source text; Options map option values (which
// never change) to translated titles.
type PropText struct {
	Name        string
	Title       string
	Description string
	Options     []Option
	// PatternMessage translates the property's PatternMessage.
	PatternMessage string
}

// WithLocale asks this question in the language tag names, a BCP 47
// language tag ("ja-JP") or a whole Accept-Language list ("fr-CH,
// ja;q=0.8"). Tags match case-insensitively, and a tag without a catalog
// falls back by dropping its last subtag (ja-JP -> ja) and then to the
// form's source text, as RFC 4647 lookup does. It overrides the language
// the adapter took from the request; WithLocale("") asks in the source
// text. Only titles, descriptions and option titles change: option values
// and every validation rule stay the same, so an answer validates
// identically in every language. The quick asks (AskConfirm, AskText,
// AskChoice, AskChoices) have no catalog: their default field titles
// come translated into German, Spanish, French, Japanese and Korean (de,
// es, fr, ja, ko); the message and options are the caller's words.
func WithLocale(tag string) AskOption {
	return func(c *askConfig) { c.locale, c.localeSet = tag, true }
}

// LanguagePreference returns the language preference a carries for the
// current request ("" when none), for handlers that translate their own
// messages; see MatchLanguage.
func LanguagePreference(a Asker) string {
	if lp, ok := findAs[languagePreferrer](a); ok {
		return lp.LanguagePreference()
	}
	return ""
}

// MatchLanguage returns the entry of have that best serves pref (a tag or
// an Accept-Language list), "" when none does. Ranges are tried in order
// of their q-values (q=0 excludes), each by RFC 4647 lookup: compared
// case-insensitively, then truncated one subtag at a time (zh-Hant-TW,
// zh-Hant, zh). A "*" range matches nothing here: it accepts whatever
// the caller falls back to.
func MatchLanguage(pref string, have ...string) string {
	for _, r := range languageRanges(pref) {
		if r == "*" {
			return ""
		}
		for r != "" {
			for _, h := range have {
				if strings.EqualFold(h, r) {
					return h
				}
			}
			r = truncateTag(r)
		}
	}
	return ""
}

// truncateTag drops the last subtag of tag, and a single-letter subtag
// (an extension or private-use singleton) left at the end.
func truncateTag(tag string) string {
	i := strings.LastIndexByte(tag, '-')
	if i < 0 {
		return ""
	}
	tag = tag[:i]
	if j := strings.LastIndexByte(tag, '-'); j >= 0 && len(tag)-j-1 == 1 {
		tag = tag[:j]
	}
	return tag
}

// languageRanges parses an Accept-Language value into its ranges, most
// preferred first (stable for equal weights); ranges with q=0 and
// malformed entries are dropped.
func languageRanges(pref string) []string {
	type weighted struct {
		r string
		q float64
	}
	var list []weighted
	for _, part := range strings.Split(pref, ",") {
		fields := strings.Split(part, ";")
		r := strings.TrimSpace(fields[0])
		if r == "" || !validRange(r) {
			continue
		}
		q := 1.0
		for _, f := range fields[1:] {
			k, v, ok := strings.Cut(strings.TrimSpace(f), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if n, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && n >= 0 && n <= 1 {
					q = n
				} else {
					q = 0
				}
			}
		}
		if q > 0 {
			list = append(list, weighted{strings.ReplaceAll(r, "_", "-"), q})
		}
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].q > list[j].q })
	out := make([]string, len(list))
	for i, w := range list {
		out[i] = w.r
	}
	return out
}

// validRange reports whether r is "*" or subtags of 1 to 8 letters and
// digits joined by '-' (or '_', which some clients send).
func validRange(r string) bool {
	if r == "*" {
		return true
	}
	for _, sub := range strings.FieldsFunc(r, func(c rune) bool { return c == '-' || c == '_' }) {
		if len(sub) == 0 || len(sub) > 8 {
			return false
		}
		for i := 0; i < len(sub); i++ {
			c := sub[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
				return false
			}
		}
	}
	return !strings.HasPrefix(r, "-") && !strings.HasSuffix(r, "-") && !strings.Contains(r, "--")
}

// pickLocale returns the locale of locales that serves pref, nil for the
// source text.
func pickLocale(locales []Locale, pref string) *Locale {
	if len(locales) == 0 || pref == "" {
		return nil
	}
	tags := make([]string, len(locales))
	for i := range locales {
		tags[i] = locales[i].Tag
	}
	tag := MatchLanguage(pref, tags...)
	for i := range locales {
		if locales[i].Tag == tag && tag != "" {
			return &locales[i]
		}
	}
	return nil
}

// localize returns s in the language that cfg or the asker prefers,
// among locales, and the tag of the language it is in when a preference
// was given: the locale picked, or the source language (locales[0]) when
// none serves the preference ("" when s has no locales at all). s is
// copied before it is changed unless owned says it is already a private
// copy. Option values, kinds and bounds never change.
func localize(s *Schema, owned bool, locales []Locale, cfg *askConfig, a Asker) (*Schema, string) {
	pref := cfg.locale
	if !cfg.localeSet {
		pref = LanguagePreference(a)
	}
	if pref == "" || len(locales) == 0 {
		return s, ""
	}
	l := pickLocale(locales, pref)
	if l == nil {
		return s, locales[0].Tag
	}
	if len(l.Props) == 0 {
		return s, l.Tag
	}
	if !owned {
		s = s.Clone()
	}
	l.Apply(s)
	return s, l.Tag
}

// Apply writes l's text into s: property titles and descriptions, and
// the titles of options whose values l names. Options supplied when
// asking (WithOptions) keep the titles they were given. A plain enum
// that gains titles is sent in the titled form (an option without a
// translation is titled with its value).
func (l *Locale) Apply(s *Schema) {
	for i := range l.Props {
		t := &l.Props[i]
		p := s.Property(t.Name)
		if p == nil {
			continue
		}
		if t.Title != "" {
			p.Title = t.Title
		}
		if t.Description != "" {
			p.Description = t.Description
		}
		if t.PatternMessage != "" {
			p.PatternMessage = t.PatternMessage
		}
		if p.Dynamic || len(t.Options) == 0 {
			continue
		}
		titled := false
		for j := range p.Options {
			o := &p.Options[j]
			for _, to := range t.Options {
				if to.Value == o.Value && to.Title != "" {
					o.Title = to.Title
					titled = true
					break
				}
			}
		}
		if titled && p.Style == EnumPlain {
			p.Style = EnumTitled
		}
	}
}
