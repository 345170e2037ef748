package adapter_test

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/elicittest"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
)

// TestAdapterDecidesNothing: the runtime decides each answer once
// (runtime.Decision); no non-test source of runtime/adapter, of the SDK
// adapters or of the packages that record answers (otelelicit,
// elicittest) reads a property's confirm flag (Property.Confirm) to
// decide an accept again, and none of runtime/adapter re-runs a
// property's checks (Property.Check) to choose what an audit record may
// hold.
func TestAdapterDecidesNothing(t *testing.T) {
	checked := map[string]bool{".": true} // also no .Check
	dirs := []string{".", "../gosdk", "../mcpgo", "../otelelicit", "../elicittest"}
	files := 0
	for _, dir := range dirs {
		paths, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, p := range paths {
			if strings.HasSuffix(p, "_test.go") {
				continue
			}
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			f, err := parser.ParseFile(token.NewFileSet(), p, src, 0)
			if err != nil {
				t.Fatal(err)
			}
			files++
			ast.Inspect(f, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				switch {
				case sel.Sel.Name == "Confirm":
					t.Errorf("%s reads .Confirm: confirm is decided by the runtime alone (runtime.Decision.Unconfirmed)", p)
				case sel.Sel.Name == "Check" && checked[dir]:
					t.Errorf("%s calls .Check: audit values are the runtime's validated ones (runtime.Decision.Audit)", p)
				}
				return true
			})
		}
	}
	if files < 10 {
		t.Fatalf("only %d source files parsed; the test does not see the adapter", files)
	}
}

// events records what an Observer is told.
type events struct {
	mu  sync.Mutex
	all []runtime.Event
}

func (r *events) Observe(_ context.Context, e runtime.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.all = append(r.all, e)
}

func (r *events) answers() []runtime.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []runtime.Event
	for _, e := range r.all {
		if e.Kind == runtime.EventAnswered || e.Kind == runtime.EventInvalid {
			out = append(out, e)
		}
	}
	return out
}

// decisions passes each Decision on to the exchange, keeping it.
type decisions struct {
	runtime.Asker
	got []*runtime.Decision
}

func (d *decisions) Unwrap() runtime.Asker { return d.Asker }
func (d *decisions) Decided(ctx context.Context, dec *runtime.Decision) error {
	d.got = append(d.got, dec)
	return runtime.Decide(ctx, d.Asker, dec)
}

// observedPush starts an observed 2025-11-25 exchange whose client gives
// answers.
func observedPush(t *testing.T, rec *events, answers ...elicittest.Answer) *adapter.Exchange {
	t.Helper()
	s := &adapter.Options{Keys: testRing(t), Observer: rec}
	x, err := s.Start(&adapter.Call{Tool: "release", Version: runtime.Version20251125, Caps: adapter.ClientCaps{Form: true}},
		"", nil, nil, elicittest.New(answers...))
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// TestAuditReadsTheDecision: through an exchange, an accept whose confirm
// box is unticked is audited as the runtime decided it, a decline with
// ReasonUnconfirmed, and the event carries the very Decision the runtime
// reported; the audit values are the Decision's, in the order named.
func TestAuditReadsTheDecision(t *testing.T) {
	ctx := context.Background()
	rec := &events{}
	x := observedPush(t, rec,
		elicittest.Respond(testforms.AcceptRelease(testforms.Release{Ticket: "CHG-1234", Approve: false})),
		elicittest.Respond(testforms.AcceptRelease(testforms.Release{Ticket: "CHG-5678", Approve: true})))
	ask := &decisions{Asker: x}
	for _, want := range []runtime.Action{runtime.ActionDecline, runtime.ActionAccept} {
		out, err := testforms.AskRelease(ctx, ask, "Release?", runtime.WithAuditFields("ticket"))
		if err != nil || out.Action != want {
			t.Fatalf("release: %+v, %v; want %s", out, err, want)
		}
	}
	x.ObserveEnd(adapter.Reply{Kind: adapter.ReplyResult})
	got := rec.answers()
	if len(got) != 2 || len(ask.got) != 2 {
		t.Fatalf("%d answer events from %d decisions, want 2 and 2: %+v", len(got), len(ask.got), got)
	}
	for i, e := range got {
		d := ask.got[i]
		if e.Decision != d {
			t.Errorf("event %d carries %p, not the runtime's Decision %p", i, e.Decision, d)
		}
		if e.Action != d.Action || fmt.Sprint(e.Content) != fmt.Sprint(d.AuditMap()) {
			t.Errorf("event %d: action %s content %v; the Decision says %s %v", i, e.Action, e.Content, d.Action, d.Audit)
		}
	}
	if e := got[0]; e.Action != runtime.ActionDecline || e.Reason != runtime.ReasonUnconfirmed || !e.Decision.Unconfirmed {
		t.Errorf("unticked confirm audited as %s (reason %q), want a decline with %q", e.Action, e.Reason, runtime.ReasonUnconfirmed)
	}
	if e := got[1]; e.Action != runtime.ActionAccept || e.Reason != "" || e.Content["ticket"] != "CHG-5678" {
		t.Errorf("ticked confirm audited as %+v", e)
	}
}

// TestExchangeDoesNotDecideAgain: the exchange reports what the Decision
// says, not what it could read off the answer: told that an accept with
// the box unticked was decided an accept (a runtime that judged
// otherwise), it audits an accept with the Decision's audit values only;
// told an answer was invalid, it names the Decision's fields.
func TestExchangeDoesNotDecideAgain(t *testing.T) {
	ctx := context.Background()
	rec := &events{}
	raw := map[string]any{"ticket": "CHG-1234", "approve": false}
	x := observedPush(t, rec, elicittest.Accept(raw), elicittest.Accept(raw))
	req := &runtime.Request{Mode: runtime.ModeForm, Message: "Release?", Schema: testforms.ReleaseSchema(), AuditFields: []string{"approve"}}
	if _, err := x.Ask(ctx, req); err != nil {
		t.Fatal(err)
	}
	if n := len(rec.answers()); n != 0 {
		t.Fatalf("%d answer events before the runtime decided", n)
	}
	d := &runtime.Decision{Request: req, Action: runtime.ActionAccept, Audit: []runtime.AuditValue{{Field: "approve", Value: "as decided"}}}
	if err := x.Decided(ctx, d); err != nil {
		t.Fatal(err)
	}
	req2 := &runtime.Request{Mode: runtime.ModeForm, Message: "Release?", Schema: testforms.ReleaseSchema()}
	if _, err := x.Ask(ctx, req2); err != nil {
		t.Fatal(err)
	}
	bad := &runtime.Decision{Request: req2, Invalid: []runtime.FieldError{{Field: "ticket"}, {Field: ""}}, OtherKeys: 2}
	if err := x.Decided(ctx, bad); err != nil {
		t.Fatal(err)
	}
	got := rec.answers()
	if len(got) != 3 {
		t.Fatalf("events %+v, want answered, answered and invalid", got)
	}
	if e := got[0]; e.Action != runtime.ActionAccept || e.Reason != "" || fmt.Sprint(e.Content) != "map[approve:as decided]" {
		t.Errorf("the exchange audited %s %q %v; the Decision said accept with approve \"as decided\"", e.Action, e.Reason, e.Content)
	}
	if e := got[2]; e.Kind != runtime.EventInvalid || fmt.Sprint(e.InvalidFields) != "[ticket  (2 other keys)]" || e.Key != "Release#2" {
		t.Errorf("invalid event %s %q %v, want the Decision's fields", e.Kind, e.Key, e.InvalidFields)
	}
}
