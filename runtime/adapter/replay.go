package adapter

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/seal"
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

// DefaultReplayLimit is the number of unexpired state ids a
// NewMemoryReplayStore(0) holds: about 14 MB, far above the approvals one
// process completes within a state's TTL.
const DefaultReplayLimit = 100_000

// MemoryReplayStore is a ReplayStore for one process. It holds at most
// its limit of ids; an id is forgotten once its until has passed. At the
// limit, a claim of a new id fails with ErrReplayStoreFull (the request
// is refused and its tool does not run) until ids expire: it fails
// closed, never forgetting an unexpired id to make room. Safe for
// concurrent use.
type MemoryReplayStore struct {
	limit int
	now   func() time.Time

	mu  sync.Mutex
	ids map[string]time.Time
	exp expiryHeap
}

// NewMemoryReplayStore returns an empty store holding at most limit
// unexpired ids (zero or less: DefaultReplayLimit), with time.Now as its
// clock (see SetClock).
func NewMemoryReplayStore(limit int) *MemoryReplayStore {
	if limit <= 0 {
		limit = DefaultReplayLimit
	}
	return &MemoryReplayStore{limit: limit, now: time.Now, ids: map[string]time.Time{}}
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

// Len returns the number of ids held, expired ones not yet evicted
// included.
func (m *MemoryReplayStore) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.ids)
}

// Claim implements ReplayStore.
func (m *MemoryReplayStore) Claim(ctx context.Context, id string, until time.Time) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("%w: %w", ErrReplayStore, err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	for len(m.exp) > 0 && !m.exp[0].until.After(now) {
		e := heap.Pop(&m.exp).(expiry)
		delete(m.ids, e.id)
	}
	if _, used := m.ids[id]; used {
		return false, nil
	}
	if !until.After(now) {
		// Already expired: the state no longer opens either; nothing to
		// remember.
		return true, nil
	}
	if len(m.ids) >= m.limit {
		return false, fmt.Errorf("%w (%d unexpired state ids)", ErrReplayStoreFull, m.limit)
	}
	m.ids[id] = until
	heap.Push(&m.exp, expiry{id: id, until: until})
	return true, nil
}

type expiry struct {
	id    string
	until time.Time
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

// claimUntil is how long a state id stays claimed: past the state's
// expiry by the clock skew the instances of a deployment may have, so
// that no instance whose clock runs behind still opens a forgotten state.
func claimUntil(st *seal.State) time.Time {
	return st.Expires.Add(seal.MaxClockSkew)
}

// narrowClaim drops the claim of a state that carries no answer and
// whose inputResponses answer none of the questions it asked, when
// unasked answers are not accepted (asked first, the default): nothing
// of such a request can reach a handler, so it spends no room in the
// replay store (a client cannot fill it with states answered with
// junk).
func (x *Exchange) narrowClaim() {
	if !x.needClaim || !x.askedFirst || x.state.HasAnswers() {
		return
	}
	for k := range x.call.Responses {
		if x.state.WasAsked(k) {
			return
		}
	}
	for k := range x.call.Malformed {
		if x.state.WasAsked(k) {
			return
		}
	}
	x.needClaim = false
}

// NeedsClaim reports whether the call's requestState must be claimed
// before the handler runs: a 2026-07-28 request whose state carries
// answers, or that comes with inputResponses. A state without answers
// sent without answers delivers nothing; it is not claimed.
func (x *Exchange) NeedsClaim() bool { return x.needClaim && !x.claimed }

// Claim spends the call's requestState in store when NeedsClaim: the
// first request with a state gets its answers, any other fails with an
// error matching runtime.ErrStateUsed (and runtime.ErrInvalidState:
// JSON-RPC -32602). A store failure, or a nil store, fails with an
// error matching ErrReplayStore: the answers are not used. Until Claim
// succeeds, asks of an exchange that needs one fail.
func (x *Exchange) Claim(ctx context.Context, store ReplayStore) error {
	if !x.NeedsClaim() {
		return nil
	}
	if store == nil {
		return fmt.Errorf("%w: none configured", ErrReplayStore)
	}
	first, err := claim(ctx, store, &x.state)
	switch {
	case err != nil && errors.Is(err, runtime.ErrInvalidState):
		return err // issued before the store lost records, or a claim whose reply was lost: spent
	case err != nil && errors.Is(err, ErrReplayStore):
		return err
	case err != nil:
		return fmt.Errorf("%w: %w", ErrReplayStore, err)
	case !first:
		return runtime.ErrStateUsed
	}
	x.mu.Lock()
	x.claimed = true
	x.mu.Unlock()
	return nil
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

// ErrStoreForgot is matched (errors.Is) by the error of a claim refused
// because the replay store lost records after the state was issued: the
// state is refused (it also matches runtime.ErrInvalidState: JSON-RPC
// -32602), so the tool is called again without it and the person is
// asked again.
var ErrStoreForgot error = &spentError{"the replay store lost its records after this state was issued (a restart without persistence, a flush or an eviction), so it may have been used; call the tool again without requestState to be asked again"}

// ErrClaimUnknown is matched by the error of a claim whose reply did not
// arrive in time: the store may have applied it, so the state counts as
// spent (it also matches runtime.ErrInvalidState: -32602) and the person
// is asked again, rather than a later retry finding it used.
var ErrClaimUnknown error = &spentError{"the replay store did not answer in time, so the state counts as spent; call the tool again without requestState to be asked again"}

type spentError struct{ msg string }

func (e *spentError) Error() string { return "elicit: request state " + e.msg }

// Is makes the error match runtime.ErrInvalidState.
func (e *spentError) Is(target error) bool { return target == runtime.ErrInvalidState }

// claim claims st in store, with its issue time when the store can use
// it.
func claim(ctx context.Context, store ReplayStore, st *seal.State) (bool, error) {
	if is, ok := store.(IssuedReplayStore); ok && !st.Issued.IsZero() {
		return is.ClaimIssued(ctx, st.ID, st.Issued, claimUntil(st))
	}
	return store.Claim(ctx, st.ID, claimUntil(st))
}

// errUnclaimed fails an ask whose answers need a claim that was not made.
var errUnclaimed = fmt.Errorf("%w: the request state was not claimed before its answers were read", ErrReplayStore)

// StartError returns the JSON-RPC code and message for an error of
// Settings.Start or Exchange.Claim: -32603 for a replay store failure,
// -32602 otherwise (InvalidStateMessage).
func StartError(err error) (int64, string) {
	if errors.Is(err, ErrReplayStore) {
		return CodeInternalError, err.Error() + ": the answers were not used; try again later"
	}
	return CodeInvalidParams, InvalidStateMessage(err)
}

// DefaultReplay is the in-memory replay store an adapter's Config falls
// back to when none is configured, made on first use and shared by the
// tools of that Config. The zero value is ready to use; it must not be
// copied after first use.
type DefaultReplay struct {
	p atomic.Pointer[MemoryReplayStore]
}

// Store returns configured, or else the default store (clock now, nil
// for time.Now).
func (d *DefaultReplay) Store(configured ReplayStore, now func() time.Time) ReplayStore {
	if configured != nil {
		return configured
	}
	if m := d.p.Load(); m != nil {
		return m
	}
	m := NewMemoryReplayStore(0)
	m.SetClock(now)
	if !d.p.CompareAndSwap(nil, m) {
		return d.p.Load()
	}
	return m
}
