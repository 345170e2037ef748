package gen_test

import (
	"bytes"
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

// formsPkg writes a module holding a package of n forms of 10 fields each:
// strings with lengths and a format, an enum with a default, bounded
// integers, an optional float, a boolean, a date and a multi-select.
func formsPkg(tb testing.TB, n int) string {
	dir := testmod.New(tb, "example.com/forms")
	testmod.WriteFile(tb, filepath.Join(dir, "forms.go"), formsSource(n))
	return dir
}

func formsSource(n int) []byte {
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
	return []byte(sb.String())
}

// BenchmarkGenerate measures gen.Generate of a package of 10, 50, 200 and
// 1,000 forms beside its floor: a bare packages.Load of the same package
// without its generated file, with gen.LoadMode, in the same loop. "cold"
// has no output cache (the package holds no elicit_gen.go; one that does
// costs the same, since loading leaves it out); "warm" finds the package
// in the output cache under its raw inputs, as an unchanged package does
// on most go generate runs (one go list, no typed load); "miss" has an
// empty output cache, as the first run after an edit of the forms does
// (the lookup's go list, then the cold run, then the store). Reported per
// op: wall time and CPU time (this process and the go commands it waited
// for) of each, and their ratios, generation over floor.
func BenchmarkGenerate(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{10, 50, 200, 1000} {
		dir := formsPkg(b, n)
		cacheDir := b.TempDir()
		load := func() {
			pkgs, err := packages.Load(&packages.Config{Context: ctx, Dir: dir, Mode: gen.LoadMode}, ".")
			if err != nil || packages.PrintErrors(pkgs) > 0 {
				b.Fatal(err)
			}
		}
		generate := func(cached bool) *gen.Result {
			cfg := gen.Config{Dir: dir}
			if cached {
				cfg.CacheDir, cfg.CacheSalt = cacheDir, "bench"
			}
			res, err := gen.Generate(ctx, cfg)
			if err != nil || len(res.Files) != 2 {
				b.Fatal(err)
			}
			return res
		}
		generate(true) // fill the output cache
		if cold, warm := generate(false), generate(true); !bytes.Equal(cold.Files[0].Content, warm.Files[0].Content) {
			b.Fatal("the output cache returned other files")
		}
		for _, mode := range []string{"cold", "warm", "miss"} {
			b.Run(fmt.Sprintf("%s/%d", mode, n), func(b *testing.B) {
				load() // warm the go command's caches
				var wallLoad, wallGen, cpuLoad, cpuGen time.Duration
				for b.Loop() {
					if mode == "miss" {
						if err := os.RemoveAll(cacheDir); err != nil {
							b.Fatal(err)
						}
					}
					t0, c0 := time.Now(), cpuTime()
					load()
					t1, c1 := time.Now(), cpuTime()
					generate(mode != "cold")
					t2, c2 := time.Now(), cpuTime()
					wallLoad, wallGen = wallLoad+t1.Sub(t0), wallGen+t2.Sub(t1)
					cpuLoad, cpuGen = cpuLoad+c1-c0, cpuGen+c2-c1
				}
				reportPair(b, "load", "gen", wallLoad, wallGen, cpuLoad, cpuGen)
			})
		}
	}
}

// reportPair reports a measured pair and its ratios (measured over
// floor), per op.
func reportPair(b *testing.B, floor, measured string, wallFloor, wall, cpuFloor, cpu time.Duration) {
	n := float64(b.N)
	b.ReportMetric(wallFloor.Seconds()*1e3/n, floor+"-ms/op")
	b.ReportMetric(wall.Seconds()*1e3/n, measured+"-ms/op")
	b.ReportMetric(float64(wall)/float64(wallFloor), "wall-ratio")
	if cpuFloor > 0 {
		b.ReportMetric(cpuFloor.Seconds()*1e3/n, floor+"-cpu-ms/op")
		b.ReportMetric(cpu.Seconds()*1e3/n, measured+"-cpu-ms/op")
		b.ReportMetric(float64(cpu)/float64(cpuFloor), "cpu-ratio")
	}
}

// BenchmarkBuild measures go build of a package of 200 and 5,000 forms
// with its generated file beside the same package without it (its floor:
// the package's own compile), in the same loop. Each op writes a new
// constant to a salt file in both packages, so that each is compiled
// again while the standard library and the runtime come from the build
// cache, as in a user's edit-build cycle (go build -a would rebuild the
// standard library and the runtime too, which is not the generated code's
// cost). Reported: wall and CPU time (the go command and the compiler it
// runs), their ratios, and the peak resident set of the build.
// The peak comes from the process's rusage (Linux: the largest
// descendant, the compiler). Skipped with -short.
func BenchmarkBuild(b *testing.B) {
	if testing.Short() {
		b.Skip("builds")
	}
	for _, n := range []int{200, 5000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			dir := formsPkg(b, n)
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
			var rss [2]int64
			build := func(i int, dir string, salt int) (wall, cpu time.Duration) {
				testmod.WriteFile(b, filepath.Join(dir, "salt.go"), fmt.Appendf(nil, "package forms\n\nconst salt = %d\n", salt))
				cmd := exec.Command("go", "build", ".")
				cmd.Dir = dir
				t0 := time.Now()
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("go build: %v\n%s", err, out)
				}
				if salt >= 0 {
					rss[i] = max(rss[i], peakRSS(cmd.ProcessState))
				}
				return time.Since(t0), cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			}
			// Both packages once, outside the measure: the runtime and the
			// standard library into the build cache.
			build(1, without, -1)
			build(0, dir, -1)
			var wallWith, wallWithout, cpuWith, cpuWithout time.Duration
			i := 0
			for b.Loop() {
				i++
				w, c := build(1, without, i)
				wallWithout, cpuWithout = wallWithout+w, cpuWithout+c
				w, c = build(0, dir, i)
				wallWith, cpuWith = wallWith+w, cpuWith+c
			}
			reportPair(b, "alone", "with", wallWithout, wallWith, cpuWithout, cpuWith)
			b.ReportMetric(float64(rss[0])/(1<<20), "with-peak-MB")
			b.ReportMetric(float64(rss[1])/(1<<20), "alone-peak-MB")
		})
	}
}
