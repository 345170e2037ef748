package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runDiff runs `elicitgen diff args...` and returns stdout, stderr and the
// exit status the command asks for.
func runDiff(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	cmd := newDiffCmd()
	cmd.SilenceErrors = true
	var stdout, stderr bytes.Buffer
	cmd.SetOut(&stdout)
	cmd.SetErr(&stderr)
	cmd.SetArgs(args)
	err := cmd.Execute()
	code := 0
	if err != nil {
		var ee *exitError
		if !errors.As(err, &ee) {
			t.Fatalf("diff %v: error %v carries no exit code", args, err)
		}
		code = ee.code
		if ee.err != nil {
			stderr.WriteString(ee.err.Error())
		}
	}
	return stdout.String(), stderr.String(), code
}

const (
	diffOld = `{"Deploy":{"type":"object","properties":{"environment":{"type":"string","enum":["dev","qa"]}},"required":["environment"]}}`
	// "qa" removed: breaking.
	diffBreaking = `{"Deploy":{"type":"object","properties":{"environment":{"type":"string","enum":["dev"]}},"required":["environment"]}}`
	// optional property added: compatible.
	diffCompatible = `{"Deploy":{"type":"object","properties":{"environment":{"type":"string","enum":["dev","qa"]},"note":{"type":"string"}},"required":["environment"]}}`
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestDiffFiles(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "old.json")
	breaking := filepath.Join(dir, "breaking.json")
	compatible := filepath.Join(dir, "compatible.json")
	invalid := filepath.Join(dir, "invalid.json")
	writeFile(t, old, diffOld)
	writeFile(t, breaking, diffBreaking)
	writeFile(t, compatible, diffCompatible)
	writeFile(t, invalid, `{"Deploy":{"type":"object"}}`)

	out, _, code := runDiff(t, old, breaking)
	wantOut := `BREAKING Deploy.environment: enum value "qa" removed: a client may still send "qa", which the new server rejects
1 change: 1 breaking, 0 compatible
`
	if code != 1 || out != wantOut {
		t.Errorf("breaking: exit %d, output:\n%s\nwant exit 1, output:\n%s", code, out, wantOut)
	}

	out, _, code = runDiff(t, old, compatible)
	if code != 0 || out != "compatible Deploy.note: optional property added\n1 change: 0 breaking, 1 compatible\n" {
		t.Errorf("compatible: exit %d, output:\n%s", code, out)
	}

	out, _, code = runDiff(t, "--json", old, breaking)
	var rep struct {
		Breaking bool `json:"breaking"`
		Changes  []struct {
			Form, Property, Kind string
			Breaking             bool
		} `json:"changes"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("--json output %q: %v", out, err)
	}
	if code != 1 || !rep.Breaking || len(rep.Changes) != 1 || rep.Changes[0].Kind != "enum-value-removed" || !rep.Changes[0].Breaking {
		t.Errorf("--json: exit %d, report %+v", code, rep)
	}

	for _, args := range [][]string{
		{old, invalid},
		{old, filepath.Join(dir, "missing.json")},
		{old},
		{old, breaking, compatible},
	} {
		if _, stderr, code := runDiff(t, args...); code != 2 || stderr == "" {
			t.Errorf("diff %v: exit %d, stderr %q; want exit 2 and a message", args, code, stderr)
		}
	}
}

func TestDiffBase(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go not installed")
	}
	root := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"}, args...)...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	writeFile(t, filepath.Join(root, "go.mod"), "module example.com/m\n\ngo 1.22\n")
	writeFile(t, filepath.Join(root, "a", "a.go"), "package a\n")
	writeFile(t, filepath.Join(root, "a", "elicit_gen.json"), diffOld)
	writeFile(t, filepath.Join(root, "b", "b.go"), "package b\n")
	writeFile(t, filepath.Join(root, "b", "elicit_gen.json"), diffOld)
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "init")
	t.Chdir(root)

	// Nothing changed yet.
	if out, _, code := runDiff(t, "--base", "HEAD", "./..."); code != 0 || out != "no changes\n" {
		t.Errorf("unchanged: exit %d, output %q", code, out)
	}

	// a: compatible change; b: breaking change.
	writeFile(t, filepath.Join(root, "a", "elicit_gen.json"), diffCompatible)
	writeFile(t, filepath.Join(root, "b", "elicit_gen.json"), diffBreaking)

	out, _, code := runDiff(t, "--base", "HEAD", "./a")
	if code != 0 || out != "compatible Deploy.note: optional property added\n1 change: 0 breaking, 1 compatible\n" {
		t.Errorf("./a: exit %d, output:\n%s", code, out)
	}
	t.Run("default package is .", func(t *testing.T) {
		t.Chdir(filepath.Join(root, "b"))
		if out, _, code := runDiff(t, "--base", "HEAD"); code != 1 || !strings.HasPrefix(out, `BREAKING Deploy.environment: enum value "qa" removed`) {
			t.Errorf("exit %d, output:\n%s", code, out)
		}
	})

	// Several packages: forms are qualified by import path.
	out, _, code = runDiff(t, "--base", "HEAD", "./...")
	want := `compatible example.com/m/a.Deploy.note: optional property added
BREAKING example.com/m/b.Deploy.environment: enum value "qa" removed: a client may still send "qa", which the new server rejects
2 changes: 1 breaking, 1 compatible
`
	if code != 1 || out != want {
		t.Errorf("./...: exit %d, output:\n%s\nwant:\n%s", code, out, want)
	}

	// A package whose schema file is new: every form added.
	writeFile(t, filepath.Join(root, "c", "c.go"), "package c\n")
	writeFile(t, filepath.Join(root, "c", "elicit_gen.json"), diffOld)
	if out, _, code := runDiff(t, "--base", "HEAD", "./c"); code != 0 || out != "compatible Deploy: form added\n1 change: 0 breaking, 1 compatible\n" {
		t.Errorf("new file: exit %d, output:\n%s", code, out)
	}
	// A deleted schema file: every form removed.
	if err := os.Remove(filepath.Join(root, "a", "elicit_gen.json")); err != nil {
		t.Fatal(err)
	}
	if out, _, code := runDiff(t, "--base", "HEAD", "./a"); code != 1 || !strings.HasPrefix(out, "BREAKING Deploy: form removed") {
		t.Errorf("deleted file: exit %d, output:\n%s", code, out)
	}

	// Errors: unknown revision, bad pattern, empty revision.
	for _, args := range [][]string{
		{"--base", "no-such-rev", "./b"},
		{"--base", "HEAD", "./nope"},
		{"--base", "", "./b"},
	} {
		if _, stderr, code := runDiff(t, args...); code != 2 || stderr == "" {
			t.Errorf("diff %v: exit %d, stderr %q; want exit 2 and a message", args, code, stderr)
		}
	}
}
