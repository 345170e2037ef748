package gen

import (
	"github.com/elicitgen/elicitgen/runtime"
)

// Stale translations: the "//" source hint of a catalog entry records the
// text it was translated from; when the source has changed since, the
// translation is reported, as gettext marks an entry fuzzy.

// staleText is one translation whose source hint no longer matches the
// source: key is "title", "description" or "option <value>".
type staleText struct {
	key, was, now string
	// hint selects the part of the hint: "title", "description" or an
	// option value.
	part string
}

// stale lists the translations of pl whose source hint differs from the
// source text of p, as gettext marks fuzzy entries: the translation may
// no longer say what the source says.
func (pl *PropLocale) stale(p *runtime.Property) []staleText {
	h := pl.hint
	if h == nil {
		return nil
	}
	var out []staleText
	if pl.Title != "" && h.Title != nil && *h.Title != p.Title {
		out = append(out, staleText{"title", *h.Title, p.Title, "title"})
	}
	if pl.Description != "" && h.Description != nil && *h.Description != p.Description {
		out = append(out, staleText{"description", *h.Description, p.Description, "description"})
	}
	for _, o := range pl.Options {
		was, ok := h.Options[o.Value]
		if now := optionSource(p, o.Value); ok && o.Title != "" && was != now {
			out = append(out, staleText{"option " + o.Value, was, now, o.Value})
		}
	}
	return out
}

// optionSource is what a client shows for option value of p in the
// source language: its title, else the value.
func optionSource(p *runtime.Property, value string) string {
	for _, o := range p.Options {
		if o.Value == value {
			if o.Title == "" {
				return o.Value
			}
			return o.Title
		}
	}
	return value
}
