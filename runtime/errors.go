package runtime

import (
	"sort"
	"strconv"
	"strings"
)

// FieldError is one problem with one field of a form.
type FieldError struct {
	// Field is the property name ("" for the form as a whole).
	Field string
	// Msg says what is wrong, for a person.
	Msg string
}

func (e *FieldError) Error() string {
	if e.Field == "" {
		return e.Msg
	}
	return e.Field + ": " + e.Msg
}

// ValidationError lists every problem found in a form's value or in a
// client's answer. It matches ErrInvalidContent with errors.Is, and
// errors.As finds each *FieldError through Unwrap.
type ValidationError struct {
	Form   string
	Fields []*FieldError
}

func (e *ValidationError) Error() string {
	form := e.Form
	if form == "" {
		form = "content"
	}
	return withFields("elicit: invalid "+form, e.Fields)
}

// withFields returns head followed by the messages of fields:
// "head: first; second".
func withFields(head string, fields []*FieldError) string {
	var sb strings.Builder
	sb.WriteString(head)
	for i, f := range fields {
		if i == 0 {
			sb.WriteString(": ")
		} else {
			sb.WriteString("; ")
		}
		sb.WriteString(f.Error())
	}
	return sb.String()
}

// Is reports whether target is ErrInvalidContent.
func (e *ValidationError) Is(target error) bool { return target == ErrInvalidContent }

// Unwrap returns the field errors.
func (e *ValidationError) Unwrap() []error {
	errs := make([]error, len(e.Fields))
	for i, f := range e.Fields {
		errs[i] = f
	}
	return errs
}

// Field returns the first error about the named field, or nil.
func (e *ValidationError) Field(name string) *FieldError {
	for _, f := range e.Fields {
		if f.Field == name {
			return f
		}
	}
	return nil
}

// errList accumulates field errors. The zero value is ready to use and
// allocates nothing until an error is added.
//
// At most MaxErrors problems are kept, so that a hostile answer cannot
// make an error message of unbounded size; the rest are counted.
type errList struct {
	list    []*FieldError
	dropped int
}

// MaxErrors is the most problems one ValidationError lists; further ones
// are summarized in a last entry.
const MaxErrors = 20

// Add records a problem with field.
func (e *errList) Add(field, msg string) {
	if len(e.list) >= MaxErrors {
		e.dropped++
		return
	}
	e.list = append(e.list, &FieldError{Field: clip(field), Msg: clipMsg(msg)})
}

// clipMsg bounds one message, which may quote a client's values.
func clipMsg(msg string) string {
	const max = 512
	if len(msg) <= max {
		return msg
	}
	cut := max
	for cut > 0 && !isRuneStart(msg[cut]) {
		cut--
	}
	return msg[:cut] + "…"
}

// Len returns the number of recorded problems.
func (e *errList) Len() int { return len(e.list) + e.dropped }

// Err returns nil when nothing was recorded, else a *ValidationError for
// form, with fields in the order they were checked.
func (e *errList) Err(form string) error {
	if len(e.list) == 0 {
		return nil
	}
	if e.dropped > 0 {
		e.list = append(e.list, &FieldError{Msg: "and " + strconv.Itoa(e.dropped) + " more problems"})
		e.dropped = 0
	}
	return &ValidationError{Form: form, Fields: e.list}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
