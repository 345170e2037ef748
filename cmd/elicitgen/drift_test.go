package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// enumForm uses an enum whose constants can drift in ways the compiler
// cannot see.
const enumForm = `package forms

// Env is where to deploy.
type Env string

const (
	EnvStaging Env = "staging" // Staging
	EnvProd    Env = "prod"    // Production
)

// Deploy confirms a deploy.
type Deploy struct {
	Env Env ` + "`json:\"env\" elicit:\"title=Environment\"`" + `
}
`

// TestCheckCatchesInvisibleDrift: an added constant, reordered constants
// and a changed title still compile against the old generated file, so
// check must fail on each, and its diff must show the form's schema.
func TestCheckCatchesInvisibleDrift(t *testing.T) {
	for name, edit := range map[string][2]string{
		"constadded":      {"EnvProd    Env = \"prod\"    // Production", "EnvProd    Env = \"prod\"    // Production\n\tEnvDev     Env = \"dev\"     // Development"},
		"constsreordered": {"\tEnvStaging Env = \"staging\" // Staging\n\tEnvProd    Env = \"prod\"    // Production", "\tEnvProd    Env = \"prod\"    // Production\n\tEnvStaging Env = \"staging\" // Staging"},
		"titlechanged":    {"// Production", "// Live"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := newPkg(t, enumForm)
			if _, stderr, code := runCLI(); code != 0 {
				t.Fatalf("generate: exit %d: %s", code, stderr)
			}
			if _, err := os.Stat(filepath.Join(dir, "elicit_gen.go")); err != nil {
				t.Fatal("nothing generated")
			}
			changed := strings.Replace(enumForm, edit[0], edit[1], 1)
			if changed == enumForm {
				t.Fatal("edit not applied")
			}
			writeFile(t, filepath.Join(dir, "forms.go"), changed)
			stdout, stderr, code := runCLI("check")
			if code != 1 || !strings.Contains(stdout, "+{\"name\":\"env\"") {
				t.Fatalf("check: exit %d, want 1 and a diff naming Deploy's schema:\n%s%s", code, stdout, stderr)
			}
		})
	}
}
