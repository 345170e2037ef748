package redisstore_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/redisstore"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// A redis-server of the test's own, on port (6420-6429), with no
// persistence, as a bare redis-server runs: started, restarted, frozen
// and killed by the test.
type ownRedis struct {
	t       *testing.T
	port    int
	pidfile string
}

// startRedis starts a redis-server on port, skipping the test where
// there is none unless ELICITGEN_REQUIRE_REDIS=1.
func startRedis(t *testing.T, port int) *ownRedis {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		if os.Getenv("ELICITGEN_REQUIRE_REDIS") == "1" {
			t.Fatal("ELICITGEN_REQUIRE_REDIS=1 but there is no redis-server")
		}
		t.Skip("no redis-server on PATH")
	}
	r := &ownRedis{t: t, port: port, pidfile: filepath.Join(t.TempDir(), "redis.pid")}
	r.start()
	t.Cleanup(r.stop)
	return r
}

func (r *ownRedis) url() string { return fmt.Sprintf("redis://127.0.0.1:%d/0", r.port) }

func (r *ownRedis) start() {
	r.t.Helper()
	out, err := exec.Command("redis-server", "--port", strconv.Itoa(r.port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--daemonize", "yes", "--pidfile", r.pidfile,
		"--logfile", filepath.Join(filepath.Dir(r.pidfile), "redis.log")).CombinedOutput()
	if err != nil {
		r.t.Fatalf("redis-server: %v: %s", err, out)
	}
	c := r.client()
	defer c.Close()
	for range 100 {
		if c.Ping(context.Background()).Err() == nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	r.t.Fatalf("redis-server on port %d did not answer", r.port)
}

func (r *ownRedis) pid() int {
	b, err := os.ReadFile(r.pidfile)
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return pid
}

// stop kills the server (its own pid only) and waits for it to go.
func (r *ownRedis) stop() {
	pid := r.pid()
	if pid == 0 {
		return
	}
	syscall.Kill(pid, syscall.SIGCONT)
	syscall.Kill(pid, syscall.SIGKILL)
	for range 100 {
		if syscall.Kill(pid, 0) != nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	os.Remove(r.pidfile)
}

func (r *ownRedis) client() *redis.Client {
	opt, _ := redis.ParseURL(r.url())
	return redis.NewClient(opt)
}

// openStarted opens a store on r with a 1 s clock skew allowance (so
// that states issued a little after a new epoch are accepted in a test).
func openStarted(t *testing.T, r *ownRedis) *redisstore.Store {
	t.Helper()
	s, err := redisstore.Open(r.url())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	s.ClockSkew = time.Second
	s.Logger = slog.New(slog.DiscardHandler)
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestStoreThatForgotFailsClosed: after Redis loses its records (a
// restart without persistence, FLUSHALL), a spent state is refused, on
// another instance too, with ErrStoreForgot (-32602: asked again), and
// so is every state issued before the loss; a state issued after it
// claims as before.
func TestStoreThatForgotFailsClosed(t *testing.T) {
	ctx := context.Background()
	for _, loss := range []string{"restart", "FLUSHALL", "FLUSHDB"} {
		t.Run(loss, func(t *testing.T) {
			r := startRedis(t, 6421)
			a, b := openStarted(t, r), openStarted(t, r)
			time.Sleep(1100 * time.Millisecond) // past the epoch and the skew allowed
			issued := time.Now()
			spent, unspent := newID(), newID()
			until := time.Now().Add(time.Minute)
			if ok, err := a.ClaimIssued(ctx, spent, issued, until); !ok || err != nil {
				t.Fatalf("first claim: %t, %v", ok, err)
			}
			switch loss {
			case "restart":
				r.stop()
				r.start()
			default:
				c := r.client()
				if err := c.Do(ctx, loss).Err(); err != nil {
					t.Fatal(err)
				}
				c.Close()
			}
			for i, s := range []*redisstore.Store{b, a} {
				for _, id := range []string{spent, unspent} {
					ok, err := s.ClaimIssued(ctx, id, issued, until)
					if ok || !errors.Is(err, seal.ErrStoreForgot) || !errors.Is(err, runtime.ErrInvalidState) {
						t.Fatalf("instance %d, claim of a state issued before the loss: %t, %v; want ErrStoreForgot", i, ok, err)
					}
				}
			}
			time.Sleep(1100 * time.Millisecond)
			fresh := newID()
			if ok, err := b.ClaimIssued(ctx, fresh, time.Now(), until); !ok || err != nil {
				t.Fatalf("claim of a state issued after the loss: %t, %v", ok, err)
			}
			if ok, err := a.ClaimIssued(ctx, fresh, time.Now(), until); ok || err != nil {
				t.Fatalf("second claim of it: %t, %v; want false, nil", ok, err)
			}
		})
	}
}

// TestEvictionPolicyRefused: Start refuses a Redis whose maxmemory-policy
// can evict claim keys, unless AllowEviction gives the reason.
func TestEvictionPolicyRefused(t *testing.T) {
	ctx := context.Background()
	r := startRedis(t, 6422)
	c := r.client()
	defer c.Close()
	for _, policy := range []string{"allkeys-lru", "allkeys-random", "volatile-lru", "volatile-ttl", "allkeys-lfu"} {
		if err := c.ConfigSet(ctx, "maxmemory-policy", policy).Err(); err != nil {
			t.Fatal(err)
		}
		s, _ := redisstore.Open(r.url())
		s.Logger = slog.New(slog.DiscardHandler)
		err := s.Start(ctx)
		if !errors.Is(err, redisstore.ErrEvictionPolicy) || !strings.Contains(err.Error(), policy) {
			t.Errorf("%s: Start = %v, want ErrEvictionPolicy naming it", policy, err)
		}
		s.AllowEviction = "test: this Redis never fills"
		if err := s.Start(ctx); err != nil {
			t.Errorf("%s with AllowEviction: %v", policy, err)
		}
		s.Close()
	}
	if err := c.ConfigSet(ctx, "maxmemory-policy", "noeviction").Err(); err != nil {
		t.Fatal(err)
	}
	s, _ := redisstore.Open(r.url())
	defer s.Close()
	if err := s.Start(ctx); err != nil {
		t.Errorf("noeviction: %v", err)
	}
}

// TestFrozenRedis: a claim against a server that stopped answering
// (SIGSTOP) returns within its Timeout, not go-redis's own, and counts
// as spent (ErrClaimUnknown, -32602): when Redis applies it later, the
// person is asked again rather than finding the approval used.
func TestFrozenRedis(t *testing.T) {
	ctx := context.Background()
	r := startRedis(t, 6423)
	s := openStarted(t, r)
	s.Timeout = 300 * time.Millisecond
	time.Sleep(1100 * time.Millisecond)
	if err := syscall.Kill(r.pid(), syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	ok, err := s.ClaimIssued(ctx, newID(), time.Now(), time.Now().Add(time.Minute))
	took := time.Since(start)
	syscall.Kill(r.pid(), syscall.SIGCONT)
	if ok || !errors.Is(err, seal.ErrClaimUnknown) || !errors.Is(err, runtime.ErrInvalidState) {
		t.Errorf("claim on a frozen Redis: %t, %v; want ErrClaimUnknown", ok, err)
	}
	if took > time.Second {
		t.Errorf("the claim took %v; the store promises 300ms", took)
	}
	// Redis down altogether: refused (-32603, or spent when the client
	// cannot tell whether the command left).
	r.stop()
	if ok, err := s.ClaimIssued(ctx, newID(), time.Now(), time.Now().Add(time.Minute)); ok || !errors.Is(err, seal.ErrReplayStore) && !errors.Is(err, seal.ErrClaimUnknown) {
		t.Errorf("claim with Redis gone: %t, %v; want a refusal", ok, err)
	}
}

// TestClockSkewRefused: an instance whose clock differs from Redis's by
// more than ClockSkew cannot claim (fail closed), and a claim key lives
// ClockSkew past its state on Redis's clock.
func TestClockSkewRefused(t *testing.T) {
	ctx := context.Background()
	r := startRedis(t, 6424)
	s := openStarted(t, r)
	time.Sleep(1100 * time.Millisecond)
	s.Now = func() time.Time { return time.Now().Add(90 * time.Second) }
	if ok, err := s.ClaimIssued(ctx, newID(), time.Now(), time.Now().Add(time.Minute)); ok || !errors.Is(err, seal.ErrReplayStore) || !strings.Contains(err.Error(), "clock") {
		t.Errorf("claim from a clock 90s ahead: %t, %v; want a clock error", ok, err)
	}
	s.Now = nil
	id := newID()
	if ok, err := s.ClaimIssued(ctx, id, time.Now(), time.Now().Add(time.Minute)); !ok || err != nil {
		t.Fatal(ok, err)
	}
	c := r.client()
	defer c.Close()
	ttl, err := c.PTTL(ctx, redisstore.DefaultPrefix+id).Result()
	if err != nil || ttl < 59*time.Second || ttl > 61*time.Second {
		t.Errorf("PTTL = %v, %v; want about 61s", ttl, err)
	}
}
