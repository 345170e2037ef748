package redisstore_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/redisstore"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

func pageStore(t *testing.T) *redisstore.PageStore {
	t.Helper()
	opt, err := redis.ParseURL(redisURL(t))
	if err != nil {
		t.Fatal(err)
	}
	c := redis.NewClient(opt)
	t.Cleanup(func() { c.Close() })
	return redisstore.NewPageStore(c)
}

func TestPageStore(t *testing.T) {
	s := pageStore(t)
	ctx := context.Background()
	id, call := newID(), newID()
	until := time.Now().Add(time.Minute)
	if _, err := s.Get(ctx, id); !errors.Is(err, page.ErrNotFound) {
		t.Fatalf("get of nothing: %v", err)
	}
	if err := s.Answer(ctx, id, []byte("a")); !errors.Is(err, page.ErrNotFound) {
		t.Fatalf("answer of nothing: %v", err)
	}
	if _, err := s.Take(ctx, id); !errors.Is(err, page.ErrNotFound) {
		t.Fatalf("take of nothing: %v", err)
	}
	if err := s.Put(ctx, id, call, []byte("question"), until); err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, id, call, []byte("other"), until); !errors.Is(err, page.ErrExists) {
		t.Fatalf("second put: %v", err)
	}
	if e, err := s.Get(ctx, id); err != nil || string(e.Question) != "question" || e.Status != page.StatusOpen || e.Answer != nil {
		t.Fatalf("get: %+v, %v", e, err)
	}
	if got, err := s.Find(ctx, call); err != nil || got != id {
		t.Fatalf("find: %q, %v", got, err)
	}
	if _, err := s.Take(ctx, id); !errors.Is(err, page.ErrNotAnswered) {
		t.Fatalf("take of an open page: %v", err)
	}
	if err := s.Answer(ctx, id, []byte("yes")); err != nil {
		t.Fatal(err)
	}
	if err := s.Answer(ctx, id, []byte("no")); !errors.Is(err, page.ErrAnswered) {
		t.Fatalf("second answer: %v", err)
	}
	if a, err := s.Take(ctx, id); err != nil || string(a) != "yes" {
		t.Fatalf("take: %q, %v", a, err)
	}
	if _, err := s.Take(ctx, id); !errors.Is(err, page.ErrTaken) {
		t.Fatalf("second take: %v", err)
	}
	if e, err := s.Get(ctx, id); err != nil || e.Status != page.StatusTaken || string(e.Answer) != "yes" {
		t.Fatalf("get after take: %+v, %v", e, err)
	}
	opt, _ := redis.ParseURL(redisURL(t))
	c := redis.NewClient(opt)
	defer c.Close()
	for _, k := range []string{redisstore.DefaultPagePrefix + id, redisstore.DefaultPagePrefix + "call:" + call} {
		if ttl, err := c.PTTL(ctx, k).Result(); err != nil || ttl < 50*time.Second || ttl > time.Minute {
			t.Errorf("PTTL %s = %v, %v; want about a minute", k, ttl, err)
		}
	}
}

