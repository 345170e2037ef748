package seal

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// ReplayStore spends sealed request states: each state id can be claimed
// once. The runtime claims the id of a 2026-07-28 requestState before its
// answers reach a tool handler, so that a state that carried answers into
// a handler never does so again, however many times (or however
// concurrently) the client sends it.
//
// The in-memory default (NewMemoryReplayStore) serves one process; a
// deployment of several instances shares one store (for example
// github.com/elicitgen/elicitgen/runtime/redisstore).
type ReplayStore interface {
	// Claim records id as used until the instant until and reports
	// whether this call was the first to claim it. After until the state
	// no longer opens, and the store may forget id. It must be atomic:
	// of concurrent claims of one id, at most one returns true. An error
	// means the store cannot tell; the runtime then refuses the answers
	// (fails closed).
	Claim(ctx context.Context, id string, until time.Time) (bool, error)
}

// ErrReplayStore is matched (errors.Is) by the error of a request whose
// state could not be claimed because the replay store failed or is full:
// the answers were not used. Adapters answer it with JSON-RPC -32603.
var ErrReplayStore = errors.New("elicit: replay store")

// ErrReplayStoreFull is matched by a claim refused by a
// MemoryReplayStore holding its limit of unexpired ids (it also matches
// ErrReplayStore).
var ErrReplayStoreFull = fmt.Errorf("%w: full", ErrReplayStore)

// ErrReplayClientFull is matched by a claim refused by a
// MemoryReplayStore because its client holds its budget of unexpired ids
// (SetPerClient); it also matches ErrReplayStoreFull and ErrReplayStore.
var ErrReplayClientFull = fmt.Errorf("%w: this client's budget", ErrReplayStoreFull)

// DefaultReplayLimit is the number of unexpired state ids a
// NewMemoryReplayStore(0) holds: about 14 MB, far above the approvals one
// process completes within a state's TTL.
const DefaultReplayLimit = 100_000

// DefaultReplayPerClient is the number of unexpired state ids one client
// may hold in a NewMemoryReplayStore(0): a tenth of DefaultReplayLimit,
// as for the HTTP session budgets. One person answers at most a form
// every second or two, a few hundred claims within a state's TTL and
// MaxClockSkew (16 minutes); the budget leaves room for the dozens of
// people one address can stand for (a NAT, an office), while a client
// that fills the store must come from ten addresses or principals.
const DefaultReplayPerClient = DefaultReplayLimit / 10

// ClientReplayStore is a ReplayStore that budgets its claims per client:
// the runtime uses ClaimFor when a store implements it
// (MemoryReplayStore does), naming the client of the request (see
// adapter.Call.Client).
type ClientReplayStore interface {
	ReplayStore
	// ClaimFor is Claim of a state issued at issued (zero: unknown) for
	// client ("": unknown, counted against the total only). A client
	// over its budget is refused with an error matching
	// ErrReplayClientFull, while other clients' claims still succeed.
	ClaimFor(ctx context.Context, client, id string, issued, until time.Time) (bool, error)
}

// MemoryReplayStore is a ReplayStore for one process. It holds at most
// its limit of ids, and at most its per-client budget of the ids of any
// one client (ClaimFor); an id is forgotten once its until has passed.
// At the limit, a claim of a new id fails with ErrReplayStoreFull (the
// request is refused and its tool does not run) until ids expire; a
// client at its budget has its own claims refused the same way
// (ErrReplayClientFull) while others' succeed. It fails closed: it never
// forgets an unexpired id to make room, since a forgotten id lets a spent
// approval run again. Safe for concurrent use.
type MemoryReplayStore struct {
	limit, perClient int
	now              func() time.Time

	mu       sync.Mutex
	ids      map[string]time.Time
	byClient map[string]*clientClaims
	exp      expiryHeap
}

// clientClaims counts the unexpired ids of one client; every id of the
// client points to it, so that the client's key is held once.
type clientClaims struct {
	key string
	n   int
}

// NewMemoryReplayStore returns an empty store holding at most limit
// unexpired ids (zero or less: DefaultReplayLimit), a tenth of them per
// client (see SetPerClient), with time.Now as its clock (see SetClock).
func NewMemoryReplayStore(limit int) *MemoryReplayStore {
	if limit <= 0 {
		limit = DefaultReplayLimit
	}
	return &MemoryReplayStore{limit: limit, perClient: perClientOf(limit, 0), now: time.Now,
		ids: map[string]time.Time{}, byClient: map[string]*clientClaims{}}
}

// perClientOf resolves a per-client budget n of a store of limit.
func perClientOf(limit, n int) int {
	switch {
	case n < 0:
		return 0
	case n > 0:
		return n
	}
	return max(limit/10, 1)
}

