package webhook_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/page/webhook"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

const deployJSON = `{"type":"object","properties":{"confirmed":{"type":"boolean","title":"I confirm this deploy"}},"required":["confirmed"]}`

// receiver is a webhook endpoint that verifies each delivery with the
// Standard Webhooks library and keeps the payloads that verify.
type receiver struct {
	mu       sync.Mutex
	got      []webhook.Payload
	bodies   []string
	rejected int
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	v, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		panic(err)
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if err := v.Verify(body, r.Header); err != nil {
		rc.rejected++
		http.Error(w, err.Error(), http.StatusUnauthorized)
		return
	}
	var p webhook.Payload
	if err := json.Unmarshal(body, &p); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	rc.got, rc.bodies = append(rc.got, p), append(rc.bodies, string(body))
}

func newPages(t *testing.T, n page.Notifier, failed *[]error) *page.Pages {
	t.Helper()
	p, err := page.New(page.Config{
		Keys: seal.NewRandomKeyRing(), BaseURL: "https://mcp.example.com/elicit/",
		Identity: func(r *http.Request) (string, bool) { u := r.Header.Get("X-User"); return u, u != "" },
		Notify:   n,
		NotifyFailed: func(_ context.Context, _ page.Notice, err error) {
			*failed = append(*failed, err)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func get(p *page.Pages, link, user string) *httptest.ResponseRecorder {
	req := httptest.NewRequest("GET", link, nil)
	req.Header.Set("X-User", user)
	rec := httptest.NewRecorder()
	p.ServeHTTP(rec, req)
	return rec
}

func TestSignedLinkWorksOnce(t *testing.T) {
	rc := &receiver{}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	wh, err := webhook.New(srv.URL, secret)
	if err != nil {
		t.Fatal(err)
	}
	var failed []error
	p := newPages(t, wh, &failed)
	s, err := runtime.ParseSchema("Deploy", []byte(deployJSON))
	if err != nil {
		t.Fatal(err)
	}
	call := seal.BindCall("deploy", []byte(`{"service":"api"}`), "alice")
	l, err := p.Issue(context.Background(), &page.Question{Schema: s, Message: "Deploy api?", Call: call,
		Approvers: &runtime.Approvers{Principals: []string{"alice", "bob", "carol"}, ExcludeRequester: true}})
	if err != nil {
		t.Fatal(err)
	}
	if len(failed) != 0 || rc.rejected != 0 {
		t.Fatalf("failed deliveries %v, rejected %d", failed, rc.rejected)
	}
	// One signed notice per allowed approver: bob and carol, not the
	// excluded requester.
	if len(rc.got) != 2 || rc.got[0].Data.Approver != "bob" || rc.got[1].Data.Approver != "carol" {
		t.Fatalf("notices: %+v", rc.got)
	}
	for i, body := range rc.bodies {
		if strings.Contains(body, secret) || strings.Contains(body, strings.TrimPrefix(secret, "whsec_")) {
			t.Fatalf("the secret travels in body %d: %s", i, body)
		}
	}
	n := rc.got[0]
	if n.Type != webhook.EventType || n.Data.Page != l.ID || n.Data.Tool != "deploy" || n.Data.Requester != "alice" || n.Data.Need != 1 || !n.Data.Expires.Equal(l.Expires) {
		t.Fatalf("notice: %+v, link %+v", n, l)
	}
	if n.Data.Link == l.URL || !strings.HasPrefix(n.Data.Link, "https://mcp.example.com/elicit/once/") {
		t.Fatalf("link %q is not a one-time link", n.Data.Link)
	}
	// Someone else holding bob's link is refused, and that does not use it.
	if rec := get(p, n.Data.Link, "mallory"); rec.Code != http.StatusForbidden {
		t.Fatalf("bob's link as mallory: %d", rec.Code)
	}
	// Bob's link leads bob to the page, once.
	rec := get(p, n.Data.Link, "bob")
	loc := rec.Header().Get("Location")
	if rec.Code != http.StatusSeeOther || !strings.HasPrefix(loc, "/elicit/") {
		t.Fatalf("first use: %d %q", rec.Code, loc)
	}
	if rec := get(p, "https://mcp.example.com"+loc, "bob"); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `name="csrf"`) {
		t.Fatalf("the page the link leads to: %d %s", rec.Code, rec.Body)
	}
	if rec := get(p, n.Data.Link, "bob"); rec.Code != http.StatusGone || !strings.Contains(rec.Body.String(), "used already") {
		t.Fatalf("second use: %d %s", rec.Code, rec.Body)
	}
	// Carol's link is her own, unused.
	if rec := get(p, rc.got[1].Data.Link, "carol"); rec.Code != http.StatusSeeOther {
		t.Fatalf("carol's link: %d", rec.Code)
	}
	// A tampered link does not open.
	if rec := get(p, n.Data.Link[:len(n.Data.Link)-2]+"xx", "bob"); rec.Code != http.StatusNotFound {
		t.Fatalf("tampered link: %d", rec.Code)
	}
}

func TestBadSignatureRejected(t *testing.T) {
	rc := &receiver{}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	wh, err := webhook.New(srv.URL, "whsec_"+strings.Repeat("QUJD", 8)) // another key
	if err != nil {
		t.Fatal(err)
	}
	err = wh.Notify(context.Background(), page.Notice{Page: "p", Approver: "bob", Link: "https://x/once/t"})
	if !errors.Is(err, webhook.ErrDelivery) || rc.rejected != 1 {
		t.Fatalf("delivery under another key: %v, rejected %d", err, rc.rejected)
	}
}

func TestNewRefusesBadConfig(t *testing.T) {
	for _, c := range []struct{ url, secret string }{
		{"http://hooks.example.com/x", secret},        // http off loopback
		{"https://hooks.example.com/x", ""},           // no secret
		{"https://hooks.example.com/x", "whsec_!!!!"}, // not base64
		{"ftp://hooks.example.com/x", secret},         // not http(s)
	} {
		if _, err := webhook.New(c.url, c.secret); !errors.Is(err, webhook.ErrConfig) {
			t.Errorf("New(%q, %q): %v, want ErrConfig", c.url, c.secret, err)
		}
	}
}