func TestPageStoreConcurrent(t *testing.T) {
	s := pageStore(t)
	ctx := context.Background()
	id := newID()
	if err := s.Put(ctx, id, "", []byte("q"), time.Now().Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	const n = 30
	var answers, takes atomic.Int32
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := s.Answer(ctx, id, []byte("a")); err == nil {
				answers.Add(1)
			} else if !errors.Is(err, page.ErrAnswered) {
				t.Error(err)
			}
			if _, err := s.Take(ctx, id); err == nil {
				takes.Add(1)
			} else if !errors.Is(err, page.ErrTaken) && !errors.Is(err, page.ErrNotAnswered) {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if answers.Load() != 1 || takes.Load() != 1 {
		t.Fatalf("%d answers and %d takes won, want 1 and 1", answers.Load(), takes.Load())
	}
}

const deploySchema = `{"type":"object","properties":{"branch":{"type":"string","title":"Branch","minLength":1,"default":"main"},"environment":{"type":"string","title":"Environment","enum":["staging","production"]},"confirmed":{"type":"boolean","title":"Confirm"}},"required":["environment","confirmed"]}`

var csrfField = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

func newPages(t *testing.T, keys *seal.KeyRing, store page.Store) *page.Pages {
	t.Helper()
	p, err := page.New(page.Config{
		Keys: keys, Store: store, BaseURL: "https://mcp.example.com/elicit/",
		Identity: func(r *http.Request) (string, bool) { return r.Header.Get("X-User"), r.Header.Get("X-User") != "" },
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func serve(p http.Handler, method, link string, cookies []*http.Cookie, form url.Values) *httptest.ResponseRecorder {
	var req *http.Request
	if form != nil {
		req = httptest.NewRequest(method, link, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	} else {
		req = httptest.NewRequest(method, link, nil)
	}
	req.Header.Set("X-User", "alice")
	for _, c := range cookies {
		req.AddCookie(c)
	}
	rec := httptest.NewRecorder()
	p.ServeHTTP(rec, req)
	return rec
}

// TestPagesAcrossInstances: a page issued on one instance is answered on
// a second and taken on a third, through Redis.
func TestPagesAcrossInstances(t *testing.T) {
	keys := seal.NewRandomKeyRing()
	a, b, c := newPages(t, keys, pageStore(t)), newPages(t, keys, pageStore(t)), newPages(t, keys, pageStore(t))
	s, err := runtime.ParseSchema("Deploy", []byte(deploySchema))
	if err != nil {
		t.Fatal(err)
	}
	call := seal.BindCall("deploy", []byte(`{"service":"api"}`), "alice")
	ctx := context.Background()
	l, err := a.Issue(ctx, &page.Question{Schema: s, Message: "Deploy?", Call: call})
	if err != nil {
		t.Fatal(err)
	}
	rec := serve(b, "GET", l.URL, nil, nil)
	m := csrfField.FindStringSubmatch(rec.Body.String())
	if rec.Code != 200 || m == nil {
		t.Fatalf("GET on b: %d %s", rec.Code, rec.Body)
	}
	cookies := rec.Result().Cookies()
	form := url.Values{"csrf": {m[1]}, "action": {"accept"}, "environment": {"production"}, "confirmed": {"true"}}
	if rec := serve(b, "POST", l.URL, cookies, form); rec.Code != 200 {
		t.Fatalf("POST on b: %d %s", rec.Code, rec.Body)
	}
	if rec := serve(a, "POST", l.URL, cookies, form); rec.Code != http.StatusConflict {
		t.Fatalf("second POST on a: %d", rec.Code)
	}
	id, err := c.Find(ctx, call, "Deploy")
	if err != nil || id != l.ID {
		t.Fatalf("find on c: %q, %v", id, err)
	}
	resp, err := c.Take(ctx, id, call)
	if err != nil || resp.Action != runtime.ActionAccept || resp.Content["environment"] != "production" || resp.Content["confirmed"] != true {
		t.Fatalf("take on c: %+v, %v", resp, err)
	}
	if _, err := a.Take(ctx, id, call); !errors.Is(err, page.ErrTaken) {
		t.Fatalf("take again on a: %v", err)
	}
}

// TestPagesFailClosed: with Redis down, a page refuses to show or record
// anything, and the MCP side gets page.ErrStore.
func TestPagesFailClosed(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	c := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
	defer c.Close()
	down := redisstore.NewPageStore(c)
	down.Timeout = 500 * time.Millisecond
	keys := seal.NewRandomKeyRing()
	s, err := runtime.ParseSchema("Deploy", []byte(deploySchema))
	if err != nil {
		t.Fatal(err)
	}
	call := seal.BindCall("deploy", nil, "alice")
	ctx := context.Background()
	if _, err := newPages(t, keys, down).Issue(ctx, &page.Question{Schema: s, Call: call}); !errors.Is(err, page.ErrStore) {
		t.Fatalf("issue with Redis down: %v", err)
	}
	// A link issued while Redis was up, opened while it is down.
	up := page.NewMemoryStore()
	link, err := newPages(t, keys, up).Issue(ctx, &page.Question{Schema: s, Call: call})
	if err != nil {
		t.Fatal(err)
	}
	p := newPages(t, keys, down)
	if rec := serve(p, "GET", link.URL, nil, nil); rec.Code != http.StatusServiceUnavailable {
		t.Fatalf("GET with Redis down: %d", rec.Code)
	}
	form := url.Values{"action": {"accept"}, "environment": {"production"}, "confirmed": {"true"}}
	if rec := serve(p, "POST", link.URL, nil, form); rec.Code != http.StatusServiceUnavailable {
		t.Fatalf("POST with Redis down: %d", rec.Code)
	}
	if _, err := p.Take(ctx, link.ID, call); !errors.Is(err, page.ErrStore) {
		t.Fatalf("take with Redis down: %v", err)
	}
	if _, err := p.Find(ctx, call, "Deploy"); !errors.Is(err, page.ErrStore) {
		t.Fatalf("find with Redis down: %v", err)
	}
	if e, err := up.Get(ctx, link.ID); err != nil || e.Status != page.StatusOpen {
		t.Fatalf("the page changed: %+v, %v", e, err)
	}
}
