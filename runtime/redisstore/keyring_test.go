package redisstore_test

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime/redisstore"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// TestCheckKeyRing: instances sharing a Redis see the ring the deployment
// used before: a ring that drops the sealing key is refused and changes
// nothing, unless allowed; the documented rotation passes.
func TestCheckKeyRing(t *testing.T) {
	s, err := redisstore.Open(redisURL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.Prefix = "elicitgen-test-" + newID() + ":"
	clock := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	s.Now = func() time.Time { return clock }
	ctx := context.Background()
	ring := func(keys ...byte) *seal.KeyRing {
		var ks []seal.Key
		for _, k := range keys {
			ks = append(ks, seal.Key{ID: "k" + string('0'+k), Secret: bytes.Repeat([]byte{k}, 32)})
		}
		r, err := seal.NewKeyRing(ks...)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	const wait = 72 * time.Hour
	if _, err := s.CheckKeyRing(ctx, ring(1), wait, false); err != nil {
		t.Fatalf("first ring: %v", err)
	}
	clock = clock.Add(time.Hour)
	if _, err := s.CheckKeyRing(ctx, ring(2), wait, false); !errors.Is(err, seal.ErrKeyStillNeeded) {
		t.Fatalf("dropping the sealing key: %v", err)
	}
	// Refused: nothing recorded; the rotation goes on from k1.
	if _, err := s.CheckKeyRing(ctx, ring(1, 2), wait, false); err != nil {
		t.Fatalf("add k2 second: %v", err)
	}
	rec, err := s.CheckKeyRing(ctx, ring(2, 1), wait, false)
	if err != nil || len(rec.Keys) != 2 || !rec.Keys[1].Retired.Equal(clock) {
		t.Fatalf("move k2 first: %+v %v", rec, err)
	}
	clock = clock.Add(wait - time.Minute)
	if _, err := s.CheckKeyRing(ctx, ring(2), wait, false); !errors.Is(err, seal.ErrKeyStillNeeded) {
		t.Fatalf("dropping k1 early: %v", err)
	}
	// Allowed: recorded, and the error still says what was dropped.
	rec, err = s.CheckKeyRing(ctx, ring(2), wait, true)
	if !errors.Is(err, seal.ErrKeyStillNeeded) || len(rec.Keys) != 1 {
		t.Fatalf("allowed drop: %+v %v", rec, err)
	}
	if _, err := s.CheckKeyRing(ctx, ring(2), wait, false); err != nil {
		t.Fatalf("after the allowed drop: %v", err)
	}
}
