package page

import (
	"context"
	"time"
)

// This file keeps the mark that says a call is waiting for a page's
// answer (the 2025-era URL-mode path: the call sent the person to the
// page and takes the answer as soon as it is given), so that the page can
// tell the person what their answer does: taken now by the call that
// waits, or kept for the same call made again.

// WaitMarker is implemented by a Store that keeps the short-lived mark of
// a call waiting for a page's answer (Pages.Hold). MemoryStore and
// redisstore.PageStore implement it. With a Store that does not, the page
// cannot tell whether a call waits, and says after an answer that it is
// saved and is used by the call that waits for it or, if none does, by
// the same call made again.
type WaitMarker interface {
	// MarkWaiting marks page id as waited on until until (replacing an
	// earlier mark); a zero or past until removes the mark.
	MarkWaiting(ctx context.Context, id string, until time.Time) error
	// Waiting reports whether page id is marked as waited on now.
	Waiting(ctx context.Context, id string) (bool, error)
}

// HoldLease is how long one mark of Pages.Hold lasts: Hold renews it
// every third of that while the call waits, so that the mark of a call
// whose process ended lapses within HoldLease.
const HoldLease = 6 * time.Second

// Hold marks page id as waited on by a call until release is called or
// ctx ends, renewing the mark every HoldLease/3 from one goroutine;
// release removes the mark and waits for that goroutine. While the mark
// holds, an answer given on the page is said to be sent (the call that
// waits takes it); without it, the page says the answer is kept for the
// same call made again. A store failure is not reported: the mark only
// chooses the page's words. Two calls holding one page share one mark:
// the first release removes it until the other renews it. With a Store
// that is not a WaitMarker, Hold does nothing.
func (p *Pages) Hold(ctx context.Context, id string) (release func()) {
	m, ok := p.store.(WaitMarker)
	if !ok {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	mark := func() { _ = m.MarkWaiting(ctx, id, p.now().Add(HoldLease)) }
	mark()
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(HoldLease / 3)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				mark()
			}
		}
	}()
	return func() {
		cancel()
		<-done
		_ = m.MarkWaiting(context.WithoutCancel(ctx), id, time.Time{})
	}
}

// waitState is what the page knows of a call waiting for its answer.
type waitState uint8

const (
	waitUnknown waitState = iota // the Store keeps no marks, or failed
	waitNone                     // no call waits: the answer is kept
	waitHeld                     // a call waits and takes the answer
)

// waiting returns whether a call waits for page id's answer.
func (p *Pages) waiting(ctx context.Context, id string) waitState {
	m, ok := p.store.(WaitMarker)
	if !ok {
		return waitUnknown
	}
	switch held, err := m.Waiting(ctx, id); {
	case err != nil:
		return waitUnknown
	case held:
		return waitHeld
	}
	return waitNone
}

var _ WaitMarker = (*MemoryStore)(nil)

// MarkWaiting implements WaitMarker.
func (m *MemoryStore) MarkWaiting(ctx context.Context, id string, until time.Time) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	if !until.After(now) {
		delete(m.waits, id)
		return nil
	}
	if m.waits == nil {
		m.waits = map[string]time.Time{}
	}
	if len(m.waits) >= m.waitSweep {
		// Lapsed marks (a call whose process ended) are dropped when the
		// map has doubled since the last sweep: amortized constant time.
		for k, u := range m.waits {
			if !now.Before(u) {
				delete(m.waits, k)
			}
		}
		m.waitSweep = 2*len(m.waits) + 64
	}
	m.waits[id] = until
	return nil
}

// Waiting implements WaitMarker.
func (m *MemoryStore) Waiting(ctx context.Context, id string) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	u, ok := m.waits[id]
	return ok && m.now().Before(u), nil
}
