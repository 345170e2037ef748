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
	claim := func(id string, until time.Duration) (bool, error) {
		c, err := m.Claim(ctx, seal.Claim{ID: id, Until: now.Add(until), Epoch: m.Epoch()})
		return c.First, err
	}

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
	if c, err := m.Claim(cctx, seal.Claim{ID: "d", Until: now.Add(time.Minute), Epoch: m.Epoch()}); c.First || !errors.Is(err, seal.ErrReplayStore) {
		t.Fatalf("claim with a cancelled context: %t, %v", c.First, err)
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
		c, err := m.Claim(ctx, seal.Claim{ID: id, Client: client, Until: now.Add(until), Epoch: m.Epoch()})
		return c.First, err
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
	// An unknown client ("") counts against the total only.
	if ok, err := claim("", "x", time.Minute); ok || !errors.Is(err, seal.ErrReplayStoreFull) {
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
			if c, err := m.Claim(context.Background(), seal.Claim{ID: "id", Until: time.Now().Add(time.Minute), Epoch: m.Epoch()}); c.First && err == nil {
				wins.Add(1)
			}
		}()
	}
	wg.Wait()
	if wins.Load() != 1 {
		t.Fatalf("%d claims won, want 1", wins.Load())
	}
}

// TestMemoryReplayStoreEpoch: the store reports its epoch (also to a
// claim of no id, which records nothing) and refuses a claim of any
// other epoch, or of none (a state sealed by an earlier release), with
// ErrStoreForgot; the epoch is the same in every store, so that
// instances without a shared store continue one another's calls.
func TestMemoryReplayStoreEpoch(t *testing.T) {
	ctx := context.Background()
	m := seal.NewMemoryReplayStore(0)
	probe, err := m.Claim(ctx, seal.Claim{})
	if err != nil || probe.First || probe.Epoch != seal.MemoryEpoch || m.Len() != 0 {
		t.Fatalf("probe: %+v, %v (len %d); want MemoryEpoch and nothing recorded", probe, err, m.Len())
	}
	until := time.Now().Add(time.Minute)
	for _, e := range []uint64{0, 1_733_130_000_000} {
		c, err := m.Claim(ctx, seal.Claim{ID: "a", Until: until, Epoch: e})
		if c.First || !errors.Is(err, seal.ErrStoreForgot) || c.Epoch != seal.MemoryEpoch {
			t.Fatalf("claim of epoch %d: %+v, %v; want ErrStoreForgot and the current epoch", e, c, err)
		}
	}
	if c, err := m.Claim(ctx, seal.Claim{ID: "a", Until: until, Epoch: probe.Epoch}); !c.First || err != nil {
		t.Fatalf("claim of the current epoch: %+v, %v", c, err)
	}
	other := seal.NewMemoryReplayStore(0)
	if c, err := other.Claim(ctx, seal.Claim{ID: "b", Until: until, Epoch: probe.Epoch}); !c.First || err != nil {
		t.Fatalf("a state of this store claimed in another process's: %+v, %v", c, err)
	}
}

// TestStateEpoch: the epoch set on a State is sealed with it, opens
// intact, and rides into its Claim with the id and expiry.
func TestStateEpoch(t *testing.T) {
	s := &seal.Sealer{Keys: seal.NewRandomKeyRing()}
	b := seal.Binding{Tool: "deploy"}
	for _, e := range []uint64{0, 1, 1_733_130_000_000, 1<<64 - 1} {
		tok, err := s.Seal(b, &seal.State{Epoch: e, Asked: []string{"Deploy"}})
		if err != nil {
			t.Fatal(err)
		}
		st, err := s.Open(b, tok)
		if err != nil {
			t.Fatal(err)
		}
		c := st.Claim("10.0.0.1")
		if st.Epoch != e || c.Epoch != e || c.ID != st.ID || c.Client != "10.0.0.1" || !c.Until.Equal(st.Expires.Add(seal.MaxClockSkew)) || !c.Issued.Equal(st.Issued) {
			t.Fatalf("epoch %d: opened %d, claim %+v", e, st.Epoch, c)
		}
	}
}

// TestMemoryReplayStoreDecidesExpiry: a claim past its state's expiry by
// the store's clock is reported expired, recorded once, and held as long
// again as the state lived, though its Until has passed.
func TestMemoryReplayStoreDecidesExpiry(t *testing.T) {
	ctx := context.Background()
	now := time.Unix(1_800_000_000, 0)
	m := seal.NewMemoryReplayStore(0)
	m.SetClock(func() time.Time { return now })
	open := seal.Claim{ID: "a", Issued: now.Add(-time.Hour), Expires: now.Add(time.Minute), Until: now.Add(2 * time.Minute), Epoch: seal.MemoryEpoch}
	if c, err := m.Claim(ctx, open); err != nil || !c.First || c.Expired {
		t.Fatalf("claim before expiry: %+v, %v", c, err)
	}
	late := seal.Claim{ID: "b", Issued: now.Add(-2 * time.Hour), Expires: now.Add(-time.Hour), Until: now.Add(-59 * time.Minute), Epoch: seal.MemoryEpoch}
	if c, err := m.Claim(ctx, late); err != nil || !c.First || !c.Expired {
		t.Fatalf("first claim after expiry: %+v, %v; want first and expired", c, err)
	}
	now = now.Add(59 * time.Minute) // within the hold of an hour
	if c, err := m.Claim(ctx, late); err != nil || c.First || !c.Expired {
		t.Fatalf("second claim after expiry: %+v, %v; want used and expired", c, err)
	}
}
