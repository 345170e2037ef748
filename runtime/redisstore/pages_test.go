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
	"github.com/elicitgen/elicitgen/runtime/page/storetest"
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
	if err := s.Put(ctx, page.Record{ID: id, Call: call, Question: []byte("question"), Closes: until, Until: until}); err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, page.Record{ID: id, Call: call, Question: []byte("other"), Closes: until, Until: until}); !errors.Is(err, page.ErrExists) {
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
	if err := s.Put(ctx, page.Record{ID: id, Question: []byte("q"), Until: time.Now().Add(time.Minute)}); err != nil {
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

// TestPageStoreBudgets: in Redis, a client at its budget has its new
// pages refused (page.ErrClientPagesFull) while other clients' are
// stored, a full store refuses the newcomer (page.ErrPagesFull), and
// the pages already open are still answered and taken (issue #39: one
// client's pages filled Redis and another person's approval was
// refused).
func TestPageStoreBudgets(t *testing.T) {
	s := pageStore(t)
	s.Prefix = "elicitgen-test-pages:" + newID() + ":"
	s.Limit, s.PerClient = 5, 2
	ctx := context.Background()
	put := func(client, id string, until time.Duration) error {
		u := time.Now().Add(until)
		return s.Put(ctx, page.Record{ID: id, Client: client, Question: []byte("q"), Closes: u, Until: u})
	}
	for _, id := range []string{"a1", "a2"} {
		if err := put("addr:192.0.2.66", id, time.Minute); err != nil {
			t.Fatal(err)
		}
	}
	err := put("addr:192.0.2.66", "a3", time.Minute)
	if !errors.Is(err, page.ErrClientPagesFull) || !errors.Is(err, page.ErrPagesFull) || !errors.Is(err, page.ErrStore) {
		t.Fatalf("a client's page beyond its budget: %v; want ErrClientPagesFull", err)
	}
	if err := put("addr:192.0.2.66", "a1", time.Minute); !errors.Is(err, page.ErrExists) {
		t.Fatalf("a page already held, at the budget: %v; want ErrExists", err)
	}
	for _, p := range [][2]string{{"principal:bob", "b1"}, {"principal:bob", "b2"}, {"", "x1"}} {
		if err := put(p[0], p[1], time.Minute); err != nil {
			t.Fatalf("%q's page with another client at its budget: %v", p[0], err)
		}
	}
	if err := put("principal:carol", "c1", time.Minute); !errors.Is(err, page.ErrPagesFull) || errors.Is(err, page.ErrClientPagesFull) {
		t.Fatalf("a newcomer with the store full: %v; want ErrPagesFull", err)
	}
	if err := s.Answer(ctx, "b1", []byte("yes")); err != nil {
		t.Fatalf("answer of an open page with the store full: %v", err)
	}
	if a, err := s.Take(ctx, "b1"); err != nil || string(a) != "yes" {
		t.Fatalf("take: %q, %v", a, err)
	}
	// Budgets free as pages expire, on Redis's clock.
	if err := put("principal:dave", "d1", 300*time.Millisecond); !errors.Is(err, page.ErrPagesFull) {
		t.Fatalf("still full: %v", err)
	}
	s.Limit = 6
	if err := put("principal:dave", "d1", 300*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if err := put("principal:erin", "e1", time.Minute); !errors.Is(err, page.ErrPagesFull) {
		t.Fatalf("full again: %v", err)
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		err := put("principal:erin", "e1", time.Minute)
		if err == nil {
			break
		}
		if !errors.Is(err, page.ErrPagesFull) || time.Now().After(deadline) {
			t.Fatalf("after d1 expired: %v", err)
		}
	}
}

// TestPageClosesOnRedisClock: an answer that reaches Redis after the
// page closed, by Redis's clock, is refused (page.ErrExpired; 410 on the
// page), however the instance's clock reads (issue #39: an instance five
// minutes slow accepted answers after the page closed).
func TestPageClosesOnRedisClock(t *testing.T) {
	s := pageStore(t)
	ctx := context.Background()
	id := newID()
	if err := s.Put(ctx, page.Record{ID: id, Question: []byte("q"), Closes: time.Now().Add(-time.Second), Until: time.Now().Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
	if err := s.Answer(ctx, id, []byte("yes")); !errors.Is(err, page.ErrExpired) {
		t.Fatalf("answer of a closed page: %v; want ErrExpired", err)
	}
	// Through a page served by an instance whose clock runs 12 minutes
	// behind: by it the page (10 minutes) is still open; by Redis's it
	// closed two minutes ago.
	slow := func() time.Time { return time.Now().Add(-12 * time.Minute) }
	p, err := page.New(page.Config{
		Keys: seal.NewRandomKeyRing(), Store: s, BaseURL: "https://mcp.example.com/elicit/", TTL: 10 * time.Minute, Now: slow,
		Identity: func(r *http.Request) (string, bool) { return r.Header.Get("X-User"), r.Header.Get("X-User") != "" },
	})
	if err != nil {
		t.Fatal(err)
	}
	sch, err := runtime.ParseSchema("Deploy", []byte(deploySchema))
	if err != nil {
		t.Fatal(err)
	}
	l, err := p.Issue(ctx, &page.Question{Schema: sch, Call: seal.BindCall("deploy", nil, "alice")})
	if err != nil {
		t.Fatal(err)
	}
	rec := serve(p, "GET", l.URL, nil, nil)
	m := csrfField.FindStringSubmatch(rec.Body.String())
	if rec.Code != 200 || m == nil {
		t.Fatalf("GET by the slow instance: %d", rec.Code)
	}
	form := url.Values{"csrf": {m[1]}, "action": {"accept"}, "environment": {"production"}, "confirmed": {"true"}}
	if rec := serve(p, "POST", l.URL, rec.Result().Cookies(), form); rec.Code != http.StatusGone {
		t.Fatalf("POST after the page closed by Redis's clock: %d; want 410", rec.Code)
	}
}

// TestPageStoreWaitMarks: a wait mark holds until it is removed or its
// time passes, and is per page.
func TestPageStoreWaitMarks(t *testing.T) {
	s := pageStore(t)
	ctx := context.Background()
	id, other := newID(), newID()
	if held, err := s.Waiting(ctx, id); err != nil || held {
		t.Fatalf("before any mark: %v, %v", held, err)
	}
	if err := s.MarkWaiting(ctx, id, time.Now().Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if held, err := s.Waiting(ctx, id); err != nil || !held {
		t.Fatalf("marked: %v, %v", held, err)
	}
	if held, _ := s.Waiting(ctx, other); held {
		t.Fatal("another page is marked")
	}
	if err := s.MarkWaiting(ctx, id, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if held, err := s.Waiting(ctx, id); err != nil || held {
		t.Fatalf("removed: %v, %v", held, err)
	}
	if err := s.MarkWaiting(ctx, id, time.Now().Add(50*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		held, err := s.Waiting(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if !held {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the mark outlived its time")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestPageStoreRevise(t *testing.T) { storetest.TestRevise(t, pageStore(t)) }

// TestPageStoreReviseClosesOnRedisClock: a page whose closing time has
// passed on Redis's clock is not revised, whatever the instance's clock.
func TestPageStoreReviseClosesOnRedisClock(t *testing.T) {
	s := pageStore(t)
	ctx := context.Background()
	id := newID()
	// Closing a millisecond from now by this clock: by Redis's it has
	// closed once a few milliseconds have passed.
	if err := s.Put(ctx, page.Record{ID: id, Question: []byte("q"), Closes: time.Now().Add(time.Millisecond), Until: time.Now().Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond)
	if err := s.Revise(ctx, id, 1, []byte("late")); !errors.Is(err, page.ErrExpired) {
		t.Fatalf("Revise after the closing time: %v; want ErrExpired", err)
	}
}
