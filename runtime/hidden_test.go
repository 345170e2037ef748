package runtime_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/elicittest"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
)

func TestHiddenRune(t *testing.T) {
	for _, c := range []struct {
		s    string
		want rune // 0: none
	}{
		{"main", 0},
		{"line one\nline two\ttab\r\n", 0},
		{"日本語のブランチ", 0},
		{"deploy \u202egnp.exe", 0x202E},              // right-to-left override
		{"a\u2066b\u2069", 0x2066},                    // isolate
		{"\u200fmain", 0x200F},                        // right-to-left mark
		{"ma\u200bin", 0x200B},                        // zero width space
		{"main\u2060", 0x2060},                        // word joiner
		{"\ufeffmain", 0xFEFF},                        // byte order mark
		{"ma\u00adin", 0xAD},                          // soft hyphen
		{"ok\U000E0069\U000E0067\U000E006E", 0xE0069}, // tag characters: invisible ASCII
		{"\u3164", 0x3164},                            // Hangul filler
		{"a\x1b[2Kb", 0x1B},                           // escape
		{"a\u0085b", 0x85},                            // C1 next line
		{"a\u2028b", 0x2028},                          // line separator
		// Joiners where writing needs them; elsewhere refused.
		{"می\u200cخواهم", 0},                              // Persian: ZWNJ between letters
		{"\U0001F468\u200d\U0001F469\u200d\U0001F467", 0}, // family emoji
		{"\U0001F3F3\ufe0f\u200d\U0001F308", 0},           // rainbow flag: selector, then joiner
		{"क्\u200dष", 0},                                  // Devanagari: virama, joiner
		{"pro\u200dd", 0x200D},                            // between ASCII letters
		{"\u200dx", 0x200D},
		{"日\u200d\u200d本", 0x200D}, // two joiners in a row
		{"\u2764\ufe0f", 0},        // heart with emoji presentation
		{"\ufe0fx", 0xFE0F},        // selector at the start
		{"a\ufe0f\ufe0f", 0xFE0F},  // selectors in a row (bytes hidden in an emoji)
	} {
		r, _, ok := runtime.HiddenRune(c.s)
		if ok != (c.want != 0) || ok && r != c.want {
			t.Errorf("HiddenRune(%+q) = %U, %v; want %U", c.s, r, ok, c.want)
		}
	}
}

// A free-text answer holding a text-direction control or an invisible
// character is refused as invalid, with the character named, before the
// tool sees it: the person is asked again. Choices are not affected.
func TestHiddenRuneRefused(t *testing.T) {
	ctx := context.Background()
	p := &runtime.Property{Name: "note", Kind: runtime.KindString}
	err := p.Check("ok \u202eevil")
	var fe *runtime.FieldError
	if !errors.As(err, &fe) || fe.ID != runtime.MsgHidden || !strings.Contains(fe.ModelText(), "U+202E") {
		t.Fatalf("Check = %v, want MsgHidden naming U+202E", err)
	}
	if err := p.Check("main"); err != nil {
		t.Fatal(err)
	}

	// A plain text field (no other rule) and a field of a generated form.
	a := elicittest.New(elicittest.Accept(map[string]any{runtime.TextField: "yes\u200b"}), elicittest.Accept(map[string]any{runtime.TextField: "yes"}))
	out, err := runtime.AskText(ctx, a, "Why?", runtime.WithRetries(1))
	if err != nil || out.Value != "yes" || len(a.Requests()) != 2 {
		t.Fatalf("AskText = %+v, %v after %d requests; want the second answer", out, err, len(a.Requests()))
	}
	if m := a.Requests()[1].Message; !strings.Contains(m, "invisible or text-direction character (U+200B)") {
		t.Errorf("re-ask message %q", m)
	}
	a = elicittest.New(elicittest.Accept(map[string]any{"branch": "main\u202e", "replicas": 1}))
	d, err := testforms.AskDeploy(ctx, a, "Deploy?", runtime.WithRetries(0))
	if !errors.Is(err, runtime.ErrInvalidContent) {
		t.Fatalf("AskDeploy = %+v, %v; want ErrInvalidContent", d, err)
	}
}

// BenchmarkHiddenRune scans the longest answers a body admits for hidden
// characters: ASCII, Japanese (3 bytes a character) and Persian with a
// joiner in every word; MB/s stays flat across sizes when the scan is
// linear.
func BenchmarkHiddenRune(b *testing.B) {
	for _, c := range []struct{ name, unit string }{
		{"ascii", "deploy main "},
		{"japanese", "日本語のブランチ"},
		{"persian", "می\u200cخواهم "},
	} {
		for _, size := range []int{64 << 10, 1 << 20} {
			v := strings.Repeat(c.unit, size/len(c.unit))
			b.Run(c.name+"/bytes="+strconv.Itoa(len(v)), func(b *testing.B) {
				b.SetBytes(int64(len(v)))
				for b.Loop() {
					if _, _, bad := runtime.HiddenRune(v); bad {
						b.Fatal("refused")
					}
				}
			})
		}
	}
}
