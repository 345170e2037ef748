package page

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzPost posts arbitrary bodies to an open page: the handler never
// panics, answers with a status it documents, and records an answer only
// with the page's 200.
func FuzzPost(f *testing.F) {
	fx := newFixture(f)
	s := schema(f, "Enums", enumsJSON)
	for _, seed := range []string{
		"action=accept&count=3&tags=a",
		"action=accept&count=3.5&tags=a&tags=a&ratio=1e400",
		"action=decline",
		"action=accept&count=%ZZ",
		"action=accept&count=-0&tags=&when=2026-13-01&code=%00%ff",
		"action=accept&action=decline&count=1&tags=b",
		"&&&==&count=99999999999999999999&tags=c",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, body string) {
		l, err := fx.p.Issue(context.Background(), &Question{Schema: s, Call: fx.call})
		if err != nil {
			t.Fatal(err)
		}
		cookies, csrf := fx.open(t, l.URL)
		req := httptest.NewRequest("POST", l.URL, strings.NewReader("csrf="+csrf+"&"+body))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set(userHeader, "alice")
		req.AddCookie(cookies[0])
		rec := httptest.NewRecorder()
		fx.p.ServeHTTP(rec, req)
		e, err := fx.store.Get(context.Background(), l.ID)
		if err != nil {
			t.Fatal(err)
		}
		switch rec.Code {
		case http.StatusOK:
			if e.Status != StatusAnswered {
				t.Fatalf("200 without an answer: %q", body)
			}
			resp, err := fx.p.Take(context.Background(), l.ID, fx.call)
			if err != nil {
				t.Fatal(err)
			}
			if resp.Action == "accept" {
				if err := s.CheckAnswer(resp.Content); err != nil {
					t.Fatalf("recorded an invalid answer %v: %v", resp.Content, err)
				}
			}
		case http.StatusUnprocessableEntity, http.StatusBadRequest, http.StatusForbidden, http.StatusRequestEntityTooLarge:
			if e.Status != StatusOpen {
				t.Fatalf("%d, and the page changed: %q", rec.Code, body)
			}
		default:
			t.Fatalf("status %d for %q", rec.Code, body)
		}
	})
}
