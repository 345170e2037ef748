package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/elicittest"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
)

// decisionSummary is what a test compares of a Decision.
func decisionSummary(d *runtime.Decision) string {
	fields := make([]string, len(d.Invalid))
	for i, f := range d.Invalid {
		fields[i] = f.Field
	}
	return fmt.Sprintf("%s %q unconfirmed=%t invalid=%v other=%d audit=%v", d.Request.Schema.Name, d.Action, d.Unconfirmed, fields, d.OtherKeys, d.Audit)
}

// TestDecisionOncePerAnswer: the runtime reports one Decision per answer
// it decides (declined, cancelled, accepted, accepted with the confirm box
// unticked, invalid), to the Asker chain through runtime.Wrap, with the
// action after confirm, the invalid fields by the form's own names (keys
// the form lacks only counted) and the validated audit values in the
// order named.
func TestDecisionOncePerAnswer(t *testing.T) {
	ctx := context.Background()
	rec := elicittest.New(
		elicittest.Respond(testforms.DeclineRelease()),
		elicittest.Respond(testforms.CancelRelease()),
		elicittest.Respond(testforms.AcceptRelease(testforms.Release{Ticket: "CHG-1234", Approve: true})),
		elicittest.Respond(testforms.AcceptRelease(testforms.Release{Ticket: "CHG-5678", Approve: false})),
		elicittest.Accept(map[string]any{"ticket": "nope", "approve": true, "injected\nkey": 1}),
		elicittest.Respond(testforms.AcceptRelease(testforms.Release{Ticket: "CHG-9999", Approve: true})),
	)
	ask := runtime.Wrap(rec, nil)
	audit := runtime.WithAuditFields("approve", "ticket")
	var got []runtime.Action
	for range 4 {
		out, err := testforms.AskRelease(ctx, ask, "Release?", audit)
		if err != nil {
			t.Fatal(err)
		}
		if out.Action != runtime.ActionAccept && out.Value != nil {
			t.Fatalf("a %s carries a value: %+v", out.Action, out.Value)
		}
		got = append(got, out.Action)
	}
	if fmt.Sprint(got) != "[decline cancel accept decline]" {
		t.Fatalf("actions %v, want [decline cancel accept decline]: an unticked confirm box is a decline", got)
	}
	out, err := testforms.AskRelease(ctx, ask, "Release?", audit, runtime.WithRetries(1))
	if err != nil || out.Action != runtime.ActionAccept || out.Value.Ticket != "CHG-9999" {
		t.Fatalf("re-asked release: %+v, %v", out, err)
	}
	want := []string{
		`Release "decline" unconfirmed=false invalid=[] other=0 audit=[]`,
		`Release "cancel" unconfirmed=false invalid=[] other=0 audit=[]`,
		`Release "accept" unconfirmed=false invalid=[] other=0 audit=[{approve true} {ticket CHG-1234}]`,
		`Release "decline" unconfirmed=true invalid=[] other=0 audit=[{approve false} {ticket CHG-5678}]`,
		`Release "" unconfirmed=false invalid=[ticket] other=1 audit=[]`,
		`Release "accept" unconfirmed=false invalid=[] other=0 audit=[{approve true} {ticket CHG-9999}]`,
	}
	ds := rec.Decisions()
	if len(ds) != len(want) {
		t.Fatalf("%d decisions, want %d (one per answer)", len(ds), len(want))
	}
	reqs := rec.Requests()
	for i, d := range ds {
		if s := decisionSummary(d); s != want[i] {
			t.Errorf("decision %d: %s\nwant        %s", i, s, want[i])
		}
		if d.Request != reqs[i] {
			t.Errorf("decision %d is about another request than the one asked", i)
		}
	}
	if d := ds[4]; d.Valid() || d.Accepted() || d.AnswerDigest() == "" {
		t.Errorf("the invalid answer's decision: valid %t, accepted %t, digest %q", d.Valid(), d.Accepted(), d.AnswerDigest())
	}
	if ds[1].AnswerDigest() != "" || ds[2].AnswerDigest() == ds[3].AnswerDigest() {
		t.Errorf("answer digests: cancel %q, two accepts %q %q", ds[1].AnswerDigest(), ds[2].AnswerDigest(), ds[3].AnswerDigest())
	}

	// A URL-mode answer is decided too.
	url := elicittest.New(elicittest.Respond(&runtime.Response{Action: runtime.ActionAccept}))
	if _, err := runtime.AskURL(ctx, url, "Sign in", "https://example.com/login"); err != nil {
		t.Fatal(err)
	}
	if ds := url.Decisions(); len(ds) != 1 || !ds[0].Accepted() || ds[0].Request.Mode != runtime.ModeURL {
		t.Errorf("URL-mode decisions %+v, want one accept", ds)
	}
}

