package answer_test

import (
	"context"
	"errors"
	"maps"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/answer"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
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

// A 2025-06-18 request asks a required multi-select as one checkbox per
// option: the form's typed function still answers it, with the list, and
// the answer ticks the checkboxes of the values chosen.
func TestLegacyMultiSelect(t *testing.T) {
	ctx := context.Background()
	chosen := []testforms.Channel{testforms.ChannelSlack}
	a := answer.New(answer.For(testforms.NotifySchema(), testforms.AcceptNotify,
		func(context.Context, string) (runtime.Outcome[*testforms.Notify], error) {
			return runtime.Outcome[*testforms.Notify]{Action: runtime.ActionAccept, Value: &testforms.Notify{Channels: chosen}}, nil
		}))
	legacy, err := testforms.NotifySchema().JSON(runtime.Version20250618)
	if err != nil {
		t.Fatal(err)
	}
	r, err := a.Answer(ctx, "Who?", legacy)
	want := map[string]any{"channels.email": false, "channels.slack": true}
	if err != nil || r.Action != runtime.ActionAccept || !maps.Equal(r.Content, want) {
		t.Fatalf("Answer(%s) = %+v, %v; want %v", legacy, r, err, want)
	}
	// The same form on a later era is answered with the list.
	modern, _ := testforms.NotifySchema().JSON(runtime.Version20251125)
	if r, err := a.Answer(ctx, "Who?", modern); err != nil || len(r.Content) != 1 {
		t.Fatalf("Answer(%s) = %+v, %v", modern, r, err)
	}
	// A choice the request does not offer is an error, never dropped.
	one := `{"type":"object","properties":{"channels.email":{"type":"boolean"}}}`
	if r, err := a.Answer(ctx, "Who?", one); err == nil || errors.Is(err, answer.ErrNoForm) {
		t.Fatalf("Answer without the slack checkbox = %+v, %v; want an error naming the choice", r, err)
	}
	// A checkbox that names no option of the form is no match.
	other := `{"type":"object","properties":{"channels.email":{"type":"boolean"},"channels.fax":{"type":"boolean"}}}`
	if _, err := a.Answer(ctx, "Who?", other); !errors.Is(err, answer.ErrNoForm) {
		t.Fatalf("Answer with an unknown checkbox: %v, want ErrNoForm", err)
	}
}
