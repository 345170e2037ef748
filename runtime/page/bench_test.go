package page

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime/seal"
)

// BenchmarkRender is one GET of an open page: token opened, question
// read from the memory store and decoded, CSRF token sealed, page
// rendered.
func BenchmarkRender(b *testing.B) {
	f := newFixture(b)
	l := f.issue(b, schema(b, "Deploy", deployJSON))
	req := httptest.NewRequest("GET", l.URL, nil)
	req.Header.Set(userHeader, "alice")
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		f.p.ServeHTTP(rec, req)
		if rec.Code != 200 {
			b.Fatal(rec.Code)
		}
	}
}

// BenchmarkValidatedPost is one POST of an answer that the validator
// refuses (the page is shown again with its errors), so that the page
// stays open: token, CSRF, conversion, the runtime's validation and the
// re-render. BenchmarkAcceptedPost is the post that records an answer.
func BenchmarkValidatedPost(b *testing.B) {
	f := newFixture(b)
	l := f.issue(b, schema(b, "Deploy", deployJSON))
	cookies, csrf := f.open(b, l.URL)
	body := deployPost(csrf, "branch", strings.Repeat("x", 101), "environment", "production", "confirmed", "true").Encode()
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest("POST", l.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set(userHeader, "alice")
		req.AddCookie(cookies[0])
		rec := httptest.NewRecorder()
		f.p.ServeHTTP(rec, req)
		if rec.Code != http.StatusUnprocessableEntity {
			b.Fatal(rec.Code)
		}
	}
}

// BenchmarkAcceptedPost issues a page, then posts a valid answer to it
// (the issue is outside the timer).
func BenchmarkAcceptedPost(b *testing.B) {
	f := newFixture(b)
	s := schema(b, "Deploy", deployJSON)
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		l := f.issue(b, s)
		cookies, csrf := f.open(b, l.URL)
		body := deployPost(csrf, "branch", "main", "environment", "production", "confirmed", "true").Encode()
		req := httptest.NewRequest("POST", l.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set(userHeader, "alice")
		req.AddCookie(cookies[0])
		b.StartTimer()
		rec := httptest.NewRecorder()
		f.p.ServeHTTP(rec, req)
		if rec.Code != 200 {
			b.Fatal(rec.Code, rec.Body)
		}
	}
}

// BenchmarkIssue is Pages.Issue into the memory store.
func BenchmarkIssue(b *testing.B) {
	f := newFixture(b)
	s := schema(b, "Deploy", deployJSON)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := f.p.Issue(context.Background(), &Question{Schema: s, Message: "Deploy api to production?", Call: f.call}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestMemoryPerOpenPage reports the heap held by an open page in the
// memory store (question and bookkeeping), with -v.
func TestMemoryPerOpenPage(t *testing.T) {
	if testing.Short() {
		t.Skip("measures the heap")
	}
	const n = 5000
	store := NewMemoryStore()
	p, err := New(Config{Keys: seal.NewRandomKeyRing(), Store: store, BaseURL: "https://mcp.example.com/elicit/", LinkOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	s := schema(t, "Deploy", deployJSON)
	calls := make([]seal.Binding, n)
	for i := range calls {
		calls[i] = seal.BindCall("deploy_to_production", []byte(`{"service":"`+url.PathEscape(time.Duration(i).String())+`"}`), "alice@example.com")
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range calls {
		if _, err := p.Issue(context.Background(), &Question{Schema: s, Message: "Deploy api to production?", Call: calls[i]}); err != nil {
			t.Fatal(err)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	per := float64(after.HeapAlloc-before.HeapAlloc) / n
	t.Logf("memory per open page (Deploy form, memory store): %.0f bytes (%d pages)", per, store.Len())
	if per > 8<<10 {
		t.Errorf("an open page holds %.0f bytes, more than 8 KiB", per)
	}
}
