package main

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/runtime/redisstore"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// TestKeyRingDropRefused: with a Redis replay store, a start whose
// ELICIT_STATE_KEYS drops the key that sealed until now is refused,
// saying which key and what to do; ELICIT_ALLOW_KEY_DROP lets it start.
func TestKeyRingDropRefused(t *testing.T) {
	u := os.Getenv("ELICITGEN_REDIS_URL")
	if u == "" {
		t.Skip("set ELICITGEN_REDIS_URL to run")
	}
	st, err := redisstore.Open(u)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	st.Prefix = "elicitgen-example-test-" + seal.NewRandomKeyRing().CurrentID() + ":"
	ctx := context.Background()
	first, second := seal.NewRandomKeyRing(), seal.NewRandomKeyRing()
	t.Setenv(AllowKeyDropEnv, "")
	if err := checkKeyRing(ctx, first, st, true); err != nil {
		t.Fatalf("first start: %v", err)
	}
	err = checkKeyRing(ctx, second, st, true)
	if !errors.Is(err, seal.ErrKeyStillNeeded) || !strings.Contains(err.Error(), first.CurrentID()) || !strings.Contains(err.Error(), AllowKeyDropEnv) {
		t.Fatalf("a ring without the sealing key: %v", err)
	}
	t.Setenv(AllowKeyDropEnv, "test")
	if err := checkKeyRing(ctx, second, st, true); err != nil {
		t.Fatalf("allowed: %v", err)
	}
	// Without Redis there is no record: the start goes on.
	if err := checkKeyRing(ctx, first, seal.NewMemoryReplayStore(0), true); err != nil {
		t.Fatalf("memory store: %v", err)
	}
}
