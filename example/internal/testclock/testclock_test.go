package testclock_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/example/internal/testclock"
)

func TestParseOffset(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"+0":         0,
		"+255600":    71 * time.Hour,
		"-300":       -5 * time.Minute,
		"-5m":        -5 * time.Minute,
		"+71h":       71 * time.Hour,
		"+1.5h":      90 * time.Minute,
		"+3d":        72 * time.Hour,
		"+1y":        365 * 24 * time.Hour,
		" +72h\n":    72 * time.Hour,
		"+0.25":      250 * time.Millisecond,
		"+259260\n":  72*time.Hour + time.Minute,
		"-259200.5":  -(72*time.Hour + 500*time.Millisecond),
		"+.5m":       30 * time.Second,
		"+100y":      100 * 365 * 24 * time.Hour,
		"+3600.000h": 3600 * time.Hour,
	} {
		got, err := testclock.ParseOffset(in)
		if err != nil || got != want {
			t.Errorf("ParseOffset(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	// libfaketime's other forms move a C program's clock in ways a Go
	// process could not follow: refused, never read as zero.
	for _, in := range []string{"", "+", "-", "72h", "0", "+h", "+72w", "+1e5", "+1.2.3", "+72h x2", "@2026-07-28 09:00:00",
		"2026-07-28 09:00:00", "+-5", "+ 5", "++5", "+101y", "+NaN", "+Inf"} {
		if d, err := testclock.ParseOffset(in); !errors.Is(err, testclock.ErrOffset) {
			t.Errorf("ParseOffset(%q) = %v, %v; want an error matching ErrOffset", in, d, err)
		}
	}
}

func TestFormatOffset(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0:                        "+0",
		71 * time.Hour:           "+255600",
		-5 * time.Minute:         "-300",
		250 * time.Millisecond:   "+0.25",
		-1500 * time.Millisecond: "-1.5",
	} {
		if got := testclock.FormatOffset(d); got != want {
			t.Errorf("FormatOffset(%v) = %q, want %q", d, got, want)
		}
		if back, err := testclock.ParseOffset(testclock.FormatOffset(d)); err != nil || back != d {
			t.Errorf("ParseOffset(FormatOffset(%v)) = %v, %v", d, back, err)
		}
	}
}

func TestClockFollowsTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "offset")
	if _, err := testclock.Open(path, nil); err == nil {
		t.Fatal("Open of a missing file succeeded")
	}
	if err := os.WriteFile(path, []byte("tomorrow\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := testclock.Open(path, nil); !errors.Is(err, testclock.ErrOffset) {
		t.Fatalf("Open of a file without an offset = %v, want ErrOffset", err)
	}
	if err := testclock.Write(path, 0); err != nil {
		t.Fatal(err)
	}
	var reported []error
	c, err := testclock.Open(path, func(err error) { reported = append(reported, err) })
	if err != nil {
		t.Fatal(err)
	}
	near := func(got, want time.Time) bool { d := got.Sub(want); return d > -time.Minute && d < time.Minute }
	if now := c.Now(); !near(now, time.Now()) {
		t.Fatalf("Now with +0 = %v, wall clock %v", now, time.Now())
	}
	if err := testclock.Write(path, 71*time.Hour); err != nil {
		t.Fatal(err)
	}
	if now := c.Now(); !near(now, time.Now().Add(71*time.Hour)) || c.Offset() != 71*time.Hour {
		t.Fatalf("after Write(+71h), Now = %v (offset %v); want 71h ahead of %v", now, c.Offset(), time.Now())
	}
	// Two reads a rewrite apart are 72 hours apart, whatever the
	// monotonic clock says.
	before := c.Now()
	if err := testclock.Write(path, 143*time.Hour); err != nil {
		t.Fatal(err)
	}
	if d := c.Now().Sub(before); d < 72*time.Hour || d > 72*time.Hour+time.Minute {
		t.Fatalf("a rewrite from +71h to +143h moved Now by %v", d)
	}

	// A file that stops reading keeps the last offset, reported once.
	if err := os.WriteFile(path, []byte("soon"), 0o600); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if c.Offset() != 143*time.Hour {
			t.Fatalf("with a bad file the offset is %v, want the last one read (143h)", c.Offset())
		}
	}
	if len(reported) != 1 || !errors.Is(reported[0], testclock.ErrOffset) || !strings.Contains(reported[0].Error(), "+514800") {
		t.Fatalf("reported %v, want one ErrOffset naming the offset kept", reported)
	}
	if err := testclock.Write(path, -5*time.Minute); err != nil {
		t.Fatal(err)
	}
	if c.Offset() != -5*time.Minute {
		t.Fatalf("after the file reads again the offset is %v", c.Offset())
	}
	if err := os.WriteFile(path, []byte(strings.Repeat("+1", 100)), 0o600); err != nil {
		t.Fatal(err)
	}
	if c.Offset() != -5*time.Minute || len(reported) != 2 {
		t.Fatalf("an oversized file: offset %v, reported %v", c.Offset(), reported)
	}
}

// TestSameSyntaxAsLibfaketime: date(1) under libfaketime, reading the
// file Write wrote, and Clock.Now agree (skipped without libfaketime).
func TestSameSyntaxAsLibfaketime(t *testing.T) {
	lib, err := testclock.LibFaketime()
	if err != nil {
		t.Skip(err)
	}
	date, err := exec.LookPath("date")
	if err != nil {
		t.Skip(err)
	}
	path := filepath.Join(t.TempDir(), "offset")
	for _, d := range []time.Duration{0, 71 * time.Hour, -5 * time.Minute, 72*time.Hour + time.Minute, 1500 * time.Millisecond} {
		if err := testclock.Write(path, d); err != nil {
			t.Fatal(err)
		}
		c, err := testclock.Open(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(date, "+%s")
		cmd.Env = append(os.Environ(), "LD_PRELOAD="+lib, "FAKETIME_TIMESTAMP_FILE="+path, "FAKETIME_NO_CACHE=1")
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		faked, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		if diff := c.Now().Sub(time.Unix(faked, 0)); diff < -5*time.Second || diff > 5*time.Second {
			t.Errorf("offset %s: libfaketime's date reads %v, Clock.Now %v", testclock.FormatOffset(d), time.Unix(faked, 0).UTC(), c.Now().UTC())
		}
	}
}

// BenchmarkNow: the cost of a clock read, which opens and reads the file.
func BenchmarkNow(b *testing.B) {
	path := filepath.Join(b.TempDir(), "offset")
	if err := testclock.Write(path, 72*time.Hour); err != nil {
		b.Fatal(err)
	}
	c, err := testclock.Open(path, nil)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		_ = c.Now()
	}
}
