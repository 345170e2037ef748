package redisstore_test

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/elicitgen/elicitgen/runtime/redisstore"
	"github.com/elicitgen/elicitgen/runtime/tasks"
)

// deployRequest is the input request of a typical approval: the example's
// deploy form.
var deployRequest = json.RawMessage(`{"method":"elicitation/create","params":{"mode":"form","message":"Deploy v2.31.0 to production? 3 services restart.","requestedSchema":{"type":"object","properties":{"branch":{"type":"string","title":"Branch","enum":["main","release"]},"confirm":{"type":"boolean","title":"I approve this deploy","default":false}},"required":["branch","confirm"]}}}`)

// taskServers returns two servers on separate Redis clients over one
// Redis, as two instances of a deployment are: each keeps its tasks in
// the page store its hosted pages use. The returned key names task id's
// record.
func taskServers(t testing.TB) (a, b *tasks.Server, client *redis.Client, key func(id string) string) {
	t.Helper()
	opt, err := redis.ParseURL(redisURL(t))
	if err != nil {
		t.Fatal(err)
	}
	ca, cb := redis.NewClient(opt), redis.NewClient(opt)
	t.Cleanup(func() { ca.Close(); cb.Close() })
	prefix := "elicitgen-test:page:" + newID() + ":"
	pa, pb := redisstore.NewPageStore(ca), redisstore.NewPageStore(cb)
	pa.Prefix, pb.Prefix = prefix, prefix
	pa.Limit, pb.Limit = 1<<30, 1<<30 // BenchmarkTaskMemory holds 100,000 waiting
	return &tasks.Server{Store: tasks.NewStore(pa)}, &tasks.Server{Store: tasks.NewStore(pb)}, ca,
		func(id string) string { return prefix + "task." + id }
}

