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
// It is one method on purpose: everything a store may need rides in the
// Claim, so a wrapper that forwards Claim forwards all of it (there is no
// optional variant for a wrapper to hide).
//
// A store that can lose its records (a restart without persistence, a
// flush, an eviction) keeps an epoch, a non-zero number it replaces when
// it finds its records lost. The runtime seals the epoch the store
// reported (Claimed.Epoch) into every state it issues (State.Epoch) and
// sends it back with the state's claim (Claim.Epoch): a store refuses,
// with an error matching ErrStoreForgot, a claim whose epoch is not its
// current one, since the state may have been claimed among the records
// lost. The comparison is exact, so there is no window of refusals after
// a store starts. A state sealed without an epoch (zero, as by earlier
// releases) is refused the same way: fail closed.
//
// The in-memory default (NewMemoryReplayStore) serves one process; a
// deployment of several instances shares one store (for example
// github.com/elicitgen/elicitgen/runtime/redisstore).
type ReplayStore interface {
	// Claim records c.ID as used until c.Until and reports, in
	// Claimed.First, whether this call was the first to claim it, and in
	// Claimed.Epoch the store's current epoch. A claim with an empty ID
	// records nothing and only reports the epoch (the runtime asks it so
	// before sealing a state no claim preceded). After Until the state no
	// longer opens, and the store may forget the id. Claim must be
	// atomic: of concurrent claims of one id, at most one is First. A
	// claim whose Epoch is not the store's current epoch is refused with
	// an error matching ErrStoreForgot. Any other error means the store
	// cannot tell; the runtime then refuses the answers (fails closed).
	Claim(ctx context.Context, c Claim) (Claimed, error)
}

// Claim is one claim of a sealed state's id in a ReplayStore (see
// State.Claim).
type Claim struct {
	// ID is the state's id (State.ID); "" claims nothing and asks only
	// for the store's epoch.
	ID string
	// Client is the key of the request's client for a store's budget per
	// client ("": unknown, counted against the total only); see
	// adapter.ReplayClient.
	Client string
	// Issued is when the state was sealed, by its sealer's clock, to the
	// second (zero: unknown). Stores may record it; none needs it to
	// decide.
	Issued time.Time
	// Until is how long the id stays claimed: the state's expiry plus
	// MaxClockSkew, so that no instance whose clock runs behind still
	// opens a forgotten state.
	Until time.Time
	// Epoch is the store epoch sealed in the state (State.Epoch); zero
	// for a state sealed without one.
	Epoch uint64
	// Expires is when the state's answers stop counting (State.Expires;
	// zero: not known). The store decides it on its own clock
	// (Claimed.Expired), so that the expiry of a question is decided on
	// one clock for every instance, and one whose clock runs behind
	// cannot extend it.
	Expires time.Time
}

// Claimed is a ReplayStore's answer to a Claim.
type Claimed struct {
	// First reports that this claim was the first of its id: the state's
	// answers may be used.
	First bool
	// Epoch is the store's current epoch (never zero), which the runtime
	// seals into the states it issues next.
	Epoch uint64
	// Expired reports that the store's clock is past Claim.Expires: the
	// answers came too late and the call is decided as expired, once
	// (First still tells which claim decides it). A store records an
	// expired claim as long again as the state lived (Expires - Issued,
	// at least MaxClockSkew), so that a retry finds it used. A store
	// without a clock of its own may leave it false: the runtime also
	// declines answers that its own clock finds late.
	Expired bool
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

// MemoryReplayStore is a ReplayStore for one process. It holds at most
// its limit of ids, and at most its per-client budget of the ids of any
// one client (Claim.Client); an id is forgotten once its Until has
// passed. Its epoch is MemoryEpoch, the same in every process, so that
// the instances of a deployment without a shared store still continue
// one another's calls (each spending a state once); a process that
// restarts forgets its claims, so a deployment whose key ring outlives
// its processes and must keep single use across restarts shares a
// persistent store instead (runtime/redisstore).
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
// (Claim.Client): zero means a tenth of the limit, a negative n no budget
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

// MemoryEpoch is the epoch of every MemoryReplayStore.
const MemoryEpoch uint64 = 1

// Epoch returns the store's epoch, MemoryEpoch.
func (m *MemoryReplayStore) Epoch() uint64 { return MemoryEpoch }

// Claim implements ReplayStore. A client over its budget is refused
// with an error matching ErrReplayClientFull, while other clients'
// claims still succeed; a claim of another epoch, with ErrStoreForgot.
func (m *MemoryReplayStore) Claim(ctx context.Context, c Claim) (Claimed, error) {
	if err := ctx.Err(); err != nil {
		return Claimed{}, fmt.Errorf("%w: %w", ErrReplayStore, err)
	}
	out := Claimed{Epoch: MemoryEpoch}
	if c.ID == "" {
		return out, nil
	}
	if c.Epoch != MemoryEpoch {
		return out, ErrStoreForgot
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	for len(m.exp) > 0 && !m.exp[0].until.After(now) {
		e := heap.Pop(&m.exp).(expiry)
		delete(m.ids, e.id)
		if cc := e.client; cc != nil {
			if cc.n--; cc.n <= 0 {
				delete(m.byClient, cc.key)
			}
		}
	}
	out.Expired = !c.Expires.IsZero() && now.After(c.Expires)
	if _, used := m.ids[c.ID]; used {
		return out, nil
	}
	if out.Expired {
		c.Until = latest(c.Until, now.Add(ExpiredHold(c)))
	}
	if !c.Until.After(now) {
		// Already expired: the state no longer opens either; nothing to
		// remember.
		out.First = true
		return out, nil
	}
	cc := m.byClient[c.Client]
	if cc != nil && m.perClient > 0 && cc.n >= m.perClient {
		return out, fmt.Errorf("%w (%d unexpired state ids)", ErrReplayClientFull, m.perClient)
	}
	if len(m.ids) >= m.limit {
		return out, fmt.Errorf("%w (%d unexpired state ids)", ErrReplayStoreFull, m.limit)
	}
	m.ids[c.ID] = c.Until
	if cc == nil && c.Client != "" {
		cc = &clientClaims{key: c.Client}
		m.byClient[c.Client] = cc
	}
	if cc != nil {
		cc.n++
	}
	heap.Push(&m.exp, expiry{id: c.ID, client: cc, until: c.Until})
	out.First = true
	return out, nil
}

// ExpiredHold is how long a store keeps the id of an expired claim c,
// from the moment it decides it: as long again as the state lived (at
// least MaxClockSkew), so that a retry finds it used.
func ExpiredHold(c Claim) time.Duration {
	if c.Issued.IsZero() {
		return MaxClockSkew
	}
	return max(c.Expires.Sub(c.Issued), MaxClockSkew)
}

func latest(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
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

// Claim returns the claim of st's id for client (the key of the
// request's client, "" when unknown): until st expires plus
// MaxClockSkew, under the epoch sealed in st.
func (st *State) Claim(client string) Claim {
	return Claim{ID: st.ID, Client: client, Issued: st.Issued, Until: st.Expires.Add(MaxClockSkew), Epoch: st.Epoch, Expires: st.Expires}
}
