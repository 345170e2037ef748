package runtime_test

import (
	"context"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/elicittest"
)

// TestMissingArgsMessageInPersonLanguage: MissingArgs asks with the
// message in the person's language (the call's preference, or a
// WithLocale among its Options), and with Message for any other.
func TestMissingArgsMessageInPersonLanguage(t *testing.T) {
	m := runtime.MissingArgs[bookArgs]{
		Ask: func(ctx context.Context, a runtime.Asker, v *bookArgs, message string, opts ...runtime.AskOption) (runtime.Action, error) {
			return bookArgsForm.AskMissing(ctx, a, v, message, opts...)
		},
		Message:  "Book a table",
		Messages: map[string]string{"ja": "テーブルを予約します", "pt-BR": "Reserve uma mesa"},
		Options: func(context.Context, *bookArgs) ([]runtime.AskOption, error) {
			return []runtime.AskOption{krOpts}, nil
		},
	}
	for _, c := range []struct {
		pref string
		opts []runtime.AskOption
		want string
	}{
		{"ja-JP, en;q=0.5", nil, "テーブルを予約します"},
		{"pt-br", nil, "Reserve uma mesa"},
		{"fr, de", nil, "Book a table"},
		{"", nil, "Book a table"},
		{"en", []runtime.AskOption{runtime.WithLocale("ja")}, "テーブルを予約します"},
	} {
		a := elicittest.New(elicittest.Accept(map[string]any{"date": "2026-12-24", "party_size": 2, "kr": "kr-1"}))
		a.Language = c.pref
		mm := m
		if c.opts != nil {
			mm.Options = func(context.Context, *bookArgs) ([]runtime.AskOption, error) {
				return append([]runtime.AskOption{krOpts}, c.opts...), nil
			}
		}
		var in bookArgs
		if err := mm.Complete(context.Background(), a, &in); err != nil {
			t.Fatalf("%q: %v", c.pref, err)
		}
		if got := a.Requests()[0].Message; got != c.want {
			t.Errorf("preference %q: message %q, want %q", c.pref, got, c.want)
		}
	}
}
