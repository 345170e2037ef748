package runtime_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/elicittest"
)

// changeForm has a pattern rule with human words, translated into
// Japanese, and an optional string with a default.
type change struct {
	Ticket string
	Note   string
}

func changeForm() *runtime.Form {
	min := 1
	s := &runtime.Schema{Name: "Change", Properties: []runtime.Property{
		{Name: "ticket", Kind: runtime.KindString, Title: "Change ticket", Required: true, Pattern: `^CHG-[0-9]{4,8}$`, PatternMessage: "a ticket number such as CHG-1234"},
		{Name: "note", Kind: runtime.KindString, Title: "Note", MinLength: &min, Default: "none"},
	}}
	f := runtime.NewForm((*change)(nil), s, "Ticket", "Note")
	f.Locales = []runtime.Locale{{Tag: "en"}, {Tag: "ja", Props: []runtime.PropText{
		{Name: "ticket", Title: "変更チケット", PatternMessage: "CHG-1234 のようなチケット番号"},
		{Name: "note", Title: "メモ"},
	}}}
	return f
}

func TestPatternMessageShownInsteadOfExpression(t *testing.T) {
	for _, tc := range []struct{ lang, want string }{
		{"en", `Change ticket: a ticket number such as CHG-1234`},
		{"ja", `「変更チケット」: CHG-1234 のようなチケット番号`},
	} {
		f := changeForm()
		a := elicittest.New(elicittest.Accept(map[string]any{"ticket": "1234"}), elicittest.Accept(map[string]any{"ticket": "CHG-1234", "note": ""}))
		out, err := runtime.Ask[change](context.Background(), a, f, "Which change?", runtime.WithRetries(1), runtime.WithLocale(tc.lang))
		if err != nil || out.Action != runtime.ActionAccept {
			t.Fatalf("%s: %+v, %v", tc.lang, out, err)
		}
		if out.Value.Note != "none" {
			t.Errorf("%s: note = %q; an empty optional string is absent and gets its default", tc.lang, out.Value.Note)
		}
		msg := a.Requests()[1].Message
		if !strings.Contains(msg, tc.want) || strings.Contains(msg, "CHG-[0-9]") || strings.Contains(msg, "accepted: ticket") {
			t.Errorf("%s: re-ask message %q; want %q and no expression or key", tc.lang, msg, tc.want)
		}
	}
}

func TestModelTextNamesTitleAndKey(t *testing.T) {
	a := elicittest.New(elicittest.Accept(map[string]any{"ticket": "1234"}))
	_, err := runtime.Ask[change](context.Background(), a, changeForm(), "Which change?", runtime.WithLocale("ja"))
	var fe *runtime.FieldError
	if !errors.As(err, &fe) || fe.Field != "ticket" || fe.Title != "Change ticket" || fe.ID != runtime.MsgPattern {
		t.Fatalf("err = %v; want a FieldError with key, source title and MsgPattern: %+v", err, fe)
	}
	txt := runtime.AskFailureText(err)
	if !strings.Contains(txt, `"Change ticket" (ticket): "1234" does not match the pattern`) {
		t.Errorf("model text = %q", txt)
	}
}

func TestEmptyRequiredStringStaysInvalid(t *testing.T) {
	min := 1
	type one = struct{ Name string }
	s := &runtime.Schema{Name: "One", Properties: []runtime.Property{{Name: "name", Kind: runtime.KindString, Title: "Name", Required: true, MinLength: &min}}}
	f := runtime.NewForm((*one)(nil), s, "Name")
	_, err := runtime.Ask[one](context.Background(), elicittest.New(elicittest.Accept(map[string]any{"name": ""})), f, "?")
	var ve *runtime.ValidationError
	if !errors.As(err, &ve) || ve.Field("name") == nil || ve.Field("name").ID != runtime.MsgMinLength {
		t.Fatalf("err = %v; want name invalid", err)
	}
}

