package main

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"strconv"

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
// start a forged record.
type lineWriter struct{ w io.Writer }

// Write implements io.Writer.
func (l lineWriter) Write(p []byte) (int, error) {
	body := bytes.TrimSuffix(p, []byte("\n"))
	out := make([]byte, 0, len(body)+1)
	for _, c := range body {
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
	}
	if _, err := l.w.Write(append(out, '\n')); err != nil {
		return 0, err
	}
	return len(p), nil
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
