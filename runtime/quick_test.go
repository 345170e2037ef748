package runtime_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/seal"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/elicittest"
)

var regions = []runtime.Option{{Value: "eu", Title: "Europe"}, {Value: "us"}}

func TestQuickAsks(t *testing.T) {
	ctx := context.Background()
	a := elicittest.New(
		elicittest.Accept(map[string]any{"confirm": true}),
		elicittest.Accept(map[string]any{"text": "hello"}),
		elicittest.Accept(map[string]any{"choice": "us"}),
		elicittest.Accept(map[string]any{"choices": []any{"us", "eu"}}),
	)
	c, err := runtime.AskConfirm(ctx, a, "Go?", runtime.WithKey("go"))
	if err != nil || !c.Value || c.Action != runtime.ActionAccept {
		t.Fatalf("AskConfirm = %+v, %v", c, err)
	}
	txt, err := runtime.AskText(ctx, a, "Name?", runtime.WithTitle("Release name"), runtime.WithDefault("", "v1"))
	if err != nil || txt.Value != "hello" {
		t.Fatalf("AskText = %+v, %v", txt, err)
	}
	ch, err := runtime.AskChoice(ctx, a, "Where?", regions)
	if err != nil || ch.Value != "us" {
		t.Fatalf("AskChoice = %+v, %v", ch, err)
	}
	cs, err := runtime.AskChoices(ctx, a, "Where all?", regions)
	if err != nil || !slices.Equal(cs.Value, []string{"us", "eu"}) {
		t.Fatalf("AskChoices = %+v, %v", cs, err)
	}
	reqs := a.Requests()
	want := []struct{ key, prop, title, json string }{
		{"go", "confirm", "Confirm", `{"type":"object","properties":{"confirm":{"type":"boolean","title":"Confirm","default":false}},"required":["confirm"]}`},
		{"", "text", "Release name", `{"type":"object","properties":{"text":{"type":"string","title":"Release name","default":"v1"}},"required":["text"]}`},
		{"", "choice", "Your choice", `{"type":"object","properties":{"choice":{"type":"string","title":"Your choice","oneOf":[{"const":"eu","title":"Europe"},{"const":"us","title":"us"}]}},"required":["choice"]}`},
		{"", "choices", "Your choices", `{"type":"object","properties":{"choices":{"type":"array","title":"Your choices","items":{"anyOf":[{"const":"eu","title":"Europe"},{"const":"us","title":"us"}]}}},"required":["choices"]}`},
	}
	for i, w := range want {
		r := reqs[i]
		p := r.Schema.Property(w.prop)
		if r.Key != w.key || p == nil || p.Title != w.title || len(r.Schema.Properties) != 1 {
			t.Errorf("request %d: key %q schema %+v, want key %q, one property %s titled %q", i, r.Key, r.Schema, w.key, w.prop, w.title)
		}
		if b, err := r.Schema.JSON(runtime.LatestVersion); err != nil || string(b) != w.json {
			t.Errorf("request %d schema:\n got %s (%v)\nwant %s", i, b, err, w.json)
		}
	}
}

