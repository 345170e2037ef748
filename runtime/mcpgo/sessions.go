package mcpgo

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/internal/sessions"
	"github.com/elicitgen/elicitgen/runtime/serve"
)

// Session budgets of NewHTTPHandler (serve.Options), as gosdk's: every
// 2025-era initialize registers a session in mcp-go (held until its idle
// sweep), so that no client may hold more than MaxSessionsPerClient of
// them (ClientKey: the remote address's host by default) nor all clients
// more than MaxSessions. A client at its budget that initializes again
// loses its own oldest idle session; a full table closes the oldest idle
// session of the client holding the most, rather than refusing the
// newcomer; only a table whose every session has a request in flight
// answers 503. A session lives at most SessionLifetime, however often it
// is pinged, and is closed once idle after that. A session closed by the
// table is ended in mcp-go as by the client's DELETE, and its next
// request is answered 404, so that its client initializes anew.

type sessionEntry struct {
	client        string
	created, used time.Time
	busy          int // requests in flight
}

// sessionTable holds the 2025-era sessions NewHTTPHandler saw open.
type sessionTable struct {
	total, perClient int
	lifetime, idle   time.Duration
	end              func(id string) // ends a session in mcp-go
	now              func() time.Time

	mu      sync.Mutex
	byID    map[string]*sessionEntry
	opening int // initializes admitted, not yet answered
	// closed remembers the ids the table closed (at most keepClosed, the
	// oldest forgotten first), so that their next request gets 404.
	closed     map[string]bool
	closedFIFO []string
}

// keepClosed is how many closed session ids a table remembers: twice its
// total, at least 1024.
func (t *sessionTable) keepClosed() int { return max(2*t.total, 1024) }

// sessionBudget is the handler that keeps a sessionTable in front of
// mcp-go's streamable HTTP server.
type sessionBudget struct {
	next  http.Handler
	table *sessionTable
	limit int64 // of a body read to tell an initialize
}

// withSessionBudgets returns h (mcp-go's streamable HTTP server) behind
// the session budgets of o, or h itself when o sets none. The client of a
// request is the key clientKeyed recorded.
func withSessionBudgets(h http.Handler, o serve.Options) http.Handler {
	if o.MaxSessions <= 0 && o.MaxSessionsPerClient <= 0 && o.SessionLifetime <= 0 {
		return h
	}
	t := &sessionTable{total: o.MaxSessions, perClient: o.MaxSessionsPerClient, lifetime: o.SessionLifetime, idle: o.SessionTimeout,
		end: func(id string) { endSession(h, id) }, now: time.Now, byID: map[string]*sessionEntry{}, closed: map[string]bool{}}
	return &sessionBudget{next: h, table: t, limit: o.MaxBodyBytes}
}

// endSession ends session id in mcp-go as its client's DELETE would: its
// registration and per-session state go.
func endSession(h http.Handler, id string) {
	r, err := http.NewRequestWithContext(context.Background(), http.MethodDelete, "/", http.NoBody)
	if err != nil {
		return
	}
	r.Header.Set(sessions.Header, id)
	h.ServeHTTP(discard{}, r)
}

// discard is a ResponseWriter that drops the response.
type discard struct{}

func (discard) Header() http.Header         { return http.Header{} }
func (discard) Write(p []byte) (int, error) { return len(p), nil }
func (discard) WriteHeader(int)             {}

func (b *sessionBudget) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if v := r.Header.Get("MCP-Protocol-Version"); v != "" && runtime.EraOf(v).MultiRoundTrip() {
		b.next.ServeHTTP(w, r) // 2026-07-28: no sessions
		return
	}
	sid := r.Header.Get(sessions.Header)
	switch {
	case sid != "":
		known, gone := b.table.use(sid)
		if gone {
			http.Error(w, "session expired: initialize a new one", http.StatusNotFound)
			return
		}
		if known {
			defer b.table.done(sid, r.Method == http.MethodDelete)
		}
	case r.Method == http.MethodPost && b.initialize(r):
		client := serve.ClientFrom(r.Header)
		if !b.table.admit(client) {
			w.Header().Set("Retry-After", "30")
			http.Error(w, "too many sessions: try again later", http.StatusServiceUnavailable)
			return
		}
		var once sync.Once
		opened := func(sid string) { once.Do(func() { b.table.opened(sid, client) }) }
		rec := &sessions.Recorder{ResponseWriter: w, OnID: opened} // recorded before the client can send again
		defer func() { opened(rec.ID) }()
		w = rec
	}
	b.next.ServeHTTP(w, r)
}

