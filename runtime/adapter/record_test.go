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

// Options.Record hears each decided question once, in the round that
// received its answer (not again when a later round replays it from the
// sealed state), before the handler sees it; its error keeps the accept
// from the handler.
func TestRecordOncePerDecision(t *testing.T) {
	ctx := context.Background()
	var got []adapter.Decided
	var refuse error
	s := &adapter.Options{Keys: seal.NewRandomKeyRing(), Replay: seal.NewMemoryReplayStore(0),
		Record: func(_ context.Context, q adapter.Decided) error {
			got = append(got, q)
			return refuse
		}}
	deployed := 0
	round := func(state string, responses map[string]*runtime.Response) (adapter.Reply, error) {
		x, err := s.Start(&adapter.Call{Tool: "deploy", Args: []byte(`{"service":"api"}`), Principal: "alice", Version: runtime.Version20260728, Caps: adapter.ClientCaps{Form: true}},
			state, responses, nil, nil)
		if err == nil {
			err = s.Claim(ctx, x)
		}
		if err != nil {
			t.Fatal(err)
		}
		_, err = testforms.AskDeploy(ctx, x, "Deploy?")
		if err == nil {
			var out runtime.Outcome[*testforms.Approve]
			out, err = testforms.AskApprove(ctx, x, "Sure?")
			if err == nil && out.Action == runtime.ActionAccept {
				deployed++
			}
		}
		return s.Finish(x, err), err
	}
	r, _ := round("", nil)
	deploy, _ := testforms.AcceptDeploy(testforms.Deploy{Branch: "main", Env: testforms.EnvProd, Replicas: 1})
	r, _ = round(r.State, map[string]*runtime.Response{"Deploy": deploy})
	if len(got) != 1 || got[0].Decision.Request.Schema.Name != "Deploy" || got[0].Tool != "deploy" || got[0].Principal != "alice" ||
		got[0].Rendering != runtime.RenderingForm || got[0].SchemaDigest == "" || got[0].Asked.IsZero() || got[0].At.IsZero() {
		t.Fatalf("after the Deploy answer: %+v", got)
	}
	approve, _ := testforms.AcceptApprove(testforms.Approve{Approve: true})
	state := r.State
	r, _ = round(state, map[string]*runtime.Response{"Approve": approve})
	if len(got) != 2 || got[1].Decision.Request.Schema.Name != "Approve" || got[1].Decision.Action != runtime.ActionAccept || deployed != 1 {
		t.Fatalf("after the Approve answer: %d records, %d deploys; want Deploy's not recorded again", len(got), deployed)
	}

	// A record that cannot be kept: the accept never reaches the handler.
	refuse = errors.New("receipt log full")
	got = nil
	r, _ = round("", nil)
	r, err := round(r.State, map[string]*runtime.Response{"Deploy": deploy})
	if !errors.Is(err, runtime.ErrDecisionRefused) || r.Kind == adapter.ReplyInputRequired || len(got) != 1 || deployed != 1 {
		t.Fatalf("refused record: %v (%v), %d records, %d deploys", err, r.Kind, len(got), deployed)
	}
}
