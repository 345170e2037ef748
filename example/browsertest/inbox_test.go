package browsertest

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/example/internal/exampletest"

	"github.com/elicitgen/elicitgen/example/forms"
	"github.com/elicitgen/elicitgen/internal/pagetest"
	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

type inboxCase struct {
	Name        string            `json:"name"`
	File        string            `json:"file"`
	URL         string            `json:"url"`
	Headers     map[string]string `json:"headers"`
	Lang        string            `json:"lang"`
	Status      int               `json:"status"`
	Heading     string            `json:"heading"`
	Contains    []string          `json:"contains,omitempty"`
	Absent      []string          `json:"absent,omitempty"`
	Follow      bool              `json:"follow,omitempty"`
	AgainStatus int               `json:"againStatus,omitempty"`
	AgainSay    string            `json:"againSay,omitempty"`
}

// TestInboxInChromium opens approvers' inboxes in headless Chromium
// (node/inbox-ui.mjs, axe-core checking each page), in English and
// Japanese: bob's lists the question alice's call waits on (two
// approvals of bob, carol, dave) and its link opens the page; carol's,
// once she has approved, lists nothing; bob's one-time link opens the
// page once and is refused the second time.
func TestInboxInChromium(t *testing.T) {
	exampletest.RequireNodePackages(t, "playwright-core", "axe-core")
	chromium := os.Getenv("CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	if _, err := os.Stat(chromium); err != nil {
		exampletest.SkipOrFail(t, chromium+" is missing: apt-get install chromium fonts-noto-cjk to run the inbox test")
	}
	node, err := exampletest.NodeBinary()
	if err != nil {
		t.Fatal(err)
	}
	artifacts := filepath.Join("node", "artifacts", "inbox-ui")
	if dir := os.Getenv("ARTIFACTS_DIR"); dir != "" {
		artifacts = filepath.Join(dir, "inbox-ui")
	}
	if artifacts, err = filepath.Abs(artifacts); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := exampletest.Context(t, 2*time.Minute)
	defer cancel()

	const header = "X-Elicit-User"
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	defer srv.Close()
	var links []page.Notice
	pages, err := page.New(page.Config{
		Keys: seal.NewRandomKeyRing(), Store: page.NewMemoryStore(), BaseURL: srv.URL + "/elicit/",
		Identity: func(r *http.Request) (string, bool) { return r.Header.Get(header), r.Header.Get(header) != "" },
		Notify: page.NotifierFunc(func(_ context.Context, n page.Notice) error {
			links = append(links, n)
			return nil
		}),
	})
	if err != nil {
		t.Fatal(err)
	}
	mux.Handle("/elicit/", pages)

	var req *runtime.Request
	if _, err := forms.AskDeploy(ctx, runtime.AskerFunc(func(_ context.Context, r *runtime.Request) (*runtime.Response, error) {
		req = r
		return forms.DeclineDeploy(), nil
	}), "Deploy billing to production?"); err != nil || req == nil {
		t.Fatalf("capturing the request: %v", err)
	}
	q := page.QuestionFor(req, seal.BindCall("deploy_to_production", []byte(`{"service":"billing"}`), "alice"))
	q.Approvers = &runtime.Approvers{Principals: []string{"alice", "bob", "carol", "dave"}, ExcludeRequester: true, Quorum: 2}
	l, err := pages.Issue(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if len(links) != 3 || links[0].Approver != "bob" {
		t.Fatalf("notices: %+v", links)
	}
	answer := url.Values{"branch": {"main"}, "environment": {"production"}, "confirmed": {"true"}}
	if status, body, err := pagetest.Answer(ctx, l.URL, http.Header{header: {"carol"}}, "accept", answer); err != nil || status != 200 {
		t.Fatalf("carol approves: %d %v\n%s", status, err, body)
	}

	inbox := srv.URL + "/elicit/" + page.InboxPath
	who := func(u string) map[string]string { return map[string]string{header: u} }
	plan := struct {
		Cases []inboxCase `json:"cases"`
	}{Cases: []inboxCase{
		{Name: "bob's inbox/en", File: "bob-en", URL: inbox, Headers: who("bob"), Lang: "en", Status: 200, Heading: "Questions waiting for you",
			Contains: []string{"deploy_to_production", "alice", "Deploy billing to production?", "Approvals still needed", "closes in"}, Follow: true},
		{Name: "bob's inbox/ja", File: "bob-ja", URL: inbox, Headers: who("bob"), Lang: "ja", Status: 200, Heading: "あなたの回答を待っている質問",
			Contains: []string{"deploy_to_production", "依頼者", "あと必要な承認数"}},
		{Name: "carol's inbox after her approval/en", File: "carol-en", URL: inbox, Headers: who("carol"), Lang: "en", Status: 200, Heading: "Questions waiting for you",
			Contains: []string{"Nothing is waiting for your answer."}, Absent: []string{"deploy_to_production"}},
		{Name: "carol's inbox after her approval/ja", File: "carol-ja", URL: inbox, Headers: who("carol"), Lang: "ja", Status: 200, Heading: "あなたの回答を待っている質問",
			Contains: []string{"回答を待っている質問はありません。"}},
		{Name: "bob's one-time link", File: "bob-once", URL: links[0].Link, Headers: who("bob"), Lang: "en", Status: 200, Heading: "Your answer is needed",
			AgainStatus: http.StatusGone, AgainSay: "This link was used already. Open the question from your inbox, or ask for a new link."},
	}}
	planFile := filepath.Join(t.TempDir(), "plan.json")
	b, err := json.MarshalIndent(&plan, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(planFile, b, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, node, "inbox-ui.mjs", planFile, artifacts)
	cmd.Dir = "node"
	cmd.Env = append(os.Environ(), "CHROMIUM="+chromium)
	cmd.WaitDelay = exampletest.Timeout(10 * time.Second)
	out, err := cmd.CombinedOutput()
	t.Logf("%s inbox-ui.mjs:\n%s", node, out)
	if err != nil {
		t.Fatalf("inbox-ui.mjs: %v (screenshots in %s)", err, artifacts)
	}
}
