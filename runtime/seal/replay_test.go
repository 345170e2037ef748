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
