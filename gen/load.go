package gen

import (
	"context"
	"errors"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// LoadMode is the go/packages mode elicitgen loads with.
const LoadMode = packages.NeedName | packages.NeedFiles | packages.NeedSyntax |
	packages.NeedTypes | packages.NeedTypesInfo

// ToleratedTypeError reports whether a type error is one that generation
// itself fixes (a call to a generated function not written yet), so that
// loading goes on despite it.
func ToleratedTypeError(msg string) bool { return tolerated.MatchString(msg) }

// tolerated matches type errors that generation itself fixes: calls to
// generated functions that do not exist yet.
var tolerated = regexp.MustCompile(`^(undefined: ([Aa]sk|[Aa]ccept|[Dd]ecline|[Cc]ancel)\w+|undefined: \w+Schema|undefined: elicit\w+|.*has no field or method Validate\b.*)`)

// Load loads the packages of cfg with go/packages and returns them as
// Sources. Syntax and list errors, and type errors other than those in
// elicitgen's own output or about generated names not written yet, are
// returned as positioned Diagnostics.
func Load(ctx context.Context, cfg Config) ([]*Source, error) {
	dir := absDir(cfg.Dir)
	pcfg := &packages.Config{
		Context: ctx,
		Mode:    LoadMode,
		Dir:     dir,
		Env:     cfg.Env,
	}
	if len(cfg.Tags) > 0 {
		pcfg.BuildFlags = []string{"-tags=" + strings.Join(cfg.Tags, ",")}
	}
	patterns := cfg.Patterns
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	pkgs, err := packages.Load(pcfg, patterns...)
	if err != nil {
		return nil, fmt.Errorf("loading packages: %w", err)
	}
	var diags Diagnostics
	var srcs []*Source
	for _, p := range pkgs {
		for _, e := range p.Errors {
			pos := parsePos(e.Pos)
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
		if p.Types == nil || p.TypesInfo == nil || len(p.GoFiles) == 0 {
			if len(p.Errors) == 0 {
				diags = append(diags, Diagnostic{Msg: fmt.Sprintf("%s: no Go files", p.PkgPath)})
			}
			continue
		}
		srcs = append(srcs, &Source{
			Fset: p.Fset, Files: p.Syntax, Types: p.Types, Info: p.TypesInfo,
			Dir: filepath.Dir(p.GoFiles[0]),
		})
	}
	if len(diags) > 0 {
		return nil, diags.Sort().Relative(dir)
	}
	if len(srcs) == 0 {
		return nil, errors.New("no packages matched " + strings.Join(patterns, " "))
	}
	return srcs, nil
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
