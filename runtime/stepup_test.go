package runtime_test

import (
	"context"
	"errors"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
)

// WithStepUp reaches the Asker with the request, and the way the answer
// was verified reaches the decision.
func TestWithStepUp(t *testing.T) {
	var stepUp, without bool
	ask := &decidingAsker{Asker: runtime.AskerFunc(func(_ context.Context, req *runtime.Request) (*runtime.Response, error) {
		stepUp = req.StepUp
		return &runtime.Response{Action: runtime.ActionAccept, Content: map[string]any{"confirm": true}, Verified: "passkey"}, nil
	})}
	if _, err := runtime.AskConfirm(context.Background(), ask, "Deploy?", runtime.WithStepUp()); err != nil || !stepUp {
		t.Fatalf("StepUp %t, %v", stepUp, err)
	}
	if ask.d == nil || ask.d.Verified != "passkey" {
		t.Errorf("decision %+v, want Verified passkey", ask.d)
	}
	ask2 := runtime.AskerFunc(func(_ context.Context, req *runtime.Request) (*runtime.Response, error) {
		without = req.StepUp
		return &runtime.Response{Action: runtime.ActionDecline}, nil
	})
	if _, err := runtime.AskConfirm(context.Background(), ask2, "Deploy?"); err != nil || without {
		t.Errorf("StepUp without the option: %t, %v", without, err)
	}
}

// A URL-mode ask takes no step-up: its accept is not an approval.
func TestWithStepUpNotURL(t *testing.T) {
	ask := runtime.AskerFunc(func(context.Context, *runtime.Request) (*runtime.Response, error) {
		return &runtime.Response{Action: runtime.ActionAccept}, nil
	})
	if _, err := runtime.AskURL(context.Background(), ask, "Open", "https://example.com/x", runtime.WithStepUp()); !errors.Is(err, runtime.ErrInvalidApprovers) {
		t.Errorf("AskURL: %v", err)
	}
	if _, err := runtime.AskURLFlow(context.Background(), ask, "Open", func(id string) string { return "https://example.com/" + id }, runtime.WithStepUp()); !errors.Is(err, runtime.ErrInvalidApprovers) {
		t.Errorf("AskURLFlow: %v", err)
	}
}

// decidingAsker keeps the Decision its Asker chain is told.
type decidingAsker struct {
	runtime.Asker
	d *runtime.Decision
}

func (a *decidingAsker) Decided(_ context.Context, d *runtime.Decision) error {
	a.d = d
	return nil
}
