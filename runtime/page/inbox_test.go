package page

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

func (f *fixture) inbox(t testing.TB, user, lang string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest("GET", "https://mcp.example.com/elicit/inbox", nil)
	if user != "" {
		req.Header.Set(userHeader, user)
	}
	if lang != "" {
		req.Header.Set("Accept-Language", lang)
	}
	rec := httptest.NewRecorder()
	f.p.ServeHTTP(rec, req)
	return rec
}

// TestInboxListsUntilAnswered: bob's and carol's inboxes list the
// question alice's call waits on (quorum 2); once carol has approved,
// hers no longer does, bob's still does with one approval needed; the
// requester, excluded, and a stranger see nothing.
func TestInboxListsUntilAnswered(t *testing.T) {
	f := newFixture(t)
	l := f.issueFor(t, &runtime.Approvers{Principals: []string{"alice", "bob", "carol"}, ExcludeRequester: true, Quorum: 2})
	ctx := context.Background()
	for _, who := range []string{"bob", "carol"} {
		w, err := f.p.Inbox(ctx, who)
		if err != nil || len(w) != 1 || w[0].Page != l.ID || w[0].Tool != "deploy_to_production" || w[0].Requester != "alice" || w[0].Needed != 2 || !w[0].Expires.Equal(l.Expires) {
			t.Fatalf("%s's inbox: %+v %v", who, w, err)
		}
	}
	for _, who := range []string{"alice", "mallory"} {
		if w, err := f.p.Inbox(ctx, who); err != nil || len(w) != 0 {
			t.Fatalf("%s's inbox: %+v %v", who, w, err)
		}
	}
	rec := f.inbox(t, "bob", "")
	body := rec.Body.String()
	if rec.Code != 200 || !strings.Contains(body, "Questions waiting for you") || !strings.Contains(body, "Deploy api to production?") ||
		!strings.Contains(body, "<dd>alice</dd>") || !strings.Contains(body, "closes in 15 minutes") || !strings.Contains(body, "<dd>2</dd>") {
		t.Fatalf("bob's inbox page: %d %s", rec.Code, body)
	}
	// The row's link opens the page for bob.
	m := inboxLink.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no link in %s", body)
	}
	if rec := f.do(t, "GET", m[1], "bob", nil, nil); rec.Code != 200 || !strings.Contains(rec.Body.String(), `name="csrf"`) {
		t.Fatalf("the inbox's link: %d %s", rec.Code, rec.Body)
	}
	if code, body := f.approve(t, l.URL, "carol", "accept"); code != 200 {
		t.Fatalf("carol approves: %d %s", code, body)
	}
	if w, err := f.p.Inbox(ctx, "carol"); err != nil || len(w) != 0 {
		t.Fatalf("carol's inbox after she answered: %+v %v", w, err)
	}
	if rec := f.inbox(t, "carol", ""); !strings.Contains(rec.Body.String(), "Nothing is waiting for your answer.") {
		t.Fatalf("carol's inbox page: %s", rec.Body)
	}
	if w, err := f.p.Inbox(ctx, "bob"); err != nil || len(w) != 1 || w[0].Needed != 1 {
		t.Fatalf("bob's inbox after carol's approval: %+v %v", w, err)
	}
	if code, body := f.approve(t, l.URL, "bob", "accept"); code != 200 {
		t.Fatalf("bob approves: %d %s", code, body)
	}
	if w, err := f.p.Inbox(ctx, "bob"); err != nil || len(w) != 0 {
		t.Fatalf("bob's inbox after the quorum: %+v %v", w, err)
	}
	// Once closed, nobody's inbox lists a page.
	l2 := f.issueFor(t, excluding)
	f.clock.t = f.clock.t.Add(16 * time.Minute)
	if w, err := f.p.Inbox(ctx, "bob"); err != nil || len(w) != 0 {
		t.Fatalf("bob's inbox after %s closed: %+v %v", l2.ID, w, err)
	}
}

