package page

import (
	"encoding/json"
	"errors"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/elicitgen/elicitgen/runtime"
)

// Names a post carries besides the schema's properties.
const (
	formCSRF   = "csrf"
	formAction = "action"
	// The step-up's nonce ("begin" to ask for one) and assertion
	// (Question.StepUp).
	formStepUp    = "elicit_stepup"
	formAssertion = "elicit_assertion"
)

// fieldProblem is one problem with a post: field is the property name, ""
// for the post as a whole (or a key that is no property); msg is the
// sentence the person reads, naming the field.
type fieldProblem struct {
	field string
	msg   string
}

// problems returns the field problems of err, a *runtime.ValidationError
// or any error, as the person reads them: from c (nil: the built-in
// catalog) in the language that best serves lang, fields named by their
// titles in s, a pattern rule by its PatternMessage (never the
// expression). An error without field problems (a Config.Validate
// error in the author's words) is shown as it is.
func problems(err error, c *runtime.Catalog, lang string, s *runtime.Schema) []fieldProblem {
	if err == nil {
		return nil
	}
	var ve *runtime.ValidationError
	if errors.As(err, &ve) {
		out := make([]fieldProblem, 0, len(ve.Fields))
		for _, f := range ve.Fields {
			out = append(out, fieldProblem{f.Field, f.PersonText(c, lang, s)})
		}
		if len(out) > 0 {
			return out
		}
	}
	var fe *runtime.FieldError
	if errors.As(err, &fe) {
		return []fieldProblem{{fe.Field, fe.PersonText(c, lang, s)}}
	}
	return []fieldProblem{{"", err.Error()}}
}

// unconfirmed returns a problem for each box tagged confirm that content
// leaves unticked: on the page an accept without it is not sent, the
// person is told that unticked declines, and chooses.
func unconfirmed(s *runtime.Schema, content map[string]any, t *text) []fieldProblem {
	var out []fieldProblem
	for i := range s.Properties {
		pr := &s.Properties[i]
		if pr.Confirm && pr.Kind == runtime.KindBoolean && content[pr.Name] != true {
			out = append(out, fieldProblem{pr.Name, t.about(t.Unconfirmed, pr)})
		}
	}
	return out
}

// content converts a post to the content of an accept, the way an MCP
// client sends it, by property kind: a string or single choice left empty
// is absent (an optional field then gets its default, a required one is
// reported missing); an unticked checkbox is false; a multi-select is the
// list of ticked options; numbers are JSON numbers as typed. Keys that
// are no property are kept, as strings, for the validator to refuse.
// Problems the conversion itself finds (a value given twice, too long,
// not a number) are returned instead.
func (p *Pages) content(s *runtime.Schema, form url.Values, t *text) (map[string]any, []fieldProblem) {
	content := make(map[string]any, len(s.Properties))
	var bad []fieldProblem
	tooLong := func(v string) bool { return len(v) > p.cfg.MaxValue }
	for i := range s.Properties {
		pr := &s.Properties[i]
		vals := form[pr.Name]
		if pr.Kind == runtime.KindMulti {
			items := make([]any, 0, len(vals))
			long := false
			for _, v := range vals {
				long = long || tooLong(v)
				items = append(items, v)
			}
			switch {
			case long:
				bad = append(bad, fieldProblem{pr.Name, t.about(t.TooLong, pr)})
			case len(items) > 0 || pr.Required:
				content[pr.Name] = items
			}
			continue
		}
		if len(vals) > 1 {
			bad = append(bad, fieldProblem{pr.Name, t.about(t.Once, pr)})
			continue
		}
		v := ""
		if len(vals) == 1 {
			v = vals[0]
		}
		if tooLong(v) {
			bad = append(bad, fieldProblem{pr.Name, t.about(t.TooLong, pr)})
			continue
		}
		switch pr.Kind {
		case runtime.KindBoolean:
			switch v {
			case "":
				content[pr.Name] = false
			case "true", "on":
				content[pr.Name] = true
			default:
				bad = append(bad, fieldProblem{pr.Name, t.about(t.BadBool, pr)})
			}
		case runtime.KindInteger, runtime.KindNumber:
			v = strings.TrimSpace(v)
			if v == "" {
				continue
			}
			if !json.Valid([]byte(v)) || !isNumber(v) {
				msg := t.NotNumber
				if pr.Kind == runtime.KindInteger {
					msg = t.NotInteger
				}
				bad = append(bad, fieldProblem{pr.Name, t.about(msg, pr)})
				continue
			}
			content[pr.Name] = json.Number(v)
		default:
			if v != "" {
				content[pr.Name] = v
			}
		}
	}
	for k, vals := range form {
		if k == formCSRF || k == formAction || k == formStepUp || k == formAssertion || s.Property(k) != nil {
			continue
		}
		v := ""
		if len(vals) > 0 {
			v = vals[0]
		}
		content[k] = v
	}
	return content, bad
}

// isNumber reports whether v, valid JSON, is a number (not a string,
// literal, array or object).
func isNumber(v string) bool {
	c := v[0]
	return c == '-' || c >= '0' && c <= '9'
}

// fieldView is one field of page.html.
type fieldView struct {
	Name, ID    string
	Title       string
	Description string
	Hint        string
	Error       string
	Required    bool
	// Input is the control: an <input> type ("text", "email", "url",
	// "date", "number"), "checkbox" (a boolean), "select" or "radio" (a
	// single choice), "checkboxes" (a multi-select).
	Input        string
	Value        string
	Checked      bool
	Min, Max     string
	Step         string
	MinLength    string
	MaxLength    string
	Autocomplete string
	Options      []optionView
	// Described lists the ids of the description, hint and error, for
	// aria-describedby.
	Described string
}

