package deliver_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/deliver"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

func flowPages(t *testing.T) *page.Pages {
	t.Helper()
	p, err := page.New(page.Config{Keys: seal.NewRandomKeyRing(), BaseURL: "https://mcp.example.com/elicit/",
		Identity: func(r *http.Request) (string, bool) { return r.Header.Get("X-User"), true }})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func flowQuestion(call seal.Binding, id string) *deliver.Question {
	return &deliver.Question{Key: "url", Call: call, Request: &runtime.Request{Mode: runtime.ModeURL, Message: "Connect your Acme account.",
		URL: "https://acme.example/connect?flow=" + id, ElicitationID: id}}
}

// A URL flow's link goes out once; the same call made again goes on with
// the same flow, once; the call after starts a new flow.
func TestFlowLink(t *testing.T) {
	ctx := context.Background()
	rs := &deliver.Routes{Pages: flowPages(t)}
	call := seal.BindCall("connect", []byte(`{"provider":"acme"}`), "alice")
	d := rs.FlowLink("url", "the client did not declare URL-mode elicitation; the tool result carries the flow's link")
	if r, why := rs.Rendering("url"); r != runtime.RenderingLink || !strings.Contains(why, "flow's link") {
		t.Fatalf("rendering %q: %q", r, why)
	}
	if id := rs.OpenFlow(ctx, call, "url"); id != "" {
		t.Fatalf("OpenFlow before any link = %q", id)
	}
	_, err := d.Deliver(ctx, &deliver.Round{}, flowQuestion(call, "f-1"))
	var le *deliver.LinkRequiredError
	if !errors.As(err, &le) || !errors.Is(err, runtime.ErrInputRequired) || !le.Flow || le.Link.URL != "https://acme.example/connect?flow=f-1" {
		t.Fatalf("first call: %v", err)
	}
	text := deliver.LinkText("connect", []*deliver.LinkRequiredError{le}, time.Now())
	if !strings.Contains(text, "complete the steps on that page (it says: \"Connect your Acme account.\"):\nhttps://acme.example/connect?flow=f-1\n") ||
		strings.Contains(text, "form") {
		t.Fatalf("link text:\n%s", text)
	}
	// Another person, or other arguments, see no open flow.
	if id := rs.OpenFlow(ctx, seal.BindCall("connect", []byte(`{"provider":"acme"}`), "bob"), "url"); id != "" {
		t.Fatalf("bob's OpenFlow = %q", id)
	}
	if id := rs.OpenFlow(ctx, call, "url"); id != "f-1" {
		t.Fatalf("OpenFlow = %q, want f-1", id)
	}
	resp, err := d.Deliver(ctx, &deliver.Round{}, flowQuestion(call, "f-1"))
	if err != nil || resp.Action != runtime.ActionAccept {
		t.Fatalf("the same call again: %+v, %v", resp, err)
	}
	if id := rs.OpenFlow(ctx, call, "url"); id != "" {
		t.Fatalf("OpenFlow after the flow went on = %q", id)
	}
	if _, err := d.Deliver(ctx, &deliver.Round{}, flowQuestion(call, "f-2")); !errors.As(err, &le) || le.Link.URL != "https://acme.example/connect?flow=f-2" {
		t.Fatalf("the call after: %v", err)
	}
	// Without a principal, pages that admit only the call's principal
	// cannot keep the flow: unavailable, as without pages.
	_, err = d.Deliver(ctx, &deliver.Round{}, flowQuestion(seal.BindCall("connect", nil, ""), "f-3"))
	if !errors.Is(err, runtime.ErrUnavailable) {
		t.Fatalf("no principal: %v", err)
	}
}

// A mix of a form's link and a flow's link says what each one is.
func TestLinkTextMixed(t *testing.T) {
	exp := time.Date(2026, 12, 1, 22, 30, 0, 0, time.UTC)
	text := deliver.LinkText("", []*deliver.LinkRequiredError{
		{Key: "Deploy", Message: "Deploy?", Link: &page.Link{URL: "https://mcp.example.com/elicit/t1", Expires: exp}},
		{Key: "url", Message: "Connect.", Flow: true, Link: &page.Link{URL: "https://acme.example/c", Expires: exp}},
	}, exp.Add(-15*time.Minute))
	for _, want := range []string{
		"answer the form there (it asks: \"Deploy?\"):\nhttps://mcp.example.com/elicit/t1\nThe page closes at 2026-12-01T22:30:00Z (in 15 minutes).\n",
		"complete the steps on that page (it says: \"Connect.\"):\nhttps://acme.example/c\n",
		"picks up their answer", "goes on with their flow", "call this tool again",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
}
