package gosdk_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/internal/pagetest"
	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/page"
)

// recordingStore records the questions issued.
type recordingStore struct {
	*page.MemoryStore
	mu        sync.Mutex
	questions [][]byte
}

func (s *recordingStore) Put(ctx context.Context, r page.Record) error {
	s.mu.Lock()
	s.questions = append(s.questions, append([]byte(nil), r.Question...))
	s.mu.Unlock()
	return s.MemoryStore.Put(ctx, r)
}

// TestPageCarriesLanguagePreference: the page of a call carries the
// person's language preference, so that its own words follow it even
// where the form has no translation.
func TestPageCarriesLanguagePreference(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	store := &recordingStore{MemoryStore: page.NewMemoryStore()}
	ps := newPagesServer(t, store, func(c *gosdk.Config) {
		c.Locale = func(context.Context, mcp.Request) string { return "ja-JP, en;q=0.5" }
	})
	alice := connect(t, ctx, ps, "alice", runtime.Version20260728, nil)
	text, _ := call(t, ctx, alice, "api")
	if pagetest.LinkIn(text, ps.base) == "" {
		t.Fatalf("no link in %q", text)
	}
	store.mu.Lock()
	defer store.mu.Unlock()
	if len(store.questions) != 1 {
		t.Fatalf("%d questions issued", len(store.questions))
	}
	var q struct {
		Pref string `json:"pref"`
	}
	if err := json.Unmarshal(store.questions[0], &q); err != nil || q.Pref != "ja-JP, en;q=0.5" {
		t.Fatalf("stored preference %q, %v: %s", q.Pref, err, store.questions[0])
	}
}