var errNoReceipt = errors.New("receipt not written")

// TestDecisionRefusedFailsClosed: a Decided that returns an error keeps
// the accept from the handler: the ask fails with that error (matching
// ErrDecisionRefused), the Outcome holds no value, Form.Ask leaves its
// destination zero and AskMissing leaves the arguments as they were.
func TestDecisionRefusedFailsClosed(t *testing.T) {
	ctx := context.Background()
	refuse := func(d *runtime.Decision) error {
		if d.Accepted() {
			return errNoReceipt
		}
		return nil
	}
	ask := elicittest.New(
		elicittest.Respond(testforms.AcceptRelease(testforms.Release{Ticket: "CHG-1234", Approve: true})),
		elicittest.Respond(testforms.AcceptRelease(testforms.Release{Ticket: "CHG-1234", Approve: true})),
		elicittest.Respond(testforms.DeclineRelease()),
	)
	ask.Refuse = refuse
	out, err := testforms.AskRelease(ctx, runtime.Wrap(ask, nil), "Release?")
	if !errors.Is(err, runtime.ErrDecisionRefused) || !errors.Is(err, errNoReceipt) || out.Value != nil || out.Action == runtime.ActionAccept {
		t.Fatalf("refused accept: %+v, %v; want ErrDecisionRefused and the hook's error, no value", out, err)
	}
	dst := testforms.Release{Ticket: "CHG-0000"}
	releaseForm := runtime.NewForm((*testforms.Release)(nil), testforms.ReleaseSchema(), "Ticket", "Approve")
	act, err := releaseForm.Ask(ctx, ask, &dst, "Release?")
	if !errors.Is(err, errNoReceipt) || act != "" || dst != (testforms.Release{}) {
		t.Fatalf("Form.Ask refused: %q, %v, dst %+v; want the error and a zero destination", act, err, dst)
	}
	if out, err := testforms.AskRelease(ctx, ask, "Release?"); err != nil || out.Action != runtime.ActionDecline {
		t.Fatalf("a decline the hook lets through: %+v, %v", out, err)
	}

	args := elicittest.New(elicittest.Accept(map[string]any{"date": "2026-12-24", "party_size": 4.0}))
	args.Refuse = refuse
	v := testforms.BookArgs{Org: "acme"}
	act, err = testforms.AskMissingBookArgs(ctx, args, &v, "Book?")
	if !errors.Is(err, errNoReceipt) || act != "" || v != (testforms.BookArgs{Org: "acme"}) {
		t.Fatalf("AskMissing refused: %q, %v, args %+v; want the error and the arguments unchanged", act, err, v)
	}
}

// releaseArgs are tool arguments whose approval box is tagged confirm.
type releaseArgs struct {
	Ticket  string
	Approve bool
}

// TestAskMissingConfirm: the confirm rule is the runtime's one decision
// on every ask: a missing-arguments ask whose confirm box comes back
// unticked is a decline that leaves the arguments as they were; ticked,
// it completes them.
func TestAskMissingConfirm(t *testing.T) {
	ctx := context.Background()
	s := &runtime.Schema{Name: "ReleaseArgs", Properties: []runtime.Property{
		{Name: "ticket", Kind: runtime.KindString, Required: true},
		{Name: "approve", Kind: runtime.KindBoolean, Title: "Approve", Confirm: true},
	}}
	f := runtime.NewForm((*releaseArgs)(nil), s, "Ticket", "Approve")
	for _, ticked := range []bool{false, true} {
		ask := elicittest.New(elicittest.Accept(map[string]any{"approve": ticked}))
		v := releaseArgs{Ticket: "CHG-1234"}
		act, err := f.AskMissing(ctx, ask, &v, "Release?")
		want, wantV := runtime.ActionDecline, releaseArgs{Ticket: "CHG-1234"}
		if ticked {
			want, wantV = runtime.ActionAccept, releaseArgs{Ticket: "CHG-1234", Approve: true}
		}
		if err != nil || act != want || v != wantV {
			t.Errorf("ticked=%t: %q, %v, args %+v; want %s and %+v", ticked, act, err, v, want, wantV)
		}
		if d := ask.Decisions(); len(d) != 1 || d[0].Unconfirmed == ticked || d[0].Action != want {
			t.Errorf("ticked=%t: decisions %+v", ticked, d)
		}
	}
}
