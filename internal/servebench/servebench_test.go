package servebench

import (
	"context"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// TestApprovals runs a few approvals through each server on each era and
// checks that each deployed once.
func TestApprovals(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	keys := seal.NewRandomKeyRing()
	for _, version := range []string{runtime.Version20260728, runtime.Version20251125} {
		for _, kind := range []string{"raw", "elicitgen"} {
			t.Run(version+"/"+kind, func(t *testing.T) {
				var deploys Counter
				h := NewRawHandler(NewRawServer(&deploys))
				if kind == "elicitgen" {
					h = NewHandler(NewServer(keys, adapter.NewMemoryReplayStore(0), &deploys))
				}
				url, err := Serve(ctx, h)
				if err != nil {
					t.Fatal(err)
				}
				r, err := Run(ctx, Load{URL: url, Version: version, Clients: 3, Approvals: 12})
				if err != nil {
					t.Fatal(err)
				}
				if r.Errors != 0 || r.Approvals != 12 || deploys.Load() != 12 {
					t.Fatalf("%d approvals, %d deploys, %d errors (first: %v)", r.Approvals, deploys.Load(), r.Errors, r.FirstErr)
				}
			})
		}
	}
}
