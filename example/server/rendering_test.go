package main

import (
	"flag"
	"strings"
	"testing"
)

// ELICIT_RENDERING is checked before anything starts: an unknown value,
// or a forced page without --pages, refuses to start with the fix.
func TestRenderingEnvRefusesWhatCannotWork(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	lim, replayLim := httpFlags(fs), replayFlags(fs)
	for _, tc := range []struct{ value, want string }{
		{"forms", `want url-page, link or auto`},
		{"link", "start with --pages"},
		{"url-page", "start with --pages"},
	} {
		t.Setenv(RenderingEnv, tc.value)
		err := run("127.0.0.1:0", false, false, false, lim, replayLim, nil, &receiptOptions{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s=%s: %v, want %q", RenderingEnv, tc.value, err, tc.want)
		}
	}
}
