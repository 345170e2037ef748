package elicittest_test

import (
	"context"
	"errors"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/answer"
	"github.com/elicitgen/elicitgen/runtime/elicittest"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
)

// The three generated client-side answers go into Respond as they are.
func TestRespondTakesGeneratedAnswers(t *testing.T) {
	ctx := context.Background()
	ask := elicittest.New(
		elicittest.Respond(testforms.DeclineDeploy()),
		elicittest.Respond(testforms.CancelDeploy()),
		elicittest.Respond(testforms.AcceptDeploy(testforms.Deploy{Branch: "fix", Env: testforms.EnvStaging, Replicas: 1})),
		elicittest.Respond(testforms.AcceptDeploy(testforms.Deploy{Branch: ""})), // invalid: AcceptDeploy's error
	)
	want := []runtime.Action{runtime.ActionDecline, runtime.ActionCancel, runtime.ActionAccept}
	for i, w := range want {
		out, err := testforms.AskDeploy(ctx, ask, "Deploy?")
		if err != nil || out.Action != w {
			t.Fatalf("ask %d: %v, %v; want %v", i, out.Action, err, w)
		}
		if w == runtime.ActionAccept && (out.Value == nil || out.Value.Branch != "fix") {
			t.Fatalf("ask %d: value %+v", i, out.Value)
		}
	}
	if _, err := testforms.AskDeploy(ctx, ask, "Deploy?"); err == nil {
		t.Fatal("an invalid AcceptDeploy value was answered without its error")
	}
}

func TestRespondJoinsErrors(t *testing.T) {
	e1, e2 := errors.New("one"), errors.New("two")
	resp, err := elicittest.Respond(nil, e1, nil, e2)(nil)
	if resp != nil || !errors.Is(err, e1) || !errors.Is(err, e2) {
		t.Fatalf("Respond(nil, e1, nil, e2) = %v, %v", resp, err)
	}
	if _, err := elicittest.Respond(nil, nil)(nil); err != nil {
		t.Fatalf("Respond(nil, nil) = %v", err)
	}
}

// A missing-arguments ask sends a subset of the arguments form; the
// generated AcceptT answers it through answer.ForMissing.
func TestMissingArgsAnsweredWithGeneratedFunctions(t *testing.T) {
	answers := answer.New(answer.ForMissing(testforms.BookArgsSchema(), testforms.AcceptBookArgs,
		func(_ context.Context, msg string) (runtime.Outcome[*testforms.BookArgs], error) {
			return runtime.Outcome[*testforms.BookArgs]{Action: runtime.ActionAccept,
				Value: &testforms.BookArgs{Org: "acme", Date: "2026-12-24", PartySize: 9}}, nil
		}))
	ask := elicittest.New(elicittest.Client(answers), elicittest.Client(answers))

	// The model gave the date: only party_size is asked, and the date
	// the answerer's value holds is not sent.
	in := testforms.BookArgs{Org: "acme", Date: "2026-12-25"}
	act, err := testforms.AskMissingBookArgs(context.Background(), ask, &in, "For how many?")
	if err != nil || act != runtime.ActionAccept {
		t.Fatalf("AskMissingBookArgs = %v, %v", act, err)
	}
	if in.PartySize != 9 || in.Date != "2026-12-25" {
		t.Fatalf("arguments after the ask: %+v", in)
	}
	if s := ask.Requests()[0].Schema; len(s.Properties) != 1 || s.Properties[0].Name != "party_size" {
		t.Fatalf("asked %+v, want party_size only", s.Properties)
	}

	// Nothing given: both are asked and answered.
	in = testforms.BookArgs{Org: "acme"}
	if act, err := testforms.AskMissingBookArgs(context.Background(), ask, &in, "When, how many?"); err != nil || act != runtime.ActionAccept {
		t.Fatalf("AskMissingBookArgs = %v, %v", act, err)
	}
	if in.PartySize != 9 || in.Date != "2026-12-24" {
		t.Fatalf("arguments after the ask: %+v", in)
	}
}

// AnswerForm does not match a subset of its form; AnswerMissing does not
// match a property its form lacks.
func TestAnswerMissingMatching(t *testing.T) {
	full := answer.New(answer.For(testforms.BookArgsSchema(), testforms.AcceptBookArgs,
		func(context.Context, string) (runtime.Outcome[*testforms.BookArgs], error) {
			return runtime.Outcome[*testforms.BookArgs]{Action: runtime.ActionDecline}, nil
		}))
	sub := `{"type":"object","properties":{"party_size":{"type":"integer"}}}`
	if _, err := full.Answer(context.Background(), "?", sub); !errors.Is(err, answer.ErrNoForm) {
		t.Fatalf("AnswerForm matched a subset: %v", err)
	}
	missing := answer.New(answer.ForMissing(testforms.BookArgsSchema(), testforms.AcceptBookArgs,
		func(context.Context, string) (runtime.Outcome[*testforms.BookArgs], error) {
			return runtime.Outcome[*testforms.BookArgs]{Action: runtime.ActionAccept}, nil
		}))
	if resp, err := missing.Answer(context.Background(), "?", sub); err == nil {
		t.Fatalf("an accept without a value answered %+v", resp)
	}
	for _, s := range []string{
		`{"type":"object","properties":{"org":{"type":"string"}}}`,
		`{"type":"object","properties":{"party_size":{"type":"string"}}}`,
		`{"type":"object","properties":{}}`,
	} {
		if _, err := missing.Answer(context.Background(), "?", s); !errors.Is(err, answer.ErrNoForm) {
			t.Errorf("AnswerMissing matched %s: %v", s, err)
		}
	}
}
