package gen

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	goruntime "runtime"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// LoadTag is the build tag generation loads with. Every generated file
// is constrained to !LoadTag, so that while elicitgen loads a package the
// go command leaves its old output out entirely: not parsed, not
// type-checked, and not compiled for export data (which would cost a full
// compile of the package each time its forms changed). Files without the
// constraint (from older versions, or broken) are stubbed out by a
// ParseFile hook instead.
const LoadTag = "elicitgen_load"

// LoadMode is the go/packages mode elicitgen loads with. Besides syntax
// and types it keeps what the raw-input cache key digests (rawcache.go):
// the compiled files, the import graph with each import's export data
// file, the module and the sizes. These add nothing to the go list
// command that NeedTypes runs anyway (-compiled -export -deps).
const LoadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedExportFile | packages.NeedModule | packages.NeedTypesSizes |
	packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo

// ToleratedTypeError reports whether a type error is one that generation
// itself fixes (a call to a generated function not written yet), so that
// loading goes on despite it.
func ToleratedTypeError(msg string) bool { return tolerated.MatchString(msg) }

// tolerated matches type errors that generation itself fixes: calls to
// generated functions that do not exist yet.
var tolerated = regexp.MustCompile(`^(undefined: (\w+\.)?([Aa]sk|[Aa]ccept|[Dd]ecline|[Cc]ancel)\w+|undefined: (\w+\.)?\w+Schema|undefined: elicit\w+|.*has no field or method Validate\b.*)`)

// Load loads the packages of cfg with go/packages and returns them as
// Sources. Syntax and list errors, and type errors other than those in
// elicitgen's own output or about generated names not written yet, are
// returned as positioned Diagnostics.
func Load(ctx context.Context, cfg Config) ([]*Source, error) {
	srcs, _, err := load(ctx, cfg, nil)
	return srcs, err
}

// packagesConfig returns the go/packages configuration of cfg, mode
// aside: the raw-input cache lists packages with the same one.
func packagesConfig(ctx context.Context, cfg Config) (*packages.Config, []string) {
	patterns := cfg.Patterns
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	return &packages.Config{
		Context:    ctx,
		Dir:        absDir(cfg.Dir),
		Env:        cfg.Env,
		BuildFlags: []string{"-tags=" + strings.Join(append([]string{LoadTag}, cfg.Tags...), ",")},
	}, patterns
}

// load is Load; when log is set, it records each Go file as parsed, and
// the Sources record their translation catalogs as read, for the
// raw-input cache key. It also returns the root packages.
func load(ctx context.Context, cfg Config, log *readLog) ([]*Source, []*packages.Package, error) {
	if err := checkGOFLAGS(cfg.Env); err != nil {
		return nil, nil, err
	}
	pcfg, patterns := packagesConfig(ctx, cfg)
	pcfg.Mode = LoadMode
	dir := pcfg.Dir
	own, err := ownOutput(dir, patterns, cfg.Tags)
	if err != nil {
		return nil, nil, err
	}
	pcfg.ParseFile = own.parseFile
	if log != nil {
		pcfg.ParseFile = func(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
			log.goFileRead(filename, src, own.stub[filename])
			return own.parseFile(fset, filename, src)
		}
	}
	pkgs, err := packages.Load(pcfg, patterns...)
	if err != nil {
		return nil, nil, fmt.Errorf("loading packages: %w", err)
	}
	var diags Diagnostics
	var srcs []*Source
	skipped := 0
	for _, p := range pkgs {
		for _, e := range p.Errors {
			pos := parsePos(e.Pos)
			abs := pos.Filename
			if abs != "" && !filepath.IsAbs(abs) {
				abs = filepath.Join(dir, abs)
			}
			if own.stub[abs] {
				continue // the old output, which generation replaces
			}
			if e.Kind == packages.TypeError && (isGenerated(pos.Filename) || tolerated.MatchString(e.Msg)) {
				continue
			}
			if e.Kind == packages.ListError && strings.HasPrefix(e.Msg, "# ") && p.Types != nil && len(p.Syntax) > 0 && hasTypeErrors(p) {
				continue // the compiler's copy of errors the type checker reports
			}
			if e.Kind == packages.ListError && onlyGeneratedErrors(p, e.Msg) {
				continue // the compiler's view of a stale elicit_gen.go
			}
			msg := e.Msg
			if e.Kind == packages.TypeError {
				msg = "type error: " + msg
			}
			if pos.Filename == "" {
				msg = p.PkgPath + ": " + msg
			}
			diags = append(diags, Diagnostic{Pos: pos, Msg: msg})
		}
		if len(p.GoFiles) == 0 && len(p.Errors) == 0 {
			// Only tests (or only files other builds use): nothing can
			// be a form here. Skipped, as go vet skips it.
			skipped++
			continue
		}
		if p.Types == nil || p.TypesInfo == nil || len(p.GoFiles) == 0 {
			continue // its errors are reported above
		}
		pdir := filepath.Dir(p.GoFiles[0])
		srcs = append(srcs, &Source{
			Fset: p.Fset, Files: p.Syntax, Types: p.Types, Info: p.TypesInfo,
			Dir: pdir, HasGenerated: own.builds[pdir], log: log,
		})
	}
	if len(diags) > 0 {
		return nil, nil, diags.Sort().Relative(dir)
	}
	if len(srcs) == 0 && skipped == 0 {
		return nil, nil, errors.New("no packages matched " + strings.Join(patterns, " "))
	}
	return srcs, pkgs, nil
}

