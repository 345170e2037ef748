package receipt_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"sync"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/elicitgen/elicitgen/runtime/receipt"
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

// redisKey returns a fresh list key, deleted when the test ends.
func redisKey(t *testing.T, url string) string {
	var b [8]byte
	rand.Read(b[:])
	key := "{elicitgen-test:receipts:" + hex.EncodeToString(b[:]) + "}"
	t.Cleanup(func() {
		opt, _ := redis.ParseURL(url)
		c := redis.NewClient(opt)
		c.Del(context.Background(), key, key+":head")
		c.Close()
	})
	return key
}

// Two instances, each with its own client and Log, append at once to one
// Redis list: one chain, no fork, exported as a log that verifies.
func TestRedisTwoInstancesOneChain(t *testing.T) {
	url := redisURL(t)
	key := redisKey(t, url)
	ctx := context.Background()
	s := signer(t, 1)
	var logs []*receipt.Log
	for range 2 {
		sink, err := receipt.OpenRedis(url, key)
		if err != nil {
			t.Fatal(err)
		}
		if err := sink.Check(ctx); err != nil {
			t.Fatal(err)
		}
		log, err := receipt.NewLog(ctx, s, sink)
		if err != nil {
			t.Fatal(err)
		}
		defer log.Close()
		logs = append(logs, log)
	}
	var wg sync.WaitGroup
	for i := range 30 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := logs[i%2].Append(ctx, fields(i)); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	sink, _ := receipt.OpenRedis(url, key)
	defer sink.Close()
	var buf bytes.Buffer
	head, err := sink.Export(ctx, &buf)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := receipt.Verify(&buf, s.Keys(), receipt.VerifyOptions{Head: head.Digest})
	if err != nil || rep.Receipts != 30 || head.Seq != 30 {
		t.Fatalf("exported log: %+v %v (head %+v)", rep, err, head)
	}
	// A restarted instance goes on from the shared head.
	log, err := receipt.NewLog(ctx, s, sink)
	if err != nil || log.Head() != head {
		t.Fatalf("new log at %+v (%v), want %+v", log.Head(), err, head)
	}
}

// An append after a stale head stores nothing.
func TestRedisConflict(t *testing.T) {
	url := redisURL(t)
	key := redisKey(t, url)
	ctx := context.Background()
	sink, _ := receipt.OpenRedis(url, key)
	defer sink.Close()
	mem := &memSink{}
	log, _ := receipt.NewLog(ctx, signer(t, 1), mem)
	r1, _ := log.Append(ctx, fields(0))
	r2, _ := log.Append(ctx, fields(1))
	if err := sink.Append(ctx, receipt.Head{}, r1); err != nil {
		t.Fatal(err)
	}
	for _, prev := range []receipt.Head{{}, r2.Head()} {
		if err := sink.Append(ctx, prev, r2); !errors.Is(err, receipt.ErrConflict) {
			t.Fatalf("append after %+v: %v, want ErrConflict", prev, err)
		}
	}
	if h, _ := sink.Head(ctx); h != r1.Head() {
		t.Fatalf("head %+v after refused appends, want %+v", h, r1.Head())
	}
}

// A head key that is not a head, and a Redis that does not answer, keep
// a Log from starting or appending.
func TestRedisRefuses(t *testing.T) {
	url := redisURL(t)
	key := redisKey(t, url)
	ctx := context.Background()
	opt, _ := redis.ParseURL(url)
	c := redis.NewClient(opt)
	defer c.Close()
	c.Set(ctx, key+":head", "garbage", 0)
	if _, err := receipt.NewLog(ctx, signer(t, 1), receipt.NewRedisSink(c, key)); !errors.Is(err, receipt.ErrSink) {
		t.Fatalf("log on a bad head: %v, want ErrSink", err)
	}

	down, _ := receipt.OpenRedis("redis://127.0.0.1:1/0", "")
	defer down.Close()
	if err := down.Check(ctx); !errors.Is(err, receipt.ErrSink) {
		t.Errorf("Check on a Redis that does not answer: %v", err)
	}
	if _, err := receipt.NewLog(ctx, signer(t, 1), down); !errors.Is(err, receipt.ErrSink) {
		t.Errorf("log on a Redis that does not answer: %v", err)
	}
	// A log whose Redis goes away fails its append.
	log, err := receipt.NewLog(ctx, signer(t, 1), receipt.NewRedisSink(c, redisKey(t, url)))
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	if r, err := log.Append(ctx, fields(0)); !errors.Is(err, receipt.ErrSink) || r != nil {
		t.Errorf("append on a closed client: %v %v, want ErrSink", r, err)
	}
}

func TestEvictionRisk(t *testing.T) {
	for policy, risky := range map[string]bool{
		"noeviction": false, "volatile-lru": false, "volatile-ttl": false,
		"allkeys-lru": true, "allkeys-lfu": true, "allkeys-random": true,
	} {
		if err := receipt.EvictionRisk(policy); (err != nil) != risky || risky && !errors.Is(err, receipt.ErrSink) {
			t.Errorf("%s: %v", policy, err)
		}
	}
}

// A batch goes to Redis whole or not at all: after a stale head nothing
// of it is pushed; after the right one all of it, with the head at its
// last receipt.
func TestRedisAppendBatch(t *testing.T) {
	url := redisURL(t)
	key := redisKey(t, url)
	ctx := context.Background()
	sink, err := receipt.OpenRedis(url, key)
	if err != nil {
		t.Fatal(err)
	}
	defer sink.Close()
	// Receipts signed in a chain of their own, from an empty log.
	src := &memSink{}
	log, _ := receipt.NewLog(ctx, signer(t, 1), src)
	var rs []*receipt.Receipt
	for i := range 4 {
		r, err := log.Append(ctx, fields(i))
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	if err := sink.AppendBatch(ctx, receipt.Head{}, rs[:1]); err != nil {
		t.Fatal(err)
	}
	if err := sink.AppendBatch(ctx, receipt.Head{}, rs[1:]); !errors.Is(err, receipt.ErrConflict) {
		t.Fatalf("a batch after a stale head: %v, want ErrConflict", err)
	}
	var b bytes.Buffer
	if h, err := sink.Export(ctx, &b); err != nil || h != rs[0].Head() || bytes.Count(b.Bytes(), []byte("\n")) != 1 {
		t.Fatalf("after the refused batch: head %+v, %d lines, %v; want receipt 1 alone", h, bytes.Count(b.Bytes(), []byte("\n")), err)
	}
	if err := sink.AppendBatch(ctx, rs[0].Head(), rs[1:]); err != nil {
		t.Fatal(err)
	}
	b.Reset()
	h, err := sink.Export(ctx, &b)
	if err != nil || h != rs[3].Head() {
		t.Fatalf("after the batch: head %+v %v, want receipt 4", h, err)
	}
	if rep, err := receipt.Verify(&b, signer(t, 1).Keys(), receipt.VerifyOptions{Head: rs[3].Digest}); err != nil || rep.Receipts != 4 {
		t.Fatalf("the exported log: %+v %v", rep, err)
	}
}
