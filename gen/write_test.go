package gen_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/gen"
	"github.com/elicitgen/elicitgen/internal/testmod"
)

// genPair returns the Go and schema files of generation n, a few hundred
// kilobytes each, so that a kill can land inside a write.
func genPair(n int) (goSrc, schema []byte) {
	var g, j bytes.Buffer
	fmt.Fprintf(&g, "%s\n// generation %d\n\npackage forms\n\n", gen.Header, n)
	fmt.Fprintf(&j, "{\n  \"Gen%d\": {\"type\": \"object\", \"properties\": {}}", n)
	for i := range 500 {
		fmt.Fprintf(&g, "// line %d %s\n", i, strings.Repeat("x", 600))
		fmt.Fprintf(&j, ",\n  \"F%d\": {\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"string\", \"description\": %q}}}", i, strings.Repeat("y", 600))
	}
	j.WriteString("\n}\n")
	return g.Bytes(), j.Bytes()
}

// generation returns the generation of a file genPair wrote, or -1 when
// the file is missing or is not exactly one generation's content.
func generation(path string, isGo bool) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return -1
	}
	var n int
	if isGo {
		_, err = fmt.Sscanf(string(b), gen.Header+"\n// generation %d", &n)
	} else {
		_, err = fmt.Sscanf(string(b), "{\n  \"Gen%d\"", &n)
	}
	if err != nil {
		return -1
	}
	g, j := genPair(n)
	if (isGo && !bytes.Equal(b, g)) || (!isGo && !bytes.Equal(b, j)) {
		return -1 // torn
	}
	return n
}

const writerChildEnv = "ELICITGEN_TEST_WRITER_DIR"

// TestWriteKilled runs Write in a child process (this test binary,
// re-executed) that regenerates one package over and over, and kills it
// with SIGKILL at many moments. After every kill each file must be whole
// (one generation's content, not torn), the Go file never newer than its
// schema file (the schema is written first, so the schema is the same
// generation as the Go file or one ahead), and a later Write must finish
// the job and leave no temporary file.
func TestWriteKilled(t *testing.T) {
	if dir := os.Getenv(writerChildEnv); dir != "" {
		writerChild(dir)
		return
	}
	if testing.Short() {
		t.Skip("kills child processes; skipped with -short")
	}
	pkg := t.TempDir()
	goPath, jsonPath := filepath.Join(pkg, gen.GoFile), filepath.Join(pkg, gen.SchemaFile)
	g0, j0 := genPair(0)
	testmod.WriteFile(t, goPath, g0)
	testmod.WriteFile(t, jsonPath, j0)
	const kills = 12
	mixed := 0
	for i := range kills {
		cmd := exec.Command(os.Args[0], "-test.run=^TestWriteKilled$")
		cmd.Env = append(os.Environ(), writerChildEnv+"="+pkg)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// The child writes without pause and reports each finished
		// generation; the kills are spread over one write's duration,
		// measured from two consecutive reports.
		r := bufio.NewReader(out)
		var at [3]time.Time
		for k := range at {
			if line, err := r.ReadString('\n'); err != nil || !strings.HasPrefix(line, "wrote") {
				t.Fatalf("child: %q %v", line, err)
			}
			at[k] = time.Now()
		}
		period := at[2].Sub(at[1])
		time.Sleep(period * time.Duration(i) / kills)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()

		g, j := generation(goPath, true), generation(jsonPath, false)
		if g < 0 || j < 0 {
			t.Fatalf("kill %d: Go file generation %d, schema file generation %d: a file is missing or torn", i, g, j)
		}
		if j != g && j != g+1 {
			t.Fatalf("kill %d: Go file generation %d beside schema file generation %d: the schema must be written first", i, g, j)
		}
		if j != g {
			mixed++
		}
		// A later run completes the pair and removes any leftover.
		ng, nj := genPair(j + 1)
		res := &gen.Result{Files: []gen.File{{Path: goPath, Content: ng}, {Path: jsonPath, Content: nj}}}
		if _, err := gen.Write(res); err != nil {
			t.Fatalf("kill %d: later Write: %v", i, err)
		}
		if g, j2 := generation(goPath, true), generation(jsonPath, false); g != j+1 || j2 != j+1 {
			t.Fatalf("kill %d: after a later Write: Go generation %d, schema generation %d, want %d", i, g, j2, j+1)
		}
		if left := gen.Leftovers(pkg); len(left) > 0 {
			t.Fatalf("kill %d: temporary files left after a later Write: %v", i, left)
		}
	}
	t.Logf("%d kills, %d left a new schema file beside the old Go file (check reports it)", kills, mixed)
	if mixed == 0 {
		t.Log("no kill landed between the two renames this time")
	}
}

