package elicittest

import (
	"sync"
	"time"
)

// Clock is a fake clock for tests of questions that wait in human time
// (runtime.WithWait): every component that keeps a deadline reads its
// own Now field, and a test points all of them at one Clock, then moves
// it with Advance. A question answered three simulated days later, or
// one that expired after seven, takes no wall time.
//
// The components and their clocks:
//
//	adapter.Options.Now     (gosdk.Config, mcpgo.Config): sealed state expiry,
//	                        the audit times, and the default in-memory replay store
//	seal.Sealer.Now         a Sealer built by hand
//	seal.MemoryReplayStore  SetClock(clock.Now), for a store passed as Options.Replay
//	page.Config.Now         the hosted page's links and CSRF tokens
//	page.MemoryStore.Now    the retention of page answers and of task records
//	                        (tasks.NewStore over a page.MemoryStore)
//	tasks.Server.Now        task TTLs and input deadlines
//
// Drive assigns the func() time.Time fields in one call:
//
//	clock := elicittest.NewClock(time.Date(2026, 7, 28, 9, 0, 0, 0, time.UTC))
//	clock.Drive(&cfg.Now, &pageCfg.Now, &pageStore.Now)
//	replay.SetClock(clock.Now)
//
// A Redis-backed store (runtime/redisstore) decides expiry on Redis's
// own clock (TIME) and its key TTLs, which no Go clock moves: its Now
// field only compares the instance's clock with Redis's. Simulate days
// with the in-memory stores, which follow the Clock, or run Redis under
// libfaketime (as the example's cluster tests do).
//
// The zero Clock reads the zero time; a Clock is safe for concurrent
// use.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock returns a Clock reading start.
func NewClock(start time.Time) *Clock { return &Clock{t: start} }

// Now returns the clock's time. It is usable as every Now func() time.Time
// field (clock.Now).
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock by d (back when d is negative, as a skewed
// instance would see it) and returns the new time.
func (c *Clock) Advance(d time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
	return c.t
}

// Set sets the clock to t.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

// Drive points every clock field given at c (each is set to c.Now); a
// nil pointer is skipped. Pass the addresses of the components' Now
// fields: clock.Drive(&cfg.Now, &pagesConfig.Now, &tasksServer.Now).
func (c *Clock) Drive(fields ...*func() time.Time) {
	for _, f := range fields {
		if f != nil {
			*f = c.Now
		}
	}
}
