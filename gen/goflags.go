package gen

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

// ErrModfile is returned when GOFLAGS holds -modfile: elicitgen loads
// packages with the go command, which would then read another go.mod
// than the one that builds them.
var ErrModfile = errors.New("GOFLAGS=-modfile is not supported")

// checkGOFLAGS refuses a -modfile in the GOFLAGS of env (os.Environ()
// when env is nil), saying what to do instead.
func checkGOFLAGS(env []string) error {
	flags := os.Getenv("GOFLAGS")
	if env != nil {
		flags = ""
		for _, kv := range env {
			if v, ok := strings.CutPrefix(kv, "GOFLAGS="); ok {
				flags = v // the last one wins, as for the go command
			}
		}
	}
	for _, f := range strings.Fields(flags) {
		name, _, _ := strings.Cut(strings.TrimLeft(f, "-"), "=")
		if name == "modfile" && strings.HasPrefix(f, "-") {
			return fmt.Errorf("%w (GOFLAGS=%q): elicitgen loads your packages with the go command, "+
				"which would read that file instead of the go.mod that builds them; "+
				"put -modfile on the go run line instead "+
				"(//go:generate go run -modfile=tools.mod github.com/elicitgen/elicitgen/cmd/elicitgen), "+
				"or unset it for generation (GOFLAGS= go generate ./...)", ErrModfile, flags)
		}
	}
	return nil
}