func TestQuickAsksValidate(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		answer  map[string]any
		ask     func(a runtime.Asker) error
		wantErr string
	}{
		{"choice outside options", map[string]any{"choice": "mars"}, func(a runtime.Asker) error {
			_, err := runtime.AskChoice(ctx, a, "Where?", regions)
			return err
		}, `choice: "mars" is not one of`},
		{"choices outside options", map[string]any{"choices": []any{"eu", "mars"}}, func(a runtime.Asker) error {
			_, err := runtime.AskChoices(ctx, a, "Where?", regions)
			return err
		}, `choices: item "mars" is not one of`},
		{"choices repeated", map[string]any{"choices": []any{"eu", "eu"}}, func(a runtime.Asker) error {
			_, err := runtime.AskChoices(ctx, a, "Where?", regions)
			return err
		}, `choices: item "eu" is repeated`},
		{"confirm missing", map[string]any{}, func(a runtime.Asker) error {
			_, err := runtime.AskConfirm(ctx, a, "Go?")
			return err
		}, `confirm: is required`},
		{"text wrong type", map[string]any{"text": 3}, func(a runtime.Asker) error {
			_, err := runtime.AskText(ctx, a, "Name?")
			return err
		}, `text: must be a string`},
		{"unknown field", map[string]any{"text": "x", "value": "y"}, func(a runtime.Asker) error {
			_, err := runtime.AskText(ctx, a, "Name?")
			return err
		}, `value: is not a field of this form`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.ask(elicittest.New(elicittest.Accept(tc.answer)))
			if !errors.Is(err, runtime.ErrInvalidContent) || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("err = %v, want ErrInvalidContent with %q", err, tc.wantErr)
			}
		})
	}
}

func TestQuickAskBadOptions(t *testing.T) {
	ctx := context.Background()
	a := elicittest.New()
	for name, f := range map[string]func() error{
		"no options": func() error { _, err := runtime.AskChoice(ctx, a, "?", nil); return err },
		"repeated value": func() error {
			_, err := runtime.AskChoices(ctx, a, "?", []runtime.Option{{Value: "a"}, {Value: "a"}})
			return err
		},
		"bad default": func() error {
			_, err := runtime.AskChoice(ctx, a, "?", regions, runtime.WithDefault("", "mars"))
			return err
		},
		"other field": func() error { _, err := runtime.AskText(ctx, a, "?", runtime.WithDefault("name", "x")); return err },
	} {
		if err := f(); err == nil || !strings.Contains(err.Error(), "bad ask option") {
			t.Errorf("%s: err = %v, want a bad ask option", name, err)
		}
	}
	if n := len(a.Requests()); n != 0 {
		t.Errorf("%d requests sent for bad options", n)
	}
}

// TestAskChoicesLegacy: a 2025-06-18 client has no multi-select, so
// AskChoices asks one checkbox per option.
func TestAskChoicesLegacy(t *testing.T) {
	a := elicittest.New(elicittest.Accept(map[string]any{"us": true, "eu": false}))
	a.Version = runtime.Version20250618
	cs, err := runtime.AskChoices(context.Background(), a, "Where all?", regions, runtime.WithDefault(runtime.ChoicesField, []string{"eu"}))
	if err != nil || !slices.Equal(cs.Value, []string{"us"}) {
		t.Fatalf("AskChoices = %+v, %v", cs, err)
	}
	b, err := a.Requests()[0].Schema.JSON(runtime.Version20250618)
	want := `{"type":"object","properties":{"eu":{"type":"boolean","title":"Europe","default":true},"us":{"type":"boolean","title":"us","default":false}}}`
	if err != nil || string(b) != want {
		t.Errorf("schema\n got %s (%v)\nwant %s", b, err, want)
	}
}

func TestRetriesPlainAsker(t *testing.T) {
	bad := elicittest.Accept(map[string]any{"choice": "mars"})
	a := elicittest.New(bad, elicittest.Accept(map[string]any{"choice": "venus"}), elicittest.Accept(map[string]any{"choice": "eu"}))
	ch, err := runtime.AskChoice(context.Background(), a, "Where?", regions, runtime.WithRetries(2))
	if err != nil || ch.Value != "eu" {
		t.Fatalf("AskChoice = %+v, %v", ch, err)
	}
	reqs := a.Requests()
	if len(reqs) != 3 || !strings.Contains(reqs[1].Message, `The previous answer was not accepted: Your choice must be one of "Europe", "us" ("mars" is not). Please correct it.`) {
		t.Fatalf("%d requests; second message %q", len(reqs), reqs[min(1, len(reqs)-1)].Message)
	}
	a = elicittest.New(bad, bad, bad)
	_, err = runtime.AskChoice(context.Background(), a, "Where?", regions, runtime.WithRetries(1))
	if !errors.Is(err, runtime.ErrInvalidContent) || len(a.Requests()) != 2 {
		t.Fatalf("err = %v after %d requests, want ErrInvalidContent after 2", err, len(a.Requests()))
	}
}

