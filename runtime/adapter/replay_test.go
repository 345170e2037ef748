package adapter_test

import (
	"context"
	"errors"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

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
			if !errors.Is(err, seal.ErrReplayStore) {
				t.Errorf("%s: failing store: %v, want ErrReplayStore", tc.name, err)
			}
			if code, _ := adapter.StartError(err); code != adapter.CodeInternalError {
				t.Errorf("failing store: code %d, want -32603", code)
			}
			if err := x.Claim(context.Background(), nil); !errors.Is(err, seal.ErrReplayStore) {
				t.Errorf("%s: nil store: %v, want ErrReplayStore", tc.name, err)
			}
		}
	}
}

func deployRequest() *runtime.Request {
	return &runtime.Request{Mode: runtime.ModeForm, Message: "Deploy?", Schema: testforms.DeploySchema()}
}

type failingStore struct{}

func (failingStore) Claim(context.Context, seal.Claim) (seal.Claimed, error) {
	return seal.Claimed{}, errors.New("connection refused")
}

// TestReplayClient: a call's claims count against its principal where it
// has one, else the transport's client key.
func TestReplayClient(t *testing.T) {
	for _, c := range []struct {
		call adapter.Call
		want string
	}{
		{adapter.Call{Principal: "ana", Client: "addr:192.0.2.1"}, "principal:ana"},
		{adapter.Call{Client: "addr:192.0.2.1"}, "addr:192.0.2.1"},
		{adapter.Call{}, ""},
	} {
		if got := adapter.ReplayClient(&c.call); got != c.want {
			t.Errorf("ReplayClient(%+v) = %q, want %q", c.call, got, c.want)
		}
	}
}

// epochStore records the claims it is given and reports epoch 7, or
// fails every claim when down.
type epochStore struct {
	claims []seal.Claim
	down   bool
}

func (s *epochStore) Claim(_ context.Context, c seal.Claim) (seal.Claimed, error) {
	s.claims = append(s.claims, c)
	if s.down {
		return seal.Claimed{}, errors.New("connection refused")
	}
	return seal.Claimed{First: c.ID != "", Epoch: 7}, nil
}

// TestSealsStoreEpoch: the first round asks the store its epoch (a claim
// of no id) and seals it; the answer's round sends it back with the
// claim, and seals the next state with the epoch the claim reported,
// without asking again. A store that cannot tell its epoch fails the
// round before anyone is asked (seal.ErrReplayStore).
func TestSealsStoreEpoch(t *testing.T) {
	ctx := context.Background()
	store := &epochStore{}
	s := &adapter.Options{Keys: seal.NewRandomKeyRing(), Replay: store}
	round := func(state string, responses map[string]*runtime.Response) adapter.Reply {
		x, err := s.Start(&adapter.Call{Tool: "deploy", Args: []byte(`{}`), Version: runtime.Version20260728, Caps: adapter.ClientCaps{Form: true}, Client: "addr:192.0.2.1"},
			state, responses, nil, nil)
		if err == nil {
			err = s.Claim(ctx, x)
		}
		if err != nil {
			t.Fatal(err)
		}
		_, err = testforms.AskDeploy(ctx, x, "Deploy?")
		if err == nil {
			_, err = testforms.AskApprove(ctx, x, "Sure?")
		}
		return s.Finish(x, err)
	}
	r := round("", nil)
	if r.Kind != adapter.ReplyInputRequired || len(store.claims) != 1 || store.claims[0] != (seal.Claim{}) {
		t.Fatalf("first round: %+v, claims %+v; want input_required after one claim of no id", r, store.claims)
	}
	answer, _ := testforms.AcceptDeploy(testforms.Deploy{Branch: "main", Env: testforms.EnvProd, Replicas: 1})
	r = round(r.State, map[string]*runtime.Response{"Deploy": answer})
	if r.Kind != adapter.ReplyInputRequired || len(store.claims) != 2 {
		t.Fatalf("second round: %+v, claims %+v; want input_required after one more claim", r, store.claims)
	}
	if c := store.claims[1]; c.ID == "" || c.Epoch != 7 || c.Client != "addr:192.0.2.1" || c.Until.IsZero() || c.Issued.IsZero() {
		t.Fatalf("the answer's claim: %+v; want the state's id, epoch 7, the client, its times", c)
	}
	st, err := s.Sealer().Open(seal.BindCall("deploy", []byte(`{}`), ""), r.State)
	if err != nil || st.Epoch != 7 {
		t.Fatalf("the next state: %+v, %v; want epoch 7", st, err)
	}
	store.down = true
	if r := round("", nil); r.Kind != adapter.ReplyResult || !errors.Is(r.Err, seal.ErrReplayStore) {
		t.Fatalf("first round with the store down: %+v; want ErrReplayStore", r)
	}
}
