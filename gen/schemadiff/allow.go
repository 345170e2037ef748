package schemadiff

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/elicitgen/elicitgen/internal/editdist"
)

// An allow file lists the breaking changes a pull request intends, one a
// line:
//
//	# comments and blank lines are ignored
//	Deploy.ticket: change numbers have six digits since the tracker moved
//	Rollback: the form is gone; the rollback tool was removed
//
// Each line names one field (Form.field) or one form (Form, for a change
// of the form itself: removed, CheckElicit added) and, after a colon, the
// reason. Across packages the report names forms importpath.Form; a line
// may name the form alone when only one package has a form of that name.

// AllowEntry is one line of an allow file.
type AllowEntry struct {
	// Form and Property name what the line allows (Property "" for the
	// form itself).
	Form, Property string
	// Reason is the text after the colon.
	Reason string
	// Line and Column locate the entry's name in the file.
	Line, Column int
}

// AllowList is a parsed allow file.
type AllowList struct {
	// File is the file's name, for messages.
	File    string
	Entries []AllowEntry
}

// ErrAllow is matched (errors.Is) by every *AllowError.
var ErrAllow = errors.New("bad allow file")

// AllowError is a problem of an allow file at a position: a malformed or
// duplicate line, an unknown form or field, or a line that allows no
// breaking change (stale).
type AllowError struct {
	File         string
	Line, Column int
	Msg          string
}

// Error returns "file:line:col: msg".
func (e *AllowError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
}

// Unwrap returns ErrAllow.
func (e *AllowError) Unwrap() error { return ErrAllow }

// ParseAllow reads an allow file. Every malformed line, empty reason and
// duplicate entry is reported, as *AllowError values joined with
// errors.Join.
func ParseAllow(file string, data []byte) (*AllowList, error) {
	a := &AllowList{File: file}
	var errs []error
	seen := map[[2]string]int{}
	for i, line := range strings.Split(string(data), "\n") {
		n := i + 1
		text := strings.TrimRight(line, "\r")
		trimmed := strings.TrimSpace(text)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		col := 1 + len(text) - len(strings.TrimLeft(text, " \t"))
		bad := func(c int, format string, args ...any) {
			errs = append(errs, &AllowError{File: file, Line: n, Column: c, Msg: fmt.Sprintf(format, args...)})
		}
		name, reason, ok := strings.Cut(trimmed, ":")
		if !ok {
			bad(col, "want Form.field: reason, got %q", trimmed)
			continue
		}
		name, reason = strings.TrimSpace(name), strings.TrimSpace(reason)
		if reason == "" {
			bad(col+len(name)+1, "%s: the reason is empty: say why the break is intended", name)
			continue
		}
		form, prop := splitName(name)
		if form == "" || strings.ContainsAny(name, " \t") {
			bad(col, "want Form.field: reason, got %q before the colon", name)
			continue
		}
		key := [2]string{form, prop}
		if prev, dup := seen[key]; dup {
			bad(col, "%s is listed twice (first on line %d)", name, prev)
			continue
		}
		seen[key] = n
		a.Entries = append(a.Entries, AllowEntry{Form: form, Property: prop, Reason: reason, Line: n, Column: col})
	}
	return a, errors.Join(errs...)
}

// splitName splits Form.field (or importpath.Form.field) at its last dot
// after the last slash; a name with no such dot is a form.
func splitName(name string) (form, prop string) {
	slash := strings.LastIndexByte(name, '/')
	rest := name[slash+1:]
	i := strings.IndexByte(rest, '.')
	if slash >= 0 {
		// importpath.Form or importpath.Form.field: the first dot after
		// the slash ends the package name.
		j := strings.IndexByte(rest[i+1:], '.')
		if i < 0 || j < 0 {
			return name, ""
		}
		i += 1 + j
	}
	if i < 0 {
		return name, ""
	}
	return name[:slash+1+i], name[slash+1+i+1:]
}

// Allow marks each breaking change that a applies to as acknowledged,
// with the entry's reason. Every entry must name a form or field of the
// compared files and allow at least one breaking change; otherwise it is
// an *AllowError (an unknown name, or a stale line), all of them joined.
func (r *Report) Allow(a *AllowList) error {
	var errs []error
	for _, e := range a.Entries {
		name := e.Form
		if e.Property != "" {
			name += "." + e.Property
		}
		fail := func(format string, args ...any) {
			errs = append(errs, &AllowError{File: a.File, Line: e.Line, Column: e.Column, Msg: fmt.Sprintf(format, args...)})
		}
		form, ambiguous := r.resolveForm(e.Form)
		if len(ambiguous) > 1 {
			fail("form %s is in several packages (%s): name it with its import path", e.Form, strings.Join(ambiguous, ", "))
			continue
		}
		e.Form = form
		props, ok := r.known[e.Form]
		switch {
		case !ok:
			fail("unknown form %s%s", e.Form, didYouMean(e.Form, keys(r.known)))
			continue
		case e.Property != "" && !props[e.Property]:
			fail("form %s has no field %q%s", e.Form, e.Property, didYouMean(e.Property, keys(props)))
			continue
		}
		used := false
		for i := range r.Changes {
			c := &r.Changes[i]
			if c.Breaking && c.Form == e.Form && c.Property == e.Property {
				c.Acknowledged, c.Allowed, used = true, e.Reason, true
			}
		}
		if !used {
			fail("%s has no breaking change to allow: the line is stale, remove it", name)
		}
	}
	return errors.Join(errs...)
}

// resolveForm returns the report's name of form: itself when the report
// knows it, else the one qualified name importpath.form it knows; when
// several match, they are returned as ambiguous.
func (r *Report) resolveForm(form string) (string, []string) {
	if _, ok := r.known[form]; ok || strings.Contains(form, "/") {
		return form, nil
	}
	var matches []string
	for name := range r.known {
		if strings.HasSuffix(name, "."+form) && !strings.Contains(name[strings.LastIndexByte(name, '/')+1:len(name)-len(form)-1], ".") {
			matches = append(matches, name)
		}
	}
	slices.Sort(matches)
	if len(matches) == 1 {
		return matches[0], nil
	}
	return form, matches
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// didYouMean returns " (did you mean X?)" for the name in names closest
// to s, or "".
func didYouMean(s string, names []string) string {
	best, bestD := "", 3
	for _, n := range names {
		if d := editdist.Distance(strings.ToLower(s), strings.ToLower(n)); d < bestD || d == bestD && n < best {
			best, bestD = n, d
		}
	}
	if best == "" || bestD >= 3 {
		return ""
	}
	return fmt.Sprintf(" (did you mean %s?)", best)
}
