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

// snippet is one ```go block of a Markdown file.
type snippet struct {
	file string // the Markdown file, relative to the checkout
	line int    // 1-based line of the opening fence
	text string // the code, without fences
}

// where is the snippet's position, file:line.
func (s snippet) where() string { return fmt.Sprintf("%s:%d", s.file, s.line) }

// markdownFiles returns README.md and docs/*.md, relative to the
// checkout, in order.
func markdownFiles(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join(testmod.Root(t), "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files := []string{"README.md"}
	for _, d := range docs {
		files = append(files, filepath.ToSlash(filepath.Join("docs", filepath.Base(d))))
	}
	return files
}

// goBlocks returns the ```go blocks of the Markdown file named file.
func goBlocks(t *testing.T, file string, readme []byte) []snippet {
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
			cur = &snippet{file: file, line: line}
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
		t.Fatalf("%s: unterminated ```go block", cur.where())
	}
	return out
}

var packageClause = regexp.MustCompile(`(?m)^package ([A-Za-z_][A-Za-z0-9_]*)\s*$`)

// TestREADMESnippets writes every Go snippet of README.md and docs/*.md
// into one module that uses this checkout, generates its forms, then runs
// go vet and go test on it. A snippet is either a complete file (it has a
// package clause; files of one package share a directory, whichever
// Markdown file they are in, and each package main gets its own) or a
// lone //go:generate directive that some file repeats.
func TestREADMESnippets(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the Markdown files' code; skipped with -short")
	}
	var blocks []snippet
	for _, f := range markdownFiles(t) {
		text, err := os.ReadFile(filepath.Join(testmod.Root(t), f))
		if err != nil {
			t.Fatal(err)
		}
		blocks = append(blocks, goBlocks(t, f, text)...)
	}
	if len(blocks) < 10 {
		t.Fatalf("found %d Go snippets in the Markdown files; the extraction is broken", len(blocks))
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
			t.Errorf("%s: a Go snippet must be a complete file with a package clause (or a lone //go:generate line)", b.where())
			continue
		}
		pkg := strings.TrimSuffix(m[1], "_test")
		if pkg == "main" {
			mains++
			pkg = fmt.Sprintf("main%d", mains)
		}
		base := strings.NewReplacer("/", "_", ".md", "", ".", "_").Replace(strings.ToLower(b.file))
		name := fmt.Sprintf("%s_l%d.go", base, b.line)
		if strings.HasSuffix(m[1], "_test") {
			name = fmt.Sprintf("%s_l%d_test.go", base, b.line)
		}
		path := filepath.Join(dir, pkg, name)
		testmod.WriteFile(t, path, []byte("// "+b.where()+"\n\n"+b.text))
		if m[1] == "main" && (strings.Contains(b.text, "StdioTransport(0)") || strings.Contains(b.text, "ServeStdio(")) {
			stdioMains = append(stdioMains, stdioMain{where: b.where(), pkg: pkg})
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
			t.Errorf("%s: directive %q appears in no snippet file", d.where(), strings.TrimSpace(d.text))
		}
	}
	if t.Failed() {
		return
	}

	res, err := gen.Generate(context.Background(), gen.Config{Dir: dir, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatalf("generating the Markdown files' forms: %v", err)
	}
	if len(res.Files) == 0 {
		t.Fatal("the Markdown files' snippets hold no form")
	}
	if _, err := gen.Write(res); err != nil {
		t.Fatal(err)
	}
	testmod.Go(t, dir, "vet", "-mod=mod", "./...")
	out := testmod.Go(t, dir, "test", "-mod=mod", "-count=1", "-v", "./...")
	if !strings.Contains(out, "--- PASS") {
		t.Fatalf("no test of the Markdown files ran:\n%s", out)
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
			t.Errorf("%s: the stdio server answered %q, then, after its client disconnected: %v\n%s", m.where, reply, err, stderr.Bytes())
		}
	}
}

// stdioMain is a package main of a Markdown file that serves stdio.
type stdioMain struct {
	where string
	pkg   string
}

func isDirectiveOnly(s string) bool {
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "//go:generate ") {
			return false
		}
	}
	return true
}
