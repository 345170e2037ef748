package redisstore_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/elicittest"
	"github.com/elicitgen/elicitgen/runtime/redisstore"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// epochStore plays the shared store for the instance that asked, eight
// days ago: it reports the Redis store's epoch (a fake clock cannot move
// Redis, whose TIME the real store compares with).
type epochStore struct{ epoch uint64 }

func (e epochStore) Claim(context.Context, seal.Claim) (seal.Claimed, error) {
	return seal.Claimed{First: true, Epoch: e.epoch}, nil
}

// A late answer sent to several instances at once is decided once
// across them, in the shared Redis store: exactly one runs the handler,
// which sees an expired decline; the others are refused as used.
func TestExpiredDecidedOnceAcrossInstances(t *testing.T) {
	s, epoch := openStore(t)
	ctx := context.Background()
	keys := seal.NewRandomKeyRing()
	// Asked eight days ago, waiting 72 hours.
	state := askedAt(t, keys, epoch, time.Now().Add(-8*24*time.Hour), 72*time.Hour)

	answer := map[string]*runtime.Response{"confirm": {Action: runtime.ActionAccept, Content: map[string]any{runtime.ConfirmField: true}}}
	const instances = 4
	var wg sync.WaitGroup
	var mu sync.Mutex
	var expired, used int
	for range instances {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o := &adapter.Options{Keys: keys, Replay: s} // the real clock
			x, err := o.Start(deployCall(), state, answer, nil, nil)
			if err == nil {
				err = o.Claim(ctx, x)
			}
			mu.Lock()
			defer mu.Unlock()
			if errors.Is(err, seal.ErrStateUsed) {
				used++
				return
			}
			if err != nil {
				t.Error(err)
				return
			}
			out, err := runtime.AskConfirm(ctx, x, "Deploy?", runtime.WithKey("confirm"), runtime.WithWait(72*time.Hour))
			if err != nil || out.Action != runtime.ActionDecline || !out.Expired() {
				t.Errorf("late answer: %+v (expired %v), %v; want an expired decline", out, out.Expired(), err)
			}
			expired++
		}()
	}
	wg.Wait()
	if expired != 1 || used != instances-1 {
		t.Fatalf("%d expired declines and %d refusals; want 1 and %d", expired, used, instances-1)
	}
}

// An instance whose clock runs 50 seconds behind (within the skew the
// store allows) receives an answer 30 seconds after its question closed:
// by its own clock the question is still open, by Redis's it is not, and
// Redis decides: the handler sees an expired decline, never the accept.
func TestSlowInstanceCannotExtendAQuestion(t *testing.T) {
	s, epoch := openStore(t)
	ctx := context.Background()
	keys := seal.NewRandomKeyRing()
	// Asked 15 minutes and 30 seconds ago, open for 15 minutes.
	state := askedAt(t, keys, epoch, time.Now().Add(-15*time.Minute-30*time.Second), 15*time.Minute)

	slow := func() time.Time { return time.Now().Add(-50 * time.Second) }
	s.Now = slow
	o := &adapter.Options{Keys: keys, Replay: s, Now: slow}
	answer := map[string]*runtime.Response{"confirm": {Action: runtime.ActionAccept, Content: map[string]any{runtime.ConfirmField: true}}}
	x, err := o.Start(deployCall(), state, answer, nil, nil)
	if err != nil {
		t.Fatalf("the slow instance refused the state it still finds open: %v", err)
	}
	if err := o.Claim(ctx, x); err != nil {
		t.Fatal(err)
	}
	out, err := runtime.AskConfirm(ctx, x, "Deploy?", runtime.WithKey("confirm"), runtime.WithWait(15*time.Minute))
	if err != nil || out.Action != runtime.ActionDecline || !out.Expired() {
		t.Fatalf("an answer after the question closed on Redis's clock: %+v (expired %v), %v; want an expired decline", out, out.Expired(), err)
	}
	// Decided once: the same answer again is refused as used.
	x, err = o.Start(deployCall(), state, answer, nil, nil)
	if err == nil {
		err = o.Claim(ctx, x)
	}
	if !errors.Is(err, seal.ErrStateUsed) {
		t.Errorf("the late answer sent again: %v, want ErrStateUsed", err)
	}
}

// openStore starts a Redis store on a fresh epoch key, or skips.
func openStore(t *testing.T) (*redisstore.Store, uint64) {
	t.Helper()
	s, err := redisstore.Open(redisURL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	e, err := s.Claim(context.Background(), seal.Claim{})
	if err != nil {
		t.Fatal(err)
	}
	return s, e.Epoch
}

// deployCall is a 2026-07-28 call of deploy by alice.
func deployCall() *adapter.Call {
	return &adapter.Call{Tool: "deploy", Args: []byte(`{}`), Principal: "alice", Version: runtime.Version20260728, Caps: adapter.ClientCaps{Form: true}}
}

// askedAt asks deploy's confirm question, open for wait, on an instance
// whose clock reads at, under the store epoch, and returns its state.
func askedAt(t *testing.T, keys *seal.KeyRing, epoch uint64, at time.Time, wait time.Duration) string {
	t.Helper()
	ctx := context.Background()
	past := elicittest.NewClock(at)
	asker := &adapter.Options{Keys: keys, Replay: epochStore{epoch}, Now: past.Now}
	x, err := asker.Start(deployCall(), "", nil, nil, nil)
	if err == nil {
		err = asker.Claim(ctx, x)
	}
	if err != nil {
		t.Fatal(err)
	}
	_, err = runtime.AskConfirm(ctx, x, "Deploy?", runtime.WithKey("confirm"), runtime.WithWait(wait))
	r := asker.Finish(x, err)
	if r.Kind != adapter.ReplyInputRequired {
		t.Fatalf("first round: %+v", r)
	}
	return r.State
}
