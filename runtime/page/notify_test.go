package page

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// notifyFixture is a fixture whose pages record the notices they send
// and the failures; fail, when set, fails the notice of that approver.
type notifyFixture struct {
	*fixture
	sent   []Notice
	failed []error
	fail   string
}

func newNotifyFixture(t *testing.T, members map[string][]string) *notifyFixture {
	t.Helper()
	f := &notifyFixture{fixture: newFixture(t)}
	p, err := New(Config{
		Keys: seal.NewRandomKeyRing(), Store: f.store, BaseURL: "https://mcp.example.com/elicit/", Now: f.clock.Now,
		Identity: func(r *http.Request) (string, bool) { u := r.Header.Get(userHeader); return u, u != "" },
		Member: func(_ context.Context, who, g string) (bool, error) {
			for _, m := range members[g] {
				if m == who {
					return true, nil
				}
			}
			return false, nil
		},
		Members: func(_ context.Context, g string) ([]string, error) {
			if g == "broken" {
				return nil, errors.New("directory down")
			}
			return members[g], nil
		},
		Notify: NotifierFunc(func(_ context.Context, n Notice) error {
			if n.Approver == f.fail {
				return errors.New("mailbox full")
			}
			f.sent = append(f.sent, n)
			return nil
		}),
		NotifyFailed: func(_ context.Context, _ Notice, err error) { f.failed = append(f.failed, err) },
	})
	if err != nil {
		t.Fatal(err)
	}
	f.p = p
	return f
}

func approvers(ns []Notice) string {
	var s []string
	for _, n := range ns {
		s = append(s, n.Approver)
	}
	return strings.Join(s, ",")
}

// TestNotifyOncePerApprover: principals and group members, each once,
// less the excluded requester; a failed notice does not fail the issue;
// issuing the same page again sends nothing.
func TestNotifyOncePerApprover(t *testing.T) {
	f := newNotifyFixture(t, map[string][]string{"ops": {"dave", "bob", "alice"}})
	f.fail = "erin"
	q := &Question{ID: "deploy-1", Schema: schema(t, "Deploy", deployJSON), Message: "Deploy?", Call: f.call,
		Approvers: &runtime.Approvers{Principals: []string{"alice", "bob", "erin"}, Groups: []string{"ops", "broken"}, ExcludeRequester: true}}
	l, err := f.p.Issue(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if got := approvers(f.sent); got != "bob,dave" {
		t.Fatalf("notified %q, want bob,dave (erin's failed)", got)
	}
	if len(f.failed) != 2 { // the broken group's members, erin's notice
		t.Fatalf("failures heard: %v", f.failed)
	}
	n := f.sent[0]
	if n.Page != l.ID || n.Tool != "deploy_to_production" || n.Requester != "alice" || n.Message != "Deploy?" || n.Need != 1 || !n.Expires.Equal(l.Expires) {
		t.Fatalf("notice %+v", n)
	}
	if _, err := f.p.Issue(context.Background(), q); err != nil || len(f.sent) != 2 {
		t.Fatalf("issued again: %v, %d notices", err, len(f.sent))
	}
	// dave's link, a group member's, leads dave to the page once.
	if rec := f.do(t, "GET", f.sent[1].Link, "dave", nil, nil); rec.Code != http.StatusSeeOther {
		t.Fatalf("dave's link: %d %s", rec.Code, rec.Body)
	}
	if rec := f.do(t, "GET", f.sent[1].Link, "dave", nil, nil); rec.Code != http.StatusGone {
		t.Fatalf("dave's link again: %d", rec.Code)
	}
	// A link is refused without a signed-in person (which does not use
	// it), and after its page closed.
	if rec := f.do(t, "GET", n.Link, "", nil, nil); rec.Code != http.StatusUnauthorized {
		t.Fatalf("bob's link signed out: %d", rec.Code)
	}
	if rec := f.do(t, "POST", n.Link, "bob", nil, nil); rec.Code != http.StatusMethodNotAllowed {
		t.Fatalf("POST to bob's link: %d", rec.Code)
	}
	f.clock.t = f.clock.t.Add(16 * time.Minute)
	if rec := f.do(t, "GET", n.Link, "bob", nil, nil); rec.Code != http.StatusGone || strings.Contains(rec.Body.String(), "used already") {
		t.Fatalf("bob's link after the page closed: %d %s", rec.Code, rec.Body)
	}
}

// TestNoNoticeWithoutApprovers: a page without a policy notifies nobody.
func TestNoNoticeWithoutApprovers(t *testing.T) {
	f := newNotifyFixture(t, nil)
	if _, err := f.p.Issue(context.Background(), &Question{Schema: schema(t, "Deploy", deployJSON), Call: f.call}); err != nil {
		t.Fatal(err)
	}
	if len(f.sent)+len(f.failed) != 0 {
		t.Fatalf("notices %v, failures %v", f.sent, f.failed)
	}
}
