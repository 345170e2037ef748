package gen_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/gen"
)

// GOFLAGS=-modfile gets a message that says what to do instead, before
// the go command is run.
func TestGOFLAGSModfile(t *testing.T) {
	for _, flags := range []string{"-modfile=tools.mod", "-mod=readonly --modfile=/tmp/x.mod"} {
		_, err := gen.Load(context.Background(), gen.Config{Dir: t.TempDir(), Env: []string{"GOFLAGS=" + flags}})
		if !errors.Is(err, gen.ErrModfile) || !strings.Contains(err.Error(), "go run -modfile=") || !strings.Contains(err.Error(), "GOFLAGS= go generate") {
			t.Errorf("GOFLAGS=%s: %v", flags, err)
		}
	}
	// -mod=readonly alone is fine (the load fails for want of a module, not of the flag).
	_, err := gen.Load(context.Background(), gen.Config{Dir: t.TempDir(), Env: []string{"GOFLAGS=-mod=readonly"}})
	if errors.Is(err, gen.ErrModfile) {
		t.Errorf("GOFLAGS=-mod=readonly: %v", err)
	}
}
