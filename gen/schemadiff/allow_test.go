package schemadiff

import (
	"errors"
	"strings"
	"testing"
)

// TestAllowAcrossPackages: across packages a line may name a form without
// its import path when only one package has it; a name two packages share
// must be qualified.
func TestAllowAcrossPackages(t *testing.T) {
	old := []byte(`{"F":{"type":"object","properties":{"a":{"type":"string","enum":["x","y"]}}}}`)
	narrowed := []byte(`{"F":{"type":"object","properties":{"a":{"type":"string","enum":["x"]}}}}`)
	report := func(prefixes ...string) *Report {
		all := &Report{}
		for _, p := range prefixes {
			r, err := Compare(old, narrowed)
			if err != nil {
				t.Fatal(err)
			}
			all.Add(r, p)
		}
		return all
	}
	list, err := ParseAllow("allow", []byte("F.a: y is retired\n"))
	if err != nil {
		t.Fatal(err)
	}
	r := report("example.com/m/one.")
	if err := r.Allow(list); err != nil || r.Breaking() || r.Changes[0].Form != "example.com/m/one.F" || r.Changes[0].Allowed != "y is retired" {
		t.Fatalf("one package: %v, %+v", err, r.Changes)
	}
	r = report("example.com/m/one.", "example.com/m/two.")
	err = r.Allow(list)
	var ae *AllowError
	if !errors.As(err, &ae) || !errors.Is(err, ErrAllow) || !strings.Contains(err.Error(), "allow:1:1: form F is in several packages (example.com/m/one.F, example.com/m/two.F)") {
		t.Fatalf("two packages: %v", err)
	}
	qualified, _ := ParseAllow("allow", []byte("example.com/m/two.F.a: y is retired\n"))
	if err := r.Allow(qualified); err != nil || !r.Breaking() || !r.Changes[1].Acknowledged {
		t.Fatalf("qualified: %v, %+v", err, r.Changes)
	}
}
