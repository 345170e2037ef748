package schemadiff

import (
	"fmt"
	"io"
	"strings"
)

// Formats of Report.Write.
const (
	FormatText     = "text"
	FormatJSON     = "json"
	FormatMarkdown = "markdown"
	FormatGitHub   = "github"
)

// Formats lists the report formats, for flag help.
var Formats = []string{FormatText, FormatJSON, FormatMarkdown, FormatGitHub}

// Write writes the report in format: text (WriteText), json (WriteJSON),
// markdown (WriteMarkdown) or github (WriteGitHub).
func (r *Report) Write(w io.Writer, format string) error {
	switch format {
	case FormatText, "":
		return r.WriteText(w)
	case FormatJSON:
		return r.WriteJSON(w)
	case FormatMarkdown:
		return r.WriteMarkdown(w)
	case FormatGitHub:
		return r.WriteGitHub(w)
	}
	return fmt.Errorf("unknown format %q (want %s)", format, strings.Join(Formats, ", "))
}

// WriteMarkdown writes a summary a bot can post on a pull request: a
// heading with the counts, then per form a table of its changes with what
// an answer valid before now gets, breaking changes first.
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	b.WriteString("## elicitgen diff\n\n")
	if len(r.Changes) == 0 {
		b.WriteString("No schema changes.\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	verdict := "No breaking change."
	if r.Breaking() {
		verdict = "**Breaking changes**: answers valid before are refused or read otherwise by the new server."
	}
	fmt.Fprintf(&b, "%s %s.\n", verdict, r.Summary())
	var forms []string
	byForm := map[string][]Change{}
	for _, c := range r.Changes {
		if byForm[c.Form] == nil {
			forms = append(forms, c.Form)
		}
		byForm[c.Form] = append(byForm[c.Form], c)
	}
	for _, f := range forms {
		fmt.Fprintf(&b, "\n### %s\n\n", mdText(f))
		b.WriteString("| | field | change | what an answer valid before now gets |\n| --- | --- | --- | --- |\n")
		for _, pass := range []func(Change) bool{
			func(c Change) bool { return c.Breaking && !c.Acknowledged },
			func(c Change) bool { return c.Breaking && c.Acknowledged },
			func(c Change) bool { return !c.Breaking },
		} {
			for _, c := range byForm[f] {
				if !pass(c) {
					continue
				}
				mark, effect := "compatible", mdText(c.Reason)
				switch {
				case c.Breaking && c.Acknowledged:
					mark, effect = "acknowledged", effect+" — *allowed: "+mdText(c.Allowed)+"*"
				case c.Breaking:
					mark = "**breaking**"
				}
				field := "(form)"
				if c.Property != "" {
					field = "`" + strings.ReplaceAll(c.Property, "`", "'") + "`"
				}
				fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", mark, field, mdText(c.Detail), effect)
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mdText makes s plain text in a Markdown table cell: pipes and the
// characters of emphasis, links and code escaped, line breaks folded,
// HTML characters escaped.
var mdText = strings.NewReplacer(
	"|", `\|`, "\\", `\\`, "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "`", "\\`", "~", `\~`,
	"\n", " ", "\r", " ", "<", "&lt;", ">", "&gt;", "&", "&amp;",
).Replace

// WriteGitHub writes one GitHub Actions workflow command per change, at
// the change's File and Line when known: ::error for a breaking change,
// ::notice for a compatible or acknowledged one; then the summary as a
// ::notice (or ::error when breaking).
func (r *Report) WriteGitHub(w io.Writer) error {
	var b strings.Builder
	for _, c := range r.Changes {
		level, msg := "notice", c.Detail+": "+c.Reason
		switch {
		case c.Breaking && c.Acknowledged:
			msg = "acknowledged breaking change: " + msg + " (allowed: " + c.Allowed + ")"
		case c.Breaking:
			level = "error"
			msg = "breaking: " + msg
		default:
			msg = "compatible: " + msg
		}
		b.WriteString(Annotation(level, c.File, c.Line, "elicitgen diff: "+subject(c.Form, c.Property), msg))
	}
	level := "notice"
	if r.Breaking() {
		level = "error"
	}
	b.WriteString(Annotation(level, "", 0, "elicitgen diff", r.Summary()))
	_, err := io.WriteString(w, b.String())
	return err
}

// Annotation returns one GitHub Actions workflow command line:
// ::level file=F,line=L,title=T::message, with file and line left out
// when empty, and the values escaped as the runner expects.
func Annotation(level, file string, line int, title, msg string) string {
	var props []string
	if file != "" {
		props = append(props, "file="+ghProperty(file))
		if line > 0 {
			props = append(props, fmt.Sprintf("line=%d", line))
		}
	}
	if title != "" {
		props = append(props, "title="+ghProperty(title))
	}
	if len(props) == 0 {
		return "::" + level + "::" + ghData(msg) + "\n"
	}
	return "::" + level + " " + strings.Join(props, ",") + "::" + ghData(msg) + "\n"
}

func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
