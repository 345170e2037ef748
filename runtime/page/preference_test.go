package page

import (
	"context"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
)

// TestPreferenceAndAsker: the call's language preference sets the page's
// own words when the form has no translation (the browser's does not
// override it), and the page names the server and the tool that ask.
func TestPreferenceAndAsker(t *testing.T) {
	f := newFixture(t)
	f.p.cfg.Name = "Acme deploys"
	l, err := f.p.Issue(context.Background(), &Question{Schema: schema(t, "Deploy", deployJSON), Message: "Deploy?", Preference: "ja-JP, en;q=0.5", Call: f.call})
	if err != nil {
		t.Fatal(err)
	}
	body := f.do(t, "GET", l.URL, "alice", nil, nil).Body.String()
	for _, want := range []string{`<html lang="ja">`, "回答する", `<p class="asker" id="asker">Acme deploys がツール deploy_to_production のために質問しています。</p>`, "このページはあと15分で閉じます"} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %s:\n%s", want, body)
		}
	}
	f.p.cfg.Name = ""
	l = f.issue(t, schema(t, "Deploy", deployJSON))
	if body := f.do(t, "GET", l.URL, "alice", nil, nil).Body.String(); !strings.Contains(body, `<p class="asker" id="asker">The tool deploy_to_production asks this.</p>`) {
		t.Errorf("no tool named:\n%s", body)
	}
}

// TestMessagesCatalog: Config.Messages writes the runtime's sentences on
// the page.
func TestMessagesCatalog(t *testing.T) {
	f := newFixture(t)
	f.p.cfg.Messages = runtime.NewCatalog(runtime.Messages{Tag: "en", Text: map[runtime.MessageID]string{runtime.MsgRequired: "Please fill in {field}"}})
	l := f.issue(t, schema(t, "Deploy", deployJSON))
	cookies, csrf := f.open(t, l.URL)
	if body := f.do(t, "POST", l.URL, "alice", cookies, deployPost(csrf, "confirmed", "true")).Body.String(); !strings.Contains(body, `<a href="#f1">Please fill in Environment</a>`) {
		t.Errorf("catalog not used:\n%s", body)
	}
}

// TestPreferenceOverSourceLanguage: a form without the person's
// translation is asked in its source language (Question.Language "en");
// the page's own words and errors still follow the person's preference.
func TestPreferenceOverSourceLanguage(t *testing.T) {
	f := newFixture(t)
	l, err := f.p.Issue(context.Background(), &Question{Schema: schema(t, "Deploy", deployJSON), Message: "Deploy?", Language: "en", Preference: "ja", Call: f.call})
	if err != nil {
		t.Fatal(err)
	}
	cookies, csrf := f.open(t, l.URL)
	body := f.do(t, "POST", l.URL, "alice", cookies, deployPost(csrf, "confirmed", "true")).Body.String()
	for _, want := range []string{`<html lang="ja">`, "回答する", `<p class="message" id="message" lang="en">`, `<a href="#f1">「Environment」は必須です</a>`, `id="f1-err" lang="ja">`} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %s:\n%s", want, body)
		}
	}
}

// TestErrorsInCatalogLanguage: a Config.Messages language the page's
// words lack still writes the errors, marked with their language.
func TestErrorsInCatalogLanguage(t *testing.T) {
	f := newFixture(t)
	f.p.cfg.Messages = runtime.NewCatalog(runtime.Messages{Tag: "fr", Text: map[runtime.MessageID]string{runtime.MsgRequired: "{field} est obligatoire"}})
	l, err := f.p.Issue(context.Background(), &Question{Schema: schema(t, "Deploy", deployJSON), Language: "en", Preference: "fr-CH, fr;q=0.9", Call: f.call})
	if err != nil {
		t.Fatal(err)
	}
	cookies, csrf := f.open(t, l.URL)
	body := f.do(t, "POST", l.URL, "alice", cookies, deployPost(csrf, "confirmed", "true")).Body.String()
	for _, want := range []string{`<html lang="en">`, ">Accept<", `<ul lang="fr">`, `<a href="#f1">Environment est obligatoire</a>`, `id="f1-err" lang="fr">Environment est obligatoire<`} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %s:\n%s", want, body)
		}
	}
}
