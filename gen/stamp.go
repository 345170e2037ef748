package gen

import "strings"

// Stamps. What costs in emitting a file is rendering and formatting, so
// both happen once per file, not once per form: jennifer renders each
// construct once, with placeholders (holes) for the names and literals
// that differ between forms, into the one file that go/format formats;
// each form then fills the formatted stamp in. A filled stamp is what
// gofmt would print because nothing in a stamp's layout depends on what
// fills it: function bodies are multi-line (gofmt keeps them so, whatever
// the names' length), a descriptor's spec is a raw string (which gofmt
// never touches), and a guard's struct fields are aligned with
// text/tabwriter exactly as go/printer aligns them (see fillGuard).

// The holes. Each is an identifier (so that the stamp parses), all have
// the same length and none is a prefix of another.
const (
	holeType       = "ZqTqZ" // the form type
	holeSchemaFunc = "ZqSqZ"
	holeAsk        = "ZqAqZ"
	holeAccept     = "ZqCqZ"
	holeDecline    = "ZqDqZ"
	holeCancel     = "ZqXqZ"
	holeFormVar    = "zqFqZ" // the form's descriptor, elicitFormT
	holeName       = "ZqMqZ" // a name or a string literal
	holeList       = "ZqLqZ" // a form's locales variable
	holeLines      = "ZqPqZ" // lines of a struct
	holeAlias      = "ZqGqZ" // a guard's type alias
)

func isHole(h string) bool {
	switch h {
	case holeType, holeSchemaFunc, holeAsk, holeAccept, holeDecline, holeCancel,
		holeFormVar, holeName, holeList, holeLines, holeAlias:
		return true
	}
	return false
}

// stamp is a formatted construct cut at its holes: literal text and,
// between texts, the hole standing there.
type stamp struct {
	texts []string // len(holes)+1
	holes []string // "" where the text was cut at something that only looked like a hole
}

// compileStamp cuts text at every hole.
func compileStamp(text string) stamp {
	var s stamp
	for {
		i := strings.Index(text, "Zq")
		j := strings.Index(text, "zq")
		if i < 0 || (j >= 0 && j < i) {
			i = j
		}
		if i < 0 || i+len(holeType) > len(text) {
			s.texts = append(s.texts, text)
			return s
		}
		h := text[i : i+len(holeType)]
		if !isHole(h) {
			// Not a hole: keep the text and look further.
			s.texts = append(s.texts, text[:i+2])
			s.holes = append(s.holes, "")
			text = text[i+2:]
			continue
		}
		s.texts = append(s.texts, text[:i])
		s.holes = append(s.holes, h)
		text = text[i+len(h):]
	}
}

// appendTo appends the stamp, its holes filled from args.
func (s *stamp) appendTo(out []byte, args map[string]string) []byte {
	for k, t := range s.texts {
		out = append(out, t...)
		if k < len(s.holes) {
			if h := s.holes[k]; h != "" {
				out = append(out, args[h]...)
			}
		}
	}
	return out
}

// apiArgs are the names the stamps of form t are filled with.
func apiArgs(t string) map[string]string {
	n := NamesOf(t)
	return map[string]string{
		holeType: t, holeSchemaFunc: n.SchemaFunc, holeAsk: n.Ask, holeAccept: n.Accept,
		holeDecline: n.Decline, holeCancel: n.Cancel, holeFormVar: n.Descriptor,
	}
}
