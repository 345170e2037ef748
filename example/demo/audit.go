package main

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"

	"github.com/elicitgen/elicitgen/runtime"
)

// auditLog holds the audit records the server writes (the JSON lines the
// example server prints on stderr), with what changes from run to run
// masked: the time, the call id and the durations.
type auditLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *auditLog) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(b)
}

// observer returns the log observer writing to l.
func (l *auditLog) observer() runtime.Observer {
	return runtime.NewLogObserver(slog.New(slog.NewJSONHandler(l, &slog.HandlerOptions{
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			switch {
			case len(groups) > 0:
			case a.Key == slog.TimeKey:
				return slog.Attr{}
			case a.Key == runtime.LogCallID:
				return slog.String(a.Key, "<call-id>")
			case a.Key == runtime.LogWaitMS, a.Key == runtime.LogRoundMS, a.Key == runtime.LogCallMS:
				return slog.String(a.Key, "<ms>")
			}
			return a
		},
	})))
}

// take returns the records so far and forgets them.
func (l *auditLog) take() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.buf.String()
	l.buf.Reset()
	return s
}

// printAudit writes the records of a step, one per line.
func printAudit(w io.Writer, records string) {
	fmt.Fprintln(w, "audit records (the server's JSON lines on stderr; time, call id and durations masked):")
	for _, line := range strings.Split(strings.TrimSpace(records), "\n") {
		fmt.Fprintf(w, "  %s\n", line)
	}
}
