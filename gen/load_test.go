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
