// Package analyzer runs elicitgen's checks as a go/analysis pass, so that
// go vet, gopls-style drivers and multicheckers report bad elicit tags and
// stale generated files where they are, without running the generator.
//
// It is one implementation of the rules: each package is handed to
// gen.Analyze, exactly as elicitgen does, and every diagnostic is
// reported at its position. When the forms are valid, the generated
// elicit_gen.go and elicit_gen.json are rebuilt in memory and compared
// with the files in the package directory.
//
// Use it with go vet:
//
//	go install github.com/elicitgen/elicitgen/cmd/elicitvet
//	go vet -vettool=$(which elicitvet) ./...
package analyzer

import (
	"bytes"
	"errors"
	"go/ast"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/elicitgen/elicitgen/gen"
)

// Analyzer reports what elicitgen would reject in a package's forms, and
// generated files that are stale, missing or orphaned.
var Analyzer = &analysis.Analyzer{
	Name: "elicit",
	Doc: `check elicitgen forms and their generated files

The elicit analyzer applies elicitgen's rules to every struct that is a form
(a field tagged elicit:"..." or the doc line //elicit:form): MCP allows only
flat objects of strings, numbers, booleans and enums; tag options must be
known and consistent; defaults must fit the field; secrets must not be asked
in form mode. When the forms are valid it regenerates elicit_gen.go and
elicit_gen.json in memory and reports them when they differ from the files
on disk ("run go generate"), and reports an elicit_gen.go left in a package
that has no forms any more. Files of tests (_test.go) are not forms.`,
	URL:              "https://pkg.go.dev/github.com/elicitgen/elicitgen/gen/analyzer",
	Run:              run,
	RunDespiteErrors: true,
}