// SetClock sets the clock that decides which ids have expired (the
// sealer's clock, in tests). Call it before first use; nil means
// time.Now.
func (m *MemoryReplayStore) SetClock(now func() time.Time) {
	if now == nil {
		now = time.Now
	}
	m.mu.Lock()
	m.now = now
	m.mu.Unlock()
}

// SetPerClient sets the number of unexpired ids one client may hold
// (ClaimFor): zero means a tenth of the limit, a negative n no budget
// per client. Call it before first use.
func (m *MemoryReplayStore) SetPerClient(n int) {
	m.mu.Lock()
	m.perClient = perClientOf(m.limit, n)
	m.mu.Unlock()
}

// Len returns the number of ids held, expired ones not yet evicted
// included.
func (m *MemoryReplayStore) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.ids)
}

// Claim implements ReplayStore: a claim of no known client, counted
// against the limit only.
func (m *MemoryReplayStore) Claim(ctx context.Context, id string, until time.Time) (bool, error) {
	return m.ClaimFor(ctx, "", id, time.Time{}, until)
}

// ClaimFor implements ClientReplayStore (issued is not used).
func (m *MemoryReplayStore) ClaimFor(ctx context.Context, client, id string, _, until time.Time) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("%w: %w", ErrReplayStore, err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	for len(m.exp) > 0 && !m.exp[0].until.After(now) {
		e := heap.Pop(&m.exp).(expiry)
		delete(m.ids, e.id)
		if c := e.client; c != nil {
			if c.n--; c.n <= 0 {
				delete(m.byClient, c.key)
			}
		}
	}
	if _, used := m.ids[id]; used {
		return false, nil
	}
	if !until.After(now) {
		// Already expired: the state no longer opens either; nothing to
		// remember.
		return true, nil
	}
	c := m.byClient[client]
	if c != nil && m.perClient > 0 && c.n >= m.perClient {
		return false, fmt.Errorf("%w (%d unexpired state ids)", ErrReplayClientFull, m.perClient)
	}
	if len(m.ids) >= m.limit {
		return false, fmt.Errorf("%w (%d unexpired state ids)", ErrReplayStoreFull, m.limit)
	}
	m.ids[id] = until
	if c == nil && client != "" {
		c = &clientClaims{key: client}
		m.byClient[client] = c
	}
	if c != nil {
		c.n++
	}
	heap.Push(&m.exp, expiry{id: id, client: c, until: until})
	return true, nil
}

type expiry struct {
	id     string
	client *clientClaims // nil: no client known
	until  time.Time
}

// expiryHeap orders ids by expiry, soonest first.
type expiryHeap []expiry

func (h expiryHeap) Len() int           { return len(h) }
func (h expiryHeap) Less(i, j int) bool { return h[i].until.Before(h[j].until) }
func (h expiryHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *expiryHeap) Push(x any)        { *h = append(*h, x.(expiry)) }
func (h *expiryHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}

// IssuedReplayStore is a ReplayStore that can tell when it lost records
// (a restart without persistence, a flush, an eviction): it is given the
// time each state was issued, and refuses, with an error matching
// ErrStoreForgot, every state issued before the loss, since the claim
// of such a state may be among the records lost. The runtime uses
// ClaimIssued instead of Claim when a store implements it
// (redisstore.Store does).
type IssuedReplayStore interface {
	ReplayStore
	// ClaimIssued is Claim of a state issued at issued (by its sealer's
	// clock, to the second).
	ClaimIssued(ctx context.Context, id string, issued, until time.Time) (bool, error)
}

// claimUntil is how long a state id stays claimed: past the state's
// expiry by the clock skew the instances of a deployment may have, so
// that no instance whose clock runs behind still opens a forgotten state.
func claimUntil(st *State) time.Time {
	return st.Expires.Add(MaxClockSkew)
}

// Claim claims st's id in store for client (the key of the request's
// client, "" when unknown) until st expires (plus MaxClockSkew), and
// reports whether this was the first claim. It uses ClaimFor when store
// is a ClientReplayStore, else ClaimIssued, with st's issue time, when it
// is an IssuedReplayStore.
func Claim(ctx context.Context, store ReplayStore, client string, st *State) (bool, error) {
	if cs, ok := store.(ClientReplayStore); ok {
		return cs.ClaimFor(ctx, client, st.ID, st.Issued, claimUntil(st))
	}
	if is, ok := store.(IssuedReplayStore); ok && !st.Issued.IsZero() {
		return is.ClaimIssued(ctx, st.ID, st.Issued, claimUntil(st))
	}
	return store.Claim(ctx, st.ID, claimUntil(st))
}
