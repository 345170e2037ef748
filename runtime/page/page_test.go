package page

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

const deployJSON = `{"type":"object","properties":{"branch":{"type":"string","title":"Branch","description":"The git branch to deploy.","minLength":1,"maxLength":100,"default":"main"},"environment":{"type":"string","title":"Environment","description":"Where the branch goes.","oneOf":[{"const":"staging","title":"Staging"},{"const":"production","title":"Production"}]},"confirmed":{"type":"boolean","title":"I confirm this deploy","description":"I understand that the deploy reaches live traffic.","default":false}},"required":["environment","confirmed"]}`

const enumsJSON = `{"type":"object","properties":{"count":{"type":"integer","title":"Count","minimum":1,"maximum":12},"ratio":{"type":"number","title":"Ratio","maximum":1},"when":{"type":"string","title":"When","format":"date"},"tags":{"type":"array","title":"Tags","minItems":1,"maxItems":2,"items":{"anyOf":[{"const":"a","title":"Alpha"},{"const":"b","title":"Beta"},{"const":"c","title":"Gamma"}]}},"code":{"type":"string","title":"Code"}},"required":["count","tags"]}`

func schema(t testing.TB, name, js string) *runtime.Schema {
	t.Helper()
	s, err := runtime.ParseSchema(name, []byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

const userHeader = "X-Test-User"

type fixture struct {
	p     *Pages
	store *MemoryStore
	clock *clock
	call  seal.Binding
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	c := &clock{t: time.Unix(1_800_000_000, 0)}
	store := &MemoryStore{Now: c.Now}
	p, err := New(Config{
		Keys: seal.NewRandomKeyRing(), Store: store, BaseURL: "https://mcp.example.com/elicit/",
		Identity: func(r *http.Request) (string, bool) {
			u := r.Header.Get(userHeader)
			return u, u != ""
		},
		Now: c.Now,
	})
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{p: p, store: store, clock: c, call: seal.BindCall("deploy_to_production", []byte(`{"service":"api"}`), "alice")}
}

func (f *fixture) issue(t testing.TB, s *runtime.Schema) *Link {
	t.Helper()
	l, err := f.p.Issue(context.Background(), &Question{Schema: s, Message: "Deploy api to production?", Call: f.call})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func (f *fixture) do(t testing.TB, method, link, user string, cookies []*http.Cookie, form url.Values) *httptest.ResponseRecorder {
	t.Helper()
	var req *http.Request
	if form != nil {
		req = httptest.NewRequest(method, link, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	} else {
		req = httptest.NewRequest(method, link, nil)
	}
	if user != "" {
		req.Header.Set(userHeader, user)
	}
	for _, c := range cookies {
		req.AddCookie(c)
	}
	rec := httptest.NewRecorder()
	f.p.ServeHTTP(rec, req)
	return rec
}

var csrfField = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// open GETs the page as alice and returns its cookies and CSRF token.
func (f *fixture) open(t testing.TB, link string) ([]*http.Cookie, string) {
	t.Helper()
	rec := f.do(t, "GET", link, "alice", nil, nil)
	if rec.Code != 200 {
		t.Fatalf("GET: %d %s", rec.Code, rec.Body)
	}
	m := csrfField.FindStringSubmatch(rec.Body.String())
	if m == nil {
		t.Fatalf("no csrf field in %s", rec.Body)
	}
	return rec.Result().Cookies(), m[1]
}

func deployPost(csrf string, kv ...string) url.Values {
	v := url.Values{"csrf": {csrf}, "action": {"accept"}}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Add(kv[i], kv[i+1])
	}
	return v
}

func TestAnswerOnce(t *testing.T) {
	f := newFixture(t)
	l := f.issue(t, schema(t, "Deploy", deployJSON))
	if !strings.HasPrefix(l.URL, "https://mcp.example.com/elicit/v3.") {
		t.Fatalf("link %s", l.URL)
	}
	rec := f.do(t, "GET", l.URL, "alice", nil, nil)
	body := rec.Body.String()
	for _, want := range []string{
		`name="branch"`, `value="main"`, `name="environment"`, `value="staging"`, `>Production</label>`,
		`name="confirmed"`, `Deploy api to production?`, `The git branch to deploy.`, `lang="en"`,
		`value="accept"`, `value="decline"`, `minlength="1"`, `maxlength="100"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	h := rec.Header()
	for k, want := range map[string]string{
		"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "Cache-Control": "no-store",
		"X-Frame-Options": "DENY", "Content-Language": "en", "Content-Type": "text/html; charset=utf-8",
	} {
		if h.Get(k) != want {
			t.Errorf("%s: %q", k, h.Get(k))
		}
	}
	csp := h.Get("Content-Security-Policy")
	sum := sha256.Sum256([]byte(pageCSS))
	if !strings.Contains(csp, "frame-ancestors 'none'") || strings.Contains(csp, "script-src") && !strings.Contains(csp, "default-src 'none'") ||
		!strings.Contains(csp, base64.StdEncoding.EncodeToString(sum[:])) || !strings.Contains(body, "<style>"+string(pageCSS)+"</style>") {
		t.Errorf("CSP %q does not allow exactly the page's style", csp)
	}
	if strings.Contains(body, "<script") {
		t.Error("page has a script")
	}
	cookies, csrf := f.open(t, l.URL)
	if len(cookies) != 1 || !cookies[0].HttpOnly || cookies[0].SameSite != http.SameSiteStrictMode || !cookies[0].Secure ||
		!strings.HasSuffix(l.URL, cookies[0].Path) {
		t.Fatalf("cookie %+v", cookies)
	}

	if _, err := f.p.Take(context.Background(), l.ID, f.call); !errors.Is(err, ErrNotAnswered) {
		t.Fatalf("take before answer: %v", err)
	}
	release := f.p.Hold(context.Background(), l.ID) // a call waits for the answer
	rec = f.do(t, "POST", l.URL, "alice", cookies, deployPost(csrf, "branch", "release-7", "environment", "production", "confirmed", "true"))
	release()
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "your answer was sent") {
		t.Fatalf("post: %d %s", rec.Code, rec.Body)
	}
	// A second post, and reopening: answered, in one sentence.
	rec = f.do(t, "POST", l.URL, "alice", cookies, deployPost(csrf, "branch", "other", "environment", "staging", "confirmed", "true"))
	if rec.Code != http.StatusConflict || !strings.Contains(rec.Body.String(), "already been answered") {
		t.Fatalf("second post: %d %s", rec.Code, rec.Body)
	}
	if rec := f.do(t, "GET", l.URL, "alice", nil, nil); rec.Code != http.StatusConflict {
		t.Fatalf("reopen: %d", rec.Code)
	}
	// The MCP side takes it once, for its own call only.
	other := seal.BindCall("deploy_to_production", []byte(`{"service":"web"}`), "alice")
	if _, err := f.p.Take(context.Background(), l.ID, other); !errors.Is(err, ErrForeign) {
		t.Fatalf("take for other arguments: %v", err)
	}
	if _, err := f.p.Take(context.Background(), l.ID, seal.BindCall("deploy_to_production", []byte(`{"service":"api"}`), "bob")); !errors.Is(err, ErrForeign) {
		t.Fatalf("take for another principal: %v", err)
	}
	resp, err := f.p.Take(context.Background(), l.ID, f.call)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Action != runtime.ActionAccept || resp.Content["branch"] != "release-7" || resp.Content["environment"] != "production" || resp.Content["confirmed"] != true || len(resp.Content) != 3 {
		t.Fatalf("answer %+v", resp)
	}
	if _, err := f.p.Take(context.Background(), l.ID, f.call); !errors.Is(err, ErrTaken) {
		t.Fatalf("second take: %v", err)
	}
}

func TestInvalidShownBesideFields(t *testing.T) {
	f := newFixture(t)
	l := f.issue(t, schema(t, "Enums", enumsJSON))
	cookies, csrf := f.open(t, l.URL)
	post := deployPost(csrf, "count", "40", "ratio", "abc", "when", "2026-02-30", "tags", "a", "tags", "b", "tags", "c", "code", `<b>"x"</b>`)
	rec := f.do(t, "POST", l.URL, "alice", cookies, post)
	body := rec.Body.String()
	if rec.Code != http.StatusUnprocessableEntity {
		t.Fatalf("status %d", rec.Code)
	}
	// The conversion's problem (ratio) is reported alone first; fix it
	// to see the validator's.
	if !strings.Contains(body, `id="f1-err">Ratio must be a number`) {
		t.Errorf("no number error beside ratio:\n%s", body)
	}
	post.Set("ratio", "0.5")
	rec = f.do(t, "POST", l.URL, "alice", cookies, post)
	body = rec.Body.String()
	for _, want := range []string{
		`id="f0-err">Count must be at most 12`,
		`id="f2-err">When must be a date, YYYY-MM-DD (&#34;2026-02-30&#34; is not)`,
		`id="f3-err">Tags: choose at most 2`,
		`<a href="#f0">Count must be at most 12</a>`,
		`value="40"`, `value="0.5"`, `value="&lt;b&gt;&#34;x&#34;&lt;/b&gt;"`,
		`aria-invalid="true"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	if strings.Contains(body, `<b>"x"`) {
		t.Error("a posted value is not escaped")
	}
	if e, _ := f.store.Get(context.Background(), l.ID); e.Status != StatusOpen {
		t.Fatalf("an invalid post changed the page: %v", e.Status)
	}
	// Required fields left empty, and an unknown field.
	rec = f.do(t, "POST", l.URL, "alice", cookies, deployPost(csrf, "admin", "yes"))
	body = rec.Body.String()
	for _, want := range []string{`id="f0-err">Count is required`, `id="f3-err">`, `<li>admin is not a field of this form</li>`} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %s\n%s", want, body)
		}
	}
	// Fixed: accepted, numbers exact.
	rec = f.do(t, "POST", l.URL, "alice", cookies, deployPost(csrf, "count", "12", "tags", "c", "when", "2026-02-28"))
	if rec.Code != 200 {
		t.Fatalf("fixed post: %d %s", rec.Code, rec.Body)
	}
	resp, err := f.p.Take(context.Background(), l.ID, f.call)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content["count"] != float64(12) || resp.Content["when"] != "2026-02-28" || len(resp.Content["tags"].([]any)) != 1 {
		t.Fatalf("content %#v", resp.Content)
	}
	if _, ok := resp.Content["code"]; ok {
		t.Fatal("an empty optional string is present")
	}
}

func TestDecline(t *testing.T) {
	f := newFixture(t)
	l := f.issue(t, schema(t, "Deploy", deployJSON))
	cookies, csrf := f.open(t, l.URL)
	rec := f.do(t, "POST", l.URL, "alice", cookies, url.Values{"csrf": {csrf}, "action": {"decline"}, "branch": {""}})
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "You declined") {
		t.Fatalf("decline: %d %s", rec.Code, rec.Body)
	}
	resp, err := f.p.Take(context.Background(), l.ID, f.call)
	if err != nil || resp.Action != runtime.ActionDecline || resp.Content != nil {
		t.Fatalf("take: %+v, %v", resp, err)
	}
}

// TestRefusals: every bad request gets one sentence and a 4xx status,
// and the page stays open and unanswered.
func TestRefusals(t *testing.T) {
	f := newFixture(t)
	s := schema(t, "Deploy", deployJSON)
	l := f.issue(t, s)
	cookies, csrf := f.open(t, l.URL)
	good := deployPost(csrf, "environment", "staging", "confirmed", "true")
	other, err := New(Config{Keys: seal.NewRandomKeyRing(), BaseURL: "https://mcp.example.com/elicit/", LinkOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	foreign, err := other.Issue(context.Background(), &Question{Schema: s, Call: f.call})
	if err != nil {
		t.Fatal(err)
	}
	// A token sealed with the right keys for another call than the page's.
	tok, err := f.p.sealPage(l.ID, seal.BindCall("delete_everything", nil, "alice"), f.clock.Now(), l.Expires)
	if err != nil {
		t.Fatal(err)
	}
	swapped := "https://mcp.example.com/elicit/" + tok
	tampered := l.URL[:len(l.URL)-3] + flip(l.URL[len(l.URL)-3:])
	big := url.Values{"csrf": {csrf}, "action": {"accept"}, "branch": {strings.Repeat("x", DefaultMaxBody)}}
	long := deployPost(csrf, "environment", "staging", "confirmed", "true", "branch", strings.Repeat("x", DefaultMaxValue+1))
	twice := deployPost(csrf, "environment", "staging", "environment", "production", "confirmed", "true")
	otherCookie := []*http.Cookie{{Name: csrfCookie, Value: strings.Repeat("ab", 16)}}
	for _, c := range []struct {
		name    string
		method  string
		link    string
		user    string
		cookies []*http.Cookie
		form    url.Values
		status  int
		say     string
	}{
		{"tampered", "GET", tampered, "alice", nil, nil, 404, "This link is not valid."},
		{"tampered post", "POST", tampered, "alice", cookies, good, 404, "This link is not valid."},
		{"foreign keys", "GET", foreign.URL, "alice", nil, nil, 404, "This link is not valid."},
		{"another call", "POST", swapped, "alice", cookies, good, 404, "This link is not valid."},
		{"no token", "GET", "https://mcp.example.com/elicit/", "alice", nil, nil, 404, "This link is not valid."},
		{"another person", "GET", l.URL, "bob", nil, nil, 403, "This question was asked of someone else."},
		{"another person posts", "POST", l.URL, "bob", cookies, good, 403, "asked of someone else"},
		{"nobody", "POST", l.URL, "", cookies, good, 401, "Sign in to answer this question."},
		{"no csrf cookie", "POST", l.URL, "alice", nil, good, 403, "open the link again"},
		{"no csrf field", "POST", l.URL, "alice", cookies, url.Values{"action": {"accept"}, "environment": {"staging"}, "confirmed": {"true"}}, 403, "open the link again"},
		{"csrf of another cookie", "POST", l.URL, "alice", otherCookie, good, 403, "open the link again"},
		{"csrf as the token", "POST", l.URL, "alice", cookies, deployPost(tokenOf(httptest.NewRequest("GET", l.URL, nil)), "environment", "staging", "confirmed", "true"), 403, "open the link again"},
		{"no action", "POST", l.URL, "alice", cookies, url.Values{"csrf": {csrf}, "environment": {"staging"}, "confirmed": {"true"}}, 400, "not an answer this page can read"},
		{"oversized body", "POST", l.URL, "alice", cookies, big, 413, "too large"},
		{"oversized value", "POST", l.URL, "alice", cookies, long, 422, "is too long"},
		{"value twice", "POST", l.URL, "alice", cookies, twice, 422, "must be given once"},
		{"bad boolean", "POST", l.URL, "alice", cookies, deployPost(csrf, "environment", "staging", "confirmed", "yes please"), 422, "must be ticked or left unticked"},
		{"PUT", "PUT", l.URL, "alice", cookies, good, 405, "takes answers only from its form"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec := f.do(t, c.method, c.link, c.user, c.cookies, c.form)
			if rec.Code != c.status || !strings.Contains(rec.Body.String(), c.say) {
				t.Fatalf("%d, want %d %q:\n%s", rec.Code, c.status, c.say, rec.Body)
			}
			if rec.Header().Get("Content-Security-Policy") == "" || rec.Header().Get("Cache-Control") != "no-store" {
				t.Fatal("a refusal without the page's headers")
			}
			if e, err := f.store.Get(context.Background(), l.ID); err != nil || e.Status != StatusOpen {
				t.Fatalf("the page changed: %v, %v", e.Status, err)
			}
		})
	}
	t.Run("multipart", func(t *testing.T) {
		req := httptest.NewRequest("POST", l.URL, strings.NewReader("--x--"))
		req.Header.Set("Content-Type", "multipart/form-data; boundary=x")
		req.Header.Set(userHeader, "alice")
		rec := httptest.NewRecorder()
		f.p.ServeHTTP(rec, req)
		if rec.Code != http.StatusUnsupportedMediaType {
			t.Fatalf("%d", rec.Code)
		}
	})
	// The good post still works after all that; then expiry.
	if rec := f.do(t, "POST", l.URL, "alice", cookies, good); rec.Code != 200 {
		t.Fatalf("good post: %d %s", rec.Code, rec.Body)
	}
}

func flip(s string) string {
	b := []byte(s)
	if b[0] == 'A' {
		b[0] = 'B'
	} else {
		b[0] = 'A'
	}
	return string(b)
}

func TestExpired(t *testing.T) {
	f := newFixture(t)
	l := f.issue(t, schema(t, "Deploy", deployJSON))
	cookies, csrf := f.open(t, l.URL)
	f.clock.Add(DefaultTTL + time.Second)
	for _, m := range []string{"GET", "POST"} {
		rec := f.do(t, m, l.URL, "alice", cookies, map[string]url.Values{"POST": deployPost(csrf, "environment", "staging", "confirmed", "true")}[m])
		if rec.Code != http.StatusGone || !strings.Contains(rec.Body.String(), "This link has expired.") {
			t.Fatalf("%s: %d %s", m, rec.Code, rec.Body)
		}
	}
	if _, err := f.p.Take(context.Background(), l.ID, f.call); !errors.Is(err, ErrExpired) {
		t.Fatalf("take: %v", err)
	}
	f.clock.Add(DefaultKeep)
	if _, err := f.p.Take(context.Background(), l.ID, f.call); !errors.Is(err, ErrNotFound) {
		t.Fatalf("take after keep: %v", err)
	}
}

// failingStore fails every operation after Put, as a store whose backend
// went down.
type failingStore struct {
	*MemoryStore
	down bool
}

var errDown = errors.New("connection refused")

func (s *failingStore) Get(ctx context.Context, id string) (Entry, error) {
	e, err := s.MemoryStore.Get(ctx, id)
	if s.down {
		return Entry{}, errDown
	}
	return e, err
}

func (s *failingStore) Answer(ctx context.Context, id string, a []byte) error {
	if s.down {
		return errDown
	}
	return errDown
}

func TestStoreDownRefuses(t *testing.T) {
	f := newFixture(t)
	fs := &failingStore{MemoryStore: f.store}
	f.p.store = fs
	l := f.issue(t, schema(t, "Deploy", deployJSON))
	cookies, csrf := f.open(t, l.URL)
	rec := f.do(t, "POST", l.URL, "alice", cookies, deployPost(csrf, "environment", "staging", "confirmed", "true"))
	if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), "could not be saved") {
		t.Fatalf("post with the store failing to record: %d %s", rec.Code, rec.Body)
	}
	fs.down = true
	if rec := f.do(t, "GET", l.URL, "alice", nil, nil); rec.Code != http.StatusServiceUnavailable {
		t.Fatalf("get with the store down: %d", rec.Code)
	}
	if _, err := f.p.Take(context.Background(), l.ID, f.call); !errors.Is(err, ErrStore) || !errors.Is(err, errDown) {
		t.Fatalf("take with the store down: %v", err)
	}
	if _, err := f.p.Issue(context.Background(), &Question{Schema: schema(t, "Deploy", deployJSON), Call: f.call}); err != nil {
		t.Fatalf("issue: %v", err) // Put still works in this fake
	}
}

func TestConfig(t *testing.T) {
	keys := seal.NewRandomKeyRing()
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{BaseURL: "https://x.example/e/", LinkOnly: true}, "Keys"},
		{Config{Keys: keys, BaseURL: "https://x.example/e/"}, "LinkOnly"},
		{Config{Keys: keys, BaseURL: "https://x.example/e", LinkOnly: true}, "ending in"},
		{Config{Keys: keys, BaseURL: "/e/", LinkOnly: true}, "absolute"},
		{Config{Keys: keys, BaseURL: "http://x.example/e/", LinkOnly: true}, "BaseURL"},
	} {
		if _, err := New(c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.cfg, err, c.want)
		}
	}
	if _, err := New(Config{Keys: keys, BaseURL: "http://127.0.0.1:8080/elicit/", LinkOnly: true}); err != nil {
		t.Errorf("loopback http: %v", err)
	}
	f := newFixture(t)
	if _, err := f.p.Issue(context.Background(), &Question{Schema: schema(t, "Deploy", deployJSON), Call: seal.BindCall("t", nil, "")}); err == nil {
		t.Error("a question without a principal was issued with Identity set")
	}
	if _, err := f.p.Issue(context.Background(), &Question{Schema: schema(t, "Deploy", deployJSON), Call: f.call, Expires: f.clock.Now()}); err == nil {
		t.Error("an expired question was issued")
	}
	if _, err := f.p.Issue(context.Background(), &Question{ID: "a/b", Schema: schema(t, "Deploy", deployJSON), Call: f.call}); err == nil {
		t.Error("a bad id was accepted")
	}
}

func TestLinkOnly(t *testing.T) {
	p, err := New(Config{Keys: seal.NewRandomKeyRing(), BaseURL: "http://127.0.0.1:1/elicit/", LinkOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{p: p, call: seal.BindCall("t", nil, "")}
	l := f.issue(t, schema(t, "Deploy", deployJSON))
	rec := f.do(t, "GET", l.URL, "", nil, nil)
	if rec.Code != 200 {
		t.Fatalf("%d", rec.Code)
	}
	if c := rec.Result().Cookies(); len(c) != 1 || c[0].Secure {
		t.Fatalf("cookie on loopback http: %+v", c)
	}
}

func TestReissueAndFind(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	s := schema(t, "Deploy", deployJSON)
	q := &Question{ID: "flow-1", Schema: s, Call: f.call}
	a, err := f.p.Issue(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	b, err := f.p.Issue(ctx, q)
	if err != nil || b.ID != a.ID || b.URL == a.URL || !b.Expires.Equal(a.Expires) {
		t.Fatalf("reissue: %+v, %v (first %+v)", b, err, a)
	}
	if _, err := f.p.Issue(ctx, &Question{ID: "flow-1", Schema: s, Call: seal.BindCall("other", nil, "alice")}); !errors.Is(err, ErrForeign) {
		t.Fatalf("reissue for another call: %v", err)
	}
	if id, err := f.p.Find(ctx, f.call, "Deploy"); err != nil || id != "flow-1" {
		t.Fatalf("find: %q, %v", id, err)
	}
	if _, err := f.p.Find(ctx, seal.BindCall("deploy_to_production", []byte(`{"service":"web"}`), "alice"), "Deploy"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("find for other arguments: %v", err)
	}
	// The old link still opens the same page.
	if rec := f.do(t, "GET", a.URL, "alice", nil, nil); rec.Code != 200 {
		t.Fatalf("first link: %d", rec.Code)
	}
}

func TestJapanese(t *testing.T) {
	f := newFixture(t)
	s := schema(t, "Deploy", deployJSON)
	(&runtime.Locale{Tag: "ja", Props: []runtime.PropText{{Name: "branch", Title: "ブランチ"}, {Name: "environment", Title: "環境", Options: []runtime.Option{{Value: "production", Title: "本番"}}}}}).Apply(s)
	l, err := f.p.Issue(context.Background(), &Question{Schema: s, Message: "本番にデプロイしますか?", Language: "ja", Call: f.call})
	if err != nil {
		t.Fatal(err)
	}
	cookies, csrf := f.open(t, l.URL)
	rec := f.do(t, "POST", l.URL, "alice", cookies, deployPost(csrf, "branch", "", "confirmed", "true"))
	body := rec.Body.String()
	for _, want := range []string{`lang="ja"`, "ブランチ", ">本番</label>", "回答する", "辞退する", "次の項目を修正してください", `<a href="#f1">「環境」は必須です</a>`} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	req := httptest.NewRequest("GET", "https://mcp.example.com/elicit/nonsense", nil)
	req.Header.Set("Accept-Language", "ja-JP,en;q=0.5")
	w := httptest.NewRecorder()
	f.p.ServeHTTP(w, req)
	if !strings.Contains(w.Body.String(), "このリンクは無効です。") {
		t.Errorf("an invalid link in Japanese: %s", w.Body)
	}
}
