package editdist

import (
	"strings"
	"testing"
)

// Distance counts insertions, deletions, substitutions and swaps of
// neighbours, either way round, on the stack for short strings and on the
// heap beyond.
func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"", "abc", 3}, {"ticket", "tiket", 1}, {"kitten", "sitting", 3},
		{"Change", "Chnage", 1}, // a swap of neighbours
		{"elicit", "elicit", 0}, {"", "elicit", 6},
		{"elict", "elicit", 1}, {"elicits", "elicit", 1}, {"eliict", "elicit", 1}, {"elciit", "elicit", 1},
		{"ellicitt", "elicit", 2}, {"json", "elicit", 6}, {"yaml", "elicit", 6},
		{"description", "desc", 7}, {strings.Repeat("a", 40), strings.Repeat("a", 38) + "bb", 2},
	} {
		if got := Distance(tc.a, tc.b); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := Distance(tc.b, tc.a); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.b, tc.a, got, tc.want)
		}
	}
}
