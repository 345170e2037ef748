package core

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// CheckString checks a string value against p: length bounds (in
// characters), format and enum membership.
func CheckString(errs *Errors, p *Property, v string) {
	// Lengths count characters, but a string of len(v) bytes has between
	// (len(v)+3)/4 and len(v) of them: count only when the bytes cannot
	// decide.
	if p.MinLength != nil && (len(v)+3)/4 < *p.MinLength && utf8.RuneCountInString(v) < *p.MinLength {
		errs.Add(p.Name, "must be at least "+plural(*p.MinLength, "character")+" long")
	}
	if p.MaxLength != nil && len(v) > *p.MaxLength && utf8.RuneCountInString(v) > *p.MaxLength {
		errs.Add(p.Name, "must be at most "+plural(*p.MaxLength, "character")+" long")
	}
	if p.Format != "" {
		if msg := checkFormat(p.Format, v); msg != "" {
			errs.Add(p.Name, msg)
		}
	}
	if p.Kind == KindEnum && (!p.Dynamic || len(p.Options) > 0) && !hasOption(p.Options, v) {
		errs.Add(p.Name, quote(v)+" is not one of "+optionList(p.Options))
	}
}

// CheckNumber checks a number against p's minimum and maximum.
func CheckNumber(errs *Errors, p *Property, v float64) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		errs.Add(p.Name, "must be a finite number")
		return
	}
	if p.Minimum != nil && v < *p.Minimum {
		errs.Add(p.Name, "must be at least "+formatNumber(*p.Minimum))
	}
	if p.Maximum != nil && v > *p.Maximum {
		errs.Add(p.Name, "must be at most "+formatNumber(*p.Maximum))
	}
}

// checkCount checks a multi-select's item count against p's bounds.
func checkCount(errs *Errors, p *Property, n int) bool {
	if p.MinItems != nil && n < *p.MinItems {
		errs.Add(p.Name, "must have at least "+plural(*p.MinItems, "item"))
		return false
	}
	if p.MaxItems != nil && n > *p.MaxItems {
		errs.Add(p.Name, "must have at most "+plural(*p.MaxItems, "item"))
		return false
	}
	return true
}

// maxItemErrors bounds how many item problems one multi-select reports.
const maxItemErrors = 5

// setAbove is the item count from which membership and repetition are
// checked with a map rather than by scanning.
const setAbove = 16

// CheckMulti checks a multi-select value: the item count bounds first,
// then membership and no repeated item, in time linear in the items. It
// reports whether v is valid.
func CheckMulti(errs *Errors, p *Property, v []string) bool {
	if !checkCount(errs, p, len(v)) {
		return false
	}
	checkOpts := !p.Dynamic || len(p.Options) > 0
	var opts, seen map[string]bool
	if len(v) > setAbove {
		seen = map[string]bool{} // no size hint: an answer must not choose the allocation
		if checkOpts && len(p.Options) > setAbove {
			opts = make(map[string]bool, len(p.Options))
			for _, o := range p.Options {
				opts[o.Value] = true
			}
		}
	}
	bad := 0
	report := func(msg string) {
		if bad < maxItemErrors {
			errs.Add(p.Name, msg)
		}
		bad++
	}
	for i, s := range v {
		if bad > maxItemErrors {
			break // enough said: stop looking
		}
		if checkOpts {
			ok := false
			if opts != nil {
				ok = opts[s]
			} else {
				ok = hasOption(p.Options, s)
			}
			if !ok {
				report("item " + quote(s) + " is not one of " + optionList(p.Options))
				continue
			}
		}
		if seen != nil {
			if seen[s] {
				report("item " + quote(s) + " is repeated")
			}
			seen[s] = true
			continue
		}
		for _, t := range v[:i] {
			if t == s {
				report("item " + quote(s) + " is repeated")
				break
			}
		}
	}
	if bad > maxItemErrors {
		errs.Add(p.Name, "more items are wrong")
	}
	return bad == 0
}

func hasOption(opts []Option, v string) bool {
	for _, o := range opts {
		if o.Value == v {
			return true
		}
	}
	return false
}

func optionList(opts []Option) string {
	var sb strings.Builder
	for i, o := range opts {
		if i == maxListed {
			sb.WriteString(", … (" + strconv.Itoa(len(opts)-i) + " more)")
			break
		}
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(quote(o.Value))
	}
	if len(opts) == 0 {
		return "the offered options (none)"
	}
	return sb.String()
}

// maxListed bounds how many options an error message lists.
const maxListed = 10

func plural(n int, unit string) string {
	s := strconv.Itoa(n) + " " + unit
	if n != 1 {
		s += "s"
	}
	return s
}

func formatNumber(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