// writerChild regenerates the package in dir without pause, each time the
// next generation, the Go file listed first (Write must still write the
// schema first).
func writerChild(dir string) {
	goPath, jsonPath := filepath.Join(dir, gen.GoFile), filepath.Join(dir, gen.SchemaFile)
	n := generation(jsonPath, false)
	for {
		n++
		g, j := genPair(n)
		res := &gen.Result{Files: []gen.File{{Path: goPath, Content: g}, {Path: jsonPath, Content: j}}}
		if _, err := gen.Write(res); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		fmt.Println("wrote", n)
	}
}

// TestWriteLeftoversRemoved: temporary files of an earlier killed run are
// removed by the next Write in that directory.
func TestWriteLeftoversRemoved(t *testing.T) {
	dir := t.TempDir()
	left := filepath.Join(dir, ".elicit_gen.12345.tmp")
	testmod.WriteFile(t, left, []byte("half a file"))
	res := &gen.Result{Files: []gen.File{{Path: filepath.Join(dir, gen.GoFile), Content: []byte(gen.Header + "\n\npackage p\n")}}}
	if _, err := gen.Write(res); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(left); err == nil {
		t.Fatalf("%s survived a later Write", left)
	}
}

// TestWriteRefusesHandWrittenSchema: an elicit_gen.json that is not ours
// is never overwritten, with or without our Go file beside it, and
// nothing is written then.
func TestWriteRefusesHandWrittenSchema(t *testing.T) {
	goSrc := []byte(gen.Header + "\n\npackage p\n")
	ours := []byte("{\n  \"Deploy\": {\n    \"type\": \"object\",\n    \"properties\": {}\n  }\n}\n")
	newJSON := []byte("{\n  \"Deploy\": {\n    \"type\": \"object\",\n    \"properties\": {\"a\": {\"type\": \"string\"}}\n  }\n}\n")
	for _, tc := range []struct {
		name      string
		goFile    []byte // nil: absent
		schema    []byte
		overwrite bool
	}{
		{"hand-written, no Go file", nil, []byte(`{"servers": ["a", "b"]}`), false},
		{"hand-written beside our Go file", goSrc, []byte(`{"servers": ["a", "b"]}`), false},
		{"hand-written forms-like keys", goSrc, []byte(`{"my-config": {"type": "object", "properties": {}}}`), false},
		{"empty object", nil, []byte("{}\n"), false},
		{"ours beside our Go file", goSrc, ours, true},
		{"ours, Go file deleted", nil, ours, true},
		{"ours-looking beside a hand-written Go file", []byte("package p\n"), ours, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			jsonPath, goPath := filepath.Join(dir, gen.SchemaFile), filepath.Join(dir, gen.GoFile)
			testmod.WriteFile(t, jsonPath, tc.schema)
			if tc.goFile != nil {
				testmod.WriteFile(t, goPath, tc.goFile)
			}
			res := &gen.Result{Files: []gen.File{{Path: goPath, Content: goSrc}, {Path: jsonPath, Content: newJSON}}}
			_, err := gen.Write(res)
			got, _ := os.ReadFile(jsonPath)
			if tc.overwrite {
				if err != nil || !bytes.Equal(got, newJSON) {
					t.Fatalf("Write: %v; schema file %q, want it rewritten", err, got)
				}
				return
			}
			if !errors.Is(err, gen.ErrNotGenerated) {
				t.Fatalf("Write: %v, want ErrNotGenerated", err)
			}
			if !bytes.Equal(got, tc.schema) {
				t.Fatalf("hand-written schema file overwritten: %q", got)
			}
			if g, _ := os.ReadFile(goPath); tc.goFile == nil && g != nil {
				t.Fatalf("a refused Write still wrote %s", gen.GoFile)
			}
		})
	}
}

