package main

import (
	"io"
	"log/slog"

	"github.com/elicitgen/elicitgen/runtime"
)

// auditObserver returns the observer of the server's audit log: one JSON
// line per event of every ask, written to w, each with the instance's
// name.
func auditObserver(w io.Writer, instance string) runtime.Observer {
	return runtime.NewLogObserver(slog.New(slog.NewJSONHandler(w, nil)).With("instance", instance))
}
