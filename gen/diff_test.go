package gen_test

import (
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
