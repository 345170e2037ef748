package page

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
)

// openAs GETs the page as user and returns its cookies and CSRF token.
func (f *fixture) openAs(t testing.TB, link, user string) ([]*http.Cookie, string) {
	t.Helper()
	rec := f.do(t, "GET", link, user, nil, nil)
	if rec.Code != 200 {
		t.Fatalf("GET as %s: %d %s", user, rec.Code, rec.Body)
	}
	m := csrfField.FindStringSubmatch(rec.Body.String())
	if m == nil {
		t.Fatalf("no csrf field in %s", rec.Body)
	}
	return rec.Result().Cookies(), m[1]
}

func (f *fixture) issueFor(t testing.TB, p *runtime.Approvers) *Link {
	t.Helper()
	l, err := f.p.Issue(context.Background(), &Question{Schema: schema(t, "Deploy", deployJSON), Message: "Deploy api to production?", Call: f.call, Approvers: p})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// approve posts an approval of link as user and returns the response.
func (f *fixture) approve(t testing.TB, link, user, action string) (int, string) {
	t.Helper()
	cookies, csrf := f.openAs(t, link, user)
	form := deployPost(csrf, "environment", "production", "confirmed", "true")
	form.Set("action", action)
	rec := f.do(t, "POST", link, user, cookies, form)
	return rec.Code, rec.Body.String()
}

var excluding = &runtime.Approvers{Principals: []string{"alice", "bob", "carol"}, ExcludeRequester: true}

func TestRequesterCannotApprove(t *testing.T) {
	f := newFixture(t) // the call's principal, the requester, is alice
	l := f.issueFor(t, excluding)
	// The requester's own form: the page refuses to show it...
	rec := f.do(t, "GET", l.URL, "alice", nil, nil)
	if rec.Code != http.StatusForbidden || !strings.Contains(rec.Body.String(), "You asked for this action, so you cannot approve it yourself") {
		t.Fatalf("GET as requester: %d %s", rec.Code, rec.Body)
	}
	// ...and a post with a form and token obtained by an approver is
	// refused the same way, recording nothing.
	cookies, csrf := f.openAs(t, l.URL, "bob")
	rec = f.do(t, "POST", l.URL, "alice", cookies, deployPost(csrf, "environment", "production", "confirmed", "true"))
	if rec.Code != http.StatusForbidden || !strings.Contains(rec.Body.String(), "Your answer was not counted") {
		t.Fatalf("POST as requester: %d %s", rec.Code, rec.Body)
	}
	if _, err := f.p.Take(context.Background(), l.ID, f.call); !errors.Is(err, ErrNotAnswered) {
		t.Fatalf("after the requester's post: %v, want not answered", err)
	}
	if f.store.Len() != 1 {
		t.Fatalf("store holds %d records, want the page alone", f.store.Len())
	}
	if err := f.p.Admit(context.Background(), l.ID, "alice"); !errors.Is(err, runtime.ErrRequesterExcluded) {
		t.Fatalf("Admit(requester): %v", err)
	}
	// Someone not named is refused too; an approver answers.
	if rec := f.do(t, "GET", l.URL, "mallory", nil, nil); rec.Code != http.StatusForbidden || !strings.Contains(rec.Body.String(), "not one of the people") {
		t.Fatalf("GET as a stranger: %d %s", rec.Code, rec.Body)
	}
	if rec := f.do(t, "GET", l.URL, "bob", nil, nil); !strings.Contains(rec.Body.String(), "alice asked for this action; you are asked to approve it.") {
		t.Errorf("the approver's page does not say who asked:\n%s", rec.Body)
	}
	if code, body := f.approve(t, l.URL, "bob", "accept"); code != 200 {
		t.Fatalf("bob: %d %s", code, body)
	}
	resp, err := f.p.Take(context.Background(), l.ID, f.call)
	if err != nil || resp.Action != runtime.ActionAccept || !slices.Equal(resp.Approvers, []string{"bob"}) {
		t.Fatalf("take: %+v %v", resp, err)
	}
}

func TestApproverOfAnotherQuestion(t *testing.T) {
	f := newFixture(t)
	onlyCarol := f.issueFor(t, &runtime.Approvers{Principals: []string{"carol"}, ExcludeRequester: true})
	// bob approves questions naming him, not this one.
	if rec := f.do(t, "GET", onlyCarol.URL, "bob", nil, nil); rec.Code != http.StatusForbidden {
		t.Fatalf("GET as bob: %d", rec.Code)
	}
	cookies, csrf := f.openAs(t, onlyCarol.URL, "carol")
	if rec := f.do(t, "POST", onlyCarol.URL, "bob", cookies, deployPost(csrf, "environment", "production", "confirmed", "true")); rec.Code != http.StatusForbidden {
		t.Fatalf("POST as bob: %d", rec.Code)
	}
	if _, err := f.p.Take(context.Background(), onlyCarol.ID, f.call); !errors.Is(err, ErrNotAnswered) {
		t.Fatalf("take: %v", err)
	}
}

func TestGroupsThroughMember(t *testing.T) {
	f := newFixture(t)
	f.p.cfg.Member = func(_ context.Context, who, group string) (bool, error) {
		return group == "ops" && (who == "dave" || who == "alice"), nil
	}
	l := f.issueFor(t, &runtime.Approvers{Groups: []string{"ops"}, ExcludeRequester: true})
	if rec := f.do(t, "GET", l.URL, "alice", nil, nil); rec.Code != http.StatusForbidden {
		t.Fatalf("requester in the group: %d", rec.Code)
	}
	if rec := f.do(t, "GET", l.URL, "bob", nil, nil); rec.Code != http.StatusForbidden {
		t.Fatalf("bob, not in the group: %d", rec.Code)
	}
	if code, _ := f.approve(t, l.URL, "dave", "accept"); code != 200 {
		t.Fatalf("dave: %d", code)
	}
}

func TestQuorumTwoOfThree(t *testing.T) {
	f := newFixture(t)
	p := *excluding
	p.Quorum = 2
	l := f.issueFor(t, &p)
	ctx := context.Background()
	code, body := f.approve(t, l.URL, "bob", "accept")
	if code != 200 || !strings.Contains(body, "1 of 2 approvals") {
		t.Fatalf("bob: %d %s", code, body)
	}
	if _, err := f.p.Take(ctx, l.ID, f.call); !errors.Is(err, ErrNotAnswered) {
		t.Fatalf("one approval answered the page: %v", err)
	}
	if got, need, err := f.p.Approvals(ctx, l.ID); got != 1 || need != 2 || err != nil {
		t.Fatalf("approvals %d of %d, %v", got, need, err)
	}
	// The same approver again counts once: refused, never an approval.
	if rec := f.do(t, "GET", l.URL, "bob", nil, nil); rec.Code != http.StatusConflict || !strings.Contains(rec.Body.String(), "counts once") {
		t.Fatalf("bob again: %d %s", rec.Code, rec.Body)
	}
	cookies, csrf := f.openAs(t, l.URL, "carol")
	form := deployPost(csrf, "environment", "production", "confirmed", "true")
	if rec := f.do(t, "POST", l.URL, "bob", cookies, form); rec.Code != http.StatusConflict {
		t.Fatalf("bob posting again: %d %s", rec.Code, rec.Body)
	}
	if _, err := f.p.Take(ctx, l.ID, f.call); !errors.Is(err, ErrNotAnswered) {
		t.Fatalf("bob twice answered the page: %v", err)
	}
	if got, _, _ := f.p.Approvals(ctx, l.ID); got != 1 {
		t.Fatalf("approvals after bob twice: %d", got)
	}
	// A second, distinct approver completes it.
	if rec := f.do(t, "POST", l.URL, "carol", cookies, form); rec.Code != 200 {
		t.Fatalf("carol: %d %s", rec.Code, rec.Body)
	}
	resp, err := f.p.Take(ctx, l.ID, f.call)
	if err != nil || resp.Action != runtime.ActionAccept || resp.Content["environment"] != "production" || !slices.Equal(resp.Approvers, []string{"bob", "carol"}) {
		t.Fatalf("take: %+v %v", resp, err)
	}
}

func TestOneDeclineEndsIt(t *testing.T) {
	f := newFixture(t)
	p := *excluding
	p.Quorum = 2
	l := f.issueFor(t, &p)
	if code, _ := f.approve(t, l.URL, "bob", "accept"); code != 200 {
		t.Fatalf("bob: %d", code)
	}
	if code, body := f.approve(t, l.URL, "carol", "decline"); code != 200 {
		t.Fatalf("carol: %d %s", code, body)
	}
	resp, err := f.p.Take(context.Background(), l.ID, f.call)
	if err != nil || resp.Action != runtime.ActionDecline || !slices.Equal(resp.Approvers, []string{"carol"}) {
		t.Fatalf("take: %+v %v, want a decline", resp, err)
	}
}

func TestIssueApproversNeedsIdentity(t *testing.T) {
	p, err := New(Config{Keys: newFixture(t).p.cfg.Keys, BaseURL: "https://mcp.example.com/elicit/", LinkOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Issue(context.Background(), &Question{Schema: schema(t, "Deploy", deployJSON), Approvers: excluding})
	if err == nil || !strings.Contains(err.Error(), "Identity") {
		t.Fatalf("issue without identity: %v", err)
	}
	if _, err := newFixture(t).p.Issue(context.Background(), &Question{Schema: schema(t, "Deploy", deployJSON), Call: newFixture(t).call, Approvers: &runtime.Approvers{}}); !errors.Is(err, runtime.ErrInvalidApprovers) {
		t.Fatalf("empty policy: %v", err)
	}
}

// Every approval of a quorum approves one answer: an approval that
// differs from the first is refused and records nothing, so that the
// approver can still approve the same answer, or decline.
func TestQuorumApprovesOneAnswer(t *testing.T) {
	f := newFixture(t)
	p := *excluding
	p.Quorum = 2
	l := f.issueFor(t, &p)
	if code, _ := f.approve(t, l.URL, "bob", "accept"); code != 200 {
		t.Fatalf("bob: %d", code)
	}
	cookies, csrf := f.openAs(t, l.URL, "carol")
	other := deployPost(csrf, "environment", "staging", "confirmed", "true")
	if rec := f.do(t, "POST", l.URL, "carol", cookies, other); rec.Code != http.StatusConflict || !strings.Contains(rec.Body.String(), "differs") {
		t.Fatalf("carol, another answer: %d %s", rec.Code, rec.Body)
	}
	if _, err := f.p.Take(context.Background(), l.ID, f.call); !errors.Is(err, ErrNotAnswered) {
		t.Fatalf("a differing approval answered the page: %v", err)
	}
	if code, body := f.approve(t, l.URL, "carol", "accept"); code != 200 {
		t.Fatalf("carol, the same answer: %d %s", code, body)
	}
	resp, err := f.p.Take(context.Background(), l.ID, f.call)
	if err != nil || resp.Content["environment"] != "production" {
		t.Fatalf("take: %+v %v", resp, err)
	}
}

// Every refusal by who answered reaches Config.Refused, and none is an
// answer.
func TestRefusalsRecorded(t *testing.T) {
	f := newFixture(t)
	var got []Refusal
	f.p.cfg.Refused = func(_ context.Context, r Refusal) { got = append(got, r) }
	p := *excluding
	p.Quorum = 2
	l := f.issueFor(t, &p)
	f.do(t, "GET", l.URL, "alice", nil, nil)   // the requester
	f.do(t, "GET", l.URL, "mallory", nil, nil) // not named
	f.approve(t, l.URL, "bob", "accept")
	f.do(t, "GET", l.URL, "bob", nil, nil) // bob again
	cookies, csrf := f.openAs(t, l.URL, "carol")
	f.do(t, "POST", l.URL, "carol", cookies, deployPost(csrf, "environment", "staging", "confirmed", "true")) // differs
	want := []struct {
		who string
		err error
	}{{"alice", runtime.ErrRequesterExcluded}, {"mallory", runtime.ErrNotApprover}, {"bob", ErrAnswered}, {"carol", ErrDiffers}}
	if len(got) != len(want) {
		t.Fatalf("refusals %+v, want %d", got, len(want))
	}
	for i, w := range want {
		if got[i].Who != w.who || !errors.Is(got[i].Err, w.err) || got[i].Requester != "alice" || got[i].Page != l.ID || got[i].Tool != "deploy_to_production" {
			t.Errorf("refusal %d: %+v, want %s %v", i, got[i], w.who, w.err)
		}
	}
	if _, err := f.p.Take(context.Background(), l.ID, f.call); !errors.Is(err, ErrNotAnswered) {
		t.Fatalf("take: %v", err)
	}
}

// Concurrent posts by one approver count once; concurrent approvals by
// two distinct approvers answer a quorum of two exactly once.
func TestQuorumConcurrent(t *testing.T) {
	f := newFixture(t)
	p := *excluding
	p.Quorum = 2
	l := f.issueFor(t, &p)
	post := func(user string) func() int {
		cookies, csrf := f.openAs(t, l.URL, user)
		form := deployPost(csrf, "environment", "production", "confirmed", "true")
		return func() int { return f.do(t, "POST", l.URL, user, cookies, form).Code }
	}
	bobs := []func() int{post("bob"), post("bob"), post("bob"), post("bob")}
	codes := make(chan int, len(bobs))
	var wg sync.WaitGroup
	for _, b := range bobs {
		wg.Go(func() { codes <- b() })
	}
	wg.Wait()
	close(codes)
	ok := 0
	for c := range codes {
		if c == 200 {
			ok++
		}
	}
	if ok != 1 {
		t.Fatalf("%d of bob's concurrent posts counted, want 1", ok)
	}
	if _, err := f.p.Take(context.Background(), l.ID, f.call); !errors.Is(err, ErrNotAnswered) {
		t.Fatalf("bob alone answered a quorum of two: %v", err)
	}
	carol := post("carol")
	if code := carol(); code != 200 {
		t.Fatalf("carol: %d", code)
	}
	resp, err := f.p.Take(context.Background(), l.ID, f.call)
	if err != nil || !slices.Equal(resp.Approvers, []string{"bob", "carol"}) {
		t.Fatalf("take: %+v %v", resp, err)
	}
}

// TestRefusalReason: each kind of refusal has its word, and one of no
// known kind is "other", never read as a kind it is not.
func TestRefusalReason(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{runtime.ErrRequesterExcluded, ReasonRequester},
		{runtime.ErrNotApprover, ReasonNotApprover},
		{ErrAnswered, ReasonTwice},
		{ErrDiffers, ReasonDiffers},
		{ErrStepUp, ReasonStepUp},
		{ErrForeign, ReasonForeignLink},
		{runtime.ErrInvalidApprovers, ReasonInvalidPolicy},
		{errors.New("something else"), ReasonOther},
	} {
		if got := (Refusal{Err: c.err}).Reason(); got != c.want {
			t.Errorf("Reason of %v = %q, want %q", c.err, got, c.want)
		}
	}
}
