package page

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
)

// TestAnswerKeptWhenNoCallWaits: an answer no call waits for is not
// "sent": the page says, in the person's language, that it is kept, until
// when, and that the same request made again uses it; while a call holds
// the page it is sent. Released, the mark is gone.
func TestAnswerKeptWhenNoCallWaits(t *testing.T) {
	for _, c := range []struct {
		lang, kept, heading, sent string
	}{
		{"", "Your answer is saved, but nothing has been done yet: the request that asked for it is no longer waiting. " +
			"Go back to your assistant and ask it to make the same request again; that request uses your answer. " +
			"Your answer is kept until 08:25 UTC on 15 January 2027.", "<h1>Answer saved, not used yet</h1>", "your answer was sent"},
		{"ja", "まだ何も実行されていません。この回答を求めた依頼はもう待機していません。" +
			"アシスタントに戻り、同じ依頼をもう一度するよう伝えてください。その依頼であなたの回答が使われます。" +
			"回答は2027年1月15日 08:25 UTCまで保存されます。", "<h1>回答を保存しました（未反映）</h1>", "回答を送信しました。"},
	} {
		t.Run("lang="+c.lang, func(t *testing.T) {
			f := newFixture(t)
			issue := func() *Link {
				l, err := f.p.Issue(context.Background(), &Question{Schema: schema(t, "Deploy", deployJSON), Preference: c.lang, Call: f.call})
				if err != nil {
					t.Fatal(err)
				}
				return l
			}
			post := func(l *Link) string {
				cookies, csrf := f.open(t, l.URL)
				rec := f.do(t, "POST", l.URL, "alice", cookies, deployPost(csrf, "environment", "staging", "confirmed", "true"))
				if rec.Code != http.StatusOK {
					t.Fatalf("post: %d %s", rec.Code, rec.Body)
				}
				return rec.Body.String()
			}
			// No call waits (the link, or a call whose client gave up).
			body := post(issue())
			if !strings.Contains(body, c.kept) || !strings.Contains(body, c.heading) || strings.Contains(body, c.sent) {
				t.Errorf("no call waits: want %q under %s:\n%s", c.kept, c.heading, body)
			}
			// A call waits: sent.
			l := issue()
			release := f.p.Hold(context.Background(), l.ID)
			if body := post(l); !strings.Contains(body, c.sent) || strings.Contains(body, c.kept) {
				t.Errorf("a call waits: want %q:\n%s", c.sent, body)
			}
			release()
			// Released before the answer: kept.
			l = issue()
			f.p.Hold(context.Background(), l.ID)()
			if body := post(l); !strings.Contains(body, c.kept) {
				t.Errorf("the call stopped waiting: want %q:\n%s", c.kept, body)
			}
		})
	}
}

// TestHoldLapses: the mark of a call whose process ended (never
// released) lapses after HoldLease, and the page says the answer is kept.
func TestHoldLapses(t *testing.T) {
	f := newFixture(t)
	l := f.issue(t, schema(t, "Deploy", deployJSON))
	ctx, cancel := context.WithCancel(context.Background())
	_ = f.p.Hold(ctx, l.ID) // never released
	cancel()                // the renewing goroutine ends, as with the process
	if held, _ := f.store.Waiting(context.Background(), l.ID); !held {
		t.Fatal("no mark right after Hold")
	}
	f.clock.Add(HoldLease + time.Second)
	if held, _ := f.store.Waiting(context.Background(), l.ID); held {
		t.Fatal("the mark outlived its lease")
	}
	cookies, csrf := f.open(t, l.URL)
	body := f.do(t, "POST", l.URL, "alice", cookies, deployPost(csrf, "environment", "staging", "confirmed", "true")).Body.String()
	if !strings.Contains(body, "the request that asked for it is no longer waiting") {
		t.Errorf("after the lease:\n%s", body)
	}
}

// TestApprovalKept: an approval says it takes effect when the requester,
// named, makes the request again, not that anything was sent.
func TestApprovalKept(t *testing.T) {
	f := newFixture(t)
	l := f.issueFor(t, &runtime.Approvers{Principals: []string{"bob"}, ExcludeRequester: true})
	code, body := f.approve(t, l.URL, "bob", "accept")
	if code != http.StatusOK || !strings.Contains(body, "It takes effect when alice, who asked for this action, makes the same request again, before ") ||
		strings.Contains(body, "was sent") {
		t.Fatalf("approval: %d %s", code, body)
	}
}

// plainStore is a Store that keeps no wait marks.
type plainStore struct{ Store }

// TestAnswerSavedWithoutMarks: with a Store that keeps no wait marks the
// page says what is true either way.
func TestAnswerSavedWithoutMarks(t *testing.T) {
	f := newFixture(t)
	p, err := New(Config{Keys: f.p.cfg.Keys, Store: plainStore{f.store}, BaseURL: f.p.cfg.BaseURL, Identity: f.p.cfg.Identity, Now: f.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	f.p = p
	l := f.issue(t, schema(t, "Deploy", deployJSON))
	f.p.Hold(context.Background(), l.ID)() // nothing to mark
	cookies, csrf := f.open(t, l.URL)
	body := f.do(t, "POST", l.URL, "alice", cookies, deployPost(csrf, "environment", "staging", "confirmed", "true")).Body.String()
	if !strings.Contains(body, "<h1>Answer saved</h1>") || !strings.Contains(body, "If the request that asked for it is still waiting, it goes on now") {
		t.Errorf("without marks:\n%s", body)
	}
}

// TestAnswerClientContinues: the page of a question whose client goes on
// with the call (2026-07-28 URL mode) tells the person to go back and
// confirm there, not to make the request again.
func TestAnswerClientContinues(t *testing.T) {
	for _, c := range []struct{ lang, want string }{
		{"", "Your answer is saved. Go back to your assistant and confirm there that you have answered: the request then goes on with your answer."},
		{"ja", "回答を保存しました。アシスタントに戻り、回答したことをそこで確定してください。"},
	} {
		f := newFixture(t)
		l, err := f.p.Issue(context.Background(), &Question{Schema: schema(t, "Deploy", deployJSON), Preference: c.lang, Call: f.call, ClientContinues: true})
		if err != nil {
			t.Fatal(err)
		}
		cookies, csrf := f.open(t, l.URL)
		body := f.do(t, "POST", l.URL, "alice", cookies, deployPost(csrf, "environment", "staging", "confirmed", "true")).Body.String()
		if !strings.Contains(body, c.want) || strings.Contains(body, "no longer waiting") || strings.Contains(body, "was sent") {
			t.Errorf("lang %q: want %q:\n%s", c.lang, c.want, body)
		}
	}
}