// initialize reports whether the body of r (a POST without a session) is
// an initialize request; it puts the body back.
func (b *sessionBudget) initialize(r *http.Request) bool {
	if r.Body == nil || r.Body == http.NoBody {
		return false
	}
	body, err := serve.PeekBody(r, b.limit)
	if err != nil {
		return false
	}
	var msg struct {
		Method string `json:"method"`
	}
	return json.Unmarshal(body, &msg) == nil && msg.Method == "initialize"
}

// admit makes room for a new session of client: it closes idle sessions
// past their idle timeout or lifetime, then, at client's budget, client's
// oldest idle session, and when the table is full, the oldest idle
// session of the client holding the most. It reports whether the session
// may open, and if so counts it as opening.
func (t *sessionTable) admit(client string) bool {
	t.mu.Lock()
	var ended []string
	defer func() {
		t.mu.Unlock()
		for _, id := range ended {
			t.end(id)
		}
	}()
	closeIdle := func(id string) {
		delete(t.byID, id)
		t.remember(id)
		ended = append(ended, id)
	}
	now := t.now()
	for id, e := range t.byID {
		if t.stale(e, now) {
			closeIdle(id)
		}
	}
	entries := make([]sessions.Entry, 0, len(t.byID))
	for id, e := range t.byID {
		entries = append(entries, sessions.Entry{ID: id, Client: e.client, Created: e.created, Busy: e.busy > 0})
	}
	shed, ok := sessions.Admit(entries, client, t.perClient, t.total, t.opening)
	if !ok {
		return false
	}
	for _, id := range shed {
		closeIdle(id)
	}
	t.opening++
	return true
}

// stale reports whether e, idle, is past its idle timeout or its
// lifetime.
func (t *sessionTable) stale(e *sessionEntry, now time.Time) bool {
	return e.busy == 0 && (t.idle > 0 && now.Sub(e.used) > t.idle || t.lifetime > 0 && now.Sub(e.created) > t.lifetime)
}

// remember records id as closed by the table.
func (t *sessionTable) remember(id string) {
	if t.closed[id] {
		return
	}
	t.closed[id] = true
	t.closedFIFO = append(t.closedFIFO, id)
	if len(t.closedFIFO) > t.keepClosed() {
		delete(t.closed, t.closedFIFO[0])
		t.closedFIFO = t.closedFIFO[1:]
	}
}

// opened records the new session id of client (none when the initialize
// failed), ending the admission admit counted.
func (t *sessionTable) opened(id, client string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.opening--
	if id == "" {
		return
	}
	if _, ok := t.byID[id]; !ok {
		now := t.now()
		t.byID[id] = &sessionEntry{client: client, created: now, used: now}
	}
}

// use starts a request of session sid: known says the table holds it
// (and now counts the request as in flight); gone that the table closed
// it, or closes it now because it is idle and stale, and the request must
// be answered 404. A session the table never saw (opened before it, or
// on another instance) is neither.
func (t *sessionTable) use(sid string) (known, gone bool) {
	t.mu.Lock()
	e := t.byID[sid]
	switch {
	case e == nil:
		gone = t.closed[sid]
		t.mu.Unlock()
		return false, gone
	case t.stale(e, t.now()):
		delete(t.byID, sid)
		t.remember(sid)
		t.mu.Unlock()
		t.end(sid)
		return false, true
	}
	e.busy++
	e.used = t.now()
	t.mu.Unlock()
	return true, false
}

// done ends a request of session sid that use counted; deleted says it
// was the session's DELETE.
func (t *sessionTable) done(sid string, deleted bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e := t.byID[sid]
	if e == nil {
		return
	}
	if deleted {
		delete(t.byID, sid)
		return
	}
	e.busy--
	e.used = t.now()
}
