package readme_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/gen"
	"github.com/elicitgen/elicitgen/internal/testmod"
)

// snippet is one ```go block of the README.
type snippet struct {
	line int    // 1-based line of the opening fence
	text string // the code, without fences
}

// goBlocks returns the README's ```go blocks.
func goBlocks(t *testing.T, readme []byte) []snippet {
	t.Helper()
	var (
		out  []snippet
		cur  *snippet
		buf  strings.Builder
		line int
	)
	sc := bufio.NewScanner(bytes.NewReader(readme))
	for sc.Scan() {
		line++
		l := sc.Text()
		switch {
		case cur == nil && strings.TrimSpace(l) == "```go":
			cur = &snippet{line: line}
			buf.Reset()
		case cur != nil && strings.TrimSpace(l) == "```":
			cur.text = buf.String()
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			buf.WriteString(l + "\n")
		}
	}
	if cur != nil {
		t.Fatalf("README.md:%d: unterminated ```go block", cur.line)
	}
	return out
}

var packageClause = regexp.MustCompile(`(?m)^package ([A-Za-z_][A-Za-z0-9_]*)\s*$`)

// TestREADMESnippets writes every Go snippet of README.md into one module
// that uses this checkout, generates its forms, then runs go vet and go
// test on it. A snippet is either a complete file (it has a package
// clause; files of one package share a directory, each package main gets
// its own) or a lone //go:generate directive that some file repeats.
func TestREADMESnippets(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the README's code; skipped with -short")
	}
	readme, err := os.ReadFile(filepath.Join(testmod.Root(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := goBlocks(t, readme)
	if len(blocks) < 4 {
		t.Fatalf("found %d Go snippets in README.md; the extraction is broken", len(blocks))
	}

	// The snippets import the SDKs directly.
	dir := testmod.NewWithDeps(t, "example.com/readme")
	var directives []snippet
	var files []string
	mains := 0
	var stdioMains []stdioMain
	for _, b := range blocks {
		m := packageClause.FindStringSubmatch(b.text)
		if m == nil {
			if isDirectiveOnly(b.text) {
				directives = append(directives, b)
				continue
			}
			t.Errorf("README.md:%d: a Go snippet must be a complete file with a package clause (or a lone //go:generate line)", b.line)
			continue
		}
		pkg := strings.TrimSuffix(m[1], "_test")
		if pkg == "main" {
			mains++
			pkg = fmt.Sprintf("main%d", mains)
		}
		name := fmt.Sprintf("readme_l%d.go", b.line)
		if strings.HasSuffix(m[1], "_test") {
			name = fmt.Sprintf("readme_l%d_test.go", b.line)
		}
		path := filepath.Join(dir, pkg, name)
		testmod.WriteFile(t, path, []byte("// README.md:"+fmt.Sprint(b.line)+"\n\n"+b.text))
		if m[1] == "main" && (strings.Contains(b.text, "StdioTransport(0)") || strings.Contains(b.text, "ServeStdio(")) {
			stdioMains = append(stdioMains, stdioMain{line: b.line, pkg: pkg})
		}
		files = append(files, b.text)
	}
	for _, d := range directives {
		found := false
		for _, f := range files {
			if strings.Contains(f, strings.TrimSpace(d.text)) {
				found = true
			}
		}
		if !found {
			t.Errorf("README.md:%d: directive %q appears in no snippet file", d.line, strings.TrimSpace(d.text))
		}
	}
	if t.Failed() {
		return
	}

	res, err := gen.Generate(context.Background(), gen.Config{Dir: dir, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatalf("generating the README's forms: %v", err)
	}
	if len(res.Files) == 0 {
		t.Fatal("the README's snippets hold no form")
	}
	if _, err := gen.Write(res); err != nil {
		t.Fatal(err)
	}
	testmod.Go(t, dir, "vet", "-mod=mod", "./...")
	out := testmod.Go(t, dir, "test", "-mod=mod", "-count=1", "-v", "./...")
	if !strings.Contains(out, "--- PASS") {
		t.Fatalf("no README test ran:\n%s", out)
	}

	// A stdio server started by a client ends with status 0 when the
	// client hangs up after initializing.
	if len(stdioMains) == 0 {
		t.Fatal("the README has no stdio server snippet")
	}
	for _, m := range stdioMains {
		bin := filepath.Join(t.TempDir(), m.pkg)
		testmod.Go(t, dir, "build", "-mod=mod", "-o", bin, "./"+m.pkg)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		cmd := exec.CommandContext(ctx, bin)
		cmd.Env = append(os.Environ(), "ELICIT_STATE_KEYS=k1:"+base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, 32)))
		stdin, _ := cmd.StdinPipe()
		stdout, _ := cmd.StdoutPipe()
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"readme","version":"1"}}}`+"\n")
		reply, _ := bufio.NewReader(stdout).ReadString('\n')
		stdin.Close() // the client disconnects
		err := cmd.Wait()
		cancel()
		if !strings.Contains(reply, `"id":1`) || err != nil {
			t.Errorf("README.md:%d: the stdio server answered %q, then, after its client disconnected: %v\n%s", m.line, reply, err, stderr.Bytes())
		}
	}
}

// stdioMain is a package main of the README that serves stdio.
type stdioMain struct {
	line int
	pkg  string
}

func isDirectiveOnly(s string) bool {
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "//go:generate ") {
			return false
		}
	}
	return true
}
