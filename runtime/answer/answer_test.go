package answer_test

import (
	"context"
	"errors"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/answer"
)

// TestAnswerElicitation: a "url" request goes to Answerer.URL with its
// URL; any other mode (form, or none) is matched by its schema.
func TestElicitation(t *testing.T) {
	ctx := context.Background()
	var gotURL string
	a := answer.New()
	a.URL = func(_ context.Context, _, url string) (runtime.Action, error) {
		gotURL = url
		return runtime.ActionAccept, nil
	}
	a.Other = func(context.Context, string, map[string]any) (*runtime.Response, error) {
		return &runtime.Response{Action: runtime.ActionCancel}, nil
	}
	r, err := answer.Elicitation(ctx, a, "url", "Sign in", "https://example.com/login", nil)
	if err != nil || r.Action != runtime.ActionAccept || gotURL != "https://example.com/login" {
		t.Fatalf("url mode = %+v, %v (url %q); want accept through Answerer.URL", r, err, gotURL)
	}
	schema := map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}
	for _, mode := range []string{"form", ""} {
		gotURL = ""
		r, err := answer.Elicitation(ctx, a, mode, "Name?", "https://example.com/ignored", schema)
		if err != nil || r.Action != runtime.ActionCancel || gotURL != "" {
			t.Errorf("mode %q = %+v, %v (url %q); want cancel through Answerer.Other", mode, r, err, gotURL)
		}
	}
	a.Other = nil
	if _, err := answer.Elicitation(ctx, a, "form", "Name?", "", schema); !errors.Is(err, answer.ErrNoForm) {
		t.Errorf("form mode with no form = %v, want ErrNoForm", err)
	}
}
