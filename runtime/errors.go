package runtime

import (
	"sort"
	"strconv"
	"strings"
)

// FieldError is one problem with one field of a form. It carries what
// both readers need: the key and the title (for the model, which names
// both, in English), and the sentence's MessageID and arguments (for the
// person, who reads the sentence in their language with the title shown
// in their form; see Catalog.Text and PersonText).
type FieldError struct {
	// Field is the property name, the key ("" for the form as a whole).
	Field string
	// Title is the field's title in the form's source language ("" when
	// it has none or the problem is not about a field of the form).
	Title string
	// ID names the sentence; "" for a problem in the author's own words
	// (a CheckElicit error), whose Msg is shown as is.
	ID MessageID
	// Args are the sentence's arguments (see the MessageID constants).
	Args []string
	// Msg says what is wrong, in English, without the field's name:
	// "must be at least 1 character long".
	Msg string
}

// Error implements error: "key: Msg".
func (e *FieldError) Error() string {
	if e.Field == "" {
		return e.Msg
	}
	return e.Field + ": " + e.Msg
}

// ModelText is the problem as the model reads it, in English, naming the
// field by title and key: `"Environment" (environment): "prod" is not
// one of "staging", "production"`.
func (e *FieldError) ModelText() string {
	switch {
	case e.Field == "":
		return e.Msg
	case e.Title == "" || e.Title == e.Field:
		return e.Field + ": " + e.Msg
	}
	return quote(e.Title) + " (" + e.Field + "): " + e.Msg
}

// PersonText is the problem as a person reads it, from c (nil: the
// built-in catalog) in the language that best serves lang, naming the
// field by its title in s (the form as it was shown to the person, in
// their language), else by e.Title, else by its key. A pattern rule
// with a PatternMessage in s shows that message, never the expression.
func (e *FieldError) PersonText(c *Catalog, lang string, s *Schema) string {
	name, patternMsg := e.Title, ""
	if s != nil {
		if p := s.Property(e.Field); p != nil {
			if p.Title != "" {
				name = p.Title
			}
			patternMsg = p.PatternMessage
		}
	}
	if name == "" {
		name = e.Field
	}
	switch {
	case e.ID == MsgPattern && patternMsg != "":
		return c.Text(lang, MsgOther, name, patternMsg)
	case e.ID != "":
		return c.Text(lang, e.ID, name, e.Args...)
	case e.Field == "":
		return e.Msg
	}
	return c.Text(lang, MsgOther, name, e.Msg)
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

// Add records a problem with field, in words of its own (no MessageID).
func (e *errList) Add(field, msg string) {
	if len(e.list) >= MaxErrors {
		e.dropped++
		return
	}
	e.list = append(e.list, &FieldError{Field: clip(field), Msg: clipMsg(msg)})
}

// AddID records the problem id with p, msg in English, and the
// sentence's arguments.
func (e *errList) AddID(p *Property, id MessageID, msg string, args ...string) {
	if len(e.list) >= MaxErrors {
		e.dropped++
		return
	}
	e.list = append(e.list, &FieldError{Field: clip(p.Name), Title: p.Title, ID: id, Args: args, Msg: clipMsg(msg)})
}

// addField records a copy of f, an author's FieldError, keeping its
// sentence.
func (e *errList) addField(f *FieldError) {
	if len(e.list) >= MaxErrors {
		e.dropped++
		return
	}
	c := *f
	c.Field, c.Msg = clip(f.Field), clipMsg(f.Msg)
	e.list = append(e.list, &c)
}

// addKey records the problem id with the field named key, which is not
// a property (an unknown key in an answer).
func (e *errList) addKey(key string, id MessageID, msg string) {
	if len(e.list) >= MaxErrors {
		e.dropped++
		return
	}
	e.list = append(e.list, &FieldError{Field: clip(key), ID: id, Msg: clipMsg(msg)})
}

// sourceTitles sets the Title of each error about a property of src to
// that property's title, so that errors found against a translated copy
// of a form name fields in its source language.
func (e *errList) sourceTitles(src *Schema) {
	for _, f := range e.list {
		if p := src.Property(f.Field); p != nil {
			f.Title = p.Title
		}
	}
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
		n := strconv.Itoa(e.dropped)
		e.list = append(e.list, &FieldError{ID: MsgMore, Args: []string{n}, Msg: "and " + n + " more problems"})
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
