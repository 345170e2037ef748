package browsertest

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/example/internal/exampletest"

	"github.com/elicitgen/elicitgen/example/forms"
	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// step is one input of node/page-ui.mjs's plan.
type step struct {
	Name   string   `json:"name"`
	Do     string   `json:"do"`
	Value  string   `json:"value"`
	Values []string `json:"values,omitempty"`
}

type pageCase struct {
	Name       string   `json:"name"`
	File       string   `json:"file"`
	URL        string   `json:"url"`
	DeclineURL string   `json:"declineURL,omitempty"`
	ExpiredURL string   `json:"expiredURL,omitempty"`
	Lang       string   `json:"lang"`
	Heading    string   `json:"heading"`
	Labels     []string `json:"labels"`
	Invalid    []step   `json:"invalid,omitempty"`
	Errors     []string `json:"errors,omitempty"`
	Valid      []step   `json:"valid"`
	Sent       string   `json:"sent"`
	Answered   string   `json:"answered"`
	Declined   string   `json:"declined,omitempty"`
	Expired    string   `json:"expired,omitempty"`
	AxeNotices bool     `json:"axeNotices,omitempty"`
}

type stranger struct {
	Name    string            `json:"name"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
	Say     string            `json:"say"`
}

// askFunc asks one example form through a and returns the typed value
// of an accept.
type askFunc func(ctx context.Context, a runtime.Asker) (any, runtime.Action, error)

func typed[T any](ask func(context.Context, runtime.Asker, string, ...runtime.AskOption) (runtime.Outcome[*T], error), opts ...runtime.AskOption) askFunc {
	return func(ctx context.Context, a runtime.Asker) (any, runtime.Action, error) {
		o, err := ask(ctx, a, "Please answer.", opts...)
		if err != nil {
			return nil, "", err
		}
		if v, ok := o.Accepted(); ok {
			return *v, o.Action, nil
		}
		return nil, o.Action, nil
	}
}

// TestPagesInChromium answers a hosted page of every example form in
// headless Chromium (node/page-ui.mjs: playwright-core driving Debian's
// /usr/bin/chromium, axe-core checking each page), in English and, for
// the translated form, Japanese: an invalid answer first (errors beside
// the fields), then a valid one; a decline; a reopened, an expired and a
// stranger's page. The answers are then taken from the page store and
// decoded by the generated forms, as a tool handler would.
func TestPagesInChromium(t *testing.T) {
	exampletest.RequireNodePackages(t, "playwright-core", "axe-core")
	chromium := os.Getenv("CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	if _, err := os.Stat(chromium); err != nil {
		exampletest.SkipOrFail(t, chromium+" is missing: apt-get install chromium fonts-noto-cjk to run the page test")
	}
	node, err := exampletest.NodeBinary()
	if err != nil {
		t.Fatal(err)
	}
	artifacts := filepath.Join("node", "artifacts", "page-ui")
	if dir := os.Getenv("ARTIFACTS_DIR"); dir != "" {
		artifacts = filepath.Join(dir, "page-ui")
	}
	if artifacts, err = filepath.Abs(artifacts); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := exampletest.Context(t, 3*time.Minute) // page-ui.mjs stops itself after 2 minutes
	defer cancel()

	const header = "X-Elicit-User"
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	defer srv.Close()
	keys, store := seal.NewRandomKeyRing(), page.NewMemoryStore()
	cfg := page.Config{
		Keys: keys, Store: store, BaseURL: srv.URL + "/elicit/",
		Identity: func(r *http.Request) (string, bool) { return r.Header.Get(header), r.Header.Get(header) != "" },
	}
	pages, err := page.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	mux.Handle("/elicit/", pages)
	cfg.Now = func() time.Time { return time.Now().Add(-time.Hour) }
	earlier, err := page.New(cfg) // issues pages that expired before the test began
	if err != nil {
		t.Fatal(err)
	}
	alice := map[string]string{header: "alice"}

	krOptions := runtime.WithOptions("kr", runtime.Option{Value: "kr-1", Title: "Grow revenue 20%"}, runtime.Option{Value: "kr-2", Title: "Cut churn to 2%"})
	type formCase struct {
		name, lang string
		ask        askFunc
		page       pageCase
		want       any
	}
	cases := []formCase{{
		name: "Deploy", lang: "en", ask: typed(forms.AskDeploy),
		page: pageCase{
			Labels:  []string{"Branch", "The git branch to deploy.", "Production", "I confirm this deploy"},
			Invalid: []step{{Name: "branch", Do: "fill", Value: "release-7"}},
			Errors:  []string{"environment"},
			Valid:   []step{{Name: "branch", Do: "fill", Value: "release-7"}, {Name: "environment", Do: "radio", Value: "production"}, {Name: "confirmed", Do: "check"}},
		},
		want: forms.Deploy{Branch: "release-7", Environment: forms.EnvironmentProduction, Confirmed: true},
	}, {
		name: "Deploy", lang: "ja", ask: typed(forms.AskDeploy, runtime.WithLocale("ja")),
		page: pageCase{
			Labels:  []string{"ブランチ", "デプロイする git ブランチ。", "本番", "このデプロイを承認します", "（必須）"},
			Invalid: []step{{Name: "branch", Do: "fill", Value: ""}, {Name: "confirmed", Do: "check"}},
			Errors:  []string{"environment"},
			Valid:   []step{{Name: "environment", Do: "radio", Value: "staging"}},
		},
		want: forms.Deploy{Branch: "main", Environment: forms.EnvironmentStaging, Confirmed: true},
	}, {
		name: "Rebook", lang: "en", ask: typed(forms.AskRebook),
		page: pageCase{
			Labels: []string{"Try another date?", "Preferred date"},
			Valid:  []step{{Name: "try_another_date", Do: "check"}, {Name: "preferred_date", Do: "fill", Value: "2026-12-26"}},
		},
		want: forms.Rebook{TryAnotherDate: true, PreferredDate: "2026-12-26"},
	}, {
		name: "BookArgs", lang: "en", ask: typed(forms.AskBookArgs),
		page: pageCase{
			Labels:  []string{"Date", "Party size", "How many people, 1 to 12."},
			Invalid: []step{{Name: "party_size", Do: "fill", Value: "13"}},
			Errors:  []string{"date", "party_size"},
			Valid:   []step{{Name: "date", Do: "fill", Value: "2026-12-24"}, {Name: "party_size", Do: "fill", Value: "4"}},
		},
		want: forms.BookArgs{Date: "2026-12-24", PartySize: 4},
	}, {
		name: "KRArgs", lang: "en", ask: typed(forms.AskKRArgs, krOptions),
		page: pageCase{
			Labels:  []string{"Key result", "Grow revenue 20%", "Cut churn to 2%"},
			Invalid: []step{},
			Errors:  []string{"kr"},
			Valid:   []step{{Name: "kr", Do: "radio", Value: "kr-2"}},
		},
		want: forms.KRArgs{KR: "kr-2"},
	}, {
		name: "CampaignApproval", lang: "en", ask: typed(forms.AskCampaignApproval),
		page: pageCase{
			Labels: []string{"Approve sending", "Send window", "Tonight at 20:00"},
			Valid:  []step{{Name: "approved", Do: "check"}, {Name: "send_window", Do: "select", Value: "tonight"}},
		},
		want: forms.CampaignApproval{Approved: true, Window: forms.SendTonight},
	}, {
		name: "SEP1034Defaults", lang: "en", ask: typed(forms.AskSEP1034Defaults),
		page: pageCase{
			Labels:  []string{"The user's name.", "The user's score."},
			Invalid: []step{{Name: "age", Do: "fill", Value: "30.5"}},
			Errors:  []string{"age"},
			Valid:   []step{{Name: "age", Do: "fill", Value: "31"}},
		},
		want: forms.SEP1034Defaults{Name: ptr("John Doe"), Age: ptr(31), Score: ptr(95.5), Status: ptr("active"), Verified: ptr(true)},
	}, {
		name: "SEP1330Enums", lang: "en", ask: typed(forms.AskSEP1330Enums),
		page: pageCase{
			Labels: []string{"An untitled multi-select.", "Second Option", "Option Three", "Third Choice"},
			Valid: []step{
				{Name: "untitledSingle", Do: "select", Value: "option2"}, {Name: "titledSingle", Do: "select", Value: "value3"},
				{Name: "legacyEnum", Do: "select", Value: "opt1"}, {Name: "untitledMulti", Do: "checks", Values: []string{"option1", "option3"}},
				{Name: "titledMulti", Do: "checks", Values: []string{"value2"}},
			},
		},
		want: forms.SEP1330Enums{
			UntitledSingle: ptr("option2"), TitledSingle: ptr(forms.TitledOption("value3")), LegacyEnum: ptr(forms.LegacyOption("opt1")),
			UntitledMulti: []string{"option1", "option3"}, TitledMulti: []forms.TitledChoice{"value2"},
		},
	}}

	type issued struct {
		formCase
		call, declineCall seal.Binding
		link, declineLink *page.Link
	}
	var plan struct {
		Headers   map[string]string `json:"headers"`
		Cases     []pageCase        `json:"cases"`
		Strangers []stranger        `json:"strangers"`
	}
	plan.Headers = alice
	var all []issued
	for i, c := range cases {
		// The question exactly as the form asks it: the Asker sees the
		// request (translated, with ask-time options) and declines.
		var req *runtime.Request
		if _, _, err := c.ask(ctx, runtime.AskerFunc(func(_ context.Context, r *runtime.Request) (*runtime.Response, error) {
			req = r
			return forms.DeclineDeploy(), nil
		})); err != nil || req == nil {
			t.Fatalf("%s: capturing the request: %v", c.name, err)
		}
		call := seal.BindCall("tool_"+c.name, []byte(`{"case":`+string(rune('0'+i))+`}`), "alice")
		link, err := pages.Issue(ctx, page.QuestionFor(req, call))
		if err != nil {
			t.Fatal(err)
		}
		// A call waits for the answer (as on the 2025-era URL-mode path),
		// so the page says it was sent.
		defer pages.Hold(ctx, link.ID)()
		pc := c.page
		pc.Name, pc.File, pc.URL, pc.Lang = c.name+"/"+c.lang, c.name+"-"+c.lang, link.URL, c.lang
		text := sentences[c.lang]
		pc.Heading, pc.Sent, pc.Answered = text.heading, text.sent, text.answered
		is := issued{formCase: c, call: call, link: link}
		if i < 2 { // a declined and an expired page in each language
			is.declineCall = seal.BindCall("tool_"+c.name, []byte(`{"decline":`+string(rune('0'+i))+`}`), "alice")
			if is.declineLink, err = pages.Issue(ctx, page.QuestionFor(req, is.declineCall)); err != nil {
				t.Fatal(err)
			}
			expired, err := earlier.Issue(ctx, page.QuestionFor(req, is.declineCall))
			if err != nil {
				t.Fatal(err)
			}
			pc.DeclineURL, pc.Declined, pc.ExpiredURL, pc.Expired = is.declineLink.URL, text.declined, expired.URL, text.expired
		}
		if i == 0 {
			pc.AxeNotices = true
			plan.Strangers = append(plan.Strangers, stranger{Name: "Deploy/en opened by bob", URL: link.URL, Headers: map[string]string{header: "bob"}, Say: "This question was asked of someone else."})
		}
		plan.Cases = append(plan.Cases, pc)
		all = append(all, is)
	}
	planFile := filepath.Join(t.TempDir(), "plan.json")
	b, err := json.MarshalIndent(&plan, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(planFile, b, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, node, "page-ui.mjs", planFile, artifacts)
	cmd.Dir = "node"
	cmd.Env = append(os.Environ(), "CHROMIUM="+chromium)
	cmd.WaitDelay = exampletest.Timeout(10 * time.Second)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	t.Logf("%s page-ui.mjs (%s):\n%s", node, time.Since(start).Round(time.Millisecond), out)
	if err != nil {
		t.Fatalf("page-ui.mjs: %v (screenshots in %s)", err, artifacts)
	}

	// The tool side: each answer taken once and decoded by its form.
	for _, is := range all {
		resp, err := pages.Take(ctx, is.link.ID, is.call)
		if err != nil {
			t.Fatalf("%s/%s: take: %v", is.name, is.lang, err)
		}
		v, act, err := is.ask(ctx, runtime.AskerFunc(func(context.Context, *runtime.Request) (*runtime.Response, error) { return resp, nil }))
		if err != nil || act != runtime.ActionAccept || !reflect.DeepEqual(v, is.want) {
			t.Errorf("%s/%s: %v %#v, %v; want accept %#v", is.name, is.lang, act, v, err, is.want)
		}
		if is.declineLink != nil {
			resp, err := pages.Take(ctx, is.declineLink.ID, is.declineCall)
			if err != nil {
				t.Fatalf("%s/%s: take the declined page: %v", is.name, is.lang, err)
			}
			_, act, err := is.ask(ctx, runtime.AskerFunc(func(context.Context, *runtime.Request) (*runtime.Response, error) { return resp, nil }))
			if err != nil || act != runtime.ActionDecline {
				t.Errorf("%s/%s: the declined page reached the handler as %v, %v", is.name, is.lang, act, err)
			}
		}
	}
}

func ptr[T any](v T) *T { return &v }

var sentences = map[string]struct{ heading, sent, answered, declined, expired string }{
	"en": {
		"Your answer is needed",
		"Thank you: your answer was sent. You can close this page.",
		"This question has already been answered.",
		"You declined: nothing was sent. You can close this page.",
		"This link has expired.",
	},
	"ja": {
		"ご回答をお願いします",
		"ありがとうございます。回答を送信しました。このページは閉じてかまいません。",
		"この質問にはすでに回答済みです。",
		"辞退しました。何も送信されていません。このページは閉じてかまいません。",
		"このリンクは有効期限が切れています。",
	},
}
