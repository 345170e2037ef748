package sdktest

import (
	"context"
	"errors"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/answer"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
	"github.com/elicitgen/elicitgen/runtime/mcpgo"
)

// typedAnswerer answers Deploy and Approve with typed functions, the way
// a Go client would, and counts the questions.
func typedAnswerer(asked map[string]int) *answer.Answerer {
	return answer.New(
		answer.For(testforms.ApproveSchema(), testforms.AcceptApprove,
			func(_ context.Context, msg string) (runtime.Outcome[*testforms.Approve], error) {
				asked[msg]++
				return runtime.Outcome[*testforms.Approve]{Action: runtime.ActionAccept, Value: &testforms.Approve{Approve: true, Note: ptr("ship it")}}, nil
			}),
		answer.For(testforms.DeploySchema(), testforms.AcceptDeploy,
			func(_ context.Context, msg string) (runtime.Outcome[*testforms.Deploy], error) {
				asked[msg]++
				return runtime.Outcome[*testforms.Deploy]{Action: runtime.ActionAccept, Value: &accepted}, nil
			}),
		answer.For(testforms.NotifySchema(), testforms.AcceptNotify,
			func(context.Context, string) (runtime.Outcome[*testforms.Notify], error) {
				return runtime.Outcome[*testforms.Notify]{Action: runtime.ActionDecline}, nil
			}),
	)
}

func clientHelper(sdk string, a *answer.Answerer) clientOpts {
	if sdk == goSDK {
		return clientOpts{goHandler: gosdk.ElicitationHandler(a)}
	}
	return clientOpts{mgHandler: mcpgo.ElicitationHandler{Answerer: a}}
}

// TestClientHelpers: a Go client answers each form with a typed function,
// matched by schema, on every era (pushed, or filled into inputResponses
// for the 2026-07-28 retry).
func TestClientHelpers(t *testing.T) {
	for _, sdk := range []string{goSDK, mcpGo} {
		t.Run(sdk, func(t *testing.T) {
			for _, version := range versions {
				t.Run(version, func(t *testing.T) {
					s := newServer(t, sdk, runtime.UnavailableAuto)
					asked := map[string]int{}
					o := clientHelper(sdk, typedAnswerer(asked))
					o.version = clientVersion(version)
					c := connect(t, s, sdk, o)
					res, err := c.call(callCtx(t), "deploy2", map[string]any{"project": "alpha"})
					if want := acceptedText + ` approved=true note="ship it"`; err != nil || res.Text != want {
						t.Fatalf("call = %+v, %v; want %q", res, err, want)
					}
					if asked[deployMsg] != 1 || asked[approveMsg] != 1 {
						t.Errorf("typed functions called %v, want each form once", asked)
					}
					checkEra(t, s, c, version, "Deploy", "Approve")
					res, err = c.call(callCtx(t), "notify", nil)
					if err != nil || res.Text != "decline" {
						t.Errorf("notify = %+v, %v; want decline", res, err)
					}
				})
			}
		})
	}
}

func TestAnswererNoForm(t *testing.T) {
	a := answer.New(answer.For(testforms.ApproveSchema(), testforms.AcceptApprove,
		func(context.Context, string) (runtime.Outcome[*testforms.Approve], error) {
			return runtime.Outcome[*testforms.Approve]{Action: runtime.ActionCancel}, nil
		}))
	if _, err := a.Answer(context.Background(), "?", `{"type":"object","properties":{"approve":{"type":"string"}}}`); !errors.Is(err, answer.ErrNoForm) {
		t.Errorf("retyped property: err = %v, want ErrNoForm", err)
	}
	if _, err := a.Answer(context.Background(), "?", `{"type":"object","properties":{"approve":{"type":"boolean"},"x":{"type":"string"}}}`); !errors.Is(err, answer.ErrNoForm) {
		t.Errorf("extra property: err = %v, want ErrNoForm", err)
	}
	r, err := a.Answer(context.Background(), "?", `{"type":"object","properties":{"approve":{"type":"boolean"},"note":{"type":"string"}}}`)
	if err != nil || r.Action != runtime.ActionCancel {
		t.Errorf("Answer = %+v, %v; want cancel", r, err)
	}
	if res := gosdk.ElicitResult(r); res.Action != "cancel" {
		t.Errorf("gosdk.ElicitResult = %+v", res)
	}
	if res := mcpgo.ElicitationResult(r); res.Action != "cancel" {
		t.Errorf("mcpgo.ElicitationResult = %+v", res)
	}
}

// TestClientHelperMultiSelect: a Go client answers a required
// multi-select with its typed function on every era and both SDKs; on
// 2025-06-18, where the server asks one checkbox per option, the helper
// ticks the checkboxes and the handler gets the list.
func TestClientHelperMultiSelect(t *testing.T) {
	a := answer.New(answer.For(testforms.NotifySchema(), testforms.AcceptNotify,
		func(context.Context, string) (runtime.Outcome[*testforms.Notify], error) {
			return runtime.Outcome[*testforms.Notify]{Action: runtime.ActionAccept, Value: &testforms.Notify{Channels: []testforms.Channel{testforms.ChannelSlack}}}, nil
		}))
	for _, sdk := range []string{goSDK, mcpGo} {
		t.Run(sdk, func(t *testing.T) {
			for _, version := range versions {
				t.Run(version, func(t *testing.T) {
					s := newServer(t, sdk, runtime.UnavailableAuto)
					o := clientHelper(sdk, a)
					o.version = clientVersion(version)
					c := connect(t, s, sdk, o)
					if res, err := c.call(callCtx(t), "notify", nil); err != nil || res.Text != "notify [slack]" {
						t.Fatalf("notify = %+v, %v; want notify [slack]", res, err)
					}
				})
			}
		})
	}
}
