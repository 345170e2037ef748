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
// bare packages.Load of the same package with the same load mode. It
// reports the generator's own work as a share of the load, cold (every form
// rendered and formatted) and warm (the output cache holds the package, as
// on a go generate run where these forms did not change).
func BenchmarkGenerate200(b *testing.B) {
	dir := forms200(b)
	ctx := context.Background()
	load := func() {
		pkgs, err := packages.Load(&packages.Config{Context: ctx, Dir: dir, Mode: gen.LoadMode}, ".")
		if err != nil || packages.PrintErrors(pkgs) > 0 {
			b.Fatal(err)
		}
	}
	warmCfg := gen.Config{Dir: dir, CacheDir: b.TempDir(), CacheSalt: "bench"}
	generate := func(cfg gen.Config) {
		res, err := gen.Generate(ctx, cfg)
		if err != nil || len(res.Files) != 2 {
			b.Fatal(err)
		}
	}
	load() // warm the go command's caches
	generate(warmCfg)
	var tLoad, tCold, tWarm time.Duration
	b.ResetTimer()
	for b.Loop() {
		t0 := time.Now()
		load()
		t1 := time.Now()
		generate(gen.Config{Dir: dir})
		t2 := time.Now()
		generate(warmCfg)
		tLoad += t1.Sub(t0)
		tCold += t2.Sub(t1)
		tWarm += time.Since(t2)
	}
	n := float64(b.N)
	b.ReportMetric(float64(tLoad.Nanoseconds())/n, "load-ns/op")
	b.ReportMetric(float64(tCold.Nanoseconds())/n, "cold-ns/op")
	b.ReportMetric(float64(tWarm.Nanoseconds())/n, "warm-ns/op")
	b.ReportMetric(100*(float64(tCold)/float64(tLoad)-1), "cold-overhead-%")
	b.ReportMetric(100*(float64(tWarm)/float64(tLoad)-1), "warm-overhead-%")
}