func TestInboxPageWords(t *testing.T) {
	f := newFixture(t)
	f.issueFor(t, excluding)
	rec := f.inbox(t, "bob", "ja")
	if body := rec.Body.String(); rec.Code != 200 || !strings.Contains(body, `<html lang="ja">`) || !strings.Contains(body, "あなたの回答を待っている質問") ||
		!strings.Contains(body, "依頼者") || !strings.Contains(body, `lang="en"`) {
		t.Fatalf("Japanese inbox: %d %s", rec.Code, body)
	}
	if rec := f.inbox(t, "", ""); rec.Code != http.StatusUnauthorized {
		t.Fatalf("inbox of nobody: %d", rec.Code)
	}
	if got := rec.Header().Get("Content-Security-Policy"); !strings.Contains(got, "default-src 'none'") {
		t.Fatalf("CSP %q", got)
	}
	req := httptest.NewRequest("POST", "https://mcp.example.com/elicit/inbox", nil)
	req.Header.Set(userHeader, "bob")
	w := httptest.NewRecorder()
	f.p.ServeHTTP(w, req)
	if w.Code != http.StatusMethodNotAllowed {
		t.Fatalf("POST inbox: %d", w.Code)
	}
}

// TestInboxGroups: a group's member sees the page through the group,
// resolved when the inbox is read.
func TestInboxGroups(t *testing.T) {
	ops := map[string]bool{"dave": true}
	store := NewMemoryStore()
	p, err := New(Config{Keys: seal.NewRandomKeyRing(), Store: store, BaseURL: "https://mcp.example.com/elicit/",
		Identity: func(r *http.Request) (string, bool) { u := r.Header.Get(userHeader); return u, u != "" },
		Member: func(_ context.Context, who, g string) (bool, error) {
			if g == "broken" {
				return false, errors.New("directory down")
			}
			return g == "ops" && ops[who], nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	l, err := p.Issue(ctx, &Question{Schema: schema(t, "Deploy", deployJSON), Message: "Deploy?", Call: seal.BindCall("deploy", nil, "alice"),
		Approvers: &runtime.Approvers{Groups: []string{"ops", "broken"}}})
	if err != nil {
		t.Fatal(err)
	}
	if w, err := p.Inbox(ctx, "dave"); err != nil || len(w) != 1 || w[0].Page != l.ID {
		t.Fatalf("dave's inbox: %+v %v", w, err)
	}
	if w, err := p.Inbox(ctx, "erin"); err != nil || len(w) != 0 {
		t.Fatalf("erin's inbox: %+v %v", w, err)
	}
	// Membership is read when the inbox is: erin joins ops, dave leaves.
	ops["erin"], ops["dave"] = true, false
	if w, err := p.Inbox(ctx, "erin"); err != nil || len(w) != 1 {
		t.Fatalf("erin's inbox after joining: %+v %v", w, err)
	}
	if w, err := p.Inbox(ctx, "dave"); err != nil || len(w) != 0 {
		t.Fatalf("dave's inbox after leaving: %+v %v", w, err)
	}
}

// TestMemoryIndex: the in-memory Index files by principal and group,
// each id once, and forgets an entry past its until.
func TestMemoryIndex(t *testing.T) {
	c := &clock{t: time.Unix(1_800_000_000, 0)}
	m := &MemoryStore{Now: c.Now}
	testIndex(t, m, func(d time.Duration) { c.t = c.t.Add(d) }, c.Now)
}

// testIndex checks an Index whose clock advance moves.
func testIndex(t *testing.T, ix Index, advance func(time.Duration), now func() time.Time) {
	t.Helper()
	ctx := context.Background()
	soon, later := now().Add(time.Minute), now().Add(time.Hour)
	if err := ix.File(ctx, "p1", []string{"bob", "carol"}, []string{"ops"}, soon); err != nil {
		t.Fatal(err)
	}
	if err := ix.File(ctx, "p2", []string{"carol"}, []string{"sec"}, later); err != nil {
		t.Fatal(err)
	}
	check := func(who string, groups []string, want ...string) {
		t.Helper()
		got, err := ix.Filed(ctx, who, groups)
		if err != nil || strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("Filed(%s, %v) = %v %v, want %v", who, groups, got, err, want)
		}
	}
	check("bob", nil, "p1")
	check("carol", []string{"ops"}, "p1", "p2")
	check("dave", []string{"sec"}, "p2")
	check("dave", nil)
	if gs, err := ix.FiledGroups(ctx); err != nil || strings.Join(gs, ",") != "ops,sec" {
		t.Fatalf("FiledGroups: %v %v", gs, err)
	}
	advance(2 * time.Minute)
	check("bob", nil)
	check("carol", []string{"ops"}, "p2")
	if gs, err := ix.FiledGroups(ctx); err != nil || strings.Join(gs, ",") != "sec" {
		t.Fatalf("FiledGroups after p1 closed: %v %v", gs, err)
	}
}

var inboxLink = regexp.MustCompile(`<a href="([^"]+)"`)
