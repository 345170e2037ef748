package runtime_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/elicittest"
)

func TestMatchLanguage(t *testing.T) {
	have := []string{"en", "ja", "zh-Hant", "pt-BR"}
	cases := []struct{ pref, want string }{
		{"ja", "ja"},
		{"ja-JP", "ja"},           // truncation
		{"JA-jp", "ja"},           // case-insensitive
		{"ja_JP", "ja"},           // underscores, as some clients send
		{"zh-Hant-TW", "zh-Hant"}, // one subtag at a time
		{"zh-Hans-CN", ""},        // zh-Hans, then zh: no catalog
		{"pt-br", "pt-BR"},        // the catalog's own spelling is returned
		{"pt", ""},                // lookup never widens pt to pt-BR
		{"ja-x-kansai", "ja"},     // private-use singleton dropped with its subtag
		{"fr-CH, fr;q=0.9, ja;q=0.8", "ja"},
		{"en-US, ja;q=0.5", "en"},
		{"ja;q=0.4, en;q=0.6", "en"},  // order by weight, not position
		{"ja;q=0, en;q=0.1", "en"},    // q=0 excludes
		{"de, *;q=0.5, ja;q=0.1", ""}, // "*" before ja: whatever the fallback is
		{"", ""},
		{"de", ""},
		{"ja;q=2", ""},                 // bad weight: excluded
		{"not a tag!, ja;q=0.1", "ja"}, // malformed ranges skipped
		{"abcdefghi, ja;q=0.1", "ja"},  // subtag longer than 8
		{"ja-, -ja, ja--jp, en", "en"}, // empty subtags
		{" ja-JP ; q=0.9 , en;q=0.8", "ja"},
	}
	for _, c := range cases {
		if got := runtime.MatchLanguage(c.pref, have...); got != c.want {
			t.Errorf("MatchLanguage(%q) = %q, want %q", c.pref, got, c.want)
		}
	}
}

// localeForm is a form with an English source text and a Japanese
// catalog, in the shape generated code builds.
func localeForm() *runtime.Form {
	f := runtime.NewForm((*form)(nil), schema, "Name", "Count", "Big", "Ratio", "OK", "Env", "Tags", "At", "Mail", "Day", "Amount")
	f.Locales = []runtime.Locale{
		{Tag: "en"},
		{Tag: "ja", Props: []runtime.PropText{
			{Name: "name", Title: "名前", Description: "2〜4文字"},
			{Name: "env", Options: []runtime.Option{{Value: "a", Title: "エー"}, {Value: "b", Title: "ビー"}}},
			{Name: "tags", Options: []runtime.Option{{Value: "y", Title: "ワイ"}}},
		}},
	}
	return f
}

func sent(t *testing.T, a *elicittest.Asker) *runtime.Schema {
	t.Helper()
	reqs := a.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	return reqs[0].Schema
}

func TestWithLocaleTranslatesSchema(t *testing.T) {
	ok := map[string]any{"name": "abc", "count": float64(1), "env": "a", "tags": []any{"y"}}
	for _, tag := range []string{"ja", "ja-JP", "JA-jp", "fr, ja;q=0.5"} {
		a := elicittest.New(elicittest.Accept(ok))
		out, err := runtime.Ask[form](context.Background(), a, localeForm(), "?", runtime.WithLocale(tag))
		if err != nil {
			t.Fatalf("%s: %v", tag, err)
		}
		if v, _ := out.Accepted(); v.Env != "a" || len(v.Tags) != 1 || v.Tags[0] != "y" {
			t.Fatalf("%s: values changed: %+v", tag, v)
		}
		s := sent(t, a)
		name, env, tags := s.Property("name"), s.Property("env"), s.Property("tags")
		if name.Title != "名前" || name.Description != "2〜4文字" {
			t.Errorf("%s: name not translated: %+v", tag, name)
		}
		if env.Options[0] != (runtime.Option{Value: "a", Title: "エー"}) || env.Options[1] != (runtime.Option{Value: "b", Title: "ビー"}) {
			t.Errorf("%s: env options: %+v", tag, env.Options)
		}
		// A plain multi-select that gains a title is sent titled; the
		// untranslated option keeps its value as its title on the wire.
		if tags.Style != runtime.EnumTitled || tags.Options[0].Value != "x" || tags.Options[1] != (runtime.Option{Value: "y", Title: "ワイ"}) {
			t.Errorf("%s: tags: %+v", tag, tags)
		}
		js, _ := s.JSON(runtime.Version20251125)
		if !strings.Contains(string(js), `{"const":"x","title":"x"}`) {
			t.Errorf("%s: untitled option on the wire: %s", tag, js)
		}
		// Everything else is as generated.
		if s.Property("count").Minimum == nil || *s.Property("count").Minimum != -100 || !name.Required || *name.MinLength != 2 {
			t.Errorf("%s: rules changed: %+v", tag, s)
		}
	}
	// The form's own schema is never modified.
	if p := schema.Property("name"); p.Title != "" || p.Description != "" {
		t.Fatalf("static schema modified: %+v", p)
	}
	if p := schema.Property("env"); p.Options[0].Title != "A" || p.Options[1].Title != "" {
		t.Fatalf("static options modified: %+v", p.Options)
	}
}

