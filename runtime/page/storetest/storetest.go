// Package storetest checks a page.Store against the contract that hosted
// pages and tasks share, as testing/fstest checks a file system: the
// in-memory store and runtime/redisstore's pass it, and so must any other.
package storetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime/page"
)

func newID() string {
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// TestRevise checks s's Revise, the compare and set a task is kept by:
// each revision counts one version and needs the version read; a stale
// version, an answered page and a missing one are refused with the
// contract's errors and change nothing; of concurrent revisions of one
// version exactly one lands. s must have room for three pages of one
// client.
func TestRevise(t *testing.T, s page.Store) {
	t.Helper()
	ctx := context.Background()
	id, until := newID(), time.Now().Add(time.Hour)
	if err := s.Revise(ctx, id, 1, []byte("x")); !errors.Is(err, page.ErrNotFound) {
		t.Errorf("Revise of no page: %v, want ErrNotFound", err)
	}
	if err := s.Put(ctx, page.Record{ID: id, Question: []byte("v1"), Until: until}); err != nil {
		t.Fatal(err)
	}
	if e, err := s.Get(ctx, id); err != nil || e.Version != 1 {
		t.Fatalf("Get of a new page: version %d, %v; want 1", e.Version, err)
	}
	if err := s.Revise(ctx, id, 1, []byte("v2")); err != nil {
		t.Fatal(err)
	}
	if err := s.Revise(ctx, id, 1, []byte("stale")); !errors.Is(err, page.ErrConflict) {
		t.Errorf("Revise of a stale version: %v, want ErrConflict", err)
	}
	if e, err := s.Get(ctx, id); err != nil || e.Version != 2 || string(e.Question) != "v2" || e.Status != page.StatusOpen {
		t.Fatalf("Get after one revision: %q version %d %v, %v; want v2, 2, open", e.Question, e.Version, e.Status, err)
	}

	// Sixteen revisions of one version race: one lands.
	var won atomic.Int32
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			switch err := s.Revise(ctx, id, 2, []byte("r"+strconv.Itoa(i))); {
			case err == nil:
				won.Add(1)
			case !errors.Is(err, page.ErrConflict):
				t.Errorf("a racing Revise: %v, want ErrConflict", err)
			}
		})
	}
	wg.Wait()
	if won.Load() != 1 {
		t.Errorf("%d racing revisions of one version landed, want 1", won.Load())
	}
	e, err := s.Get(ctx, id)
	if err != nil || e.Version != 3 {
		t.Fatalf("Get after the race: version %d, %v; want 3", e.Version, err)
	}

	// An answered page is no longer revised, and keeps its answer.
	if err := s.Answer(ctx, id, []byte("yes")); err != nil {
		t.Fatal(err)
	}
	if err := s.Revise(ctx, id, 3, []byte("late")); !errors.Is(err, page.ErrAnswered) {
		t.Errorf("Revise of an answered page: %v, want ErrAnswered", err)
	}
	if e2, err := s.Get(ctx, id); err != nil || string(e2.Question) != string(e.Question) || string(e2.Answer) != "yes" {
		t.Errorf("an answered page after a refused Revise: %q / %q, %v", e2.Question, e2.Answer, err)
	}
}
