package seal_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime/seal"
)

func ring(t *testing.T, keys ...seal.Key) *seal.KeyRing {
	t.Helper()
	r, err := seal.NewKeyRing(keys...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestKeyRingRotate walks the documented rotation (add the new key
// second, move it first, drop the old one) and the ways to get it wrong:
// dropping the sealing key, dropping a retired key before the longest
// wait, reusing an id with another secret.
func TestKeyRingRotate(t *testing.T) {
	k1 := seal.Key{ID: "k1", Secret: bytes.Repeat([]byte{1}, 32)}
	k2 := seal.Key{ID: "k2", Secret: bytes.Repeat([]byte{2}, 32)}
	k2b := seal.Key{ID: "k2", Secret: bytes.Repeat([]byte{3}, 32)}
	const wait = 72 * time.Hour
	t0 := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)

	rec, err := ring(t, k1).Rotate(nil, t0, wait)
	if err != nil {
		t.Fatalf("first ring: %v", err)
	}
	// 1. Add k2 second: nothing dropped; k2 never sealed.
	rec, err = ring(t, k1, k2).Rotate(rec, t0.Add(time.Hour), wait)
	if err != nil {
		t.Fatalf("add k2 second: %v", err)
	}
	// Dropping k2 again is fine: it never sealed.
	if _, err := ring(t, k1).Rotate(rec, t0.Add(2*time.Hour), wait); err != nil {
		t.Fatalf("drop a key that never sealed: %v", err)
	}
	// Dropping k1 while it seals is refused, for the longest wait from now.
	now := t0.Add(2 * time.Hour)
	_, err = ring(t, k2).Rotate(rec, now, wait)
	var still *seal.KeyStillNeededError
	if !errors.Is(err, seal.ErrKeyStillNeeded) || !errors.As(err, &still) || len(still.Keys) != 1 ||
		still.Keys[0] != (seal.KeyHold{ID: "k1", Until: now.Add(wait)}) {
		t.Fatalf("drop the sealing key: %v", err)
	}
	// 2. Move k2 first: k1 retires now.
	moved := t0.Add(3 * time.Hour)
	rec, err = ring(t, k2, k1).Rotate(rec, moved, wait)
	if err != nil {
		t.Fatalf("move k2 first: %v", err)
	}
	if got := rec.Needed(moved.Add(time.Hour), wait); !slices.Equal(got, []seal.KeyHold{{ID: "k2"}, {ID: "k1", Until: moved.Add(wait)}}) {
		t.Fatalf("needed after the move: %+v", got)
	}
	// An instance restarting with the same ring keeps k1's retirement.
	if again, err := ring(t, k2, k1).Rotate(rec, moved.Add(time.Hour), wait); err != nil || !slices.Equal(again.Keys, rec.Keys) {
		t.Fatalf("same ring again: %+v %v", again, err)
	}
	// 3. Dropping k1 before the longest wait has passed is refused...
	_, err = ring(t, k2).Rotate(rec, moved.Add(wait-time.Minute), wait)
	if !errors.As(err, &still) || still.Keys[0] != (seal.KeyHold{ID: "k1", Until: moved.Add(wait)}) {
		t.Fatalf("drop k1 early: %v", err)
	}
	// ...a new secret under k2's id drops the old k2...
	if _, err := ring(t, k2b, k1).Rotate(rec, moved.Add(time.Hour), wait); !errors.Is(err, seal.ErrKeyStillNeeded) {
		t.Fatalf("k2 with another secret: %v", err)
	}
	// ...and after it, dropping k1 is fine.
	rec, err = ring(t, k2).Rotate(rec, moved.Add(wait), wait)
	if err != nil || len(rec.Keys) != 1 || rec.Keys[0].ID != "k2" || !rec.Keys[0].Sealed {
		t.Fatalf("drop k1 after the longest wait: %+v %v", rec, err)
	}
	// The record survives JSON (it is kept in a store).
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	var back seal.KeyRecord
	if err := json.Unmarshal(b, &back); err != nil || !slices.Equal(back.Keys, rec.Keys) {
		t.Fatalf("JSON: %s -> %+v %v", b, back, err)
	}
}

func TestKeyRingIDsFingerprint(t *testing.T) {
	r := ring(t, seal.Key{ID: "b", Secret: bytes.Repeat([]byte{1}, 32)}, seal.Key{ID: "a", Secret: bytes.Repeat([]byte{2}, 32)})
	if got := r.IDs(); !slices.Equal(got, []string{"b", "a"}) {
		t.Fatalf("IDs = %v", got)
	}
	fa, _ := r.Fingerprint("a")
	fb, _ := r.Fingerprint("b")
	if len(fa) != 16 || fa == fb {
		t.Fatalf("fingerprints %q %q", fa, fb)
	}
	if _, ok := r.Fingerprint("c"); ok {
		t.Fatal("a fingerprint for a key the ring lacks")
	}
}
