package gen

import (
	"bytes"
	"context"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/internal/testmod"
)

// formatCases is a package whose forms exercise every layout the emitter
// fills in from stamps, and those it renders whole: fields skipped by
// elicit but guarded (maps, channels, funcs, inline structs, generic
// types, arrays), Unicode names, tags that must be quoted (a tab, a NUL,
// bidirectional controls), an embedded struct from another package,
// defaults of every type, negative and huge bounds, a form without
// properties, and translations.
var formatCases = map[string]string{
	"other/other.go": `package other

type Base struct {
	Region string ` + "`json:\"region\" elicit:\"minLength=2\"`" + `
}
`,
	"forms.go": `package forms

import (
	"time"

	"example.com/fmtcase/other"
)

type Pair[K comparable, V any] struct{ K K; V V }

type Color string

const (
	Red  Color = "red"  // Red
	Blue Color = "blue" // Blue
)

// Odd holds what the guard must copy exactly.
type Odd struct {
	other.Base
	Neg     int    ` + "`json:\"neg\" elicit:\"min=-5,max=-1,default=-3\"`" + `
	Huge    float64 ` + "`json:\"huge\" elicit:\"min=-1e15,max=2.5e15,default=1.5e15\"`" + `
	Whole   float64 ` + "`json:\"whole\" elicit:\"default=2\"`" + `
	U       uint64  ` + "`json:\"u64\" elicit:\"max=9007199254740991,default=7\"`" + `
	Colors  []Color ` + "`json:\"colors\" elicit:\"default=red|blue\"`" + `
	When    *time.Time ` + "`json:\"when,omitempty\"`" + `
	M       map[string][]int   ` + "`json:\"-\"`" + `
	C       <-chan struct{}    ` + "`json:\"-\"`" + `
	F       func(int, ...string) (bool, error) ` + "`json:\"-\"`" + `
	A       [3]*Pair[string, int] ` + "`json:\"-\"`" + `
	S       struct {
		X, Y int
	} ` + "`json:\"-\"`" + `
	I       interface{} ` + "`json:\"-\"`" + `
	plain   int
}

// Plain has a field whose line is not aligned with a tag.
type Plain struct {
	Name  string ` + "`elicit:\"title=Name\"`" + `
	Other int    ` + "`json:\"-\"`" + `
	Last  bool
	X     Color ` + "`json:\"x\"`" + `
	Ünïcode string ` + "`json:\"u\" elicit:\"title=Ünïcode " + "\u202e" + "txt\"`" + `
	Tabbed  string "json:\"tabbed\" elicit:\"maxLength=3,desc=x\ty\""
	Nul     string "json:\"nul\" elicit:\"desc=a\x00b\""
}

//elicit:form
type Empty struct{}
`,
	"elicit.ja.json": `{"Plain": {"Name": {"title": "名前 \u202e"}}}`,
}

// TestEmitGoIsFormatted: EmitGo formats its file once and fills the rest
// in from stamps; the result must be exactly what gofmt prints, and must
// hold no raw control or bidirectional character.
func TestEmitGoIsFormatted(t *testing.T) {
	dir := testmod.New(t, "example.com/fmtcase")
	for name, src := range formatCases {
		testmod.WriteFile(t, filepath.Join(dir, name), []byte(src))
	}
	res, err := Generate(context.Background(), Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var src []byte
	for _, f := range res.Files {
		if filepath.Base(f.Path) == GoFile {
			src = f.Content
		}
	}
	if src == nil {
		t.Fatal("no Go file generated")
	}
	checkFormatted(t, src)
	for _, want := range []string{
		`"json:\"tabbed\" elicit:\"maxLength=3,desc=x\ty\""`,
		`"json:\"nul\" elicit:\"desc=a\x00b\""`,
		`"json:\"u\" elicit:\"title=Ünïcode \u202etxt\""`,
		`"default":-3`,
		`"default":2`,
		`"default":["red","blue"]`,
		`"title":"Ünïcode \u202etxt"`,
		"\nvar elicitFormEmpty = elicitimpl.Form{Type: (*Empty)(nil), Spec: `{\"name\":\"Empty\",\"properties\":[]}`}\n",
		"\tother.Base\n",
		"= other.Base{}",
	} {
		if !bytes.Contains(src, []byte(want)) {
			t.Errorf("generated file lacks %s", want)
		}
	}
	if t.Failed() {
		t.Logf("generated:\n%s", src)
	}
	// The layout: the API of every form, then the guards, then the data.
	api := bytes.Index(src, []byte("func AskEmpty("))
	guard := bytes.Index(src, []byte("type _Odd_changed_since"))
	data := bytes.Index(src, []byte("var elicitFormEmpty ="))
	if !(api > 0 && api < guard && guard < data) {
		t.Errorf("want the API (at %d) before the guards (%d) before the data (%d)", api, guard, data)
	}
	buildModule(t, dir, res)
}

// checkFormatted fails unless src is gofmt's output and free of raw
// control and bidirectional-formatting characters.
func checkFormatted(t *testing.T, src []byte) {
	t.Helper()
	formatted, err := format.Source(src)
	if err != nil {
		t.Fatalf("generated code does not parse: %v\n%s", err, numbered(src))
	}
	if !bytes.Equal(formatted, src) {
		t.Errorf("generated code is not gofmt's output; gofmt gives:\n%s", lineDiff(string(src), string(formatted)))
	}
	for i, line := range strings.Split(string(src), "\n") {
		if !plainText(strings.ReplaceAll(line, "\t", " ")) {
			t.Errorf("line %d holds a raw control or bidirectional character: %q", i+1, line)
		}
	}
}

// lineDiff shows the first lines where a and b differ.
func lineDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	var sb strings.Builder
	shown := 0
	for i := 0; i < max(len(al), len(bl)) && shown < 10; i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			shown++
			sb.WriteString("line " + strconv.Itoa(i+1) + ":\n  got:  " + x + "\n  want: " + y + "\n")
		}
	}
	return sb.String()
}