// output is what ownOutput found: elicitgen's own elicit_gen.go files in
// the directories to load.
//
// While loading, each of them reads as an empty file of its package (a
// packages.Config.ParseFile hook): the old generated code is never parsed
// or type-checked, so a stale, broken or half-merged file cannot block
// regeneration, and type-checking costs what the user's code costs. (A
// packages.Config.Overlay would do the same, but the go command does not
// cache builds of overlaid packages, which made every load 4x slower.)
type output struct {
	stub   map[string]bool // elicit_gen.go path -> stub it out
	builds map[string]bool // dir -> its elicit_gen.go is ours and builds
}

// parseFile is the packages.Config.ParseFile hook: it parses every file as
// go/packages would, except that an elicit_gen.go of ours is reduced to
// its package clause.
func (o output) parseFile(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
	const mode = parser.AllErrors | parser.ParseComments | parser.SkipObjectResolution
	if !o.stub[filename] {
		return parser.ParseFile(fset, filename, src, mode)
	}
	f, err := parser.ParseFile(fset, filename, src, parser.PackageClauseOnly)
	if err != nil || f.Name == nil {
		name := siblingPackage(filepath.Dir(filename))
		return parser.ParseFile(fset, filename, "package "+name+"\n", mode)
	}
	f.Imports, f.Comments = nil, nil
	return f, nil
}

// siblingPackage returns the package name of another Go file in dir, for
// a generated file too broken to say its own.
func siblingPackage(dir string) string {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if n := e.Name(); strings.HasSuffix(n, ".go") && n != GoFile && !strings.HasSuffix(n, "_test.go") {
			if f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, n), nil, parser.PackageClauseOnly); err == nil {
				return f.Name.Name
			}
		}
	}
	return "main"
}

// ownOutput finds the elicit_gen.go files of the directories that
// patterns name (".", "./x", "./x/...", absolute directories; packages
// named by import path are loaded with their generated file). A file without elicitgen's header is the user's own: it is
// reported, once, as a Diagnostic, since generating would clobber it.
func ownOutput(base string, patterns, tags []string) (output, error) {
	out := output{stub: map[string]bool{}, builds: map[string]bool{}}
	var diags Diagnostics
	visit := func(dir string) {
		path := filepath.Join(dir, GoFile)
		if _, err := os.Stat(path); err != nil {
			return
		}
		if !hasHeader(path) {
			diags = append(diags, Diagnostic{Pos: token.Position{Filename: path, Line: 1, Column: 1},
				Msg: "refusing to overwrite " + GoFile + ": it was not written by elicitgen (it lacks the generated-code header); rename it, or delete it to let elicitgen write it"})
			return
		}
		out.stub[path] = true
		out.builds[dir] = buildsWith(path, tags)
	}
	for _, pat := range patterns {
		if !(pat == "." || pat == ".." || strings.HasPrefix(pat, "./") || strings.HasPrefix(pat, "../") || filepath.IsAbs(pat)) {
			continue
		}
		root, recursive := strings.CutSuffix(pat, "/...")
		if pat == "..." {
			root, recursive = ".", true
		}
		if !filepath.IsAbs(root) {
			root = filepath.Join(base, root)
		}
		if !recursive {
			visit(root)
			continue
		}
		_ = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil || !d.IsDir() {
				return nil
			}
			name := d.Name()
			if path != root && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			if path != root {
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
					return filepath.SkipDir // another module
				}
			}
			visit(path)
			return nil
		})
	}
	if len(diags) > 0 {
		return out, diags.Sort().Relative(base)
	}
	return out, nil
}

