package sdktest

import (
	"context"
	"fmt"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
)

const releaseMsg = "Release to production?"

// release is a handler written the careless way: it acts on any
// Accepted() and never looks at the Approve box itself.
func release(ctx context.Context, ask runtime.Asker) (string, error) {
	out, err := testforms.AskRelease(ctx, ask, releaseMsg)
	if err != nil {
		return "", err
	}
	if v, ok := out.Accepted(); ok {
		return "released " + v.Ticket, nil
	}
	if out.Value != nil {
		return "", fmt.Errorf("a %s carries a value: %+v", out.Action, *out.Value)
	}
	return "not released: " + string(out.Action), nil
}

// TestConfirmBox: on both SDKs and every era, over real JSON, an accept
// whose box tagged confirm is unticked reaches a handler that only checks
// Accepted() as a decline (it does nothing), and the audit record, taken
// from the runtime's Decision, is a decline that says "accepted without
// confirming"; a ticked box releases. The confirm rule
// never reaches the client.
func TestConfirmBox(t *testing.T) {
	for _, sdk := range sdks {
		for _, version := range versions {
			for _, ticked := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/%s/ticked=%t", sdk, version, ticked), func(t *testing.T) {
					rec := newEventLog()
					s := newServer(t, sdk, runtime.UnavailableAuto)
					addObservedTool(s, "release", rec, release)
					answer := func(_ context.Context, q question) (*runtime.Response, error) {
						if q.Message != releaseMsg {
							return nil, fmt.Errorf("unexpected question %q", q.Message)
						}
						approve, _ := q.Schema["properties"].(map[string]any)["approve"].(map[string]any)
						for k := range approve {
							if k != "type" && k != "title" && k != "description" && k != "default" {
								t.Errorf("the approve box is sent with %q: %v", k, approve)
							}
						}
						return testforms.AcceptRelease(testforms.Release{Ticket: "CHG-1234", Approve: ticked})
					}
					c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: answer})
					res, err := c.call(callCtx(t), "release", nil)
					if err != nil {
						t.Fatal(err)
					}
					want, action, reason := "not released: decline", runtime.ActionDecline, runtime.ReasonUnconfirmed
					if ticked {
						want, action, reason = "released CHG-1234", runtime.ActionAccept, ""
					}
					if res.Text != want || res.IsError {
						t.Fatalf("result %+v, want %q", res, want)
					}
					var answered []runtime.Event
					for _, e := range rec.take() {
						if e.Kind == runtime.EventAnswered {
							answered = append(answered, e)
						}
					}
					if len(answered) != 1 || answered[0].Action != action || answered[0].Reason != reason {
						t.Fatalf("answered events %+v, want one %s with reason %q", answered, action, reason)
					}
					// The event is the runtime's Decision, as decided once.
					if d := answered[0].Decision; d == nil || d.Action != action || d.Unconfirmed == ticked || d.Request.Schema.Name != "Release" {
						t.Fatalf("the answered event's Decision is %+v, want %s with Unconfirmed %t", d, action, !ticked)
					}
					if !ticked {
						found := false
						for _, r := range rec.records(t) {
							if r["reason"] == runtime.ReasonUnconfirmed && r["action"] == "decline" {
								found = true
							}
						}
						if !found {
							t.Errorf("the audit log has no decline record with reason %q", runtime.ReasonUnconfirmed)
						}
					}
				})
			}
		}
	}
}
