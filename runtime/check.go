package runtime

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// checkString checks a string value against p: length bounds (in
// characters), no hidden characters in free text (HiddenRune), format
// and enum membership.
func checkString(errs *errList, p *Property, v string) {
	// Lengths count characters, but a string of len(v) bytes has between
	// (len(v)+3)/4 and len(v) of them: count only when the bytes cannot
	// decide.
	if p.MinLength != nil && (len(v)+3)/4 < *p.MinLength && utf8.RuneCountInString(v) < *p.MinLength {
		errs.AddID(p, MsgMinLength, "must be at least "+plural(*p.MinLength, "character")+" long", strconv.Itoa(*p.MinLength))
	}
	if p.MaxLength != nil && len(v) > *p.MaxLength && utf8.RuneCountInString(v) > *p.MaxLength {
		errs.AddID(p, MsgMaxLength, "must be at most "+plural(*p.MaxLength, "character")+" long", strconv.Itoa(*p.MaxLength))
	}
	if p.Kind == KindString {
		if r, _, ok := HiddenRune(v); ok {
			errs.AddID(p, MsgHidden, "must not contain the invisible or text-direction character "+runeName(r), runeName(r))
		}
	}
	if p.Format != "" {
		if msg := checkFormat(p.Format, v); msg != "" {
			errs.AddID(p, formatMessage(p.Format), msg, quote(v))
		}
	}
	if p.Kind == KindEnum && (!p.Dynamic || len(p.Options) > 0) && !hasOption(p.Options, v) {
		errs.AddID(p, MsgNotOption, quote(v)+" is not one of "+optionList(p.Options), quote(v), optionTitles(p.Options))
	}
}

// checkNumber checks a number against p's minimum and maximum.
func checkNumber(errs *errList, p *Property, v float64) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		errs.AddID(p, MsgNotFinite, "must be a finite number")
		return
	}
	if p.Minimum != nil && v < *p.Minimum {
		errs.AddID(p, MsgMinimum, "must be at least "+formatNumber(*p.Minimum), formatNumber(*p.Minimum))
	}
	if p.Maximum != nil && v > *p.Maximum {
		errs.AddID(p, MsgMaximum, "must be at most "+formatNumber(*p.Maximum), formatNumber(*p.Maximum))
	}
}

// checkCount checks a multi-select's item count against p's bounds.
func checkCount(errs *errList, p *Property, n int) bool {
	if p.MinItems != nil && n < *p.MinItems {
		errs.AddID(p, MsgMinItems, "must have at least "+plural(*p.MinItems, "item"), strconv.Itoa(*p.MinItems))
		return false
	}
	if p.MaxItems != nil && n > *p.MaxItems {
		errs.AddID(p, MsgMaxItems, "must have at most "+plural(*p.MaxItems, "item"), strconv.Itoa(*p.MaxItems))
		return false
	}
	return true
}

// maxItemErrors bounds how many item problems one multi-select reports.
const maxItemErrors = 5

// setAbove is the item count from which membership and repetition are
// checked with a map rather than by scanning.
const setAbove = 16

// checkMulti checks a multi-select value: the item count bounds first,
// then membership and no repeated item, in time linear in the items. It
// reports whether v is valid.
func checkMulti(errs *errList, p *Property, v []string) bool {
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
	report := func(id MessageID, msg string, args ...string) {
		if bad < maxItemErrors {
			errs.AddID(p, id, msg, args...)
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
				report(MsgItemNotOption, "item "+quote(s)+" is not one of "+optionList(p.Options), optionTitle(p.Options, s), optionTitles(p.Options))
				continue
			}
		}
		if seen != nil {
			if seen[s] {
				report(MsgItemRepeated, "item "+quote(s)+" is repeated", optionTitle(p.Options, s))
			}
			seen[s] = true
			continue
		}
		for _, t := range v[:i] {
			if t == s {
				report(MsgItemRepeated, "item "+quote(s)+" is repeated", optionTitle(p.Options, s))
				break
			}
		}
	}
	if bad > maxItemErrors {
		errs.AddID(p, MsgMoreItems, "more items are wrong")
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

// optionTitles lists the options as a person sees them: their titles
// (or values), quoted, at most maxListed.
func optionTitles(opts []Option) string {
	var sb strings.Builder
	for i, o := range opts {
		if i == maxListed {
			sb.WriteString(", …")
			break
		}
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(quote(o.title()))
	}
	return sb.String()
}

// optionTitle is the quoted title of the option whose value is v, or v
// quoted when no option has it.
func optionTitle(opts []Option, v string) string {
	for _, o := range opts {
		if o.Value == v {
			return quote(o.title())
		}
	}
	return quote(v)
}

// formatMessage is the sentence of a value not in format.
func formatMessage(format string) MessageID {
	switch format {
	case "email":
		return MsgEmail
	case "uri":
		return MsgURI
	case "date":
		return MsgDate
	}
	return MsgDateTime
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

// Check checks v, one answer value for p, against every rule p states:
// a string for a string or single-select property (length in
// characters, format, options), a float64 for a number or integer
// property (bounds; integers are not checked for a fraction here), a
// []string for a multi-select (item count, options, no repeats), a bool
// for a boolean. It returns nil or a *ValidationError naming the field;
// a value of another Go type is an error too. elicitgen checks a field's
// default= with it at generate time, so a default obeys the same rules as
// an answer.
func (p *Property) Check(v any) error {
	var errs errList
	switch v := v.(type) {
	case string:
		if p.Kind != KindString && p.Kind != KindEnum {
			errs.Add(p.Name, "a string for a "+p.Kind.String()+" field")
			break
		}
		checkString(&errs, p, v)
		if re, err := compilePattern(p); err != nil {
			errs.Add(p.Name, "pattern: "+err.Error())
		} else {
			checkPattern(&errs, p, re, v)
		}
	case float64:
		if p.Kind != KindNumber && p.Kind != KindInteger {
			errs.Add(p.Name, "a number for a "+p.Kind.String()+" field")
			break
		}
		checkNumber(&errs, p, v)
	case []string:
		if p.Kind != KindMulti {
			errs.Add(p.Name, "a list for a "+p.Kind.String()+" field")
			break
		}
		checkMulti(&errs, p, v)
	case bool:
		if p.Kind != KindBoolean {
			errs.Add(p.Name, "a boolean for a "+p.Kind.String()+" field")
		}
	default:
		errs.Add(p.Name, fmt.Sprintf("a value of Go type %T cannot be checked", v))
	}
	return errs.Err("")
}
