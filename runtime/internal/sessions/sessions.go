// Package sessions holds what the adapters' HTTP session budgets share:
// the choice of the sessions to close so that a newcomer may open one,
// and the response writer that catches a new session's id.
package sessions

import (
	"net/http"
	"time"
)

// Header is the streamable HTTP session header.
const Header = "Mcp-Session-Id"

// Entry is one open session, as a budget sees it.
type Entry struct {
	ID      string
	Client  string // "" for a session the table did not see open: counted, never closed
	Created time.Time
	Busy    bool // a request is in flight: never closed
}

// Admit chooses the sessions to close so that a new session of client may
// open among entries, with opening sessions being created: at client's
// budget (perClient), client's oldest idle session; while the table is
// full (total), the oldest idle session of the client holding the most.
// ok is false when no idle session can make the room (the newcomer is
// refused); a budget <= 0 is none.
func Admit(entries []Entry, client string, perClient, total, opening int) (closed []string, ok bool) {
	gone := map[string]bool{}
	count := map[string]int{}
	for _, e := range entries {
		count[e.Client]++
	}
	oldestIdle := func(of string) string {
		best := -1
		for i, e := range entries {
			if e.Client == of && of != "" && !e.Busy && !gone[e.ID] && (best < 0 || e.Created.Before(entries[best].Created)) {
				best = i
			}
		}
		if best < 0 {
			return ""
		}
		return entries[best].ID
	}
	shed := func(of string) {
		id := oldestIdle(of)
		gone[id] = true
		closed = append(closed, id)
		count[of]--
	}
	if perClient > 0 && count[client] >= perClient {
		if oldestIdle(client) == "" {
			return nil, false
		}
		shed(client)
	}
	for total > 0 && len(entries)-len(closed)+opening >= total {
		heaviest, n := "", 0
		for c, k := range count {
			if k > n && oldestIdle(c) != "" {
				heaviest, n = c, k
			}
		}
		if heaviest == "" {
			return nil, false
		}
		shed(heaviest)
	}
	return closed, true
}

// Recorder catches the session id an SDK gives a new session, and calls
// OnID with it before the response's headers go out (so that the table
// knows the session before its client can use it).
type Recorder struct {
	http.ResponseWriter
	ID   string
	OnID func(id string)
	sent bool
}

// WriteHeader catches the id, then writes the header.
func (w *Recorder) WriteHeader(code int) {
	w.catch()
	w.ResponseWriter.WriteHeader(code)
}

func (w *Recorder) catch() {
	if w.sent {
		return
	}
	w.sent = true
	w.ID = w.Header().Get(Header)
	if w.ID != "" && w.OnID != nil {
		w.OnID(w.ID)
	}
}

// Write catches the id, then writes p.
func (w *Recorder) Write(p []byte) (int, error) {
	w.catch()
	return w.ResponseWriter.Write(p)
}

// Flush flushes the wrapped writer.
func (w *Recorder) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap returns the wrapped writer (http.ResponseController).
func (w *Recorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }
