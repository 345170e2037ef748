package runtime

import (
	"testing"
	"unicode"
)

// TestMaybeHidden: every non-ASCII character HiddenRune looks at lies in
// a range maybeHidden admits.
func TestMaybeHidden(t *testing.T) {
	for c := rune(0x80); c <= unicode.MaxRune; c++ {
		looked := c == 0x200C || c == 0x200D || unicode.Is(unicode.Variation_Selector, c) || hiddenRune(c)
		if looked && !maybeHidden(c) {
			t.Errorf("%U is refused or looked at, but maybeHidden skips it", c)
		}
	}
}
