package redisstore_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/elicitgen/elicitgen/runtime/redisstore"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// redisURL returns ELICITGEN_REDIS_URL (a real redis-server, which
// .ci/run starts), skipping the test without it unless
// ELICITGEN_REQUIRE_REDIS=1.
func redisURL(t testing.TB) string {
	t.Helper()
	u := os.Getenv("ELICITGEN_REDIS_URL")
	if u == "" {
		if os.Getenv("ELICITGEN_REQUIRE_REDIS") == "1" {
			t.Fatal("ELICITGEN_REQUIRE_REDIS=1 but ELICITGEN_REDIS_URL is not set")
		}
		t.Skip("set ELICITGEN_REDIS_URL=redis://127.0.0.1:6390/0 (a running redis-server) to run")
	}
	return u
}

func newID() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// claim claims id in s until until under the epoch s reports to a
// claim of no id, as the runtime does for a state it has just issued.
func claim(ctx context.Context, s seal.ReplayStore, id string, until time.Time) (bool, error) {
	p, err := s.Claim(ctx, seal.Claim{})
	if err != nil {
		return false, err
	}
	c, err := s.Claim(ctx, seal.Claim{ID: id, Until: until, Epoch: p.Epoch})
	return c.First, err
}

func TestClaim(t *testing.T) {
	s, err := redisstore.Open(redisURL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	id := newID()
	until := time.Now().Add(90 * time.Second)
	if ok, err := claim(ctx, s, id, until); !ok || err != nil {
		t.Fatalf("first claim: %t, %v", ok, err)
	}
	if ok, err := claim(ctx, s, id, until); ok || err != nil {
		t.Fatalf("second claim: %t, %v; want false, nil", ok, err)
	}
	// The key expires with the state.
	opt, _ := redis.ParseURL(redisURL(t))
	c := redis.NewClient(opt)
	defer c.Close()
	ttl, err := c.PTTL(ctx, redisstore.DefaultPrefix+id).Result()
	if err != nil || ttl <= 140*time.Second || ttl > 150*time.Second {
		t.Errorf("PTTL = %v, %v; want about 150s (90s and the clock skew allowed, on Redis's clock)", ttl, err)
	}
	// Another prefix is another namespace.
	other, _ := redisstore.Open(redisURL(t))
	defer other.Close()
	other.Prefix = "elicitgen-test-other:"
	if err := other.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if ok, err := claim(ctx, other, id, until); !ok || err != nil {
		t.Fatalf("claim under another prefix: %t, %v", ok, err)
	}
}

func TestClaimConcurrent(t *testing.T) {
	const n = 50
	id := newID()
	var wins atomic.Int32
	var wg sync.WaitGroup
	for range n {
		// One client per claimer, as separate instances would have.
		s, err := redisstore.Open(redisURL(t))
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if err := s.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, err := claim(context.Background(), s, id, time.Now().Add(time.Minute))
			if err != nil {
				t.Error(err)
			}
			if ok {
				wins.Add(1)
			}
		}()
	}
	wg.Wait()
	if wins.Load() != 1 {
		t.Fatalf("%d of %d concurrent claims won, want 1", wins.Load(), n)
	}
}

func TestClaimFailsClosed(t *testing.T) {
	// A port nobody listens on.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	s, err := redisstore.Open("redis://" + addr + "/0")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.Timeout = 500 * time.Millisecond
	ok, err := claim(context.Background(), s, newID(), time.Now().Add(time.Minute))
	if ok || !errors.Is(err, seal.ErrReplayStore) {
		t.Fatalf("claim with Redis down: %t, %v; want false and ErrReplayStore", ok, err)
	}
	if _, err := redisstore.Open("http://nope"); err == nil {
		t.Error("Open accepted a non-redis URL")
	}
}