// TestRetriesModern: on 2026-07-28 a retry is another input_required
// round for the same key, and the count survives the rounds.
func TestRetriesModern(t *testing.T) {
	ring, err := seal.NewKeyRing(seal.Key{ID: "k", Secret: make([]byte, 32)})
	if err != nil {
		t.Fatal(err)
	}
	s := &adapter.Options{Keys: ring, Replay: seal.NewMemoryReplayStore(0)}
	bad := &runtime.Response{Action: runtime.ActionAccept, Content: map[string]any{"choice": "mars"}}
	state := ""
	round := func(answer *runtime.Response) (adapter.Reply, error) {
		call := &adapter.Call{Tool: "t", Version: runtime.Version20260728, Caps: adapter.ClientCaps{Form: true}}
		var resp map[string]*runtime.Response
		if answer != nil {
			resp = map[string]*runtime.Response{"Choice": answer}
		}
		x, err := s.Start(call, state, resp, nil, nil)
		if err == nil {
			err = s.Claim(context.Background(), x)
		}
		if err != nil {
			t.Fatal(err)
		}
		_, err = runtime.AskChoice(context.Background(), x, "Where?", regions, runtime.WithRetries(1))
		r := s.Finish(x, err)
		state = r.State
		return r, err
	}
	r, _ := round(nil)
	if r.Kind != adapter.ReplyInputRequired || r.Requests[0].Key != "Choice" {
		t.Fatalf("round 1: %+v", r)
	}
	r, _ = round(bad)
	if r.Kind != adapter.ReplyInputRequired || r.Requests[0].Key != "Choice" || !strings.Contains(r.Requests[0].Request.Message, "not accepted") {
		t.Fatalf("round 2 (invalid answer, one retry left): %+v", r)
	}
	r, err = round(bad)
	var ue *runtime.UnfilledError
	if !errors.As(err, &ue) || r.Kind != adapter.ReplyToolError || !strings.HasPrefix(r.Text, `The user's client sent the same invalid answer twice ("Your choice" (choice): "mars" is not one of`) {
		t.Fatalf("round 3 (the same invalid answer again): %v, %+v", err, r)
	}
	// A different invalid answer uses up the retries.
	state = ""
	round(nil)
	round(bad)
	r, err = round(&runtime.Response{Action: runtime.ActionAccept, Content: map[string]any{"choice": "venus"}})
	if !errors.Is(err, runtime.ErrInvalidContent) || errors.As(err, &ue) || r.Kind != adapter.ReplyToolError || !strings.HasPrefix(r.Text, `The answer was invalid: "Your choice" (choice): "venus" is not one of`) {
		t.Fatalf("round 3 (retries used up): %v, %+v", err, r)
	}
}

