package gosdk

import (
	"net/http"
	"sync"
	"time"

	"github.com/elicitgen/elicitgen/runtime/internal/sessions"
	"github.com/elicitgen/elicitgen/runtime/serve"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Session budgets of NewHTTPHandler (serve.Options), so that no
// client locks out the others: each client (ClientKey: the principal
// where the request has one, else its remote address) holds at most
// MaxSessionsPerClient 2025-era sessions, and all of them at most
// MaxSessions. A client at its budget that opens
// another loses its own oldest idle session; a full table sheds the
// oldest idle session of the client holding the most, rather than
// refusing the newcomer. Only a table whose every session has a call in
// flight answers 503. A session lives at most SessionLifetime, however
// often it is pinged; it is closed once idle after that.

// ClientOf names the client of r for its budgets (the default of
// serve.Options.ClientKey): the authenticated user when an auth
// middleware put token info with a UserID on the request's context
// (go-sdk's auth.RequireBearerToken), else the host of its remote
// address.
func ClientOf(r *http.Request) string {
	if ti := auth.TokenInfoFromContext(r.Context()); ti != nil && ti.UserID != "" {
		return "principal:" + ti.UserID
	}
	return serve.RemoteClient(r)
}

type sessionEntry struct {
	client  string
	created time.Time
}

// sessionTable holds the 2025-era sessions of an eraRouter by id.
type sessionTable struct {
	mu               sync.Mutex
	total, perClient int
	lifetime         time.Duration
	byID             map[string]*sessionEntry
	closing          map[string]bool // shed, being closed
	now              func() time.Time
}

func newSessionTable(o serve.Options) *sessionTable {
	return &sessionTable{total: o.MaxSessions, perClient: o.MaxSessionsPerClient, lifetime: o.SessionLifetime,
		byID: map[string]*sessionEntry{}, closing: map[string]bool{}, now: time.Now}
}

// admit makes room for a new session of client among the live sessions
// of s (busy reports whether a session has a call in flight): it closes
// idle sessions past their lifetime, then, at client's budget, client's
// oldest idle session, and when the table is full, the oldest idle
// session of the client holding the most. It reports whether the new
// session may open. opening counts the sessions being created.
func (t *sessionTable) admit(s *mcp.Server, client string, busy func(id string) bool, opening int) bool {
	if t == nil {
		return true
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	live := map[string]*mcp.ServerSession{}
	still := map[string]bool{}
	for ss := range s.Sessions() {
		if id := ss.ID(); id != "" && !t.closing[id] {
			live[id] = ss
		} else if id != "" {
			still[id] = true
		}
	}
	for id := range t.closing {
		if !still[id] {
			delete(t.closing, id)
		}
	}
	for id := range t.byID {
		if live[id] == nil {
			delete(t.byID, id)
		}
	}
	now := t.now()
	closeIdle := func(id string) {
		delete(t.byID, id)
		t.closing[id] = true
		if ss := live[id]; ss != nil {
			go ss.Close()
		}
		delete(live, id)
	}
	if t.lifetime > 0 {
		for id, e := range t.byID {
			if now.Sub(e.created) > t.lifetime && !busy(id) {
				closeIdle(id)
			}
		}
	}
	entries := make([]sessions.Entry, 0, len(live))
	for id := range live {
		if e := t.byID[id]; e != nil {
			entries = append(entries, sessions.Entry{ID: id, Client: e.client, Created: e.created, Busy: busy(id)})
		} else {
			entries = append(entries, sessions.Entry{ID: id}) // opened before the table knew it
		}
	}
	shed, ok := sessions.Admit(entries, client, t.perClient, t.total, opening)
	if !ok {
		return false
	}
	for _, id := range shed {
		closeIdle(id)
	}
	return true
}

// sessionByID returns the session of s with id (a no-op closer when gone).
func sessionByID(s *mcp.Server, id string) closer {
	for ss := range s.Sessions() {
		if ss.ID() == id {
			return ss
		}
	}
	return nopClose{}
}

type closer interface{ Close() error }

type nopClose struct{}

func (nopClose) Close() error { return nil }

// opened records the new session id of client.
func (t *sessionTable) opened(id, client string) {
	if t == nil || id == "" {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := t.byID[id]; !ok {
		t.byID[id] = &sessionEntry{client: client, created: t.now()}
	}
}

// expired reports whether session id is past its lifetime.
func (t *sessionTable) expired(id string) bool {
	if t == nil || t.lifetime <= 0 {
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	e := t.byID[id]
	return e != nil && t.now().Sub(e.created) > t.lifetime
}