type optionView struct {
	ID, Value, Title string
	Selected         bool
}

// maxRadios is the most options a required single choice shows as radio
// buttons; more, or an optional one, get a select.
const maxRadios = 5

// fields returns the fields of s as page.html shows them: with posted's
// values when set (else the schema's defaults), each problem beside its
// field, and the summary of every problem, fields named by title.
func fields(s *runtime.Schema, posted url.Values, errs []fieldProblem, t *text) ([]fieldView, []summaryItem) {
	out := make([]fieldView, len(s.Properties))
	var summary []summaryItem
	for i := range s.Properties {
		pr := &s.Properties[i]
		f := &out[i]
		f.Name, f.ID = pr.Name, "f"+strconv.Itoa(i)
		f.Title, f.Description, f.Required = pr.Title, pr.Description, pr.Required
		if f.Title == "" {
			f.Title = pr.Name
		}
		var vals []string
		if posted != nil {
			vals = posted[pr.Name]
		} else {
			vals = defaultValues(pr)
		}
		one := ""
		if len(vals) > 0 {
			one = vals[0]
		}
		switch pr.Kind {
		case runtime.KindBoolean:
			// A box always has a value (unticked is false): it is never
			// marked required. A box tagged confirm says that unticked
			// declines.
			f.Input, f.Checked, f.Required = "checkbox", one == "true" || one == "on", false
			if pr.Confirm {
				f.Hint = t.ConfirmHint
			}
		case runtime.KindEnum, runtime.KindMulti:
			f.Input = "select"
			switch {
			case pr.Kind == runtime.KindMulti:
				f.Input = "checkboxes"
				f.Hint = t.countHint(pr)
			case pr.Required && len(pr.Options) <= maxRadios:
				f.Input = "radio"
			}
			for j, o := range pr.Options {
				title := o.Title
				if title == "" {
					title = o.Value
				}
				sel := false
				for _, v := range vals {
					sel = sel || v == o.Value
				}
				f.Options = append(f.Options, optionView{ID: f.ID + "-" + strconv.Itoa(j), Value: o.Value, Title: title, Selected: sel})
			}
		case runtime.KindInteger, runtime.KindNumber:
			f.Input, f.Value = "number", one
			f.Step = "any"
			if pr.Kind == runtime.KindInteger {
				f.Step = "1"
			}
			if pr.Minimum != nil {
				f.Min = strconv.FormatFloat(*pr.Minimum, 'f', -1, 64)
			}
			if pr.Maximum != nil {
				f.Max = strconv.FormatFloat(*pr.Maximum, 'f', -1, 64)
			}
		default:
			f.Value = clipValue(one)
			f.Input = "text"
			switch pr.Format {
			case "email":
				f.Input, f.Hint, f.Autocomplete = "email", t.Email, "email"
			case "uri":
				f.Input, f.Hint, f.Autocomplete = "url", t.URI, "url"
			case "date":
				f.Input, f.Hint = "date", t.Date
			case "date-time":
				f.Hint = t.Stamp
			}
			if pr.MinLength != nil {
				f.MinLength = strconv.Itoa(*pr.MinLength)
			}
			if pr.MaxLength != nil {
				f.MaxLength = strconv.Itoa(*pr.MaxLength)
			}
		}
	}
	for _, e := range errs {
		i := propIndex(s, e.field)
		if i < 0 {
			summary = append(summary, summaryItem{Text: e.msg})
			continue
		}
		f := &out[i]
		if f.Error != "" {
			f.Error += "; " + e.msg
		} else {
			f.Error = e.msg
		}
		summary = append(summary, summaryItem{Target: f.ID, Text: e.msg})
	}
	for i := range out {
		f := &out[i]
		var ids []string
		if f.Description != "" {
			ids = append(ids, f.ID+"-desc")
		}
		if f.Hint != "" {
			ids = append(ids, f.ID+"-hint")
		}
		if f.Error != "" {
			ids = append(ids, f.ID+"-err")
		}
		f.Described = strings.Join(ids, " ")
	}
	return out, summary
}

func propIndex(s *runtime.Schema, name string) int {
	for i := range s.Properties {
		if s.Properties[i].Name == name {
			return i
		}
	}
	return -1
}

// defaultValues returns the schema default of pr as form values.
func defaultValues(pr *runtime.Property) []string {
	switch d := pr.Default.(type) {
	case nil:
		return nil
	case string:
		return []string{d}
	case bool:
		if d {
			return []string{"true"}
		}
		return nil
	case []string:
		return d
	case []any:
		out := make([]string, 0, len(d))
		for _, v := range d {
			if s, ok := v.(string); ok {
				out = append(out, s)
			}
		}
		return out
	case float64:
		return []string{strconv.FormatFloat(d, 'f', -1, 64)}
	case int64:
		return []string{strconv.FormatInt(d, 10)}
	case uint64:
		return []string{strconv.FormatUint(d, 10)}
	case int:
		return []string{strconv.Itoa(d)}
	}
	return nil
}

// maxShown bounds the length of a posted value shown again.
const maxShown = 4096

func clipValue(v string) string {
	if len(v) <= maxShown {
		return v
	}
	cut := maxShown
	for cut > 0 && !utf8.RuneStart(v[cut]) {
		cut--
	}
	return v[:cut]
}