func TestLegacyOptionalMultiLeftOut(t *testing.T) {
	s := &runtime.Schema{Name: "F", Properties: []runtime.Property{
		{Name: "name", Kind: runtime.KindString, Required: true},
		{Name: "tags", Kind: runtime.KindMulti, Options: []runtime.Option{{Value: "x"}}, Default: []string{"x"}},
	}}
	b, err := s.JSON(runtime.Version20250618)
	if want := `{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`; err != nil || string(b) != want {
		t.Fatalf("2025-06-18 schema = %s, %v; want %s", b, err, want)
	}
	if b, _ := s.JSON(runtime.Version20251125); !strings.Contains(string(b), `"tags"`) {
		t.Errorf("2025-11-25 schema lost the multi-select: %s", b)
	}
	only := &runtime.Schema{Name: "G", Properties: []runtime.Property{s.Properties[1]}}
	req := s.Clone()
	req.Properties[1].Required = true
	if _, err := only.JSON(runtime.Version20250618); !errors.Is(err, runtime.ErrUnavailable) {
		t.Errorf("only optional multi-selects: err = %v, want ErrUnavailable", err)
	}
	// A required one is asked as one boolean per option.
	if b, err := req.JSON(runtime.Version20250618); err != nil || !strings.Contains(string(b), `"tags.x":{"type":"boolean","title":"x","description":"tags","default":true}`) {
		t.Errorf("required multi-select: %s, %v; want one boolean per option", b, err)
	}

	// Through an exchange: the optional one is left out and decodes to
	// its default; CanAsk refuses a form of optional multi-selects only
	// before anything is asked.
	var pushed []*runtime.Request
	push := runtime.AskerFunc(func(_ context.Context, r *runtime.Request) (*runtime.Response, error) {
		pushed = append(pushed, r)
		return &runtime.Response{Action: runtime.ActionAccept, Content: map[string]any{"name": "n"}}, nil
	})
	st := &adapter.Options{}
	x, err := st.Start(&adapter.Call{Tool: "t", Version: runtime.Version20250618, Caps: adapter.ClientCaps{Form: true}}, "", nil, nil, push)
	if err != nil {
		t.Fatal(err)
	}
	if err := runtime.CanAsk(context.Background(), x, s); err != nil {
		t.Errorf("CanAsk(optional multi-select) = %v", err)
	}
	if err := runtime.CanAsk(context.Background(), x, s, only); !errors.Is(err, runtime.ErrUnavailable) || !strings.Contains(err.Error(), `multi-select fields cannot be asked`) {
		t.Errorf("CanAsk(optional multi-selects only, second) = %v, want unavailable", err)
	}
	if err := runtime.CanAsk(context.Background(), x, req); err != nil {
		t.Errorf("CanAsk(required multi-select) = %v", err)
	}
	if len(pushed) != 0 {
		t.Errorf("CanAsk asked %d questions", len(pushed))
	}
	resp, err := x.Ask(context.Background(), &runtime.Request{Mode: runtime.ModeForm, Schema: s})
	if err != nil || len(pushed) != 1 {
		t.Fatalf("Ask = %v, %v", resp, err)
	}
	type named struct {
		Name string
		Tags []string
	}
	var v named
	err = runtime.NewForm((*named)(nil), s, "Name", "Tags").Decode(resp.Content, &v)
	if err != nil || v.Name != "n" || !slices.Equal(v.Tags, []string{"x"}) {
		t.Errorf("decoded %q %v, %v; want the default tags", v.Name, v.Tags, err)
	}
}

