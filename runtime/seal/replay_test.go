package seal_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime/seal"
)

func TestMemoryReplayStore(t *testing.T) {
	ctx := context.Background()
	now := time.Unix(1_800_000_000, 0)
	m := seal.NewMemoryReplayStore(2)
	m.SetClock(func() time.Time { return now })
	claim := func(id string, until time.Duration) (bool, error) { return m.Claim(ctx, id, now.Add(until)) }

	if ok, err := claim("a", time.Minute); !ok || err != nil {
		t.Fatalf("first claim of a: %t, %v", ok, err)
	}
	if ok, err := claim("a", time.Minute); ok || err != nil {
		t.Fatalf("second claim of a: %t, %v; want false, nil", ok, err)
	}
	if ok, err := claim("b", 2*time.Minute); !ok || err != nil {
		t.Fatalf("claim of b: %t, %v", ok, err)
	}
	// Full: a new id is refused (fail closed), the held ones stay spent.
	if ok, err := claim("c", time.Minute); ok || !errors.Is(err, seal.ErrReplayStoreFull) || !errors.Is(err, seal.ErrReplayStore) {
		t.Fatalf("claim at the limit: %t, %v; want ErrReplayStoreFull", ok, err)
	}
	if ok, _ := claim("a", time.Minute); ok {
		t.Fatal("a was forgotten to make room")
	}
	// a expires: its room is reused, b is still spent.
	now = now.Add(time.Minute)
	if ok, err := claim("c", time.Minute); !ok || err != nil {
		t.Fatalf("claim after a expired: %t, %v", ok, err)
	}
	if m.Len() != 2 {
		t.Errorf("Len = %d, want 2 (a evicted)", m.Len())
	}
	if ok, _ := claim("b", time.Minute); ok {
		t.Fatal("b was forgotten before its expiry")
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if ok, err := m.Claim(cctx, "d", now.Add(time.Minute)); ok || !errors.Is(err, seal.ErrReplayStore) {
		t.Fatalf("claim with a cancelled context: %t, %v", ok, err)
	}
}

// TestMemoryReplayStorePerClient: a client at its budget has its own
// claims refused (ErrReplayClientFull, which is also ErrReplayStoreFull)
// while others' succeed until the total; nothing unexpired is forgotten,
// and a client's budget frees as its claims expire.
func TestMemoryReplayStorePerClient(t *testing.T) {
	ctx := context.Background()
	now := time.Unix(1_800_000_000, 0)
	m := seal.NewMemoryReplayStore(5)
	m.SetPerClient(2)
	m.SetClock(func() time.Time { return now })
	claim := func(client, id string, until time.Duration) (bool, error) {
		return m.ClaimFor(ctx, client, id, time.Time{}, now.Add(until))
	}
	for _, id := range []string{"a1", "a2"} {
		if ok, err := claim("a", id, time.Minute); !ok || err != nil {
			t.Fatalf("claim %s: %t, %v", id, ok, err)
		}
	}
	ok, err := claim("a", "a3", time.Minute)
	if ok || !errors.Is(err, seal.ErrReplayClientFull) || !errors.Is(err, seal.ErrReplayStoreFull) || !errors.Is(err, seal.ErrReplayStore) {
		t.Fatalf("a's claim beyond its budget: %t, %v; want ErrReplayClientFull", ok, err)
	}
	if ok, err := claim("a", "a1", time.Minute); ok || err != nil {
		t.Fatalf("a spent id at the budget: %t, %v; want false, nil (spent, not full)", ok, err)
	}
	for _, c := range [][2]string{{"b", "b1"}, {"b", "b2"}, {"c", "c1"}} {
		if ok, err := claim(c[0], c[1], 2*time.Minute); !ok || err != nil {
			t.Fatalf("%s's claim with a at its budget: %t, %v", c[0], ok, err)
		}
	}
	// The total: a client within its budget is refused too.
	if ok, err := claim("c", "c2", time.Minute); ok || !errors.Is(err, seal.ErrReplayStoreFull) || errors.Is(err, seal.ErrReplayClientFull) {
		t.Fatalf("c's claim with the store full: %t, %v; want ErrReplayStoreFull", ok, err)
	}
	// An unknown client ("", Claim) counts against the total only.
	if ok, err := m.Claim(ctx, "x", now.Add(time.Minute)); ok || !errors.Is(err, seal.ErrReplayStoreFull) {
		t.Fatalf("a claim of no client with the store full: %t, %v", ok, err)
	}
	now = now.Add(time.Minute) // a's claims expire, b's and c's stay
	if ok, err := claim("a", "a3", time.Minute); !ok || err != nil {
		t.Fatalf("a's claim after its claims expired: %t, %v", ok, err)
	}
	if ok, _ := claim("b", "b2", time.Minute); ok {
		t.Fatal("b's claim was forgotten to make room")
	}
	m.SetPerClient(-1) // no budget per client: the total alone
	if ok, err := claim("a", "a4", 2*time.Minute); !ok || err != nil {
		t.Fatalf("without a budget per client: %t, %v", ok, err)
	}
	if ok, err := claim("a", "a5", 2*time.Minute); ok || errors.Is(err, seal.ErrReplayClientFull) || !errors.Is(err, seal.ErrReplayStoreFull) {
		t.Fatalf("a's claim at the total without a budget per client: %t, %v", ok, err)
	}
}

func TestMemoryReplayStoreConcurrent(t *testing.T) {
	m := seal.NewMemoryReplayStore(0)
	var wins atomic.Int32
	var wg sync.WaitGroup
	for range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if ok, err := m.Claim(context.Background(), "id", time.Now().Add(time.Minute)); ok && err == nil {
				wins.Add(1)
			}
		}()
	}
	wg.Wait()
	if wins.Load() != 1 {
		t.Fatalf("%d claims won, want 1", wins.Load())
	}
}