func run(pass *analysis.Pass) (any, error) {
	var files []*ast.File
	for _, f := range pass.Files {
		if !strings.HasSuffix(fileName(pass, f), "_test.go") {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		return nil, nil // an external test package, or only tests
	}
	dir := filepath.Dir(fileName(pass, files[0]))
	goPath, jsonPath := filepath.Join(dir, gen.GoFile), filepath.Join(dir, gen.SchemaFile)
	for _, e := range pass.TypeErrors {
		name := pass.Fset.Position(e.Pos).Filename
		if name != goPath && !gen.ToleratedTypeError(e.Msg) {
			return nil, nil // the driver reports the type errors; rules on a broken package would mislead
		}
	}

	pkg, info := pass.Pkg, pass.TypesInfo
	if len(files) < len(pass.Files) {
		// A test variant: type-check the package without its tests, so
		// that constants declared in tests do not become enum options.
		pkg, info = recheck(pass, files)
	}
	only, directive := generateTypes(files)
	src := &gen.Source{Fset: pass.Fset, Files: files, Types: pkg, Info: info, Dir: dir}
	model, diags := gen.Analyze(src, only)
	fallback := files[0].Name.Pos()
	if directive.IsValid() {
		fallback = directive
	}
	for _, d := range diags {
		pos := findPos(pass, d.Pos)
		msg := d.Msg
		if !pos.IsValid() {
			pos = fallback
			if d.Pos.IsValid() {
				msg = d.Pos.String() + ": " + msg
			}
		}
		pass.Report(analysis.Diagnostic{Pos: pos, Message: msg})
	}
	if len(diags) > 0 {
		return nil, nil
	}

	if len(model.Forms) == 0 {
		// Only an elicit_gen.go this build compiles is an orphan: one
		// excluded by its build constraint serves another configuration.
		if len(only) == 0 && model.HasGenerated {
			pos := fallback
			if f := fileByName(pass, goPath); f != nil {
				pos = f.Name.Pos()
			}
			pass.Reportf(pos, "%s is orphaned: the package has no forms; run go generate (or delete %s and %s)", gen.GoFile, gen.GoFile, gen.SchemaFile)
		}
		return nil, nil
	}
	at := findPos(pass, model.Forms[0].Pos)
	if !at.IsValid() {
		at = fallback
	}
	wantGo, err := gen.EmitGo(model)
	if err != nil {
		return nil, err
	}
	wantJSON, err := gen.EmitSchemaFile(model)
	if err != nil {
		return nil, err
	}
	for _, f := range []struct {
		path string
		want []byte
	}{{goPath, wantGo}, {jsonPath, wantJSON}} {
		got, err := readFile(pass, f.path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			pass.Reportf(at, "%s is missing: run go generate", filepath.Base(f.path))
		case err != nil:
			return nil, err
		case !bytes.Equal(got, f.want):
			reportStale(pass, model, f.path, got, at)
		}
	}
	return nil, nil
}

// reportStale reports a stale generated file at each form whose code or
// schema changed, by name, or at at when no single form is to blame.
func reportStale(pass *analysis.Pass, model *gen.Package, path string, got []byte, at token.Pos) {
	var stale []string
	if filepath.Base(path) == gen.GoFile {
		stale, _ = gen.StaleForms(model, got)
	}
	if len(stale) == 0 {
		pass.Reportf(at, "%s is stale: run go generate", filepath.Base(path))
		return
	}
	for _, name := range stale {
		pos := at
		for _, f := range model.Forms {
			if f.Name == name {
				if p := findPos(pass, f.Pos); p.IsValid() {
					pos = p
				}
			}
		}
		pass.Reportf(pos, "%s is stale for form %s (its fields, options or titles changed): run go generate", filepath.Base(path), name)
	}
}

func fileName(pass *analysis.Pass, f *ast.File) string {
	return pass.Fset.File(f.Pos()).Name()
}

func fileByName(pass *analysis.Pass, name string) *ast.File {
	for _, f := range pass.Files {
		if fileName(pass, f) == name {
			return f
		}
	}
	return nil
}

// findPos turns a position back into a token.Pos of the pass's file set:
// a file of the package first, else any file the set holds (such as a
// dependency's). It returns token.NoPos when there is no such file.
func findPos(pass *analysis.Pass, p token.Position) token.Pos {
	if !p.IsValid() || p.Filename == "" {
		return token.NoPos
	}
	var tf *token.File
	if f := fileByName(pass, p.Filename); f != nil {
		tf = pass.Fset.File(f.Pos())
	} else {
		pass.Fset.Iterate(func(f *token.File) bool {
			if f.Name() == p.Filename {
				tf = f
				return false
			}
			return true
		})
	}
	if tf == nil || p.Line < 1 || p.Line > tf.LineCount() {
		return token.NoPos
	}
	pos := tf.LineStart(p.Line)
	if p.Column > 1 {
		off := tf.Offset(pos) + p.Column - 1
		if off > tf.Size() {
			return pos
		}
		pos = tf.Pos(off)
	}
	return pos
}

// readFile reads a file of the package through the driver when it can
// (so editors see unsaved buffers), else from disk.
func readFile(pass *analysis.Pass, name string) ([]byte, error) {
	if pass.ReadFile != nil {
		if data, err := pass.ReadFile(name); err == nil {
			return data, nil
		}
	}
	return os.ReadFile(name)
}

// recheck type-checks files (the package without its tests) against the
// packages the pass already imported. Errors are ignored: the pass's own
// check has reported them, and generation tolerates the same ones.
func recheck(pass *analysis.Pass, files []*ast.File) (*types.Package, *types.Info) {
	imports := map[string]*types.Package{}
	for _, p := range pass.Pkg.Imports() {
		imports[p.Path()] = p
	}
	info := &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Implicits:  map[ast.Node]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
		Scopes:     map[ast.Node]*types.Scope{},
		Instances:  map[*ast.Ident]types.Instance{},
	}
	conf := types.Config{
		Importer:  importerFunc(func(path string) (*types.Package, error) { return lookup(imports, path) }),
		Sizes:     pass.TypesSizes,
		GoVersion: pass.Pkg.GoVersion(),
		Error:     func(error) {},
	}
	pkg, _ := conf.Check(pass.Pkg.Path(), pass.Fset, files, info)
	return pkg, info
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

func lookup(imports map[string]*types.Package, path string) (*types.Package, error) {
	if p, ok := imports[path]; ok {
		return p, nil
	}
	return nil, errors.New("package " + path + " is not imported by the package under analysis")
}

// generateTypes returns the --type list of the package's
// //go:generate directive that runs elicitgen's generate command, if any,
// and the directive's position: the analyzer must check the same forms the
// generator writes.
func generateTypes(files []*ast.File) ([]string, token.Pos) {
	for _, f := range files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				line, ok := strings.CutPrefix(c.Text, "//go:generate ")
				if !ok {
					continue
				}
				args, ok := generateArgs(strings.Fields(line))
				if !ok {
					continue
				}
				return typeFlag(args), c.Pos()
			}
		}
	}
	return nil, token.NoPos
}

// generateArgs returns the arguments after the elicitgen command of a
// generate directive, and whether the line runs elicitgen's generate
// command (the default) rather than another one such as docs.
func generateArgs(args []string) ([]string, bool) {
	for i, a := range args {
		name, _, _ := strings.Cut(a, "@")
		if name != "elicitgen" && !strings.HasSuffix(name, "/elicitgen") {
			continue
		}
		rest := args[i+1:]
		if len(rest) > 0 {
			switch rest[0] {
			case "schema", "check", "diff", "docs", "version", "help", "completion":
				return nil, false
			}
		}
		return rest, true
	}
	return nil, false
}

// typeFlag returns the type names of a --type flag in args.
func typeFlag(args []string) []string {
	for i, a := range args {
		var val string
		switch {
		case a == "--type" || a == "-type":
			if i+1 < len(args) {
				val = args[i+1]
			}
		case strings.HasPrefix(a, "--type=") || strings.HasPrefix(a, "-type="):
			_, val, _ = strings.Cut(a, "=")
		default:
			continue
		}
		var names []string
		for _, t := range strings.Split(val, ",") {
			if t = strings.TrimSpace(t); t != "" {
				names = append(names, t)
			}
		}
		return names
	}
	return nil
}
