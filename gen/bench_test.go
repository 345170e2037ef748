package gen_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/elicitgen/elicitgen/gen"
)

// forms200 writes a package of 200 forms of 8 fields each.
func forms200(tb testing.TB) string {
	dir := tb.TempDir()
	writeFile(tb, filepath.Join(dir, "go.mod"), []byte(goldenMod))
	var sb strings.Builder
	sb.WriteString("package forms\n\nimport \"time\"\n\ntype Env string\n\nconst (\n\tStaging Env = \"staging\" // Staging\n\tProd Env = \"production\" // Production\n)\n")
	for i := range 200 {
		fmt.Fprintf(&sb, `
// Form%[1]d is form number %[1]d.
type Form%[1]d struct {
	// Name of the thing.
	Name     string    `+"`json:\"name\" elicit:\"minLength=1,maxLength=80\"`"+`
	Env      Env       `+"`json:\"env\" elicit:\"default=staging\"`"+`
	Count    int       `+"`json:\"count\" elicit:\"min=1,max=%[1]d\"`"+`
	Ratio    *float64  `+"`json:\"ratio,omitempty\" elicit:\"min=0,max=1\"`"+`
	OK       bool      `+"`json:\"ok\" elicit:\"default=true\"`"+`
	Email    string    `+"`json:\"email,omitempty\" elicit:\"format=email\"`"+`
	When     time.Time `+"`json:\"when\" elicit:\"format=date\"`"+`
	Tags     []string  `+"`json:\"tags,omitempty\" elicit:\"enum=a|b|c,maxItems=2\"`"+`
}
`, i+1)
	}
	writeFile(tb, filepath.Join(dir, "forms.go"), []byte(sb.String()))
	return dir
}

// BenchmarkGenerate200 measures generating a package of 200 forms beside a
// bare packages.Load of the same package with the same load mode, and
// reports the generator's own share as overhead-% (target: at most 15).
func BenchmarkGenerate200(b *testing.B) {
	dir := forms200(b)
	ctx := context.Background()
	load := func() {
		pkgs, err := packages.Load(&packages.Config{Context: ctx, Dir: dir, Mode: gen.LoadMode}, ".")
		if err != nil || packages.PrintErrors(pkgs) > 0 {
			b.Fatal(err)
		}
	}
	generate := func() {
		res, err := gen.Generate(ctx, gen.Config{Dir: dir})
		if err != nil || len(res.Files) != 2 {
			b.Fatal(err)
		}
	}
	load() // warm the go command's caches
	generate()
	var tLoad, tGen time.Duration
	b.ResetTimer()
	for b.Loop() {
		t0 := time.Now()
		load()
		t1 := time.Now()
		generate()
		tLoad += t1.Sub(t0)
		tGen += time.Since(t1)
	}
	b.ReportMetric(float64(tLoad.Nanoseconds())/float64(b.N), "load-ns/op")
	b.ReportMetric(float64(tGen.Nanoseconds())/float64(b.N), "generate-ns/op")
	b.ReportMetric(100*(float64(tGen)/float64(tLoad)-1), "overhead-%")
}
