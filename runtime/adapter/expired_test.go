package adapter_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/elicittest"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// An answer that arrives after its question expired (an authentic,
// expired requestState with inputResponses) reaches the handler as a
// decline whose Outcome.Expired is true, audited with Reason expired,
// decided once: the same request again is refused as used. An answer in
// time is an accept, and a plain decline is not expired.
func TestExpiredAnswerIsADecline(t *testing.T) {
	ctx := context.Background()
	clock := elicittest.NewClock(time.Date(2026, 7, 28, 9, 0, 0, 0, time.UTC))
	var mu sync.Mutex
	var events []runtime.Event
	replay := seal.NewMemoryReplayStore(0)
	replay.SetClock(clock.Now)
	s := &adapter.Options{Keys: seal.NewRandomKeyRing(), Replay: replay, Now: clock.Now,
		Observer: runtime.ObserverFunc(func(_ context.Context, e runtime.Event) {
			mu.Lock()
			events = append(events, e)
			mu.Unlock()
		})}
	call := func() *adapter.Call {
		return &adapter.Call{Tool: "deploy", Args: []byte(`{}`), Version: runtime.Version20260728, Caps: adapter.ClientCaps{Form: true}}
	}
	// round runs the handler with state and answer; it returns what the
	// handler saw and the error of Start or Claim.
	round := func(state string, answer *runtime.Response) (runtime.Outcome[bool], adapter.Reply, error) {
		t.Helper()
		var responses map[string]*runtime.Response
		if answer != nil {
			responses = map[string]*runtime.Response{"confirm": answer}
		}
		x, err := s.Start(call(), state, responses, nil, nil)
		if err == nil {
			err = s.Claim(ctx, x)
		}
		if err != nil {
			return runtime.Outcome[bool]{}, adapter.Reply{}, err
		}
		out, err := runtime.AskConfirm(ctx, x, "Deploy?", runtime.WithKey("confirm"), runtime.WithWait(72*time.Hour))
		return out, s.Finish(x, err), nil
	}
	accept := &runtime.Response{Action: runtime.ActionAccept, Content: map[string]any{runtime.ConfirmField: true}}

	_, first, err := round("", nil)
	if err != nil || first.Kind != adapter.ReplyInputRequired {
		t.Fatalf("first round: %+v, %v", first, err)
	}

	// In time (three days less a minute): an accept.
	clock.Advance(72*time.Hour - time.Minute)
	out, _, err := round(first.State, accept)
	if err != nil || out.Action != runtime.ActionAccept || out.Expired() {
		t.Fatalf("answer in time: %+v (expired %v), %v", out, out.Expired(), err)
	}

	// Seven days late: a decline the handler can tell apart.
	_, second, err := round("", nil)
	if err != nil || second.Kind != adapter.ReplyInputRequired {
		t.Fatalf("second question: %+v, %v", second, err)
	}
	clock.Advance(7 * 24 * time.Hour)
	mu.Lock()
	events = nil
	mu.Unlock()
	out, _, err = round(second.State, accept)
	if err != nil || out.Action != runtime.ActionDecline || !out.Expired() {
		t.Fatalf("answer after expiry: %+v (expired %v), %v; want a decline, expired", out, out.Expired(), err)
	}
	if _, ok := out.Accepted(); ok {
		t.Fatal("an expired answer is accepted")
	}
	mu.Lock()
	var audited bool
	for _, e := range events {
		if e.Kind == runtime.EventAnswered {
			audited = e.Action == runtime.ActionDecline && e.Reason == runtime.ReasonExpired
		}
	}
	mu.Unlock()
	if !audited {
		t.Fatalf("events %+v; want the answer audited as a decline with reason %q", events, runtime.ReasonExpired)
	}

	// Decided once: the same late request again is refused.
	if _, _, err := round(second.State, accept); !errors.Is(err, seal.ErrStateUsed) {
		t.Fatalf("the expired state again: %v; want ErrStateUsed", err)
	}
	// Without answers, an expired state is refused as before.
	if _, _, err := round(second.State, nil); !errors.Is(err, seal.ErrStateExpired) {
		t.Fatalf("expired state without answers: %v; want ErrStateExpired", err)
	}

	// A decline from the person is not expired, and neither is one read
	// back from JSON.
	if !runtime.ExpiredDecline().Action.Expired() || (&runtime.Outcome[bool]{Action: runtime.ActionDecline}).Expired() ||
		runtime.Action(string([]byte("decline"))).Expired() {
		t.Fatal("Action.Expired tells the wrong declines apart")
	}
}
