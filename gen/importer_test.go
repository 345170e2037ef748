package gen_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/elicitgen/elicitgen/gen"
	"github.com/elicitgen/elicitgen/internal/testmod"
)

// TestImporterOfGeneratedNames: generation loads packages with their own
// output left out, so a package that calls another package's generated
// functions (forms.AskDeploy, forms.DeploySchema) does not type-check
// while loading. Generating or checking ./... must not fail on it.
func TestImporterOfGeneratedNames(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a module with go/packages")
	}
	dir := testmod.New(t, "example.com/imp")
	files := map[string]string{
		"forms/forms.go": "package forms\n\n// Deploy asks where to deploy.\ntype Deploy struct {\n\tBranch string `json:\"branch\" elicit:\"minLength=1\"`\n}\n",
		"app/app.go": `package app

import (
	"context"

	"example.com/imp/forms"
	"github.com/elicitgen/elicitgen/runtime"
)

// Run asks the Deploy form.
func Run(ctx context.Context, a runtime.Asker) (string, error) {
	_ = forms.DeploySchema()
	out, err := forms.AskDeploy(ctx, a, "Deploy?")
	if err != nil {
		return "", err
	}
	if v, ok := out.Accepted(); ok {
		return v.Branch, v.Validate()
	}
	return "", new(forms.Deploy).Validate()
}
`,
	}
	for name, content := range files {
		testmod.WriteFile(t, filepath.Join(dir, name), []byte(content))
	}
	testmod.Go(t, dir, "mod", "tidy")
	for range 2 { // first generation, then again beside the generated files
		res, err := gen.Generate(context.Background(), gen.Config{Dir: dir, Patterns: []string{"./..."}})
		if err != nil {
			t.Fatalf("Generate ./...: %v", err)
		}
		if len(res.Files) != 2 {
			t.Fatalf("generated %d files, want elicit_gen.go and elicit_gen.json", len(res.Files))
		}
		if _, err := gen.Write(res); err != nil {
			t.Fatal(err)
		}
	}
	testmod.Go(t, dir, "vet", "./...")
}
