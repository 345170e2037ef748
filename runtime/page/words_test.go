package page

import (
	"context"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
)

// codeJSON is a form with a string the server checks against a pattern.
const codeJSON = `{"type":"object","properties":{"code":{"type":"string","title":"Booking code"}},"required":["code"]}`

// TestPatternMessageShown: an answer that does not match a field's
// pattern is refused with the field's patternMessage, in the page's
// language, never with the regular expression.
func TestPatternMessageShown(t *testing.T) {
	const re = `^[A-Z]{3}-[0-9]{4}$`
	for _, c := range []struct {
		lang, msg, want string
	}{
		{"", "three capital letters, a dash and four digits, such as ABC-1234", "Booking code: three capital letters, a dash and four digits, such as ABC-1234"},
		{"ja", "英大文字3文字、ハイフン、数字4桁（例: ABC-1234）", "「予約コード」: 英大文字3文字、ハイフン、数字4桁（例: ABC-1234）"},
	} {
		t.Run("lang="+c.lang, func(t *testing.T) {
			f := newFixture(t)
			s := schema(t, "Code", codeJSON)
			pr := s.Property("code")
			pr.Pattern, pr.PatternMessage = re, "three capital letters, a dash and four digits, such as ABC-1234"
			if c.lang == "ja" {
				(&runtime.Locale{Tag: "ja", Props: []runtime.PropText{{Name: "code", Title: "予約コード", PatternMessage: c.msg}}}).Apply(s)
			}
			l, err := f.p.Issue(context.Background(), &Question{Schema: s, Message: "Which booking?", Language: c.lang, Call: f.call})
			if err != nil {
				t.Fatal(err)
			}
			cookies, csrf := f.open(t, l.URL)
			rec := f.do(t, "POST", l.URL, "alice", cookies, deployPost(csrf, "code", "abc"))
			body := rec.Body.String()
			if rec.Code != http.StatusUnprocessableEntity {
				t.Fatalf("status %d:\n%s", rec.Code, body)
			}
			if strings.Contains(body, "[A-Z]") || strings.Contains(body, "pattern") {
				t.Errorf("the page shows the regular expression:\n%s", body)
			}
			if !strings.Contains(body, `id="f0-err">`+c.want+`</span>`) {
				t.Errorf("no pattern message %q beside the field:\n%s", c.want, body)
			}
			rec = f.do(t, "POST", l.URL, "alice", cookies, deployPost(csrf, "code", "ABC-1234"))
			if rec.Code != 200 {
				t.Fatalf("a matching answer: %d", rec.Code)
			}
		})
	}
}

// approveJSON has a box tagged confirm (set in the test), an optional
// boolean and a required text.
const approveJSON = `{"type":"object","properties":{"approved":{"type":"boolean","title":"Approve sending","default":false},"notify":{"type":"boolean","title":"Notify the team"},"note":{"type":"string","title":"Note"}},"required":["approved"]}`

