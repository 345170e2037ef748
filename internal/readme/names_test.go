package readme_test

import (
	"bufio"
	"bytes"
	"fmt"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/tools/go/packages"

	"github.com/elicitgen/elicitgen/internal/testmod"
)

// prose is the text of a Markdown file outside its fenced code blocks,
// line by line (fenced Go is compiled by TestREADMESnippets), and the
// lines of its shell blocks.
type prose struct {
	file  string
	lines []string // index i is line i+1; fenced lines are ""
	shell []string // index i is line i+1; lines outside ```sh blocks are ""
}

// checkedFiles are the Markdown files whose names and paths must
// resolve: README.md, docs/*.md and BENCHMARKS.md (CHANGELOG.md names
// old names on purpose).
func checkedFiles(t *testing.T) []string {
	return append(markdownFiles(t), "BENCHMARKS.md")
}

func readProse(t *testing.T, file string) prose {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testmod.Root(t), file))
	if err != nil {
		t.Fatal(err)
	}
	p := prose{file: file}
	fenced, shell := false, false
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		l := sc.Text()
		if fence := strings.TrimSpace(l); strings.HasPrefix(fence, "```") {
			fenced = !fenced
			lang := strings.TrimPrefix(fence, "```")
			shell = fenced && (lang == "sh" || lang == "bash" || lang == "shell")
			p.lines = append(p.lines, "")
			p.shell = append(p.shell, "")
			continue
		}
		sh := ""
		if shell {
			sh = l
		}
		if fenced {
			l = ""
		}
		p.lines = append(p.lines, l)
		p.shell = append(p.shell, sh)
	}
	return p
}

// codeSpans returns the `code spans` of the prose with their lines. A
// span may run over a line break.
func (p prose) codeSpans() (spans []string, lines []int) {
	text := strings.Join(p.lines, "\n")
	for i := 0; ; {
		a := strings.IndexByte(text[i:], '`')
		if a < 0 {
			return
		}
		a += i
		n := a
		for n < len(text) && text[n] == '`' {
			n++
		}
		ticks := text[a:n]
		b := strings.Index(text[n:], ticks)
		if b < 0 {
			return
		}
		b += n
		spans = append(spans, strings.ReplaceAll(text[n:b], "\n", " "))
		lines = append(lines, 1+strings.Count(text[:a], "\n"))
		i = b + len(ticks)
	}
}

// The packages whose names the Markdown files may qualify: every
// non-internal package of the runtime and the generator.
func loadAPI(t *testing.T) map[string]*types.Package {
	t.Helper()
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes, Dir: testmod.Root(t)}
	pkgs, err := packages.Load(cfg, "./runtime/...", "./gen/...")
	if err != nil {
		t.Fatal(err)
	}
	api := map[string]*types.Package{}
	dup := map[string]bool{}
	for _, p := range pkgs {
		if strings.Contains(p.PkgPath, "/internal") || p.Types == nil || strings.HasSuffix(p.PkgPath, ".test") {
			continue
		}
		if _, ok := api[p.Name]; ok {
			dup[p.Name] = true
		}
		api[p.Name] = p.Types
	}
	for n := range dup {
		delete(api, n) // ambiguous: not checked
	}
	// Go's own runtime package shares the name: runtime.NumGoroutine is
	// that one's.
	std, err := packages.Load(cfg, "runtime")
	if err != nil || len(std) != 1 || std[0].Types == nil {
		t.Fatalf("loading Go's runtime package: %v", err)
	}
	api[goRuntimeKey] = std[0].Types
	if api["runtime"] == nil || api["gosdk"] == nil || api["elicittest"] == nil {
		t.Fatalf("loaded %d packages without runtime, gosdk or elicittest", len(api))
	}
	return api
}

// goRuntimeKey is the key of Go's runtime package, whose name this
// module's runtime shares, in loadAPI's map.
const goRuntimeKey = "go:runtime"

// qualified matches pkg.Name and pkg.Name.Member (a field or method), or
// pkg.Prefix* for a family of names.
var qualified = regexp.MustCompile(`(?:^|[^\w./-])([a-z][a-z0-9]*)\.([A-Z]\w*)(\*|\.[A-Z]\w*)?`)

// resolve reports why pkg.name(.member) does not name a declaration of
// api ("" when it does).
func resolve(api map[string]*types.Package, pkg, name, rest string) string {
	p := api[pkg]
	if p == nil {
		return "" // not one of ours (mcp., slog., http....)
	}
	if rest == "*" {
		for _, n := range p.Scope().Names() {
			if strings.HasPrefix(n, name) {
				return ""
			}
		}
		return fmt.Sprintf("package %s declares no name starting with %s", p.Path(), name)
	}
	obj := p.Scope().Lookup(name)
	if g := api[goRuntimeKey]; obj == nil && pkg == "runtime" && g != nil && g.Scope().Lookup(name) != nil {
		return "" // Go's runtime
	}
	if obj == nil || !obj.Exported() {
		return fmt.Sprintf("package %s declares no %s", p.Path(), name)
	}
	if rest == "" {
		return ""
	}
	member := rest[1:]
	typ := obj.Type()
	if _, ok := obj.(*types.TypeName); !ok {
		return "" // a method value or field of a variable: not checked
	}
	if m, _, _ := types.LookupFieldOrMethod(typ, true, p, member); m == nil {
		if m, _, _ := types.LookupFieldOrMethod(types.NewPointer(typ), true, p, member); m == nil {
			return fmt.Sprintf("%s.%s has no field or method %s", pkg, name, member)
		}
	}
	return ""
}

