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
flat objects of strings, numbers, booleans and enums; struct tags that
mention elicit must be ones reflect can read; tag options must be known and
consistent; defaults must fit the field; secrets must not be asked in form
mode; names must not clash with the generated file's. When the forms are valid it regenerates elicit_gen.go and
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
	only, directive := gen.DirectiveTypes(files)
	src := &gen.Source{Fset: pass.Fset, Files: files, Types: pkg, Info: info, Dir: dir}
	model, diags := gen.Analyze(src, only)
	diags = append(diags, gen.LoadLocales(src, model, len(only) > 0)...) // translation catalogs
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
	var got [2][]byte
	for i, path := range []string{goPath, jsonPath} {
		data, err := readFile(pass, path)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		got[i] = data
	}
	if bytes.Equal(got[0], wantGo) && bytes.Equal(got[1], wantJSON) {
		return nil, nil
	}
	// Staleness is reported at the form that changed, by name, as
	// elicitgen check does.
	for _, s := range gen.StaleForms(model, got[0], wantGo, got[1], wantJSON) {
		pos := findPos(pass, s.Pos)
		if !pos.IsValid() {
			pos = at
		}
		pass.Report(analysis.Diagnostic{Pos: pos, Message: s.Msg})
	}
	return nil, nil
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
