package runtime

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// HiddenRune returns the first character of s that a free-text answer
// may not hold, and its byte offset: a character that is invisible, or
// that changes how the text around it reads, in what the model and a
// person are shown of the answer (a tool result quoting it, a log line).
// ok is false when s holds none. They are:
//
//   - the bidirectional controls (U+061C, U+200E, U+200F, U+202A-U+202E,
//     U+2066-U+2069), which reorder the text that follows;
//   - the other format characters (Unicode category Cf: U+200B zero width
//     space, U+2060 word joiner, U+FEFF, U+00AD soft hyphen, the tag
//     characters U+E0000-U+E007F that spell invisible ASCII, ...) and the
//     other default-ignorable characters (U+034F, the Hangul fillers,
//     U+FFF0-U+FFF8, ...);
//   - control characters other than tab, line feed and carriage return,
//     and the line and paragraph separators U+2028 and U+2029.
//
// Two kinds of these are needed to write ordinary text and are allowed
// where they do that: U+200C zero width non-joiner and U+200D zero width
// joiner between two non-ASCII letters, marks or symbols (Persian and
// Indic words, emoji sequences), and one variation selector right after
// a visible character (emoji presentation). Subdivision flag emoji, which
// are spelled with tag characters, are refused.
func HiddenRune(s string) (r rune, at int, ok bool) {
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			// Printable ASCII, tab and line breaks: the common case, a
			// byte at a time.
			if b < 0x20 && b != '\t' && b != '\n' && b != '\r' || b == 0x7f {
				return rune(b), i, true
			}
			i++
			continue
		}
		c, n := utf8.DecodeRuneInString(s[i:])
		if !maybeHidden(c) {
			i += n
			continue
		}
		switch {
		case c == 0x200C || c == 0x200D:
			prev, _ := utf8.DecodeLastRuneInString(s[:i])
			next, _ := utf8.DecodeRuneInString(s[i+n:])
			if !joinable(prev) || !joinable(next) {
				return c, i, true
			}
		case unicode.Is(unicode.Variation_Selector, c):
			prev, _ := utf8.DecodeLastRuneInString(s[:i])
			if i == 0 || prev == 0x200C || prev == 0x200D || unicode.Is(unicode.Variation_Selector, prev) {
				return c, i, true
			}
		case hiddenRune(c):
			return c, i, true
		}
		i += n
	}
	return 0, 0, false
}

// hiddenRune reports whether c, a non-ASCII character other than a
// joiner or a variation selector, is one HiddenRune refuses.
func hiddenRune(c rune) bool {
	return c == 0x2028 || c == 0x2029 || unicode.In(c, unicode.Cf, unicode.Cc, unicode.Other_Default_Ignorable_Code_Point)
}

// maybeHidden reports whether c, a non-ASCII character, lies in a range
// that holds a character HiddenRune looks at (a joiner, a variation
// selector or one hiddenRune reports): the tables are read only for
// those, so that text in most scripts costs a comparison or two per
// character. TestMaybeHidden checks that the ranges cover every one.
func maybeHidden(c rune) bool {
	switch {
	case c < 0x0300:
		return c <= 0xAD // C1 controls, soft hyphen
	case c < 0x2000:
		return c == 0x034F || c >= 0x0600 && c <= 0x0605 || c == 0x061C || c == 0x06DD || c == 0x070F ||
			c == 0x0890 || c == 0x0891 || c == 0x08E2 || c >= 0x115F && c <= 0x1160 || c >= 0x17B4 && c <= 0x180F
	case c < 0x3000:
		return c >= 0x200B && c <= 0x206F
	case c < 0xFE00:
		return c == 0x3164
	case c < 0x10000:
		return c <= 0xFE0F || c >= 0xFEFF
	}
	return c >= 0x110BD && c <= 0x1D17A || c >= 0xE0000
}

// joinable reports whether a zero width (non-)joiner next to r does the
// work it exists for: r is a non-ASCII letter, mark or symbol.
func joinable(r rune) bool {
	return r >= utf8.RuneSelf && r != utf8.RuneError && unicode.In(r, unicode.L, unicode.M, unicode.S)
}

// runeName names r as a message argument: U+202E.
func runeName(r rune) string { return fmt.Sprintf("U+%04X", r) }