// TestMarkdownNamesResolve: every qualified Go name of this module in
// README.md's and docs/*.md's prose (runtime.WithRetries,
// gosdk.Config.Observer...) names a declaration, field or method that
// exists.
func TestMarkdownNamesResolve(t *testing.T) {
	api := loadAPI(t)
	checked := 0
	for _, f := range checkedFiles(t) {
		p := readProse(t, f)
		spans, lines := p.codeSpans()
		for i, s := range spans {
			for _, m := range qualified.FindAllStringSubmatch(s, -1) {
				if api[m[1]] != nil {
					checked++
				}
				if why := resolve(api, m[1], m[2], m[3]); why != "" {
					t.Errorf("%s:%d: `%s`: %s", f, lines[i], strings.TrimSpace(m[0]), why)
				}
			}
		}
	}
	if checked < 50 {
		t.Fatalf("checked %d qualified names; the extraction is broken", checked)
	}
}

func TestResolveCatchesStaleNames(t *testing.T) {
	api := loadAPI(t)
	for _, c := range [][3]string{
		{"runtime", "RequireURL", ""},       // moved to adapter
		{"gosdk", "Config", ".NoSuchField"}, // no such field
		{"runtime", "NoSuchPrefix", "*"},    // no such family
	} {
		if why := resolve(api, c[0], c[1], c[2]); why == "" {
			t.Errorf("%s.%s%s resolved", c[0], c[1], c[2])
		}
	}
	for _, c := range [][3]string{
		{"deliver", "RequireURL", ""},
		{"gosdk", "Config", ".Keys"},
		{"runtime", "Log", "*"},
		{"elicittest", "Asker", ".Requests"},
	} {
		if why := resolve(api, c[0], c[1], c[2]); why != "" {
			t.Errorf("%s.%s%s: %s", c[0], c[1], c[2], why)
		}
	}
}

// link matches a Markdown link's target.
var link = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestMarkdownPathsExist: every ./path in a code span (relative to the
// checkout, where the commands run) and every relative link (relative to
// its file, with its #anchor) of README.md and docs/*.md exists.
func TestMarkdownPathsExist(t *testing.T) {
	root := testmod.Root(t)
	anchors := map[string]map[string]bool{}
	anchorsOf := func(file string) map[string]bool {
		if a, ok := anchors[file]; ok {
			return a
		}
		a := headingAnchors(t, file)
		anchors[file] = a
		return a
	}
	for _, f := range checkedFiles(t) {
		p := readProse(t, f)
		spans, lines := p.codeSpans()
		for n, l := range p.shell {
			if l != "" {
				spans, lines = append(spans, l), append(lines, n+1)
			}
		}
		for i, s := range spans {
			for _, tok := range strings.Fields(s) {
				if !strings.HasPrefix(tok, "./") {
					continue
				}
				path := strings.TrimRight(tok, ".,;:)'\"")
				path = strings.TrimSuffix(strings.TrimSuffix(path, "..."), "/")
				if path == "." || path == "" {
					continue
				}
				if _, err := os.Stat(filepath.Join(root, path)); err != nil {
					t.Errorf("%s:%d: `%s`: %s does not exist in the checkout", f, lines[i], s, path)
				}
			}
		}
		for n, l := range p.lines {
			for _, m := range link.FindAllStringSubmatch(stripSpans(l), -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				path, anchor, _ := strings.Cut(target, "#")
				file := f
				if path != "" {
					file = filepath.ToSlash(filepath.Join(filepath.Dir(f), path))
					if _, err := os.Stat(filepath.Join(root, file)); err != nil {
						t.Errorf("%s:%d: link %s: %s does not exist", f, n+1, target, file)
						continue
					}
				}
				if anchor != "" && strings.HasSuffix(file, ".md") && !anchorsOf(file)[anchor] {
					t.Errorf("%s:%d: link %s: %s has no heading #%s", f, n+1, target, file, anchor)
				}
			}
		}
	}
}

// stripSpans blanks the code spans of one line, so that a link written
// as code is not checked.
func stripSpans(l string) string {
	parts := strings.Split(l, "`")
	for i := 1; i < len(parts); i += 2 {
		parts[i] = ""
	}
	return strings.Join(parts, "`")
}

// headingAnchors returns the anchors GitHub gives the headings of file.
func headingAnchors(t *testing.T, file string) map[string]bool {
	p := readProse(t, file)
	seen := map[string]int{}
	out := map[string]bool{}
	for _, l := range p.lines {
		if !strings.HasPrefix(l, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(l, "#"))
		a := slug(h)
		if n := seen[a]; n > 0 {
			out[fmt.Sprintf("%s-%d", a, n)] = true
		} else {
			out[a] = true
		}
		seen[a]++
	}
	return out
}

// slug is GitHub's anchor for a heading: lower case, spaces to hyphens,
// punctuation other than - and _ dropped.
func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestREADMEFitsAScreenful: README.md stays at most 400 lines; the rest
// belongs in docs/ and in go doc.
func TestREADMEFitsAScreenful(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(testmod.Root(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(b, []byte("\n")); n > 400 {
		t.Errorf("README.md has %d lines, more than 400: move reference material to docs/*.md or a package doc", n)
	}
}