// buildsWith reports whether the generated file at path is part of the
// build with tags: its //go:build line (it has at most one, copied from
// the forms' files) holds for GOOS, GOARCH, the release tags and tags.
func buildsWith(path string, tags []string) bool {
	b, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "package ") {
			break
		}
		if !constraint.IsGoBuild(line) {
			continue
		}
		expr, err := constraint.Parse(line)
		if err != nil {
			return true
		}
		have := map[string]bool{goruntime.GOOS: true, goruntime.GOARCH: true, "gc": true}
		if goruntime.GOOS != "windows" && goruntime.GOOS != "plan9" {
			have["unix"] = true
		}
		for _, t := range build.Default.ReleaseTags {
			have[t] = true
		}
		for _, t := range tags {
			have[t] = true
		}
		return expr.Eval(func(tag string) bool { return have[tag] })
	}
	return true
}

// parsePos parses "file:line:col" (or "file:line" or "file").
func parsePos(s string) token.Position {
	if s == "" || s == "-" {
		return token.Position{}
	}
	var pos token.Position
	parts := strings.Split(s, ":")
	// Walk from the end: trailing numeric parts are line and column.
	nums := []int{}
	for len(parts) > 1 && len(nums) < 2 {
		n, err := strconv.Atoi(parts[len(parts)-1])
		if err != nil {
			break
		}
		nums = append([]int{n}, nums...)
		parts = parts[:len(parts)-1]
	}
	pos.Filename = strings.Join(parts, ":")
	if len(nums) > 0 {
		pos.Line = nums[0]
	}
	if len(nums) > 1 {
		pos.Column = nums[1]
	}
	return pos
}

// isGenerated reports whether path is a file elicitgen wrote: its first
// line is our header (Go) or it sits beside such a Go file (schema).
func isGenerated(path string) bool {
	if path == "" {
		return false
	}
	if filepath.Base(path) == SchemaFile {
		return filepath.Dir(path) != "" && hasHeader(filepath.Join(filepath.Dir(path), GoFile))
	}
	return hasHeader(path)
}

// compilesOwnOutput reports whether files, a package's compiled files,
// hold an elicit_gen.go of ours.
func compilesOwnOutput(files []string) bool {
	for _, f := range files {
		if filepath.Base(f) == GoFile && isGenerated(f) {
			return true
		}
	}
	return false
}

func hasHeader(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, len(Header)+2)
	n, _ := f.Read(buf)
	return strings.HasPrefix(string(buf[:n]), Header+"\n") || strings.HasPrefix(string(buf[:n]), Header+"\r")
}

// onlyGeneratedErrors reports whether a go list compile error (lines of
// "file:line:col: msg") is only about elicitgen's own output or names it
// is about to generate: regenerating fixes those.
func onlyGeneratedErrors(p *packages.Package, msg string) bool {
	dir := ""
	if len(p.GoFiles) > 0 {
		dir = filepath.Dir(p.GoFiles[0])
	}
	any := false
	for _, line := range strings.Split(msg, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		file, rest, ok := strings.Cut(line, ":")
		if !ok {
			return false
		}
		if !filepath.IsAbs(file) {
			file = filepath.Join(dir, file)
		}
		_, text, _ := strings.Cut(rest, ": ")
		if !isGenerated(file) && !tolerated.MatchString(strings.TrimSpace(text)) {
			return false
		}
		any = true
	}
	return any
}

func hasTypeErrors(p *packages.Package) bool {
	for _, e := range p.Errors {
		if e.Kind == packages.TypeError {
			return true
		}
	}
	return false
}