// buildModule writes the generated files and runs go vet on the module,
// which compiles it.
func buildModule(t *testing.T, dir string, res *Result) {
	t.Helper()
	if testing.Short() {
		return
	}
	if _, err := Write(res); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "vet", "./...")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go vet: %v\n%s", err, out)
	}
}

// TestSourceLine: a file name that would not read as itself in the
// header's comment is quoted.
func TestSourceLine(t *testing.T) {
	for _, tc := range []struct {
		files []string
		want  string
	}{
		{[]string{"a.go", "b.go"}, "a.go, b.go"},
		{[]string{"a\u202eog.b"}, `"a\u202eog.b"`},
		{[]string{"new\nline.go"}, `"new\nline.go"`},
		{[]string{"nul\x00.go"}, `"nul\x00.go"`},
		{[]string{"co,mma.go"}, `"co,mma.go"`},
		{[]string{"\u2066iso.go"}, `"\u2066iso.go"`},
	} {
		if got := sourceLine(tc.files); got != tc.want {
			t.Errorf("sourceLine(%q) = %s, want %s", tc.files, got, tc.want)
		}
	}
}

// TestTagLiteral: a tag with any character that is not printable is
// written quoted, so that the generated file holds it escaped.
func TestTagLiteral(t *testing.T) {
	for _, tc := range []struct{ tag, want string }{
		{`json:"a"`, "`json:\"a\"`"},
		{"json:\"a\u202e\"", `"json:\"a\u202e\""`},
		{"json:\"a\u2069\"", `"json:\"a\u2069\""`},
		{"a\tb", `"a\tb"`},
		{"a\x00b", `"a\x00b"`},
		{"a`b", "\"a`b\""},
		{"ü ✓", "`ü ✓`"},
	} {
		if got := tagLiteral(tc.tag); got != tc.want {
			t.Errorf("tagLiteral(%q) = %s, want %s", tc.tag, got, tc.want)
		}
	}
}

