package schemadiff

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// String returns the change as one line of the text report:
//
//	BREAKING Form.property: detail: reason
//	compatible Form.property: detail
func (c Change) String() string {
	if c.Breaking {
		return fmt.Sprintf("BREAKING %s: %s: %s", subject(c.Form, c.Property), c.Detail, c.Reason)
	}
	return fmt.Sprintf("compatible %s: %s", subject(c.Form, c.Property), c.Detail)
}

// Summary returns the last line of the text report, such as
// "3 changes: 1 breaking, 2 compatible" or "no changes".
func (r *Report) Summary() string {
	n, b := len(r.Changes), 0
	for _, c := range r.Changes {
		if c.Breaking {
			b++
		}
	}
	switch n {
	case 0:
		return "no changes"
	case 1:
		return fmt.Sprintf("1 change: %d breaking, %d compatible", b, n-b)
	}
	return fmt.Sprintf("%d changes: %d breaking, %d compatible", n, b, n-b)
}

// WriteText writes one line per change (see Change.String) and a final
// summary line (see Summary).
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	for _, c := range r.Changes {
		b.WriteString(c.String())
		b.WriteByte('\n')
	}
	b.WriteString(r.Summary())
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteJSON writes the report as a 2-space indented JSON object:
//
//	{"breaking": bool, "changes": [{"form", "property", "kind", "breaking", "detail", "reason"}]}
//
// "changes" is an empty array, never null, when nothing changed.
func (r *Report) WriteJSON(w io.Writer) error {
	out := struct {
		Breaking bool     `json:"breaking"`
		Changes  []Change `json:"changes"`
	}{r.Breaking(), r.Changes}
	if out.Changes == nil {
		out.Changes = []Change{}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
