package main

import (
	"fmt"
	"log"
	"os"
	"time"

	"github.com/elicitgen/elicitgen/example/internal/testclock"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/redisstore"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// TestClockEnv names the environment variable of the test hook that
// moves this server's clock: the path of a file holding an offset from
// the wall clock, in libfaketime's syntax ("+72h", "-5m", "+259200";
// example/internal/testclock). Multi-process tests set it on every
// instance and run redis-server under libfaketime with the same file, so
// that the instances and Redis share one simulated time
// (example/clustertest/fakeclock_test.go). Never set it outside a test:
// every deadline of the server moves with the file.
const TestClockEnv = testclock.Env

// testClock returns the clock TestClockEnv sets, or nil (the wall clock)
// when it is unset. A file that does not read, or holds no offset,
// refuses the start. The hook is logged loudly at start, and a file that
// stops reading later is logged (the clock keeps its last offset).
func testClock() (func() time.Time, error) {
	path := os.Getenv(TestClockEnv)
	if path == "" {
		return nil, nil
	}
	c, err := testclock.Open(path, func(err error) { log.Printf("%s: %v", TestClockEnv, err) })
	if err != nil {
		return nil, fmt.Errorf("%s: %w", TestClockEnv, err)
	}
	log.Printf("WARNING: TEST HOOK %s=%s is set: this server's clock is the wall clock %s, moved by that file (questions, sealed states, pages, tasks and replay claims expire on it); never set it outside a test",
		TestClockEnv, path, testclock.FormatOffset(c.Offset()))
	return c.Now, nil
}

// clockStores points the clocks of the replay store and the page store
// at now (nil leaves them on the wall clock). A Redis store compares it
// with Redis's clock (which a test moves with libfaketime); the in-memory
// stores decide expiry on it.
func clockStores(now func() time.Time, replay seal.ReplayStore, pages page.Store) {
	if now == nil {
		return
	}
	switch st := replay.(type) {
	case *redisstore.Store:
		st.Now = now
	case *seal.MemoryReplayStore:
		st.SetClock(now)
	}
	switch ps := pages.(type) {
	case *redisstore.PageStore:
		ps.Now = now
	case *page.MemoryStore:
		ps.Now = now
	}
}

// storeClock returns the clock of a page store clockStores set (nil: the
// wall clock), for the pages on it.
func storeClock(pages page.Store) func() time.Time {
	switch ps := pages.(type) {
	case *redisstore.PageStore:
		return ps.Now
	case *page.MemoryStore:
		return ps.Now
	}
	return nil
}
