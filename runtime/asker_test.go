package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
)

// callAsker knows everything a call can know, as an adapter's exchange
// does, and answers every question with accept.
type callAsker struct {
	asked     []*runtime.Request
	decisions []*runtime.Decision
	lastMemo  string
}

func (c *callAsker) Ask(_ context.Context, req *runtime.Request) (*runtime.Response, error) {
	c.asked = append(c.asked, req)
	if req.Attempt > req.Retries {
		return nil, runtime.ErrRetriesUsed
	}
	return &runtime.Response{Action: runtime.ActionAccept, Content: map[string]any{runtime.ChoiceField: "mars"}}, nil
}
func (c *callAsker) LanguagePreference() string { return "ja" }
func (c *callAsker) ProtocolVersion() string    { return runtime.Version20250618 }
func (c *callAsker) NextFlowID(context.Context, string) string {
	return "flow-1"
}
func (c *callAsker) CheckAsk(*runtime.Request) error {
	return &runtime.UnavailableError{Reason: "no elicitation"}
}
func (c *callAsker) Decided(_ context.Context, d *runtime.Decision) error {
	c.decisions = append(c.decisions, d)
	return nil
}

// invalid counts the decisions about answers that did not validate.
func (c *callAsker) invalid() int {
	n := 0
	for _, d := range c.decisions {
		if !d.Valid() {
			n++
		}
	}
	return n
}
func (c *callAsker) SameInvalidAnswer(_ *runtime.Request, d string) bool {
	same := c.lastMemo == d
	c.lastMemo = d
	return same
}

// TestWrapKeepsTheCall: what the wrapped Asker knows is found through
// any number of runtime.Wrap layers, and not through an AskerFunc.
func TestWrapKeepsTheCall(t *testing.T) {
	ctx := context.Background()
	inner := &callAsker{}
	var seen []int
	wrapped := runtime.Wrap(runtime.Wrap(inner, nil), func(ctx context.Context, req *runtime.Request, next runtime.Asker) (*runtime.Response, error) {
		seen = append(seen, req.Attempt)
		return next.Ask(ctx, req)
	})
	if got := runtime.LanguagePreference(wrapped); got != "ja" {
		t.Errorf("LanguagePreference through Wrap = %q, want ja", got)
	}
	if err := runtime.CanAsk(ctx, wrapped, &runtime.Schema{Name: "F"}); !errors.Is(err, runtime.ErrUnavailable) {
		t.Errorf("CanAsk through Wrap = %v, want the wrapped CheckAsk's answer", err)
	}
	out, err := runtime.AskURLFlow(ctx, wrapped, "Connect", func(id string) string { return "https://example.com/c/" + id })
	if err != nil || out.FlowID != "flow-1" {
		t.Errorf("AskURLFlow through Wrap = %+v, %v; want the wrapped NextFlowID's id", out, err)
	}
	if len(inner.decisions) != 1 || !inner.decisions[0].Accepted() || inner.decisions[0].Request.Mode != runtime.ModeURL {
		t.Errorf("decisions through Wrap after AskURLFlow: %+v; want the URL accept", inner.decisions)
	}
	// A choice answered with no option is invalid: re-asked once
	// (Attempt 1), then the repeated answer stops it; each invalid answer
	// reported.
	seen = nil
	_, err = runtime.AskChoice(ctx, wrapped, "Where?", []runtime.Option{{Value: "eu"}}, runtime.WithRetries(3))
	if !errors.Is(err, runtime.ErrInvalidContent) {
		t.Fatalf("AskText = %v, want invalid content", err)
	}
	if fmt.Sprint(seen) != "[0 1]" || inner.invalid() != 2 {
		t.Errorf("attempts seen by the middleware %v, invalid decisions %d; want [0 1] and 2", seen, inner.invalid())
	}

	bare := runtime.AskerFunc(inner.Ask)
	if got := runtime.LanguagePreference(bare); got != "" {
		t.Errorf("LanguagePreference through an AskerFunc = %q; an AskerFunc knows nothing of the call", got)
	}
}

// cycle is a Wrapper that unwraps to itself.
type cycle struct{}

func (c *cycle) Ask(context.Context, *runtime.Request) (*runtime.Response, error) {
	return nil, runtime.ErrUnavailable
}
func (c *cycle) Unwrap() runtime.Asker { return c }

func TestUnwrapCycleEnds(t *testing.T) {
	if got := runtime.LanguagePreference(&cycle{}); got != "" {
		t.Errorf("LanguagePreference = %q", got)
	}
}
