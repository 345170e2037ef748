package gen_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/gen"
)

func TestUnifiedDiff(t *testing.T) {
	a := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n"
	b := "1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\n11\n12\n13\n"
	want := `--- a/x
+++ b/x
@@ -2,7 +2,7 @@
 2
 3
 4
-5
+five
 6
 7
 8
@@ -10,3 +10,4 @@
 10
 11
 12
+13
`
	if got := gen.UnifiedDiff("a/x", "b/x", a, b); got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	if got := gen.UnifiedDiff("a", "b", a, a); got != "" {
		t.Fatalf("equal inputs: %q", got)
	}
	got := gen.UnifiedDiff("/dev/null", "b/x", "", "new\n")
	if !strings.Contains(got, "@@ -0,0 +1 @@\n+new\n") {
		t.Fatalf("new file:\n%s", got)
	}
	got = gen.UnifiedDiff("a", "b", "x", "y")
	if !strings.Contains(got, "-x\n\\ No newline at end of file\n+y\n\\ No newline at end of file\n") {
		t.Fatalf("no trailing newline:\n%s", got)
	}
}

// TestUnifiedDiffMinimal checks on random inputs that the diff turns a
// into b and keeps as many lines as a longest common subsequence.
func TestUnifiedDiffMinimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	lines := func(n int) string {
		var sb strings.Builder
		for range n {
			fmt.Fprintf(&sb, "%c\n", 'a'+rng.IntN(4))
		}
		return sb.String()
	}
	for i := range 300 {
		a, b := lines(rng.IntN(30)), lines(rng.IntN(30))
		d := gen.UnifiedDiff("a", "b", a, b)
		got, kept := applyDiff(t, a, d)
		if got != b {
			t.Fatalf("case %d: applying the diff gives %q, want %q\n%s", i, got, b, d)
		}
		if want := lcsLen(strings.SplitAfter(a, "\n"), strings.SplitAfter(b, "\n")) - 1; a != b && kept != want {
			t.Fatalf("case %d: diff keeps %d lines, a longest common subsequence has %d\n%s", i, kept, want, d)
		}
	}
}

// TestUnifiedDiffLinearSpace diffs two 12,000-line files with changes
// spread through them: a quadratic table would need 144 million cells
// (576 MB), linear space needs a few megabytes. The output is capped.
func TestUnifiedDiffLinearSpace(t *testing.T) {
	var a, b strings.Builder
	for i := range 12000 {
		fmt.Fprintf(&a, "line %d\n", i)
		if i%100 == 0 {
			fmt.Fprintf(&b, "changed %d\n", i)
		} else {
			fmt.Fprintf(&b, "line %d\n", i)
		}
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	d := gen.UnifiedDiffLimit("a", "b", a.String(), b.String(), 200)
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Fatalf("diffing 12,000 lines allocated %d MB", alloc>>20)
	}
	if n := strings.Count(d, "\n"); n > 205 {
		t.Fatalf("capped diff has %d lines", n)
	}
	if !strings.Contains(d, "more changed lines not shown") || !strings.Contains(d, "-line 0\n+changed 0\n") {
		t.Fatalf("capped diff:\n%s", d)
	}
}

// applyDiff applies a unified diff of UnifiedDiff to a and returns the
// result and the number of context lines kept.
func applyDiff(t *testing.T, a, d string) (string, int) {
	t.Helper()
	if d == "" {
		return a, 0
	}
	src := strings.SplitAfter(a, "\n")
	src = src[:len(src)-1]
	var out []string
	pos, kept := 0, 0
	lines := strings.SplitAfter(d, "\n")
	for _, l := range lines[2:] {
		switch {
		case l == "":
		case strings.HasPrefix(l, "@@"):
			var s1, n1 int
			if _, err := fmt.Sscanf(l, "@@ -%d", &s1); err != nil {
				t.Fatalf("bad hunk header %q", l)
			}
			_ = n1
			start := s1 - 1
			if strings.HasPrefix(l, fmt.Sprintf("@@ -%d,0 ", s1)) {
				start = s1
			}
			for pos < start {
				out = append(out, src[pos])
				pos++
				kept++
			}
		case l[0] == ' ':
			out = append(out, l[1:])
			pos++
			kept++
		case l[0] == '-':
			pos++
		case l[0] == '+':
			out = append(out, l[1:])
		}
	}
	for pos < len(src) {
		out = append(out, src[pos])
		pos++
		kept++
	}
	return strings.Join(out, ""), kept
}

func lcsLen(a, b []string) int {
	prev := make([]int, len(b)+1)
	for i := range a {
		cur := make([]int, len(b)+1)
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(prev[j+1], cur[j])
			}
		}
		prev = cur
		_ = i
	}
	return prev[len(b)]
}
