package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/example/internal/testclock"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/redisstore"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// TestTestClockHook: ELICIT_TEST_CLOCK is off unless set; a file
// without an offset refuses the start; the clock it sets moves the
// stores the server configures when the file is rewritten.
func TestTestClockHook(t *testing.T) {
	t.Setenv(TestClockEnv, "")
	if now, err := testClock(); now != nil || err != nil {
		t.Fatalf("unset: clock set %t, %v; want the wall clock (nil)", now != nil, err)
	}
	path := filepath.Join(t.TempDir(), "offset")
	t.Setenv(TestClockEnv, path)
	if _, err := testClock(); err == nil || !strings.Contains(err.Error(), TestClockEnv) {
		t.Fatalf("a missing file: %v, want an error naming %s", err, TestClockEnv)
	}
	if err := os.WriteFile(path, []byte("next week\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := testClock(); err == nil {
		t.Fatal("a file without an offset started")
	}
	if err := testclock.Write(path, 0); err != nil {
		t.Fatal(err)
	}
	now, err := testClock()
	if err != nil || now == nil {
		t.Fatalf("testClock(): clock set %t, %v", now != nil, err)
	}

	replay := seal.NewMemoryReplayStore(0)
	pages := page.NewMemoryStore()
	redisReplay, _ := redisstore.Open("redis://127.0.0.1:1/0") // never connects: only its clock is read
	defer redisReplay.Close()
	redisPages := redisReplay.PageStore()
	clockStores(now, replay, pages)
	clockStores(now, redisReplay, redisPages)
	for name, f := range map[string]func() time.Time{"page.MemoryStore": pages.Now, "pages on it": storeClock(pages),
		"redisstore.Store": redisReplay.Now, "redisstore.PageStore": redisPages.Now, "pages on Redis": storeClock(redisPages)} {
		if f == nil {
			t.Fatalf("%s has no clock", name)
		}
	}

	ctx := context.Background()
	claim := seal.Claim{ID: "a", Until: time.Now().Add(time.Hour), Epoch: seal.MemoryEpoch}
	if c, err := replay.Claim(ctx, claim); err != nil || !c.First {
		t.Fatalf("first claim: %+v, %v", c, err)
	}
	if c, _ := replay.Claim(ctx, claim); c.First {
		t.Fatal("the claim was not kept")
	}
	if err := testclock.Write(path, 2*time.Hour); err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]func() time.Time{"the clock": now, "page.MemoryStore": pages.Now, "redisstore.Store": redisReplay.Now, "redisstore.PageStore": redisPages.Now} {
		if d := time.Until(f()); d < 2*time.Hour-time.Minute || d > 2*time.Hour+time.Minute {
			t.Errorf("after the file says +2h, %s is %v ahead of the wall clock", name, d)
		}
	}
	// Two hours later on the file's clock the claim (until one hour from
	// the wall clock) has expired in the in-memory replay store.
	if c, _ := replay.Claim(ctx, claim); !c.First {
		t.Fatal("the in-memory replay store does not follow the clock")
	}
}