// TestEmitGoAddingAFormOnlyAddsLines: a form's generated code names
// nothing by position, so adding a form near the top of a package (before
// forms with translations, an arguments struct and enums) adds lines to
// elicit_gen.go and deletes or changes none.
func TestEmitGoAddingAFormOnlyAddsLines(t *testing.T) {
	const tail = `
type Env string

const (
	Staging Env = "staging" // Staging
	Prod    Env = "prod"    // Production
)

// Deploy ships a branch.
type Deploy struct {
	Branch string ` + "`json:\"branch\" elicit:\"title=Branch,minLength=1\"`" + `
	Env    Env    ` + "`json:\"env\"`" + `
}

// Book reserves a table.
type Book struct {
	Date string ` + "`json:\"date,omitempty\" elicit:\"ask,format=date\"`" + `
}

//elicit:form
type Empty struct{}
`
	generate := func(t *testing.T, src string) []byte {
		dir := testmod.New(t, "example.com/addform")
		testmod.WriteFile(t, filepath.Join(dir, "forms.go"), []byte(src))
		testmod.WriteFile(t, filepath.Join(dir, "elicit.ja.json"), []byte(`{"Deploy": {"branch": {"title": "ブランチ"}}}`))
		res, err := Generate(context.Background(), Config{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range res.Files {
			if filepath.Base(f.Path) == GoFile {
				return f.Content
			}
		}
		t.Fatal("no Go file generated")
		return nil
	}
	before := generate(t, "package forms\n"+tail)
	after := generate(t, `package forms

// Rollback undoes a deploy.
type Rollback struct {
	To  string `+"`json:\"to\" elicit:\"title=Version\"`"+`
	Env Env    `+"`json:\"env\"`"+`
}
`+tail)
	if removed := removedLines(strings.Split(string(before), "\n"), strings.Split(string(after), "\n")); len(removed) > 0 {
		t.Errorf("adding a form deleted or changed %d lines of %s, first %q", len(removed), GoFile, removed[0])
	}
	if !bytes.Contains(after, []byte("func AskRollback(")) {
		t.Error("the new form has no AskRollback")
	}
	checkAPIFunctions(t, after)
}

// checkAPIFunctions fails if a generated file declares an exported
// package-level variable or an init function: a form's API is functions
// and methods.
func checkAPIFunctions(t *testing.T, src []byte) {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), GoFile, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Name.Name == "init" {
				t.Error("the generated file has an init function")
			}
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				if vs, ok := sp.(*ast.ValueSpec); ok && d.Tok == token.VAR {
					for _, n := range vs.Names {
						if n.IsExported() {
							t.Errorf("the generated file declares the variable %s", n.Name)
						}
					}
				}
			}
		}
	}
}

// removedLines returns the lines of a that are not in b in order: with b
// a's lines plus insertions, none; otherwise what a longest common
// subsequence leaves out of a.
func removedLines(a, b []string) []string {
	// lcs[i][j] is the length of the LCS of a[i:] and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []string
	i, j := 0, 0
	for i < len(a) {
		switch {
		case j < len(b) && a[i] == b[j]:
			i, j = i+1, j+1
		case j < len(b) && lcs[i][j+1] >= lcs[i+1][j]:
			j++
		default:
			out = append(out, a[i])
			i++
		}
	}
	return out
}

// TestNestedHintCompiles applies the change the nested-struct error names,
// as written, and the package generates and builds: embedding the struct
// in place of the field, and declaring an unnamed struct as a type first.
func TestNestedHintCompiles(t *testing.T) {
	for name, src := range map[string]string{
		"named": `package forms

type Address struct{ City string ` + "`json:\"city\"`" + ` }

type Form struct {
	Home Address ` + "`json:\"home\" elicit:\"title=Home\"`" + `
	Note string  ` + "`json:\"note\" elicit:\"title=Note\"`" + `
}
`,
		"unnamed": `package forms

type Form struct {
	Where struct{ Zip string } ` + "`json:\"where\" elicit:\"title=Where\"`" + `
	Note  string ` + "`json:\"note\" elicit:\"title=Note\"`" + `
}
`,
	} {
		t.Run(name, func(t *testing.T) {
			dir := testmod.New(t, "example.com/nested")
			testmod.WriteFile(t, filepath.Join(dir, "forms.go"), []byte(src))
			_, err := Generate(context.Background(), Config{Dir: dir})
			if err == nil {
				t.Fatal("a nested struct generated")
			}
			msg := err.Error()
			// "... write X alone, without a field name or tag, in place of field F ..."
			_, after, ok := strings.Cut(msg, "write ")
			embed, _, ok2 := strings.Cut(after, " alone")
			_, after, ok3 := strings.Cut(msg, "in place of field ")
			field, _, _ := strings.Cut(after, ",")
			if !ok || !ok2 || !ok3 {
				t.Fatalf("the error names no embedding: %s", msg)
			}
			fixed := src
			if _, after, ok := strings.Cut(msg, "(type "); ok {
				decl, _, _ := strings.Cut(after, ") and embed")
				fixed += "\ntype " + decl + "\n"
			}
			var lines []string
			for _, l := range strings.Split(fixed, "\n") {
				if strings.HasPrefix(strings.TrimSpace(l), field+" ") {
					l = "\t" + embed
				}
				lines = append(lines, l)
			}
			fixed = strings.Join(lines, "\n")
			testmod.WriteFile(t, filepath.Join(dir, "forms.go"), []byte(fixed))
			res, err := Generate(context.Background(), Config{Dir: dir})
			if err != nil {
				t.Fatalf("after the named change:\n%s\n%v", fixed, err)
			}
			buildModule(t, dir, res)
		})
	}
}
