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
	if p.MinLength != nil || p.MaxLength != nil {
		n := utf8.RuneCountInString(v)
		if p.MinLength != nil && n < *p.MinLength {
			errs.Add(p.Name, "must be at least "+plural(*p.MinLength, "character")+" long")
		}
		if p.MaxLength != nil && n > *p.MaxLength {
			errs.Add(p.Name, "must be at most "+plural(*p.MaxLength, "character")+" long")
		}
	}
	if p.Format != "" {
		if msg := checkFormat(p.Format, v); msg != "" {
			errs.Add(p.Name, msg)
		}
	}
	if p.Kind == KindEnum && (!p.Dynamic || len(p.Options) > 0) && !hasOption(p.Options, v) {
		errs.Add(p.Name, strconv.Quote(v)+" is not one of "+optionList(p.Options))
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

// CheckInt checks a signed integer against p's bounds.
func CheckInt[I ~int | ~int8 | ~int16 | ~int32 | ~int64](errs *Errors, p *Property, v I) {
	CheckNumber(errs, p, float64(v))
}

// CheckUint checks an unsigned integer against p's bounds.
func CheckUint[I ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr](errs *Errors, p *Property, v I) {
	CheckNumber(errs, p, float64(v))
}

// CheckFloat checks a float against p's bounds.
func CheckFloat[F ~float32 | ~float64](errs *Errors, p *Property, v F) {
	CheckNumber(errs, p, float64(v))
}

// CheckMulti checks a multi-select value: item count bounds, membership
// and no repeated item.
func CheckMulti[S ~string](errs *Errors, p *Property, v []S) {
	if p.MinItems != nil && len(v) < *p.MinItems {
		errs.Add(p.Name, "must have at least "+plural(*p.MinItems, "item"))
	}
	if p.MaxItems != nil && len(v) > *p.MaxItems {
		errs.Add(p.Name, "must have at most "+plural(*p.MaxItems, "item"))
	}
	checkOpts := !p.Dynamic || len(p.Options) > 0
	for i, s := range v {
		if checkOpts && !hasOption(p.Options, string(s)) {
			errs.Add(p.Name, "item "+strconv.Quote(string(s))+" is not one of "+optionList(p.Options))
		}
		for _, t := range v[:i] {
			if t == s {
				errs.Add(p.Name, "item "+strconv.Quote(string(s))+" is repeated")
				break
			}
		}
	}
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
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(strconv.Quote(o.Value))
	}
	if len(opts) == 0 {
		return "the offered options (none)"
	}
	return sb.String()
}

func plural(n int, unit string) string {
	s := strconv.Itoa(n) + " " + unit
	if n != 1 {
		s += "s"
	}
	return s
}

func formatNumber(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
