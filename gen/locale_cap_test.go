package gen_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/gen"
	"github.com/elicitgen/elicitgen/internal/testmod"
	"github.com/elicitgen/elicitgen/runtime"
)

// unknownKeysCatalog writes, in a new directory, an elicit.ja.json whose
// Deploy entry has n unknown property keys, one a line from line 3, and
// returns the directory with the package those keys are checked against.
func unknownKeysCatalog(tb testing.TB, n int) (*gen.Source, *gen.Package) {
	dir := tb.TempDir()
	var sb strings.Builder
	sb.WriteString("{\n  \"Deploy\": {\n")
	for i := range n {
		if i > 0 {
			sb.WriteString(",\n")
		}
		fmt.Fprintf(&sb, "    \"k%d\": {}", i)
	}
	sb.WriteString("\n  }\n}\n")
	testmod.WriteFile(tb, filepath.Join(dir, "elicit.ja.json"), []byte(sb.String()))
	pkg := &gen.Package{Name: "forms", PkgPath: "example.com/forms", Forms: []*gen.Form{{
		Name:   "Deploy",
		Fields: []*gen.Field{{Access: []string{"Branch"}, GoKind: gen.GoString, Prop: runtime.Property{Name: "branch", Kind: runtime.KindString}}},
	}}}
	return &gen.Source{Dir: dir}, pkg
}

// TestCatalogErrorsCapped: a catalog with 100,000 unknown keys finishes,
// lists the first errors at their positions, then one line with the
// count of the others.
func TestCatalogErrorsCapped(t *testing.T) {
	const n = 100_000
	src, pkg := unknownKeysCatalog(t, n)
	diags := gen.LoadLocales(src, pkg, false).Relative(src.Dir)
	const kept = 20
	if len(diags) != kept+1 {
		t.Fatalf("%d diagnostics, want %d and a count of the rest", len(diags), kept+1)
	}
	for i, d := range diags[:kept] {
		want := fmt.Sprintf("elicit.ja.json:%d:5: form Deploy has no property \"k%d\"", 3+i, i)
		if got := d.String(); !strings.HasPrefix(got, want) {
			t.Errorf("diagnostic %d = %q, want it to start %q", i, got, want)
		}
	}
	want := fmt.Sprintf("elicit.ja.json:%d:5: and %d more problems in elicit.ja.json (only the first %d are listed)", 3+kept, n-kept, kept)
	if got := diags[kept].String(); got != want {
		t.Errorf("last diagnostic = %q, want %q", got, want)
	}
}

// BenchmarkCatalogErrors reports a catalog of 10,000 and 100,000 unknown
// keys.
func BenchmarkCatalogErrors(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) {
			src, pkg := unknownKeysCatalog(b, n)
			for b.Loop() {
				p := *pkg
				if diags := gen.LoadLocales(src, &p, false); len(diags) != 21 {
					b.Fatalf("%d diagnostics", len(diags))
				}
			}
		})
	}
}
