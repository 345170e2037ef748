package adapter

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// TestReadBody: the body is read whole whatever its stated size, and at
// most limit+1 bytes of it.
func TestReadBody(t *testing.T) {
	const limit = 64
	for _, n := range []int{0, 1, 10, 63, 64, 65, 200} {
		body := strings.Repeat("x", n)
		want := body[:min(n, limit+1)]
		for _, size := range []int64{-1, 0, int64(n) - 1, int64(n), int64(n) + 1, limit, limit + 1} {
			got, err := readBody(iotest.OneByteReader(strings.NewReader(body)), size, limit)
			if err != nil || string(got) != want {
				t.Errorf("%d bytes stated as %d: %d bytes, %v; want %d", n, size, len(got), err, len(want))
			}
		}
	}
	big := strings.Repeat("y", readBodyPresize+10)
	for _, size := range []int64{-1, readBodyPresize, readBodyPresize + 10} {
		if got, err := readBody(strings.NewReader(big), size, 1<<20); err != nil || string(got) != big {
			t.Errorf("%d bytes stated as %d: %d bytes, %v", len(big), size, len(got), err)
		}
	}
	if _, err := readBody(iotest.ErrReader(io.ErrUnexpectedEOF), 10, limit); err != io.ErrUnexpectedEOF {
		t.Errorf("a failing body: %v", err)
	}
}
