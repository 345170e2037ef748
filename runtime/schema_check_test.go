package runtime_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
)

const checkSchema = `{"type":"object","properties":{"count":{"type":"integer","title":"Count","minimum":1,"maximum":12},"ratio":{"type":"number","maximum":1},"when":{"type":"string","format":"date"},"tags":{"type":"array","minItems":1,"maxItems":2,"items":{"anyOf":[{"const":"a","title":"Alpha"},{"const":"b","title":"Beta"},{"const":"c","title":"Gamma"}]}},"code":{"type":"string"},"ok":{"type":"boolean"}},"required":["count","tags"]}`

// checkForm is a Go form with the shape of checkSchema.
type checkForm struct {
	Count int64
	Ratio float64
	When  string
	Tags  []string
	Code  string
	OK    bool
}

// TestCheckAnswerIsTheFormsValidator: CheckAnswer finds exactly the
// problems a generated form's Decode finds in the same content.
func TestCheckAnswerIsTheFormsValidator(t *testing.T) {
	s, err := runtime.ParseSchema("Check", []byte(checkSchema))
	if err != nil {
		t.Fatal(err)
	}
	s.Property("code").Pattern = `^[A-Z]+$`
	form := runtime.NewForm((*checkForm)(nil), s, "Count", "Ratio", "When", "Tags", "Code", "OK")
	for _, c := range []struct {
		content map[string]any
		bad     []string
	}{
		{map[string]any{"count": 3.0, "tags": []any{"a"}}, nil},
		{map[string]any{"count": 3.5, "tags": []any{"a"}}, []string{"count"}},
		{map[string]any{"count": 13.0, "ratio": 2.0, "tags": []any{"a"}}, []string{"count", "ratio"}},
		{map[string]any{"count": 3.0, "tags": []any{"a", "a"}}, []string{"tags"}},
		{map[string]any{"count": 3.0, "tags": []any{"a", "b", "c"}}, []string{"tags"}},
		{map[string]any{"count": 3.0, "tags": []any{"d"}}, []string{"tags"}},
		{map[string]any{"count": 3.0, "tags": []any{"a"}, "code": "abc"}, []string{"code"}},
		{map[string]any{"count": 3.0, "tags": []any{"a"}, "when": "2026-02-30"}, []string{"when"}},
		{map[string]any{"count": 3.0, "tags": []any{"a"}, "ok": "yes"}, []string{"ok"}},
		{map[string]any{"count": 3.0, "tags": []any{"a"}, "extra": 1.0}, []string{"extra"}},
		{map[string]any{"count": "3", "tags": "a"}, []string{"count", "tags"}},
		{map[string]any{"tags": []any{"a"}}, []string{"count"}},
		{map[string]any{"count": 1e16, "tags": []any{"a"}}, []string{"count"}},
	} {
		got := s.CheckAnswer(c.content)
		want := form.Decode(c.content, new(checkForm))
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%v: CheckAnswer says %v, the form's Decode %v", c.content, got, want)
		}
		var ve *runtime.ValidationError
		if len(c.bad) == 0 {
			if got != nil {
				t.Errorf("%v: %v", c.content, got)
			}
			continue
		}
		if !errors.As(got, &ve) || !errors.Is(got, runtime.ErrInvalidContent) {
			t.Errorf("%v: %v, want a *ValidationError", c.content, got)
			continue
		}
		for _, f := range c.bad {
			if ve.Field(f) == nil {
				t.Errorf("%v: %v, want a problem with %s", c.content, got, f)
			}
		}
	}
}
