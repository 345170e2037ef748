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
