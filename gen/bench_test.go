package gen_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/elicitgen/elicitgen/gen"
	"github.com/elicitgen/elicitgen/internal/testmod"
)

// formsPkg writes a package of n forms of 10 fields each (the shape of
// issue 9's measurements: strings, an enum, integers, a pointer, a bool, a
// date and a multi-select).
func formsPkg(tb testing.TB, n int) string {
	dir := testmod.New(tb, "example.com/forms")
	var sb strings.Builder
	sb.WriteString("package forms\n\nimport \"time\"\n\ntype Env string\n\nconst (\n\tStaging Env = \"staging\" // Staging\n\tProd Env = \"production\" // Production\n)\n")
	for i := range n {
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
	Note     string    `+"`json:\"note,omitempty\" elicit:\"maxLength=200\"`"+`
	Size     uint16    `+"`json:\"size\" elicit:\"max=1000\"`"+`
}
`, i+1)
	}
	testmod.WriteFile(tb, filepath.Join(dir, "forms.go"), []byte(sb.String()))
	return dir
}

// BenchmarkGenerate measures gen.Generate beside a bare packages.Load of
// the same package without its generated file, with the same load mode,
// at 200 and 1000 forms: "fresh" when the package has no elicit_gen.go
// yet, "regen" when it holds the file generated before (both cold: no
// output cache), "warm" when it holds it and the output cache holds the
// package. gen-load-ratio is generation time over load time.
func BenchmarkGenerate(b *testing.B) {
	for _, n := range []int{200, 1000} {
		dir := formsPkg(b, n)
		ctx := context.Background()
		load := func() {
			pkgs, err := packages.Load(&packages.Config{Context: ctx, Dir: dir, Mode: gen.LoadMode}, ".")
			if err != nil || packages.PrintErrors(pkgs) > 0 {
				b.Fatal(err)
			}
		}
		cacheDir := b.TempDir()
		generate := func(cached ...bool) *gen.Result {
			cfg := gen.Config{Dir: dir}
			if len(cached) > 0 && cached[0] {
				cfg.CacheDir, cfg.CacheSalt = cacheDir, "bench"
			}
			res, err := gen.Generate(ctx, cfg)
			if err != nil || len(res.Files) != 2 {
				b.Fatal(err)
			}
			return res
		}
		res := generate()
		generate(true) // fill the output cache
		for _, mode := range []string{"fresh", "regen", "warm"} {
			b.Run(fmt.Sprintf("%s/%d", mode, n), func(b *testing.B) {
				load() // warm the go command's caches
				var tLoad, tGen time.Duration
				for b.Loop() {
					t0 := time.Now()
					load()
					t1 := time.Now()
					if mode != "fresh" {
						if _, err := gen.Write(res); err != nil {
							b.Fatal(err)
						}
					}
					t2 := time.Now()
					generate(mode == "warm")
					tLoad += t1.Sub(t0)
					tGen += time.Since(t2)
					if mode != "fresh" {
						_ = os.Remove(filepath.Join(dir, gen.GoFile))
						_ = os.Remove(filepath.Join(dir, gen.SchemaFile))
					}
				}
				n := float64(b.N)
				b.ReportMetric(float64(tLoad.Nanoseconds())/n, "load-ns/op")
				b.ReportMetric(float64(tGen.Nanoseconds())/n, "gen-ns/op")
				b.ReportMetric(float64(tGen)/float64(tLoad), "gen-load-ratio")
			})
		}
	}
}

// BenchmarkBuild200 measures the CPU (user+system, go command included)
// of go build of the package of 200 forms with its generated file, beside
// the same package without it: what the generated code adds to every
// user's build. Each run changes a constant in a salt file so that the
// forms package itself is compiled again, while the runtime and the
// standard library come from the build cache.
func BenchmarkBuild200(b *testing.B) {
	if testing.Short() {
		b.Skip("builds")
	}
	dir := formsPkg(b, 200)
	res, err := gen.Generate(context.Background(), gen.Config{Dir: dir})
	if err != nil {
		b.Fatal(err)
	}
	without := b.TempDir()
	for _, f := range []string{"go.mod", "go.sum", "forms.go"} {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			b.Fatal(err)
		}
		testmod.WriteFile(b, filepath.Join(without, f), data)
	}
	if _, err := gen.Write(res); err != nil {
		b.Fatal(err)
	}
	build := func(dir string, salt int) time.Duration {
		testmod.WriteFile(b, filepath.Join(dir, "salt.go"), []byte(fmt.Sprintf("package forms\n\nconst salt = %d\n", salt)))
		cmd := exec.Command("go", "build", ".")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("go build: %v\n%s", err, out)
		}
		return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	build(dir, -1)
	build(without, -1)
	var tWith, tWithout time.Duration
	i := 0
	for b.Loop() {
		i++
		tWith += build(dir, i)
		tWithout += build(without, i)
	}
	n := float64(b.N)
	b.ReportMetric(float64(tWith.Nanoseconds())/n, "with-cpu-ns/op")
	b.ReportMetric(float64(tWithout.Nanoseconds())/n, "without-cpu-ns/op")
	b.ReportMetric(float64(tWith)/float64(tWithout), "with-without-ratio")
}
