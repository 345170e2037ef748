package editdist

import "testing"

func TestLevenshtein(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"", "abc", 3}, {"ticket", "tiket", 1}, {"Change", "Chnage", 2}, {"kitten", "sitting", 3}} {
		if got := Levenshtein(tc.a, tc.b); got != tc.want {
			t.Errorf("Levenshtein(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := Levenshtein(tc.b, tc.a); got != tc.want {
			t.Errorf("Levenshtein(%q, %q) = %d, want %d", tc.b, tc.a, got, tc.want)
		}
	}
}
