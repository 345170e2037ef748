package gen_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/gen"
	"github.com/elicitgen/elicitgen/internal/testmod"
)

// TestOwnOutputNeverBlocks: generation reads its own old output as an
// empty file, so a broken, half-merged or stale elicit_gen.go does not
// stop it, and user code calling generated names is tolerated.
func TestOwnOutputNeverBlocks(t *testing.T) {
	dir := formsPkg(t, 2)
	fresh, err := gen.Generate(context.Background(), gen.Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	want := fresh.Files[0].Content
	testmod.WriteFile(t, filepath.Join(dir, "use.go"), []byte("package forms\n\nvar _ = AskForm1\nvar _ = Form2{}.Validate\n"))
	for name, content := range map[string]string{
		"conflict": gen.Header + "\n\npackage forms\n\n<<<<<<< HEAD\nvar x = 1\n=======\nvar x = 2\n>>>>>>> other\n",
		"syntax":   gen.Header + "\n\npackage forms\n\nfunc {\n",
		"stale":    strings.Replace(string(want), "Form1", "Form9", -1),
		"clashes":  gen.Header + "\n\npackage forms\n\nfunc AskForm1() {}\nvar elicitFormForm1 int\n",
		"nopkg":    gen.Header + "\n\n<<<<<<< HEAD\n",
	} {
		t.Run(name, func(t *testing.T) {
			testmod.WriteFile(t, filepath.Join(dir, gen.GoFile), []byte(content))
			res, err := gen.Generate(context.Background(), gen.Config{Dir: dir})
			if err != nil {
				t.Fatalf("Generate: %v", err)
			}
			if string(res.Files[0].Content) != string(want) {
				t.Fatal("output differs from a fresh generation")
			}
		})
	}
}

// A hand-written elicit_gen.go (no header) is reported once, not as name
// clashes.
func TestHandWrittenOutputReportedOnce(t *testing.T) {
	dir := formsPkg(t, 2)
	testmod.WriteFile(t, filepath.Join(dir, gen.GoFile), []byte("package forms\n\nfunc AskForm1() {}\nfunc Form1Schema() {}\n"))
	_, err := gen.Generate(context.Background(), gen.Config{Dir: dir})
	var diags gen.Diagnostics
	if !errors.As(err, &diags) || len(diags) != 1 || !strings.Contains(diags[0].Msg, "not written by elicitgen") {
		t.Fatalf("want one diagnostic, got %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, gen.GoFile)); !strings.HasPrefix(string(b), "package forms") {
		t.Fatal("file changed")
	}
}

// TestTestOnlyPackageSkipped: a package of only _test.go files, as real
// modules have (integration tests, fixtures), is skipped under ./... as
// go vet skips it; alone it matches no form, which is no error.
func TestTestOnlyPackageSkipped(t *testing.T) {
	dir := testmod.New(t, "example.com/tonly")
	testmod.WriteFile(t, filepath.Join(dir, "forms", "forms.go"), []byte("package forms\n\ntype A struct {\n\tN int `json:\"n\" elicit:\"min=1\"`\n}\n"))
	testmod.WriteFile(t, filepath.Join(dir, "itest", "x_test.go"), []byte("package itest\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {}\n"))
	res, err := gen.Generate(context.Background(), gen.Config{Dir: dir, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatalf("Generate ./...: %v", err)
	}
	if len(res.Packages) != 1 || len(res.Files) != 2 || filepath.Base(filepath.Dir(res.Files[0].Path)) != "forms" {
		t.Fatalf("Generate ./...: %d packages, files %v; want the forms package only", len(res.Packages), res.Files)
	}
	res, err = gen.Generate(context.Background(), gen.Config{Dir: dir, Patterns: []string{"./itest"}})
	if err != nil || len(res.Files) != 0 {
		t.Fatalf("Generate ./itest: %v, %d files; want none and no error", err, len(res.Files))
	}
	// A directory without Go files at all is still an error.
	testmod.WriteFile(t, filepath.Join(dir, "empty", "README"), []byte("x\n"))
	if _, err := gen.Generate(context.Background(), gen.Config{Dir: dir, Patterns: []string{"./empty"}}); err == nil {
		t.Fatal("Generate ./empty: no error")
	}
}