// TestConfirmBox: a box tagged confirm says that unticked declines, is
// not marked required, and an accept that leaves it unticked is not
// sent: the page says what unticked means and lets the person tick it or
// decline.
func TestConfirmBox(t *testing.T) {
	f := newFixture(t)
	s := schema(t, "Approve", approveJSON)
	s.Property("approved").Confirm = true
	l := f.issue(t, s)
	rec := f.do(t, "GET", l.URL, "alice", nil, nil)
	body := rec.Body.String()
	if strings.Contains(body, "(required)") {
		t.Errorf("a box is labelled required:\n%s", body)
	}
	hint := `<span class="hint" id="f0-hint">Tick this box to approve. Left unticked, your answer is a decline.</span>`
	if !strings.Contains(body, hint) || !strings.Contains(body, `aria-describedby="f0-hint"`) {
		t.Errorf("the confirm box does not say that unticked declines:\n%s", body)
	}
	if strings.Contains(body, `id="f1-hint"`) {
		t.Error("a box not tagged confirm has the confirm hint")
	}
	cookies, csrf := f.open(t, l.URL)
	rec = f.do(t, "POST", l.URL, "alice", cookies, deployPost(csrf, "note", "tonight"))
	body = rec.Body.String()
	if rec.Code != http.StatusUnprocessableEntity || strings.Contains(body, "your answer was sent") {
		t.Fatalf("an accept with the confirm box unticked: %d\n%s", rec.Code, body)
	}
	if !strings.Contains(body, `<a href="#f0">Approve sending is not ticked: tick it to approve, or choose Decline (nothing was sent yet)</a>`) ||
		!strings.Contains(body, `value="tonight"`) {
		t.Errorf("the page does not say what unticked means, or lost the note:\n%s", body)
	}
	if e, _ := f.store.Get(context.Background(), l.ID); e.Status != StatusOpen {
		t.Fatalf("the unticked accept was recorded: %v", e.Status)
	}
	rec = f.do(t, "POST", l.URL, "alice", cookies, deployPost(csrf, "note", "tonight", "approved", "true"))
	if rec.Code != 200 {
		t.Fatalf("ticked: %d %s", rec.Code, rec.Body)
	}
	resp, err := f.p.Take(context.Background(), l.ID, f.call)
	if err != nil || resp.Action != runtime.ActionAccept || resp.Content["approved"] != true {
		t.Fatalf("take: %+v, %v", resp, err)
	}

	// Declining from the same form records a decline.
	l = f.issue(t, s)
	cookies, csrf = f.open(t, l.URL)
	f.do(t, "POST", l.URL, "alice", cookies, deployPost(csrf))
	rec = f.do(t, "POST", l.URL, "alice", cookies, map[string][]string{"csrf": {csrf}, "action": {"decline"}})
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "You declined") {
		t.Fatalf("decline: %d %s", rec.Code, rec.Body)
	}
	if resp, err := f.p.Take(context.Background(), l.ID, f.call); err != nil || resp.Action != runtime.ActionDecline {
		t.Fatalf("take the decline: %+v, %v", resp, err)
	}
}