// TestStaleNamesFormsAndCaps: check's report names each stale form at its
// position, and caps how many it names and how much diff it prints.
func TestStaleNamesFormsAndCaps(t *testing.T) {
	dir := t.TempDir()
	testmod.WriteFile(t, filepath.Join(dir, "go.mod"), []byte("module example.com/golden\n\ngo 1.24\n"))
	var src strings.Builder
	src.WriteString("package forms\n")
	for i := range 150 {
		fmt.Fprintf(&src, "\ntype Form%d struct {\n\tName string `json:\"name\" elicit:\"maxLength=%d\"`\n}\n", i, i+1)
	}
	testmod.WriteFile(t, filepath.Join(dir, "forms.go"), []byte(src.String()))
	res, err := gen.Generate(context.Background(), gen.Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gen.Write(res); err != nil {
		t.Fatal(err)
	}
	// Change one form, then every form.
	one := strings.Replace(src.String(), `maxLength=8"`, `maxLength=80"`, 1)
	testmod.WriteFile(t, filepath.Join(dir, "forms.go"), []byte(one))
	res, err = gen.Generate(context.Background(), gen.Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	out, err := gen.Stale(res, dir)
	if err != nil {
		t.Fatal(err)
	}
	if first, _, _ := strings.Cut(out, "\n"); first != "forms.go:31:6: form Form7: schema in elicit_gen.json is stale, code in elicit_gen.go is stale: run go generate" {
		t.Fatalf("first line %q, want Form7 named at its position:\n%s", first, out)
	}
	if strings.Count(out, ": form Form") != 1 {
		t.Fatalf("other forms reported stale:\n%s", out)
	}
	all := strings.ReplaceAll(src.String(), `elicit:"maxLength=`, `elicit:"minLength=1,maxLength=`)
	testmod.WriteFile(t, filepath.Join(dir, "forms.go"), []byte(all))
	res, err = gen.Generate(context.Background(), gen.Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	out, _ = gen.Stale(res, dir)
	if n := strings.Count(out, ": form Form"); n != 100 || !strings.Contains(out, "50 more findings not shown") {
		t.Fatalf("%d forms named, want 100 and a count of the rest", n)
	}
	if n := strings.Count(out, "\n"); n > 100+1+2*(300+3) {
		t.Fatalf("report has %d lines", n)
	}
}

// TestConcurrentWritesKeepPairs races two Writes of different generations
// into one package directory, as two go generate runs at once do: at every
// round's end the Go file and the schema file come from the same run.
func TestConcurrentWritesKeepPairs(t *testing.T) {
	dir := t.TempDir()
	result := func(n int) *gen.Result {
		g, j := genPair(n)
		return &gen.Result{Files: []gen.File{{Path: filepath.Join(dir, gen.GoFile), Content: g}, {Path: filepath.Join(dir, gen.SchemaFile), Content: j}}}
	}
	base, a, b := result(0), result(1), result(2)
	mixed := 0
	const rounds = 40
	for range rounds {
		if _, err := gen.Write(base); err != nil {
			t.Fatal(err)
		}
		errs := make(chan error, 2)
		start := make(chan struct{})
		for _, res := range []*gen.Result{a, b} {
			go func() {
				<-start
				_, err := gen.Write(res)
				errs <- err
			}()
		}
		close(start)
		for range 2 {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		g, j := generation(filepath.Join(dir, gen.GoFile), true), generation(filepath.Join(dir, gen.SchemaFile), false)
		if g != j || (g != 1 && g != 2) {
			mixed++
			t.Logf("round ended with %s of generation %d beside %s of generation %d", gen.GoFile, g, gen.SchemaFile, j)
		}
	}
	if mixed > 0 {
		t.Fatalf("%d of %d rounds left files of two runs side by side", mixed, rounds)
	}
	if left := gen.Leftovers(dir); len(left) > 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}
