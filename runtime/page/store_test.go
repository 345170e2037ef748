package page

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime/seal"
)

// TestMemoryStoreBudgets: a client at its budget has its new pages
// refused (ErrClientPagesFull) while others' are stored, a full store
// refuses the newcomer (ErrPagesFull), and the pages already held are
// answered and taken as before; budgets free as pages expire.
func TestMemoryStoreBudgets(t *testing.T) {
	ctx := context.Background()
	c := &clock{t: time.Unix(1_800_000_000, 0)}
	m := &MemoryStore{Now: c.Now, Limit: 5, PerClient: 2}
	put := func(client, id string, until time.Duration) error {
		return m.Put(ctx, Record{ID: id, Client: client, Question: []byte("q"), Closes: c.Now().Add(until), Until: c.Now().Add(until)})
	}
	for _, id := range []string{"a1", "a2"} {
		if err := put("a", id, time.Minute); err != nil {
			t.Fatal(err)
		}
	}
	err := put("a", "a3", time.Minute)
	if !errors.Is(err, ErrClientPagesFull) || !errors.Is(err, ErrPagesFull) || !errors.Is(err, ErrStore) {
		t.Fatalf("a's page beyond its budget: %v; want ErrClientPagesFull", err)
	}
	if err := put("a", "a1", time.Minute); !errors.Is(err, ErrExists) {
		t.Fatalf("a page already held, at the budget: %v; want ErrExists", err)
	}
	for _, p := range [][2]string{{"b", "b1"}, {"b", "b2"}, {"", "x1"}} {
		if err := put(p[0], p[1], 2*time.Minute); err != nil {
			t.Fatalf("%q's page with a at its budget: %v", p[0], err)
		}
	}
	if err := put("c", "c1", time.Minute); !errors.Is(err, ErrPagesFull) || errors.Is(err, ErrClientPagesFull) {
		t.Fatalf("a newcomer with the store full: %v; want ErrPagesFull", err)
	}
	// The pages held still work: answered and taken.
	if err := m.Answer(ctx, "a1", []byte("yes")); err != nil {
		t.Fatalf("answer of a page held with the store full: %v", err)
	}
	if a, err := m.Take(ctx, "a1"); err != nil || string(a) != "yes" {
		t.Fatalf("take: %q, %v", a, err)
	}
	c.Add(time.Minute) // a's pages expire, b's stay
	if err := put("a", "a3", time.Minute); err != nil {
		t.Fatalf("a's page after its pages expired: %v", err)
	}
	if _, err := m.Get(ctx, "b1"); err != nil {
		t.Fatalf("b's page was dropped to make room: %v", err)
	}
	if m.Len() != 4 {
		t.Errorf("Len = %d, want 4 (a1, a2 dropped)", m.Len())
	}
}

// TestMemoryStoreCloses: the store refuses an answer past the page's
// closing time by its own clock (ErrExpired), though it keeps the page
// until Until.
func TestMemoryStoreCloses(t *testing.T) {
	ctx := context.Background()
	c := &clock{t: time.Unix(1_800_000_000, 0)}
	m := &MemoryStore{Now: c.Now}
	if err := m.Put(ctx, Record{ID: "p", Question: []byte("q"), Closes: c.Now().Add(time.Minute), Until: c.Now().Add(11 * time.Minute)}); err != nil {
		t.Fatal(err)
	}
	c.Add(time.Minute)
	if err := m.Answer(ctx, "p", []byte("yes")); !errors.Is(err, ErrExpired) {
		t.Fatalf("answer at the closing time: %v; want ErrExpired", err)
	}
	if e, err := m.Get(ctx, "p"); err != nil || e.Status != StatusOpen {
		t.Fatalf("the closed page: %+v, %v; want it kept, open", e, err)
	}
}

// TestIssueBoundsQuestion: a question larger than Config.MaxQuestion
// (here, by its message) is refused before anything is stored.
func TestIssueBoundsQuestion(t *testing.T) {
	f := newFixture(t)
	s := schema(t, "Deploy", deployJSON)
	_, err := f.p.Issue(context.Background(), &Question{Schema: s, Message: strings.Repeat("x", DefaultMaxQuestion), Call: f.call})
	if !errors.Is(err, ErrQuestionTooLarge) || f.store.Len() != 0 {
		t.Fatalf("a question over the bound: %v (%d pages stored); want ErrQuestionTooLarge and none", err, f.store.Len())
	}
	if _, err := f.p.Issue(context.Background(), &Question{Schema: s, Message: strings.Repeat("x", 4<<10), Call: f.call}); err != nil {
		t.Fatalf("a 4 KiB message: %v", err)
	}
}

