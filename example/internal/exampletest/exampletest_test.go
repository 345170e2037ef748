package exampletest

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestParseScale(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
	}{{"", 1}, {"1", 1}, {"2.5", 2.5}, {"4", 4}, {"0.5", 0.5}, {"1000", 1000}} {
		if got, err := ParseScale(tc.in); err != nil || got != tc.want {
			t.Errorf("ParseScale(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	for _, in := range []string{"0", "-1", "x", "2m", "NaN", "Inf", "1e9", " 2"} {
		if got, err := ParseScale(in); !errors.Is(err, ErrScale) {
			t.Errorf("ParseScale(%q) = %v, %v; want ErrScale", in, got, err)
		}
	}
}

func TestTimeoutScales(t *testing.T) {
	t.Setenv(ScaleEnv, "3")
	if got := Timeout(20 * time.Second); got != time.Minute {
		t.Errorf("Timeout(20s) with %s=3 = %v, want 1m", ScaleEnv, got)
	}
	t.Setenv(ScaleEnv, "")
	if got := Timeout(20 * time.Second); got != 20*time.Second {
		t.Errorf("Timeout(20s) unscaled = %v", got)
	}
}

// A test's context ends after the scaled duration, and never after the
// test binary's own deadline.
func TestContextDeadline(t *testing.T) {
	t.Setenv(ScaleEnv, "2")
	before := time.Now()
	ctx, cancel := Context(t, time.Minute)
	defer cancel()
	got, ok := ctx.Deadline()
	if !ok {
		t.Fatal("no deadline")
	}
	if end, ok := t.Deadline(); ok && !got.Before(end) {
		t.Errorf("context deadline %v is not before the test binary's %v", got, end)
	}
	if end, ok := t.Deadline(); !ok || end.Sub(before) > 3*time.Minute {
		// Only without a nearer -timeout is the scaled minute the limit.
		if d := got.Sub(before); d < 2*time.Minute || d > 2*time.Minute+time.Second {
			t.Errorf("context lasts %v, want 2m (1m scaled by 2)", d)
		}
	}
}

func TestDir(t *testing.T) {
	if _, err := os.Stat(filepath.Join(Dir(), "server", "main.go")); err != nil {
		t.Errorf("Dir() = %q, not the example's directory: %v", Dir(), err)
	}
}
