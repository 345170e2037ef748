// Package testclock is a test hook of the example server: a clock that
// reads the wall clock plus an offset kept in a file, written in
// libfaketime's syntax for relative offsets ("+72h", "-5m", "+259200").
//
// A multi-process test runs the example's server processes with
// ELICIT_TEST_CLOCK naming the file, and redis-server under libfaketime
// (LD_PRELOAD with FAKETIME_TIMESTAMP_FILE naming the same file): the
// instances and Redis then read one simulated time, and the test moves it
// for all of them by rewriting the file (Write). Go binaries do not go
// through libc for the time, so LD_PRELOAD cannot move theirs; the server
// passes Clock.Now to every component that keeps a deadline instead.
//
// It is never on by default: the server reads the file only when
// ELICIT_TEST_CLOCK is set, and then says so loudly at start. It is no
// way to run a deployment.
package testclock

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Env names the environment variable of the example server that holds
// the path of the offset file. Tests only.
const Env = "ELICIT_TEST_CLOCK"

// ErrOffset is matched (errors.Is) by the error of a file whose content
// is not a relative offset ParseOffset reads.
var ErrOffset = errors.New("testclock: not a relative offset (libfaketime's +N or -N seconds, or with m, h, d or y)")

// maxFile bounds what is read of the file: an offset is a few bytes.
const maxFile = 64

// maxOffset bounds an offset: a hundred years, well inside time.Duration.
const maxOffset = 100 * 365 * 24 * time.Hour

// ParseOffset reads a relative offset as libfaketime does: "+" or "-",
// a decimal number (a fraction allowed), and an optional unit, m, h, d or
// y (365 days); seconds without one. Surrounding white space is ignored.
// libfaketime's absolute times ("2026-07-28 09:00:00"), start-at times
// ("@...") and rate modifiers ("x2") are refused with an error matching
// ErrOffset: the Go processes could not follow them.
func ParseOffset(s string) (time.Duration, error) {
	v := strings.TrimSpace(s)
	if len(v) < 2 || (v[0] != '+' && v[0] != '-') {
		return 0, fmt.Errorf("%w: %q", ErrOffset, s)
	}
	unit := time.Second
	switch v[len(v)-1] {
	case 'm':
		unit = time.Minute
	case 'h':
		unit = time.Hour
	case 'd':
		unit = 24 * time.Hour
	case 'y':
		unit = 365 * 24 * time.Hour
	}
	num := v[1:]
	if unit != time.Second {
		num = num[:len(num)-1]
	}
	for _, c := range num {
		if (c < '0' || c > '9') && c != '.' {
			return 0, fmt.Errorf("%w: %q", ErrOffset, s)
		}
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(f) || f*float64(unit) > float64(maxOffset) {
		return 0, fmt.Errorf("%w: %q", ErrOffset, s)
	}
	d := time.Duration(math.Round(f * float64(unit)))
	if v[0] == '-' {
		d = -d
	}
	return d, nil
}

// FormatOffset returns d as libfaketime and ParseOffset read it: signed
// seconds, with a fraction when d is not whole seconds ("+255600",
// "-300", "+0.25").
func FormatOffset(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%+d", int64(d/time.Second))
	}
	s := strconv.FormatFloat(math.Abs(d.Seconds()), 'f', -1, 64)
	if d < 0 {
		return "-" + s
	}
	return "+" + s
}

// Write sets the offset in the file at path to d, atomically (a new file
// renamed over the old one), so that a process reading it meanwhile,
// libfaketime included, reads the old offset or the new one, never a
// part.
func Write(path string, d time.Duration) error {
	if d > maxOffset || d < -maxOffset {
		return fmt.Errorf("%w: %v is more than %v", ErrOffset, d, maxOffset)
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".testclock-*")
	if err != nil {
		return err
	}
	_, err = f.WriteString(FormatOffset(d) + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("testclock: writing %s: %w", path, err)
	}
	return nil
}

// Clock is the wall clock plus the offset in a file, read again at every
// Now (a file of a few bytes: one open and read), so that a rewrite
// moves it at once. Safe for concurrent use.
type Clock struct {
	path    string
	onError func(error)

	mu     sync.Mutex
	offset time.Duration
	failed string // the last read error reported, so that one is reported once
}

// Open returns the Clock of the file at path, or an error when the file
// cannot be read or holds no offset (the server then does not start).
// Should the file later become unreadable or hold something else, Now
// keeps the last offset it read and reports the error to onError (when
// set) once, until the file reads again.
func Open(path string, onError func(error)) (*Clock, error) {
	c := &Clock{path: path, onError: onError}
	d, err := c.read()
	if err != nil {
		return nil, err
	}
	c.offset = d
	return c, nil
}

// read reads the offset in the file.
func (c *Clock) read() (time.Duration, error) {
	f, err := os.Open(c.path)
	if err != nil {
		return 0, fmt.Errorf("testclock: %w", err)
	}
	defer f.Close()
	var buf [maxFile + 1]byte
	n, err := io.ReadFull(f, buf[:])
	switch {
	case err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF):
		return 0, fmt.Errorf("testclock: %s: %w", c.path, err)
	case n > maxFile:
		return 0, fmt.Errorf("%w: %s holds more than %d bytes", ErrOffset, c.path, maxFile)
	}
	d, err := ParseOffset(string(buf[:n]))
	if err != nil {
		return 0, fmt.Errorf("%s: %w", c.path, err)
	}
	return d, nil
}

// Offset returns the offset in the file now (the last one read, when
// the file does not read).
func (c *Clock) Offset() time.Duration {
	d, err := c.read()
	c.mu.Lock()
	if err == nil {
		c.offset, c.failed = d, ""
		c.mu.Unlock()
		return d
	}
	d, report := c.offset, err.Error() != c.failed
	c.failed = err.Error()
	c.mu.Unlock()
	if report && c.onError != nil {
		c.onError(fmt.Errorf("%w (the clock keeps the offset %s)", err, FormatOffset(d)))
	}
	return d
}

// Now returns the wall clock plus the file's offset, without a monotonic
// reading (as a time from elicittest.Clock). It is usable as every Now
// func() time.Time field (clock.Now).
func (c *Clock) Now() time.Time {
	return time.Now().Round(0).Add(c.Offset())
}

// libfaketimePaths are where Debian (and a build from source) install
// libfaketime.
var libfaketimePaths = []string{
	"/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1",
	"/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1",
	"/usr/lib/faketime/libfaketime.so.1",
	"/usr/local/lib/faketime/libfaketime.so.1",
}

// LibFaketimeEnv names the environment variable a test reads for the
// path of libfaketime.so.1 when it is not where Debian installs it.
const LibFaketimeEnv = "ELICITGEN_LIBFAKETIME"

// LibFaketime returns the path of libfaketime.so.1 (Debian's package
// faketime): $ELICITGEN_LIBFAKETIME, else the first of the usual places
// that exists.
func LibFaketime() (string, error) {
	if p := os.Getenv(LibFaketimeEnv); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%s: %w", LibFaketimeEnv, err)
		}
		return p, nil
	}
	for _, p := range libfaketimePaths {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("no libfaketime.so.1 in %s (apt-get install faketime, or set %s)", strings.Join(libfaketimePaths, ", "), LibFaketimeEnv)
}