// TestIssueBudgetPerClient: Pages counts a question against its
// Question.Client; one client filling its budget leaves another's
// approval issued, and answered.
func TestIssueBudgetPerClient(t *testing.T) {
	f := newFixture(t)
	f.store.Limit, f.store.PerClient = 10, 3
	s := schema(t, "Deploy", deployJSON)
	ctx := context.Background()
	for i := range 4 {
		_, err := f.p.Issue(ctx, &Question{Schema: s, Message: fmt.Sprint("spam ", i), Call: f.call, Client: "addr:192.0.2.66"})
		if i < 3 && err != nil || i == 3 && !errors.Is(err, ErrClientPagesFull) {
			t.Fatalf("page %d of one client: %v", i+1, err)
		}
	}
	l, err := f.p.Issue(ctx, &Question{Schema: s, Message: "Deploy api?", Call: f.call, Client: "principal:alice"})
	if err != nil {
		t.Fatalf("another client's page: %v", err)
	}
	cookies, csrf := f.open(t, l.URL)
	form := url.Values{"csrf": {csrf}, "action": {"accept"}, "environment": {"production"}, "confirmed": {"true"}}
	if rec := f.do(t, "POST", l.URL, "alice", cookies, form); rec.Code != http.StatusOK {
		t.Fatalf("answer: %d", rec.Code)
	}
}

// TestSlowClockCannotExtendPage: an instance whose clock runs five
// minutes behind the store's still shows a page that closed two minutes
// ago, but the store refuses its answer (410), deciding on its own
// clock (issue #39: such answers were accepted).
func TestSlowClockCannotExtendPage(t *testing.T) {
	c := &clock{t: time.Unix(1_800_000_000, 0)}
	store := &MemoryStore{Now: c.Now}
	keys := seal.NewRandomKeyRing()
	cfg := Config{Keys: keys, Store: store, BaseURL: "https://mcp.example.com/elicit/", TTL: 10 * time.Minute, Now: c.Now,
		Identity: func(r *http.Request) (string, bool) { u := r.Header.Get(userHeader); return u, u != "" }}
	issuer, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	slow := cfg
	slow.Now = func() time.Time { return c.Now().Add(-5 * time.Minute) }
	late, err := New(slow)
	if err != nil {
		t.Fatal(err)
	}
	call := seal.BindCall("deploy_to_production", []byte(`{"service":"api"}`), "alice")
	l, err := issuer.Issue(context.Background(), &Question{Schema: schema(t, "Deploy", deployJSON), Call: call})
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{p: late, store: store, clock: c, call: call}
	c.Add(12 * time.Minute)           // closed two minutes ago by the store's clock; the slow one says 7 of 10
	cookies, csrf := f.open(t, l.URL) // still shown by the slow instance
	form := url.Values{"csrf": {csrf}, "action": {"accept"}, "environment": {"production"}, "confirmed": {"true"}}
	if rec := f.do(t, "POST", l.URL, "alice", cookies, form); rec.Code != http.StatusGone {
		t.Fatalf("answer after the page closed, through a slow instance: %d; want 410", rec.Code)
	}
	if _, err := issuer.Take(context.Background(), l.ID, call); !errors.Is(err, ErrExpired) {
		t.Fatalf("take: %v; want ErrExpired", err)
	}
}

// TestMemoryStoreReviseCloses: a page past its closing time by the
// store's clock is not revised.
func TestMemoryStoreReviseCloses(t *testing.T) {
	ctx := context.Background()
	c := &clock{t: time.Unix(1_800_000_000, 0)}
	m := &MemoryStore{Now: c.Now}
	if err := m.Put(ctx, Record{ID: "p", Question: []byte("q"), Closes: c.Now().Add(time.Minute), Until: c.Now().Add(11 * time.Minute)}); err != nil {
		t.Fatal(err)
	}
	c.Add(time.Minute)
	if err := m.Revise(ctx, "p", 1, []byte("late")); !errors.Is(err, ErrExpired) {
		t.Fatalf("Revise at the closing time: %v; want ErrExpired", err)
	}
}
