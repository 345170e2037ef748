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
	prev := rune(-1) // the previous character; -1 at the start
	for i, c := range s {
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7f {
				return c, i, true
			}
			prev = c
			continue
		}
		switch {
		case c == 0x200C || c == 0x200D:
			next, _ := utf8.DecodeRuneInString(s[i+utf8.RuneLen(c):])
			if !joinable(prev) || !joinable(next) {
				return c, i, true
			}
		case unicode.Is(unicode.Variation_Selector, c):
			if prev < 0 || prev == 0x200C || prev == 0x200D || unicode.Is(unicode.Variation_Selector, prev) {
				return c, i, true
			}
		case unicode.Is(unicode.Cf, c), unicode.Is(unicode.Cc, c), c == 0x2028, c == 0x2029,
			unicode.Is(unicode.Other_Default_Ignorable_Code_Point, c):
			return c, i, true
		}
		prev = c
	}
	return 0, 0, false
}

// joinable reports whether a zero width (non-)joiner next to r does the
// work it exists for: r is a non-ASCII letter, mark or symbol.
func joinable(r rune) bool {
	return r >= utf8.RuneSelf && r != utf8.RuneError && unicode.In(r, unicode.L, unicode.M, unicode.S)
}

// runeName names r as a message argument: U+202E.
func runeName(r rune) string { return fmt.Sprintf("U+%04X", r) }
