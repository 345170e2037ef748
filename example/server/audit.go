package main

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/elicitgen/elicitgen/runtime"
)

// auditObserver returns the observer of the server's audit log: one JSON
// line per event of every ask, written to w, each with the instance's
// name.
func auditObserver(w io.Writer, instance string) runtime.Observer {
	return runtime.NewLogObserver(slog.New(slog.NewJSONHandler(w, nil)).With("instance", instance))
}

// lineWriter is the output of the plain log lines (log.Printf), which
// share stderr with the JSON audit records: each Write is one line, its
// line breaks and other control characters escaped (\n, \x1b), so that
// no string a client chose (a tool name, an answer) can end a line and
// start a forged record. Characters that are invisible or change the
// direction of the text that follows (U+202E, U+200B, the joiners an
// answer may hold, see runtime.HiddenRune) are escaped too (\u202e), so
// that the operator reads the line as it is; so is invalid UTF-8 (\xff).
type lineWriter struct{ w io.Writer }

// Write implements io.Writer.
func (l lineWriter) Write(p []byte) (int, error) {
	body := bytes.TrimSuffix(p, []byte("\n"))
	out := make([]byte, 0, len(body)+1)
	for len(body) > 0 {
		c := body[0]
		if c < utf8.RuneSelf {
			switch {
			case c == '\n':
				out = append(out, `\n`...)
			case c == '\r':
				out = append(out, `\r`...)
			case c < ' ' || c == 0x7f:
				out = fmt.Appendf(out, `\x%02x`, c)
			default:
				out = append(out, c)
			}
			body = body[1:]
			continue
		}
		r, n := utf8.DecodeRune(body)
		switch {
		case r == utf8.RuneError && n == 1:
			out = fmt.Appendf(out, `\x%02x`, c)
		case hidden(r):
			if r > 0xFFFF {
				out = fmt.Appendf(out, `\U%08x`, r)
			} else {
				out = fmt.Appendf(out, `\u%04x`, r)
			}
		default:
			out = append(out, body[:n]...)
		}
		body = body[n:]
	}
	if _, err := l.w.Write(append(out, '\n')); err != nil {
		return 0, err
	}
	return len(p), nil
}

// hidden reports whether r, a non-ASCII character, is invisible or a
// control in a log line: a format character (bidirectional controls,
// zero-width characters, tags), a control, a line or paragraph
// separator, a variation selector or another default-ignorable one.
func hidden(r rune) bool {
	return unicode.In(r, unicode.Cf, unicode.Cc, unicode.Zl, unicode.Zp, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point)
}

// logName is a client-chosen name as a log line shows it: bare when it
// is a plain identifier (letters, digits, _ . - /), quoted otherwise, so
// that it cannot pose as another field of the line.
func logName(s string) string {
	for _, r := range s {
		if !(r == '_' || r == '.' || r == '-' || r == '/' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return strconv.Quote(s)
		}
	}
	if s == "" {
		return `""`
	}
	return s
}
