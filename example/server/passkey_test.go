package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

func TestCheckPasskey(t *testing.T) {
	for _, tc := range []struct {
		on, pages, identity, cgi bool
		err                      string
	}{
		{},
		{on: true, pages: true, identity: true},
		{on: true, identity: true, err: "--pages"},
		{on: true, pages: true, err: TrustedUserHeaderEnv},
		{on: true, pages: true, identity: true, cgi: true, err: "--http"},
	} {
		err := checkPasskey(tc.on, tc.pages, tc.identity, tc.cgi)
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%+v: %v, want %q", tc, err, tc.err)
		}
	}
}

// With ELICIT_PASSKEY the pages' handler serves the registration page
// beside the pages, and the pages check step-ups.
func TestPagesWithPasskey(t *testing.T) {
	t.Setenv(PageBaseURLEnv, "http://localhost:8080/elicit/")
	identity := func(r *http.Request) (string, bool) { u := r.Header.Get("X-User"); return u, u != "" }
	_, h, err := newPages(seal.NewRandomKeyRing(), page.NewMemoryStore(), nil, true, identity, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest("GET", "http://localhost:8080/elicit/passkey/register", nil)
	req.Header.Set("X-User", "alice")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `<strong id="who">alice</strong>`) {
		t.Fatalf("registration page: %d\n%s", rec.Code, rec.Body)
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "http://localhost:8080/elicit/not-a-token", nil))
	if rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), "not valid") {
		t.Fatalf("a page link: %d\n%s", rec.Code, rec.Body)
	}
	// Without ELICIT_PASSKEY, the handler is the pages alone.
	plain, h, err := newPages(seal.NewRandomKeyRing(), page.NewMemoryStore(), nil, true, identity, false, nil)
	if err != nil || h != http.Handler(plain) {
		t.Fatalf("without passkeys: %v, %T", err, h)
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusNotFound {
		t.Fatalf("registration page without passkeys: %d", rec.Code)
	}
}