func TestAskFailureText(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{&runtime.AskError{Form: "F", Err: &runtime.TimeoutError{After: 2 * time.Minute, Err: context.DeadlineExceeded}}, "The user did not answer within 2m: ask again later"},
		{&runtime.TimeoutError{After: 90 * time.Second, Err: context.DeadlineExceeded}, "within 1m30s:"},
		{&runtime.ValidationError{Form: "F", Fields: []*runtime.FieldError{{Field: "n", Msg: "is required"}}}, "The answer was invalid: n: is required. "},
		{&runtime.AskError{Form: "F", Err: errors.New("pipe closed")}, "Could not ask the user (pipe closed)"},
		{&runtime.UnavailableError{Reason: "r", Schema: &runtime.Schema{Properties: []runtime.Property{{Name: "branch"}}}}, "cannot ask"},
		{errors.New("handler bug"), ""},
		{&runtime.AskError{Form: "F", Err: context.Canceled}, ""},
		{runtime.ErrInvalidState, ""},
		{&runtime.AskError{Form: "F", Err: runtime.ErrMalformedInput}, ""},
	} {
		got := runtime.AskFailureText(tc.err)
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("AskFailureText(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}

func TestQuickAsksLocale(t *testing.T) {
	ctx := context.Background()
	// ask asks the quick question named by its field.
	ask := func(a runtime.Asker, field string, opts ...runtime.AskOption) error {
		var err error
		switch field {
		case runtime.ConfirmField:
			_, err = runtime.AskConfirm(ctx, a, "?", opts...)
		case runtime.TextField:
			_, err = runtime.AskText(ctx, a, "?", opts...)
		case runtime.ChoiceField:
			_, err = runtime.AskChoice(ctx, a, "?", regions, opts...)
		case runtime.ChoicesField:
			_, err = runtime.AskChoices(ctx, a, "?", regions, opts...)
		}
		return err
	}
	cases := []struct {
		name  string
		field string
		opts  []runtime.AskOption
		title string
	}{
		{"ja-JP", runtime.ConfirmField, []runtime.AskOption{runtime.WithLocale("ja-JP")}, "確認"},
		{"fr-CH first", runtime.TextField, []runtime.AskOption{runtime.WithLocale("fr-CH, ja;q=0.8")}, "Votre réponse"},
		{"ko", runtime.ChoiceField, []runtime.AskOption{runtime.WithLocale("ko")}, "선택"},
		{"ja", runtime.ChoicesField, []runtime.AskOption{runtime.WithLocale("ja")}, "選択（複数可）"},
		{"WithTitle wins", runtime.ConfirmField, []runtime.AskOption{runtime.WithLocale("ja"), runtime.WithTitle("本番に出す")}, "本番に出す"},
		{"no catalog for the language", runtime.ConfirmField, []runtime.AskOption{runtime.WithLocale("sv")}, "Confirm"},
		{"source text", runtime.TextField, []runtime.AskOption{runtime.WithLocale("")}, "Your answer"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := elicittest.New(elicittest.Decline())
			if err := ask(a, c.field, c.opts...); err != nil {
				t.Fatal(err)
			}
			p := a.Requests()[0].Schema.Property(c.field)
			if p == nil || p.Title != c.title {
				t.Fatalf("property %s = %+v, want title %q", c.field, p, c.title)
			}
		})
	}
	// Without WithLocale, the language is the one the asker carries (an
	// adapter reads it from the request).
	pa := elicittest.New(elicittest.Decline())
	if _, err := runtime.AskConfirm(ctx, prefers{pa, "ja-JP, en;q=0.5"}, "デプロイしますか？"); err != nil {
		t.Fatal(err)
	}
	if r := pa.Requests()[0]; r.Schema.Properties[0].Title != "確認" || r.Language != "ja" {
		t.Fatalf("from the asker's preference: title %q, language %q; want 確認, ja", r.Schema.Properties[0].Title, r.Language)
	}
	// A title of the caller's own is in no language the runtime knows.
	ta := elicittest.New(elicittest.Decline())
	if _, err := runtime.AskConfirm(ctx, prefers{ta, "ja"}, "デプロイしますか？", runtime.WithTitle("本番に出す")); err != nil {
		t.Fatal(err)
	}
	if r := ta.Requests()[0]; r.Language != "" {
		t.Fatalf("with WithTitle: language %q, want none reported", r.Language)
	}
	// The option values, which the answer is checked against, never change.
	a := elicittest.New(elicittest.Accept(map[string]any{"choice": "eu"}))
	out, err := runtime.AskChoice(ctx, a, "どこ？", regions, runtime.WithLocale("ja"))
	if err != nil || out.Value != "eu" {
		t.Fatalf("AskChoice in ja = %+v, %v", out, err)
	}
	if o := a.Requests()[0].Schema.Properties[0].Options; o[0].Value != "eu" || o[0].Title != "Europe" {
		t.Fatalf("options = %+v, want the caller's", o)
	}
}

// prefers is an Asker that carries a language preference, as the SDK
// adapters' askers do.
type prefers struct {
	runtime.Asker
	lang string
}

func (p prefers) LanguagePreference() string { return p.lang }
