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
//	acknowledged Form.property: detail: reason (allowed: why)
//	compatible Form.property: detail
func (c Change) String() string {
	if c.Breaking && c.Acknowledged {
		return fmt.Sprintf("acknowledged %s: %s: %s (allowed: %s)", subject(c.Form, c.Property), c.Detail, c.Reason, c.Allowed)
	}
	if c.Breaking {
		return fmt.Sprintf("BREAKING %s: %s: %s", subject(c.Form, c.Property), c.Detail, c.Reason)
	}
	return fmt.Sprintf("compatible %s: %s", subject(c.Form, c.Property), c.Detail)
}

// Summary returns the last line of the text report, such as
// "3 changes: 1 breaking, 2 compatible", "2 changes: 0 breaking, 1
// acknowledged, 1 compatible" or "no changes".
func (r *Report) Summary() string {
	n, b, a := len(r.Changes), 0, 0
	for _, c := range r.Changes {
		switch {
		case c.Breaking && c.Acknowledged:
			a++
		case c.Breaking:
			b++
		}
	}
	ack := ""
	if a > 0 {
		ack = fmt.Sprintf(", %d acknowledged", a)
	}
	switch n {
	case 0:
		return "no changes"
	case 1:
		return fmt.Sprintf("1 change: %d breaking%s, %d compatible", b, ack, n-b-a)
	}
	return fmt.Sprintf("%d changes: %d breaking%s, %d compatible", n, b, ack, n-b-a)
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
//	{"breaking": bool, "changes": [{"form", "property", "kind", "breaking", "detail", "reason",
//	  "file", "line", "acknowledged", "allowed"}]}
//
// "breaking" is Breaking(): false when every breaking change is
// acknowledged; the last four keys of a change are left out when empty.
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
