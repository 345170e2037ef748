package redisstore_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
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
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
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
func startRedis(t *testing.T) *ownRedis {
	t.Helper()
	// A port no other run holds: tests of other checkouts (and .ci/run's
	// own Redis) may run beside this one.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
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

// openStarted opens and starts a store on r.
func openStarted(t *testing.T, r *ownRedis) *redisstore.Store {
	t.Helper()
	s, err := redisstore.Open(r.url())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	s.Logger = slog.New(slog.DiscardHandler)
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s
}

// epochOf returns the epoch s reports to a claim of no id.
func epochOf(t *testing.T, s seal.ReplayStore) uint64 {
	t.Helper()
	p, err := s.Claim(context.Background(), seal.Claim{})
	if err != nil || p.First || p.Epoch == 0 {
		t.Fatalf("claim of no id: %+v, %v; want the epoch only", p, err)
	}
	return p.Epoch
}

// TestStoreThatForgotFailsClosed: after Redis loses its records (a
// restart without persistence, FLUSHALL), a spent state is refused, on
// another instance too, with ErrStoreForgot (-32602: asked again), and
// so is every state sealed under the epoch before the loss; a state
// sealed under the new epoch claims at once, on every instance (no
// window of refusals).
func TestStoreThatForgotFailsClosed(t *testing.T) {
	ctx := context.Background()
	for _, loss := range []string{"restart", "FLUSHALL", "FLUSHDB"} {
		t.Run(loss, func(t *testing.T) {
			r := startRedis(t)
			a, b := openStarted(t, r), openStarted(t, r)
			old := epochOf(t, a)
			if e := epochOf(t, b); e != old {
				t.Fatalf("two instances see epochs %d and %d", old, e)
			}
			spent, unspent := newID(), newID()
			until := time.Now().Add(time.Minute)
			if c, err := b.Claim(ctx, seal.Claim{ID: spent, Until: until, Epoch: old}); !c.First || err != nil || c.Epoch != old {
				t.Fatalf("first claim: %+v, %v", c, err)
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
				for _, id := range []string{spent, unspent, spent} {
					c, err := s.Claim(ctx, seal.Claim{ID: id, Until: until, Epoch: old})
					if c.First || !errors.Is(err, seal.ErrStoreForgot) || !errors.Is(err, runtime.ErrInvalidState) {
						t.Fatalf("instance %d, claim of a state sealed before the loss: %+v, %v; want ErrStoreForgot", i, c, err)
					}
				}
			}
			fresh, now := newID(), epochOf(t, a)
			if now == old {
				t.Fatal("the epoch did not change with the loss")
			}
			if c, err := b.Claim(ctx, seal.Claim{ID: fresh, Until: until, Epoch: now}); !c.First || err != nil {
				t.Fatalf("claim of a state sealed under the new epoch, at once: %+v, %v", c, err)
			}
			if c, err := a.Claim(ctx, seal.Claim{ID: fresh, Until: until, Epoch: now}); c.First || err != nil {
				t.Fatalf("second claim of it: %+v, %v; want false, nil", c, err)
			}
		})
	}
}

// countingStore is a wrapper written the natural way: it embeds the
// store and counts claims. With one method taking the whole claim,
// nothing it does not forward can be lost.
type countingStore struct {
	seal.ReplayStore
	n int
}

func (c *countingStore) Claim(ctx context.Context, cl seal.Claim) (seal.Claimed, error) {
	c.n++
	return c.ReplayStore.Claim(ctx, cl)
}

// TestWrappedStoreAfterFlush: a spent state claimed through a counting
// wrapper over the Redis store stays spent after FLUSHALL, claim after
// claim (issue #36: the wrapper hid the optional variant that carried
// the issue time, and the second claim after the flush won).
func TestWrappedStoreAfterFlush(t *testing.T) {
	ctx := context.Background()
	r := startRedis(t)
	w := &countingStore{ReplayStore: openStarted(t, r)}
	keys := seal.NewRandomKeyRing()
	sealer := &seal.Sealer{Keys: keys}
	b := seal.Binding{Tool: "deploy"}
	tok, err := sealer.Seal(b, &seal.State{Epoch: epochOf(t, w)})
	if err != nil {
		t.Fatal(err)
	}
	st, err := sealer.Open(b, tok)
	if err != nil {
		t.Fatal(err)
	}
	if c, err := w.Claim(ctx, st.Claim("")); !c.First || err != nil {
		t.Fatalf("first claim: %+v, %v", c, err)
	}
	c := r.client()
	defer c.Close()
	if err := c.FlushAll(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if c, err := w.Claim(ctx, st.Claim("")); c.First || !errors.Is(err, seal.ErrStoreForgot) {
			t.Fatalf("claim %d after FLUSHALL: %+v, %v; want the spent state refused (ErrStoreForgot)", i+1, c, err)
		}
	}
	if w.n != 5 {
		t.Errorf("the wrapper counted %d claims, want 5", w.n)
	}
}

// TestEvictionPolicyRefused: Start refuses a Redis whose maxmemory-policy
// can evict claim keys, unless AllowEviction gives the reason.
func TestEvictionPolicyRefused(t *testing.T) {
	ctx := context.Background()
	r := startRedis(t)
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
	r := startRedis(t)
	s := openStarted(t, r)
	s.Timeout = 300 * time.Millisecond
	epoch := epochOf(t, s)
	if err := syscall.Kill(r.pid(), syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	c, err := s.Claim(ctx, seal.Claim{ID: newID(), Until: time.Now().Add(time.Minute), Epoch: epoch})
	took := time.Since(start)
	syscall.Kill(r.pid(), syscall.SIGCONT)
	if c.First || !errors.Is(err, seal.ErrClaimUnknown) || !errors.Is(err, runtime.ErrInvalidState) {
		t.Errorf("claim on a frozen Redis: %+v, %v; want ErrClaimUnknown", c, err)
	}
	if took > time.Second {
		t.Errorf("the claim took %v; the store promises 300ms", took)
	}
	// Redis down altogether: refused (-32603, or spent when the client
	// cannot tell whether the command left).
	r.stop()
	if c, err := s.Claim(ctx, seal.Claim{ID: newID(), Until: time.Now().Add(time.Minute), Epoch: epoch}); c.First || !errors.Is(err, seal.ErrReplayStore) && !errors.Is(err, seal.ErrClaimUnknown) {
		t.Errorf("claim with Redis gone: %+v, %v; want a refusal", c, err)
	}
}

// TestClockSkewRefused: an instance whose clock differs from Redis's by
// more than ClockSkew cannot claim (fail closed), and a claim key lives
// ClockSkew past its state on Redis's clock.
func TestClockSkewRefused(t *testing.T) {
	ctx := context.Background()
	r := startRedis(t)
	s := openStarted(t, r)
	s.ClockSkew = time.Second
	epoch := epochOf(t, s)
	s.Now = func() time.Time { return time.Now().Add(90 * time.Second) }
	if c, err := s.Claim(ctx, seal.Claim{ID: newID(), Until: time.Now().Add(time.Minute), Epoch: epoch}); c.First || !errors.Is(err, seal.ErrReplayStore) || !strings.Contains(err.Error(), "clock") {
		t.Errorf("claim from a clock 90s ahead: %+v, %v; want a clock error", c, err)
	}
	s.Now = nil
	id := newID()
	if c, err := s.Claim(ctx, seal.Claim{ID: id, Until: time.Now().Add(time.Minute), Epoch: epoch}); !c.First || err != nil {
		t.Fatal(c, err)
	}
	c := r.client()
	defer c.Close()
	ttl, err := c.PTTL(ctx, redisstore.DefaultPrefix+id).Result()
	if err != nil || ttl < 59*time.Second || ttl > 61*time.Second {
		t.Errorf("PTTL = %v, %v; want about 61s", ttl, err)
	}
}

// TestFreshRedisTwoInstances: with a Redis just started (and again just
// after a flush), a question asked by one instance and answered on
// another is accepted at once, with the default clock skew allowance
// (issue #39: refused for a minute after every Redis start), while a
// state sealed before the flush is refused.
func TestFreshRedisTwoInstances(t *testing.T) {
	ctx := context.Background()
	r := startRedis(t)
	keys := seal.NewRandomKeyRing()
	a := &adapter.Options{Keys: keys, Replay: openStarted(t, r)}
	b := &adapter.Options{Keys: keys, Replay: openStarted(t, r)}
	answer, _ := testforms.AcceptDeploy(testforms.Deploy{Branch: "main", Env: testforms.EnvProd, Replicas: 2})
	// round runs one 2026-07-28 round of a tool asking Deploy on s: the
	// requestState of its input_required reply, or its answer.
	round := func(s *adapter.Options, state string, responses map[string]*runtime.Response) (string, string, error) {
		x, err := s.Start(&adapter.Call{Tool: "deploy", Args: []byte(`{}`), Version: runtime.Version20260728, Caps: adapter.ClientCaps{Form: true}},
			state, responses, nil, nil)
		if err == nil {
			err = s.Claim(ctx, x)
		}
		if err != nil {
			return "", "", err
		}
		out, err := testforms.AskDeploy(ctx, x, "Deploy?")
		rep := s.Finish(x, err)
		if rep.Kind == adapter.ReplyInputRequired {
			return rep.State, "", nil
		}
		if rep.Err != nil {
			return "", "", rep.Err
		}
		v, _ := out.Accepted()
		return "", v.Branch, nil
	}
	approve := func(issuer, answerer *adapter.Options) error {
		state, _, err := round(issuer, "", nil)
		if err != nil || state == "" {
			t.Fatalf("first round: %q, %v", state, err)
		}
		_, branch, err := round(answerer, state, map[string]*runtime.Response{"Deploy": answer})
		if err == nil && branch != "main" {
			t.Fatalf("answer reached the tool as %q", branch)
		}
		return err
	}
	if err := approve(a, b); err != nil {
		t.Fatalf("answer on the other instance of a fresh Redis: %v; want it accepted", err)
	}
	before, _, err := round(a, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	c := r.client()
	defer c.Close()
	if err := c.FlushAll(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := round(b, before, map[string]*runtime.Response{"Deploy": answer}); !errors.Is(err, seal.ErrStoreForgot) {
		t.Fatalf("a state sealed before the flush: %v; want ErrStoreForgot", err)
	}
	for i, pair := range [][2]*adapter.Options{{a, b}, {b, a}, {a, a}} {
		if err := approve(pair[0], pair[1]); err != nil {
			t.Fatalf("approval %d after the flush: %v; want it accepted at once", i+1, err)
		}
	}
}
