package gen

import (
	"bytes"
	"context"
	"go/format"
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
		"\t{Type: (*Empty)(nil), SchemaVar: &EmptySchema, AskVar: &AskEmpty, AcceptVar: &AcceptEmpty, Spec: `{\"name\":\"Empty\",\"properties\":[]}`},",
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
	api := bytes.Index(src, []byte("var AskEmpty func("))
	guard := bytes.Index(src, []byte("type _Odd_changed_since"))
	data := bytes.Index(src, []byte("var elicitDescriptors ="))
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