func TestCatalogAddsALanguage(t *testing.T) {
	c := runtime.NewCatalog(runtime.Messages{Tag: "fr", Text: map[runtime.MessageID]string{
		runtime.MsgRequired: "{field} est obligatoire",
		runtime.MsgRetry:    "La réponse précédente n'a pas été acceptée : {0}. Veuillez la corriger.",
	}}, runtime.Messages{Tag: "en", Text: map[runtime.MessageID]string{runtime.MsgRequired: "Please fill in {field}"}})
	if got := c.Text("fr-CA", runtime.MsgRequired, "Nom"); got != "Nom est obligatoire" {
		t.Errorf("fr: %q", got)
	}
	if got := c.Text("fr", runtime.MsgMinimum, "Âge", "18"); got != "Âge must be at least 18" {
		t.Errorf("fr falls back to English: %q", got)
	}
	if got := c.Text("en", runtime.MsgRequired, "Name"); got != "Please fill in Name" {
		t.Errorf("en override: %q", got)
	}
	if got := c.Text("ja", runtime.MsgRequired, "名前"); got != "「名前」は必須です" {
		t.Errorf("ja kept: %q", got)
	}
	if tags := strings.Join(c.Tags(), ","); tags != "en,ja,fr" {
		t.Errorf("tags = %s", tags)
	}

	type one = struct{ Name string }
	s := &runtime.Schema{Name: "One", Properties: []runtime.Property{{Name: "name", Kind: runtime.KindString, Title: "Nom", Required: true}}}
	f := runtime.NewForm((*one)(nil), s, "Name")
	a := elicittest.New(elicittest.Accept(map[string]any{}), elicittest.Accept(map[string]any{"name": "Ana"}))
	if _, err := runtime.Ask[one](context.Background(), a, f, "Votre nom ?", runtime.WithRetries(1), runtime.WithLocale("fr"), runtime.WithMessages(c)); err != nil {
		t.Fatal(err)
	}
	if msg := a.Requests()[1].Message; msg != "Votre nom ?\n\nLa réponse précédente n'a pas été acceptée : Nom est obligatoire. Veuillez la corriger." {
		t.Errorf("re-ask = %q", msg)
	}
}

func TestKnownClientFailures(t *testing.T) {
	type one = struct{ Name string }
	s := &runtime.Schema{Name: "One", Properties: []runtime.Property{{Name: "name", Kind: runtime.KindString, Title: "Name", Required: true}}}
	f := runtime.NewForm((*one)(nil), s, "Name")
	for _, tc := range []struct {
		clientErr string
		kind      runtime.ClientFailure
		model     string
		personJA  string
	}{
		{`calling "elicitation/create": Method not found`, runtime.FailureNoHandler, "it has no handler for it", "フォームを表示する機能がありません"},
		{"MCP error -32601: No handler registered for elicitation/create", runtime.FailureNoHandler, "it has no handler for it", "フォームを表示する機能がありません"},
		{`[{"code":"invalid_union","unionErrors":[],"path":["params"],"message":"Invalid input"}]`, runtime.FailureClientInvalid, "refused to show the question", "この種類の質問に対応していません"},
		{"connection reset", runtime.FailureNone, "Could not ask the user", ""},
	} {
		a := runtime.AskerFunc(func(context.Context, *runtime.Request) (*runtime.Response, error) {
			return nil, errors.New(tc.clientErr)
		})
		_, err := runtime.Ask[one](context.Background(), a, f, "?")
		if k := runtime.ClassifyFailure(err); k != tc.kind {
			t.Errorf("%s: kind %d, want %d", tc.clientErr, k, tc.kind)
		}
		model := runtime.AskFailureText(err)
		if !strings.Contains(model, tc.model) || tc.kind != runtime.FailureNone && (strings.Contains(model, tc.clientErr) || strings.Contains(model, "try again later")) {
			t.Errorf("%s: model text %q", tc.clientErr, model)
		}
		if p := (*runtime.Catalog)(nil).FailureText(err, "ja"); tc.personJA != "" && !strings.Contains(p, tc.personJA) || tc.personJA == "" && p != "" {
			t.Errorf("%s: person text %q", tc.clientErr, p)
		}
	}

	// The same invalid answer twice, on an approval: the model is told
	// to say the approval could not be shown, never to ask for it.
	type ok = struct{ Approved bool }
	as := &runtime.Schema{Name: "Ok", Properties: []runtime.Property{{Name: "approved", Kind: runtime.KindBoolean, Title: "Approve sending", Required: true}}}
	af := runtime.NewForm((*ok)(nil), as, "Approved")
	bad := elicittest.Accept(map[string]any{"approved": "yes"})
	_, err := runtime.Ask[ok](context.Background(), elicittest.New(bad, bad), af, "Send?", runtime.WithRetries(1))
	if runtime.ClassifyFailure(err) != runtime.FailureRepeated {
		t.Fatalf("err = %v", err)
	}
	model := runtime.AskFailureText(err)
	if !strings.Contains(model, `The approval "Approve sending" (approved) could not be shown to the user`) || strings.Contains(model, "Ask the user for") {
		t.Errorf("model text %q", model)
	}
	if p := (*runtime.Catalog)(nil).FailureText(err, "en"); p != "Your app sent the same answer twice and seems unable to fill in Approve sending. Nothing was done." {
		t.Errorf("person text %q", p)
	}
}