// TestBrowserLanguage: a form without a translation, asked without a
// language preference, shows the page's own words in the language the
// browser asks for, errors included; the content keeps its own language.
func TestBrowserLanguage(t *testing.T) {
	f := newFixture(t)
	l := f.issue(t, schema(t, "Deploy", deployJSON))
	get := func(lang string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", l.URL, nil)
		req.Header.Set(userHeader, "alice")
		req.Header.Set("Accept-Language", lang)
		rec := httptest.NewRecorder()
		f.p.ServeHTTP(rec, req)
		return rec
	}
	rec := get("ja-JP,ja;q=0.9,en;q=0.5")
	body := rec.Body.String()
	for _, want := range []string{`<html lang="ja">`, "回答する", "辞退する", "（必須）", `<p class="message" id="message" lang="en">`, `<div class="field" lang="en">`} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %s:\n%s", want, body)
		}
	}
	if rec.Header().Get("Content-Language") != "ja" {
		t.Errorf("Content-Language %q", rec.Header().Get("Content-Language"))
	}
	if body := get("en-GB").Body.String(); !strings.Contains(body, `<html lang="en">`) || strings.Contains(body, `lang="en">`+"\n<label") {
		t.Errorf("an English page marks its content as another language")
	}

	// A post from a Japanese browser: the runtime's sentences in Japanese,
	// naming the field by its (untranslated) title.
	cookies, csrf := f.open(t, l.URL)
	req := httptest.NewRequest("POST", l.URL, strings.NewReader(deployPost(csrf, "confirmed", "true").Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set(userHeader, "alice")
	req.Header.Set("Accept-Language", "ja")
	for _, c := range cookies {
		req.AddCookie(c)
	}
	w := httptest.NewRecorder()
	f.p.ServeHTTP(w, req)
	if !strings.Contains(w.Body.String(), `<a href="#f1">「Environment」は必須です</a>`) {
		t.Errorf("errors not in the browser's language:\n%s", w.Body)
	}
}

// TestMultiSelectHint: how many choices a multi-select takes, in words.
func TestMultiSelectHint(t *testing.T) {
	const multi = `{"type":"object","properties":{"a":{"type":"array","title":"A","minItems":1,"items":{"enum":["x","y"]}},"b":{"type":"array","title":"B","maxItems":2,"items":{"enum":["x","y"]}},"c":{"type":"array","title":"C","minItems":2,"maxItems":2,"items":{"enum":["x","y"]}}}}`
	f := newFixture(t)
	body := f.do(t, "GET", f.issue(t, schema(t, "Multi", multi)).URL, "alice", nil, nil).Body.String()
	for _, want := range []string{">Choose at least 1.</span>", ">Choose at most 2.</span>", ">Choose 2.</span>"} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	if strings.Contains(body, "≥") || strings.Contains(body, "≤") {
		t.Errorf("a hint in symbols:\n%s", body)
	}
}

// TestNoticeHeadings: after an answer the heading says what happened,
// not that an answer is needed.
func TestNoticeHeadings(t *testing.T) {
	f := newFixture(t)
	l := f.issue(t, schema(t, "Deploy", deployJSON))
	cookies, csrf := f.open(t, l.URL)
	release := f.p.Hold(context.Background(), l.ID)
	rec := f.do(t, "POST", l.URL, "alice", cookies, deployPost(csrf, "environment", "staging", "confirmed", "true"))
	release()
	if body := rec.Body.String(); !strings.Contains(body, "<h1>Answer sent</h1>") || !strings.Contains(body, "<title>Answer sent</title>") {
		t.Errorf("heading after sending:\n%s", body)
	}
	if body := f.do(t, "GET", l.URL, "alice", nil, nil).Body.String(); !strings.Contains(body, "<h1>Already answered</h1>") {
		t.Errorf("heading of an answered page:\n%s", body)
	}
	l = f.issue(t, schema(t, "Deploy", deployJSON))
	cookies, csrf = f.open(t, l.URL)
	rec = f.do(t, "POST", l.URL, "alice", cookies, map[string][]string{"csrf": {csrf}, "action": {"decline"}})
	if body := rec.Body.String(); !strings.Contains(body, "<h1>You declined</h1>") {
		t.Errorf("heading after declining:\n%s", body)
	}
	if body := f.do(t, "GET", l.URL, "bob", nil, nil).Body.String(); !strings.Contains(body, "<h1>Not your question</h1>") {
		t.Errorf("heading for someone else:\n%s", body)
	}
}

// TestSummaryTakesFocus: the error summary is focused when the page comes
// back with errors, without script (the CSP allows none).
func TestSummaryTakesFocus(t *testing.T) {
	f := newFixture(t)
	l := f.issue(t, schema(t, "Deploy", deployJSON))
	if body := f.do(t, "GET", l.URL, "alice", nil, nil).Body.String(); strings.Contains(body, "autofocus") {
		t.Error("a page without errors moves the focus")
	}
	cookies, csrf := f.open(t, l.URL)
	body := f.do(t, "POST", l.URL, "alice", cookies, deployPost(csrf)).Body.String()
	if !strings.Contains(body, `<div class="summary" id="summary" role="alert" tabindex="-1" autofocus>`) || strings.Contains(body, "<script") {
		t.Errorf("the summary does not take the focus:\n%s", body)
	}
}

// TestClosingTime: the page says how long it stays open.
func TestClosingTime(t *testing.T) {
	f := newFixture(t)
	l := f.issue(t, schema(t, "Deploy", deployJSON))
	closes := l.Expires.UTC().Format("15:04 MST on 2 January 2006")
	if body := f.do(t, "GET", l.URL, "alice", nil, nil).Body.String(); !strings.Contains(body, "This page closes in 15 minutes, at "+closes+".") {
		t.Errorf("closing time:\n%s", body)
	}
	f.clock.Add(14*time.Minute + 30*time.Second)
	if body := f.do(t, "GET", l.URL, "alice", nil, nil).Body.String(); !strings.Contains(body, "This page closes in less than a minute") {
		t.Errorf("closing time 30 s before:\n%s", body)
	}
	ja := textFor("ja")
	for d, want := range map[time.Duration]string{
		90 * time.Second: "1 minute", 14*time.Minute + 59*time.Second: "14 minutes", 3 * time.Hour: "3 hours", 72 * time.Hour: "3 days", 25 * time.Hour: "25 hours",
	} {
		if got := textFor("en").left(d); got != want {
			t.Errorf("%v: %q, want %q", d, got, want)
		}
	}
	if got := ja.left(72 * time.Hour); got != "3日" {
		t.Errorf("ja 72h: %q", got)
	}
}

// TestTextsComplete: every built-in language has every sentence.
func TestTextsComplete(t *testing.T) {
	for _, tx := range texts {
		missing := emptyFields(tx)
		if len(missing) > 0 {
			t.Errorf("%s lacks %v", tx.Lang, missing)
		}
	}
}

// emptyFields names the string fields of tx left empty.
func emptyFields(tx text) []string {
	var out []string
	v := reflect.ValueOf(tx)
	for i := 0; i < v.NumField(); i++ {
		if f := v.Field(i); f.Kind() == reflect.String && f.String() == "" {
			out = append(out, v.Type().Field(i).Name)
		}
	}
	return out
}
