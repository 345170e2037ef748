package adapter_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
)

func TestMemoryReplayStore(t *testing.T) {
	ctx := context.Background()
	now := time.Unix(1_800_000_000, 0)
	m := adapter.NewMemoryReplayStore(2)
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
	if ok, err := claim("c", time.Minute); ok || !errors.Is(err, adapter.ErrReplayStoreFull) || !errors.Is(err, adapter.ErrReplayStore) {
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
	if ok, err := m.Claim(cctx, "d", now.Add(time.Minute)); ok || !errors.Is(err, adapter.ErrReplayStore) {
		t.Fatalf("claim with a cancelled context: %t, %v", ok, err)
	}
}

func TestMemoryReplayStoreConcurrent(t *testing.T) {
	m := adapter.NewMemoryReplayStore(0)
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

type failingStore struct{}

func (failingStore) Claim(context.Context, string, time.Time) (bool, error) {
	return false, errors.New("connection refused")
}

func TestClaimRules(t *testing.T) {
	s := exSealer(t)
	x0 := modernExchange(t, s, round{args: `{}`})
	_, err := x0.Ask(context.Background(), deployRequest())
	if !errors.Is(err, runtime.ErrInputRequired) {
		t.Fatal(err)
	}
	r := x0.Reply(err, runtime.UnavailableAuto)
	answer := map[string]*runtime.Response{"Deploy": {Action: runtime.ActionDecline}}
	for _, tc := range []struct {
		name      string
		responses map[string]*runtime.Response
		want      bool
	}{
		{"state without answers, no responses", nil, false},
		{"state with responses", answer, true},
	} {
		x, err := adapter.NewExchange(s, &adapter.Call{Tool: "deploy", Args: []byte(`{}`), Version: runtime.Version20260728,
			Caps: adapter.ClientCaps{Form: true}, State: r.State, Responses: tc.responses})
		if err != nil {
			t.Fatal(err)
		}
		if x.NeedsClaim() != tc.want {
			t.Errorf("%s: NeedsClaim = %t, want %t", tc.name, x.NeedsClaim(), tc.want)
		}
		if tc.want {
			if _, err := x.Ask(context.Background(), deployRequest()); err == nil {
				t.Errorf("%s: answers read before the claim", tc.name)
			}
			err := x.Claim(context.Background(), failingStore{})
			if !errors.Is(err, adapter.ErrReplayStore) {
				t.Errorf("%s: failing store: %v, want ErrReplayStore", tc.name, err)
			}
			if code, _ := adapter.StartError(err); code != adapter.CodeInternalError {
				t.Errorf("failing store: code %d, want -32603", code)
			}
			if err := x.Claim(context.Background(), nil); !errors.Is(err, adapter.ErrReplayStore) {
				t.Errorf("%s: nil store: %v, want ErrReplayStore", tc.name, err)
			}
		}
	}
}

func deployRequest() *runtime.Request {
	return &runtime.Request{Mode: runtime.ModeForm, Message: "Deploy?", Schema: testforms.DeploySchema()}
}
