package adapter_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/deliver"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// An override the client or server cannot take is unavailable, reported
// as such, and nothing is sent.
func TestRenderingOverrideUnavailable(t *testing.T) {
	var events []runtime.Event
	s := &adapter.Options{Keys: seal.NewRandomKeyRing(), Observer: runtime.ObserverFunc(func(_ context.Context, e runtime.Event) {
		events = append(events, e)
	})}
	sent := 0
	push := runtime.AskerFunc(func(context.Context, *runtime.Request) (*runtime.Response, error) {
		sent++
		return &runtime.Response{Action: runtime.ActionAccept, Content: map[string]any{"confirm": true}}, nil
	})
	x, err := s.Start(&adapter.Call{Tool: "t", Version: runtime.Version20251125, Caps: adapter.ClientCaps{Form: true}}, "", nil, nil, push)
	if err != nil {
		t.Fatal(err)
	}
	_, err = runtime.AskConfirm(t.Context(), x, "Go on?", runtime.WithRendering(runtime.RenderingLink))
	if !errors.Is(err, runtime.ErrUnavailable) || !strings.Contains(err.Error(), "WithRendering(link): the server has no hosted pages") {
		t.Fatalf("err = %v", err)
	}
	if sent != 0 {
		t.Fatalf("%d requests sent", sent)
	}
	found := false
	for _, e := range events {
		found = found || e.Kind == runtime.EventUnavailable && strings.Contains(e.Reason, "no hosted pages")
	}
	if !found {
		t.Fatalf("no unavailable event: %+v", events)
	}
	// The same ask with form mode asks.
	if out, err := runtime.AskConfirm(t.Context(), x, "Go on?", runtime.WithRendering(runtime.RenderingForm)); err != nil || out.Action != runtime.ActionAccept || sent != 1 {
		t.Fatalf("form override: %v %v, %d sent", out.Action, err, sent)
	}
}

// Options.Rendering forces the page for every ask that names no rendering:
// a client that declared form mode (behind a gateway that cannot relay
// the request) gets the link, and nothing is pushed; an ask's own
// WithRendering still wins.
func TestServerRenderingPolicy(t *testing.T) {
	keys := seal.NewRandomKeyRing()
	pages, err := page.New(page.Config{Keys: keys, BaseURL: "https://mcp.example.com/elicit/",
		Identity: func(*http.Request) (string, bool) { return "alice", true }})
	if err != nil {
		t.Fatal(err)
	}
	s := &adapter.Options{Keys: keys, Pages: pages, Rendering: runtime.RenderingLink}
	sent := 0
	push := runtime.AskerFunc(func(context.Context, *runtime.Request) (*runtime.Response, error) {
		sent++
		return &runtime.Response{Action: runtime.ActionAccept, Content: map[string]any{"confirm": true}}, nil
	})
	x, err := s.Start(&adapter.Call{Tool: "deploy", Principal: "alice", Version: runtime.Version20251125, Caps: adapter.ClientCaps{Form: true}}, "", nil, nil, push)
	if err != nil {
		t.Fatal(err)
	}
	_, err = runtime.AskConfirm(t.Context(), x, "Deploy?")
	var link *deliver.LinkRequiredError
	if !errors.As(err, &link) || link.Link == nil || !strings.HasPrefix(link.Link.URL, "https://mcp.example.com/elicit/") || sent != 0 {
		t.Fatalf("with the policy: %v, %d pushed", err, sent)
	}
	if out, err := runtime.AskConfirm(t.Context(), x, "Deploy?", runtime.WithKey("again"), runtime.WithRendering(runtime.RenderingForm)); err != nil || out.Action != runtime.ActionAccept || sent != 1 {
		t.Fatalf("WithRendering(form) under the policy: %v %v, %d pushed", out.Action, err, sent)
	}
}
