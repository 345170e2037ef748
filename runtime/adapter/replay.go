package adapter

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

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
// error matching seal.ErrStateUsed (and runtime.ErrInvalidState:
// JSON-RPC -32602), and a state issued under another epoch of the store
// with seal.ErrStoreForgot. A store failure, or a nil store, fails with
// an error matching seal.ErrReplayStore: the answers are not used. The
// claim counts against the budget of the call's client (ReplayClient).
// Until Claim succeeds, asks of an exchange that needs one fail.
//
// Adapters call it on every request, with the request's context, also
// when no claim is needed: the exchange keeps store and ctx to ask the
// store's epoch (a claim of no id) when it seals a state no claim
// preceded (see seal.ReplayStore).
func (x *Exchange) Claim(ctx context.Context, store seal.ReplayStore) error {
	x.mu.Lock()
	x.replay, x.replayCtx = store, ctx
	x.mu.Unlock()
	if !x.NeedsClaim() {
		return nil
	}
	if store == nil {
		return fmt.Errorf("%w: none configured", seal.ErrReplayStore)
	}
	claim := x.state.Claim(ReplayClient(x.call))
	if x.expired {
		// Decided as expired by this instance's clock, once: the store
		// keeps the id as long again as the question stayed open, so
		// that a retry finds it used.
		claim.Until = x.now().Add(seal.ExpiredHold(claim))
	}
	c, err := store.Claim(ctx, claim)
	switch {
	case err != nil && errors.Is(err, runtime.ErrInvalidState):
		return err // issued under another epoch, or a claim whose reply was lost: spent
	case err != nil && errors.Is(err, seal.ErrReplayStore):
		return err
	case err != nil:
		return fmt.Errorf("%w: %w", seal.ErrReplayStore, err)
	case !c.First:
		return seal.ErrStateUsed
	}
	x.mu.Lock()
	x.claimed = true
	x.state.Epoch, x.epochKnown = c.Epoch, true
	// The store's clock decides expiry for every instance: answers it
	// finds late are declined as expired, however this instance's clock
	// reads them (a late answer is never used; an instance whose own
	// clock already found them late declined them above).
	x.expired = x.expired || c.Expired
	x.mu.Unlock()
	return nil
}

// epoch returns the replay store's epoch to seal into the next state:
// the one the call's claim reported, else the store's answer to a claim
// of no id. Without a store (an exchange whose adapter did not call
// Claim) it is zero, which the store of a later claim refuses.
func (x *Exchange) epoch() (uint64, error) {
	x.mu.Lock()
	known, e, store, ctx := x.epochKnown, x.state.Epoch, x.replay, x.replayCtx
	x.mu.Unlock()
	switch {
	case known:
		return e, nil
	case store == nil:
		return 0, nil
	}
	c, err := store.Claim(ctx, seal.Claim{})
	if err != nil {
		if !errors.Is(err, seal.ErrReplayStore) {
			err = fmt.Errorf("%w: %w", seal.ErrReplayStore, err)
		}
		return 0, fmt.Errorf("%w: reading its epoch", err)
	}
	x.mu.Lock()
	x.epochKnown = true
	x.mu.Unlock()
	return c.Epoch, nil
}

// ReplayClient is the key under which c's claims count against the
// replay store's budget per client: the principal where c has one, else
// c.Client ("" when neither is known: the store's total bounds it).
func ReplayClient(c *Call) string {
	if c.Principal != "" {
		return "principal:" + c.Principal
	}
	return c.Client
}

// errUnclaimed fails an ask whose answers need a claim that was not made.
var errUnclaimed = fmt.Errorf("%w: the request state was not claimed before its answers were read", seal.ErrReplayStore)

// StartError returns the JSON-RPC code and message for an error of
// Options.Start or Exchange.Claim: -32603 for a replay store failure,
// -32602 otherwise (InvalidStateMessage).
func StartError(err error) (int64, string) {
	if errors.Is(err, seal.ErrReplayStore) {
		return CodeInternalError, err.Error() + ": the answers were not used; try again later"
	}
	return CodeInvalidParams, InvalidStateMessage(err)
}

// DefaultReplay is the in-memory replay store an adapter's Config falls
// back to when none is configured, made on first use and shared by the
// tools of that Config. The zero value is ready to use; it must not be
// copied after first use.
type DefaultReplay struct {
	p atomic.Pointer[seal.MemoryReplayStore]
}

// Store returns configured, or else the default store (clock now, nil
// for time.Now).
func (d *DefaultReplay) Store(configured seal.ReplayStore, now func() time.Time) seal.ReplayStore {
	if configured != nil {
		return configured
	}
	if m := d.p.Load(); m != nil {
		return m
	}
	m := seal.NewMemoryReplayStore(0)
	m.SetClock(now)
	if !d.p.CompareAndSwap(nil, m) {
		return d.p.Load()
	}
	return m
}