func TestWithLocaleFallsBackToSource(t *testing.T) {
	for _, tag := range []string{"", "de-DE", "en-GB", "en-US, ja;q=0.9", "ja;q=0", "*"} {
		a := elicittest.New(elicittest.Decline())
		if _, err := runtime.Ask[form](context.Background(), a, localeForm(), "?", runtime.WithLocale(tag)); err != nil {
			t.Fatal(err)
		}
		if s := sent(t, a); s.Property("name").Title != "" || s.Property("env").Options[0].Title != "A" {
			t.Errorf("%q: not the source text: %+v", tag, s.Properties[:1])
		}
	}
}

// prefAsker is an Asker that carries a language preference, as an
// adapter's does.
type prefAsker struct {
	*elicittest.Asker
	pref string
}

func (p prefAsker) LanguagePreference() string { return p.pref }

func TestAskerLanguagePreference(t *testing.T) {
	a := prefAsker{elicittest.New(elicittest.Decline(), elicittest.Decline()), "ja-JP,en;q=0.5"}
	if runtime.LanguagePreference(a) != "ja-JP,en;q=0.5" || runtime.LanguagePreference(a.Asker) != "" {
		t.Fatal("LanguagePreference")
	}
	if _, err := runtime.Ask[form](context.Background(), a, localeForm(), "?"); err != nil {
		t.Fatal(err)
	}
	// WithLocale overrides the request's preference; "" means the source.
	if _, err := runtime.Ask[form](context.Background(), a, localeForm(), "?", runtime.WithLocale("")); err != nil {
		t.Fatal(err)
	}
	reqs := a.Requests()
	if reqs[0].Schema.Property("name").Title != "名前" {
		t.Errorf("the asker's preference was not used: %+v", reqs[0].Schema.Properties[0])
	}
	if reqs[1].Schema.Property("name").Title != "" {
		t.Errorf("WithLocale(\"\") did not override: %+v", reqs[1].Schema.Properties[0])
	}
}

func TestTranslatedAskValidatesSameValues(t *testing.T) {
	// The Japanese form offers the same values: an answer with a
	// translated title instead of a value is refused, as in English.
	for _, tag := range []string{"en", "ja"} {
		a := elicittest.New(elicittest.Accept(map[string]any{"name": "abc", "count": float64(1), "env": "エー"}))
		_, err := runtime.Ask[form](context.Background(), a, localeForm(), "?", runtime.WithLocale(tag))
		var ve *runtime.ValidationError
		if !errors.As(err, &ve) || !strings.Contains(err.Error(), `"エー" is not one of "a", "b"`) {
			t.Errorf("%s: %v", tag, err)
		}
	}
}

func TestLocaleKeepsAskTimeOptions(t *testing.T) {
	dyn := &runtime.Schema{Name: "Pick", Properties: []runtime.Property{{Name: "kr", Kind: runtime.KindEnum, Dynamic: true, Required: true}}}
	type pick struct{ KR string }
	f := runtime.NewForm((*pick)(nil), dyn, "KR")
	f.Locales = []runtime.Locale{{Tag: "ja", Props: []runtime.PropText{{Name: "kr", Title: "主要な結果", Options: []runtime.Option{{Value: "k1", Title: "翻訳"}}}}}}
	a := elicittest.New(elicittest.Accept(map[string]any{"kr": "k1"}))
	out, err := runtime.Ask[pick](context.Background(), a, f, "?", runtime.WithLocale("ja"), runtime.WithOptions("kr", runtime.Option{Value: "k1", Title: "Revenue"}))
	if err != nil || out.Value.KR != "k1" {
		t.Fatal(out, err)
	}
	p := sent(t, a).Property("kr")
	if p.Title != "主要な結果" || p.Options[0].Title != "Revenue" {
		t.Fatalf("ask-time options must keep the titles they were given: %+v", p)
	}
	if dyn.Properties[0].Title != "" || dyn.Properties[0].Options != nil {
		t.Fatal("static schema modified")
	}
}

// BenchmarkAskLocale measures one Ask of an 11-field form through a
// scripted asker: in the source text (the baseline) and in Japanese,
// which copies the schema and writes three properties' text.
func BenchmarkAskLocale(b *testing.B) {
	content := map[string]any{"name": "abc", "count": float64(1)}
	answer := runtime.AskerFunc(func(context.Context, *runtime.Request) (*runtime.Response, error) {
		return &runtime.Response{Action: runtime.ActionAccept, Content: content}, nil
	})
	f := localeForm()
	for _, tag := range []string{"source", "ja"} {
		opt := runtime.WithLocale(tag)
		if tag == "source" {
			opt = runtime.WithLocale("")
		}
		b.Run(tag, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := runtime.Ask[form](context.Background(), answer, f, "?", opt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestElicittestLanguage(t *testing.T) {
	a := elicittest.New(elicittest.Decline())
	a.Language = "ja"
	if runtime.LanguagePreference(a) != "ja" {
		t.Fatal("elicittest.Asker.Language not reported")
	}
	if _, err := runtime.Ask[form](context.Background(), a, localeForm(), "?"); err != nil {
		t.Fatal(err)
	}
	if sent(t, a).Property("name").Title != "名前" {
		t.Fatal("elicittest.Asker.Language not used")
	}
}