func TestTaskAcrossInstances(t *testing.T) {
	a, b, client, key := taskServers(t)
	ctx := context.Background()
	var runs atomic.Int32
	run := func(_ context.Context, r tasks.Record) tasks.Step {
		runs.Add(1)
		if string(r.Answers["deploy"]) != `{"action":"accept","content":{"branch":"main","confirm":true}}` {
			t.Errorf("run with answers %s", r.Answers)
		}
		return tasks.Step{Result: json.RawMessage(`{"content":[{"type":"text","text":"deployed"}]}`)}
	}
	a.Run, b.Run = run, run

	r, err := a.Create(ctx, "alice", "deploy_to_production", "sha256:x", json.RawMessage(`{}`), 72*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	// Readable on the other instance as soon as Create returns.
	if _, err := b.Store.Get(ctx, r.ID); err != nil {
		t.Fatalf("the other instance cannot read the new task: %v", err)
	}
	if _, err := a.Settle(ctx, r.ID, tasks.Step{Requests: map[string]json.RawMessage{"deploy": deployRequest}}); err != nil {
		t.Fatal(err)
	}
	// The record's expiry is Redis's: its TTL is the task's life. What
	// Redis holds for it is the page store's hash and its place in the
	// store's budget.
	ttl, err := client.PTTL(ctx, key(r.ID)).Result()
	if err != nil || ttl <= 71*time.Hour || ttl > 72*time.Hour {
		t.Errorf("PTTL = %v, %v; want the 72-hour life", ttl, err)
	}
	n, err := client.MemoryUsage(ctx, key(r.ID)).Result()
	t.Logf("a waiting approval: %d bytes in Redis", n)
	if err != nil || n > 2048 {
		t.Errorf("a waiting approval takes %d bytes in Redis (%v), want at most 2 KiB", n, err)
	}

	// Sixteen answers race on both instances: one runs the tool.
	var wg sync.WaitGroup
	for i := range 16 {
		s := a
		if i%2 == 1 {
			s = b
		}
		wg.Go(func() {
			_, err := s.Serve(ctx, tasks.Call{Method: tasks.MethodUpdate, Principal: "alice", Declared: true,
				Params: json.RawMessage(`{"taskId":"` + r.ID + `","inputResponses":{"deploy":{"action":"accept","content":{"branch":"main","confirm":true}}}}`)})
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if runs.Load() != 1 {
		t.Errorf("the tool ran %d times, want 1", runs.Load())
	}
	got, err := a.Store.Get(ctx, r.ID)
	if err != nil || got.Status != tasks.StatusCompleted {
		t.Errorf("task after the answers: %+v, %v", got, err)
	}
}

func TestTaskStoreRefusesWhatItCannotRecord(t *testing.T) {
	a, _, client, key := taskServers(t)
	ctx := context.Background()
	r, err := a.Create(ctx, "alice", "deploy", "", nil, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Store.Create(ctx, r); !errors.Is(err, tasks.ErrExists) {
		t.Errorf("creating an existing id: %v, want ErrExists", err)
	}
	// A Redis that lost its records: the task is unknown, and an answer
	// is refused, never taken.
	if err := client.Del(ctx, key(r.ID)).Err(); err != nil {
		t.Fatal(err)
	}
	_, err = a.Serve(ctx, tasks.Call{Method: tasks.MethodUpdate, Principal: "alice", Declared: true,
		Params: json.RawMessage(`{"taskId":"` + r.ID + `","inputResponses":{"deploy":{"action":"accept"}}}`)})
	if e, ok := errors.AsType[*tasks.Error](err); !ok || e.Code != tasks.CodeInvalidParams {
		t.Errorf("answering a lost task: %v, want -32602", err)
	}
	// A Redis that cannot be reached fails every call.
	down := tasks.NewStore(redisstore.NewPageStore(redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1})))
	if _, err := down.Get(ctx, r.ID); err == nil || errors.Is(err, tasks.ErrNotFound) {
		t.Errorf("Get on an unreachable Redis: %v", err)
	}
	if _, err := down.Update(ctx, r.ID, func(*tasks.Record) error { return nil }); err == nil {
		t.Error("Update on an unreachable Redis succeeded")
	}
}

// BenchmarkTaskMemory stores b.N waiting deploy approvals in Redis and
// reports Redis's memory per approval (INFO memory, used_memory, before
// and after): run it with -benchtime 100000x for the figure in
// BENCHMARKS.md.
func BenchmarkTaskMemory(b *testing.B) {
	s, _, client, key := taskServers(b)
	ctx := context.Background()
	used := func() int64 {
		info, err := client.Info(ctx, "memory").Result()
		if err != nil {
			b.Fatal(err)
		}
		for line := range strings.SplitSeq(info, "\r\n") {
			if v, ok := strings.CutPrefix(line, "used_memory:"); ok {
				n, _ := strconv.ParseInt(v, 10, 64)
				return n
			}
		}
		b.Fatal("no used_memory in INFO memory")
		return 0
	}
	before := used()
	ids := make([]string, 0, b.N)
	for b.Loop() {
		r, err := s.Create(ctx, "alice@example.com", "deploy_to_production", "sha256:9f2c", json.RawMessage(`{"name":"deploy_to_production","arguments":{"service":"billing"}}`), 72*time.Hour)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Settle(ctx, r.ID, tasks.Step{Requests: map[string]json.RawMessage{"Deploy": deployRequest}, State: strings.Repeat("s", 400)}); err != nil {
			b.Fatal(err)
		}
		ids = append(ids, r.ID)
	}
	b.ReportMetric(float64(used()-before)/float64(b.N), "redis-B/task")
	// The budgets' sorted sets, then the records.
	base := strings.TrimSuffix(key(""), "task.")
	client.Del(ctx, base+"{budget}:all")
	if keys, err := client.Keys(ctx, base+"{budget}:client:*").Result(); err == nil && len(keys) > 0 {
		client.Del(ctx, keys...)
	}
	for i := 0; i < len(ids); i += 1000 {
		keys := make([]string, 0, 1000)
		for _, id := range ids[i:min(i+1000, len(ids))] {
			keys = append(keys, key(id))
		}
		client.Del(ctx, keys...)
	}
}
