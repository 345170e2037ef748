package adapter_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/deliver"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// runtime.WithWait keeps a question open as long as it says, capped by
// Options.MaxWait: the sealed state of its round lives that long, and a
// question without it keeps the StateTTL default.
func TestWithWaitSetsTheStateLife(t *testing.T) {
	start := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	now := start
	clock := func() time.Time { return now }
	for _, tc := range []struct {
		name    string
		maxWait time.Duration
		opts    []runtime.AskOption
		open    time.Duration // the state still opens this long after
		expired time.Duration // and has expired this long after
	}{
		{"default", 0, nil, 14 * time.Minute, 16 * time.Minute},
		{"72 hours", 0, []runtime.AskOption{runtime.WithWait(72 * time.Hour)}, 71 * time.Hour, 73 * time.Hour},
		{"capped by MaxWait", 24 * time.Hour, []runtime.AskOption{runtime.WithWait(72 * time.Hour)}, 23 * time.Hour, 25 * time.Hour},
		{"shorter than the default", 0, []runtime.AskOption{runtime.WithWait(2 * time.Minute)}, time.Minute, 3 * time.Minute},
		{"past 30 days", 0, []runtime.AskOption{runtime.WithWait(90 * 24 * time.Hour)}, 29 * 24 * time.Hour, 31 * 24 * time.Hour},
	} {
		t.Run(tc.name, func(t *testing.T) {
			now = start
			s := &adapter.Options{Keys: seal.NewRandomKeyRing(), Now: clock, MaxWait: tc.maxWait}
			call := func() *adapter.Call {
				return &adapter.Call{Tool: "deploy", Args: []byte(`{}`), Version: runtime.Version20260728, Caps: adapter.ClientCaps{Form: true}}
			}
			x, err := s.Start(call(), "", nil, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			_, err = runtime.AskConfirm(context.Background(), x, "Deploy?", tc.opts...)
			r := s.Finish(x, err)
			if r.Kind != adapter.ReplyInputRequired {
				t.Fatalf("reply %+v", r)
			}
			now = start.Add(tc.open)
			if _, err := s.Start(call(), r.State, nil, nil, nil); err != nil {
				t.Errorf("after %v: %v", tc.open, err)
			}
			now = start.Add(tc.expired)
			if _, err := s.Start(call(), r.State, nil, nil, nil); !errors.Is(err, seal.ErrStateExpired) {
				t.Errorf("after %v: %v, want expired", tc.expired, err)
			}
		})
	}
}

// A hosted page asked with WithWait stays open as long.
func TestWithWaitSetsThePageLife(t *testing.T) {
	keys := seal.NewRandomKeyRing()
	pages, err := page.New(page.Config{Keys: keys, BaseURL: "https://mcp.example.com/elicit/",
		Identity: func(*http.Request) (string, bool) { return "alice", true }})
	if err != nil {
		t.Fatal(err)
	}
	s := &adapter.Options{Keys: keys, Pages: pages}
	x, err := s.Start(&adapter.Call{Tool: "deploy", Principal: "alice", Version: runtime.Version20251125}, "", nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	before := time.Now()
	_, err = runtime.AskConfirm(context.Background(), x, "Deploy?", runtime.WithWait(72*time.Hour))
	var link *deliver.LinkRequiredError
	if !errors.As(err, &link) || link.Link == nil {
		t.Fatalf("%v", err)
	}
	if d := link.Link.Expires.Sub(before); d < 71*time.Hour || d > 73*time.Hour {
		t.Errorf("the page closes in %v, want 72h", d)
	}
}
