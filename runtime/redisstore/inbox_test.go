package redisstore_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// TestIndex: the Redis Index files by principal and group, each id once,
// and skips an entry already past.
func TestIndex(t *testing.T) {
	s := pageStore(t)
	s.Prefix = "elicitgen-test:" + newID() + ":"
	ctx := context.Background()
	later := time.Now().Add(time.Hour)
	if err := s.File(ctx, "p1", []string{"bob", "carol"}, []string{"ops"}, later); err != nil {
		t.Fatal(err)
	}
	if err := s.File(ctx, "p2", []string{"carol"}, []string{"sec"}, later.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := s.File(ctx, "p0", []string{"bob"}, []string{"old"}, time.Now().Add(-time.Minute)); err != nil {
		t.Fatal(err)
	}
	check := func(who string, groups []string, want ...string) {
		t.Helper()
		got, err := s.Filed(ctx, who, groups)
		if err != nil || strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("Filed(%s, %v) = %v %v, want %v", who, groups, got, err, want)
		}
	}
	check("bob", nil, "p1")
	check("carol", []string{"ops"}, "p1", "p2")
	check("dave", []string{"sec"}, "p2")
	check("dave", nil)
	if gs, err := s.FiledGroups(ctx); err != nil || strings.Join(gs, ",") != "ops,sec" {
		t.Fatalf("FiledGroups: %v %v", gs, err)
	}
}

// TestInboxAcrossInstances: a question issued on one instance is in bob's
// and carol's inboxes on another; once carol has approved (quorum 2),
// hers no longer lists it and bob's says one approval is still needed.
func TestInboxAcrossInstances(t *testing.T) {
	keys := seal.NewRandomKeyRing()
	prefix := "elicitgen-test:" + newID() + ":"
	sa, sb := pageStore(t), pageStore(t)
	sa.Prefix, sb.Prefix = prefix, prefix
	a, b := newPages(t, keys, sa), newPages(t, keys, sb)
	s, err := runtime.ParseSchema("Deploy", []byte(deploySchema))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	l, err := a.Issue(ctx, &page.Question{Schema: s, Message: "Send?", Call: seal.BindCall("send_campaign", []byte(`{}`), "alice"),
		Approvers: &runtime.Approvers{Principals: []string{"alice", "bob", "carol"}, ExcludeRequester: true, Quorum: 2}})
	if err != nil {
		t.Fatal(err)
	}
	for _, who := range []string{"bob", "carol"} {
		if w, err := b.Inbox(ctx, who); err != nil || len(w) != 1 || w[0].Page != l.ID || w[0].Needed != 2 {
			t.Fatalf("%s's inbox: %+v %v", who, w, err)
		}
	}
	if w, err := b.Inbox(ctx, "alice"); err != nil || len(w) != 0 {
		t.Fatalf("the requester's inbox: %+v %v", w, err)
	}
	if rec := answerAs(b, l.URL, "carol", url.Values{"action": {"accept"}, "environment": {"production"}, "confirmed": {"true"}}); rec.Code != 200 {
		t.Fatalf("carol approves: %d %s", rec.Code, rec.Body)
	}
	if w, err := a.Inbox(ctx, "carol"); err != nil || len(w) != 0 {
		t.Fatalf("carol's inbox after she answered: %+v %v", w, err)
	}
	if w, err := a.Inbox(ctx, "bob"); err != nil || len(w) != 1 || w[0].Needed != 1 {
		t.Fatalf("bob's inbox: %+v %v", w, err)
	}
}
