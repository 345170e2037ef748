package redisstore_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// answerAs opens link on p as user and posts form (its csrf set), and
// returns the post's response; the GET's when it shows no form.
func answerAs(p http.Handler, link, user string, form url.Values) *httptest.ResponseRecorder {
	get := httptest.NewRequest("GET", link, nil)
	get.Header.Set("X-User", user)
	rec := httptest.NewRecorder()
	p.ServeHTTP(rec, get)
	m := csrfField.FindStringSubmatch(rec.Body.String())
	if rec.Code != 200 || m == nil {
		return rec
	}
	f := url.Values{}
	for k, v := range form {
		f[k] = v
	}
	f.Set("csrf", m[1])
	post := httptest.NewRequest("POST", link, strings.NewReader(f.Encode()))
	post.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	post.Header.Set("X-User", user)
	for _, c := range rec.Result().Cookies() {
		post.AddCookie(c)
	}
	rec = httptest.NewRecorder()
	p.ServeHTTP(rec, post)
	return rec
}

// TestQuorumAcrossInstances: two of three approvers through Redis, on
// different instances: the requester is refused, the same approver twice
// counts once, and the second distinct approver answers the page.
func TestQuorumAcrossInstances(t *testing.T) {
	keys := seal.NewRandomKeyRing()
	a, b, c := newPages(t, keys, pageStore(t)), newPages(t, keys, pageStore(t)), newPages(t, keys, pageStore(t))
	s, err := runtime.ParseSchema("Deploy", []byte(deploySchema))
	if err != nil {
		t.Fatal(err)
	}
	call := seal.BindCall("send_campaign", []byte(`{"campaign":"spring"}`), "alice")
	ctx := context.Background()
	l, err := a.Issue(ctx, &page.Question{Schema: s, Message: "Send?", Call: call,
		Approvers: &runtime.Approvers{Principals: []string{"alice", "bob", "carol"}, ExcludeRequester: true, Quorum: 2}})
	if err != nil {
		t.Fatal(err)
	}
	yes := url.Values{"action": {"accept"}, "environment": {"production"}, "confirmed": {"true"}}
	if rec := answerAs(b, l.URL, "alice", yes); rec.Code != http.StatusForbidden {
		t.Fatalf("the requester: %d", rec.Code)
	}
	if rec := answerAs(b, l.URL, "bob", yes); rec.Code != 200 || !strings.Contains(rec.Body.String(), "1 of 2") {
		t.Fatalf("bob on b: %d %s", rec.Code, rec.Body)
	}
	if rec := answerAs(c, l.URL, "bob", yes); rec.Code != http.StatusConflict {
		t.Fatalf("bob again on c: %d", rec.Code)
	}
	if _, err := a.Take(ctx, l.ID, call); !errors.Is(err, page.ErrNotAnswered) {
		t.Fatalf("take after one approver: %v", err)
	}
	if got, need, err := a.Approvals(ctx, l.ID); got != 1 || need != 2 || err != nil {
		t.Fatalf("approvals: %d of %d, %v", got, need, err)
	}
	if rec := answerAs(c, l.URL, "carol", yes); rec.Code != 200 {
		t.Fatalf("carol on c: %d %s", rec.Code, rec.Body)
	}
	resp, err := a.Take(ctx, l.ID, call)
	if err != nil || resp.Action != runtime.ActionAccept {
		t.Fatalf("take: %+v %v", resp, err)
	}
}
