package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// changeForm is a form whose ticket pattern the tests tighten; the
// ticket field is on line 7.
const changeForm = `package forms

// Change approves a production change.
type Change struct {
	// Ticket is the change ticket.
	// It names the change in the tracker.
	Ticket string ` + "`json:\"ticket\" elicit:\"pattern='^CHG-[0-9]{4,8}$'\"`" + `
	// Approve goes ahead.
	Approve bool ` + "`json:\"approve\" elicit:\"confirm\"`" + `
}
`

// scratchRepo makes a git repository holding a generated forms package
// (committed), then tightens its pattern and regenerates, uncommitted.
func scratchRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := newPkg(t, changeForm)
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if _, stderr, code := runCLI(); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, stderr)
	}
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "init")
	writeFile(t, filepath.Join(dir, "forms.go"), strings.Replace(changeForm, "{4,8}", "{6}", 1))
	if _, stderr, code := runCLI(); code != 0 {
		t.Fatalf("generate after the change: exit %d: %s", code, stderr)
	}
	return dir
}

// TestDiffSeesTightenedPattern: in a scratch repository, a tightened
// pattern= (a rule never sent to clients) makes diff --base HEAD exit 1
// and name the pattern with an answer it now refuses; the github format
// annotates the struct field's own line; an allow line with a reason
// makes it pass, listed as acknowledged; a stale allow line exits 2.
func TestDiffSeesTightenedPattern(t *testing.T) {
	dir := scratchRepo(t)
	for _, base := range []string{"HEAD", "HEAD^{tree}", "main"} {
		stdout, stderr, code := runDiff(t, "--base", base)
		if code != 1 || !strings.Contains(stdout, `BREAKING Change.ticket: pattern changed from "^CHG-[0-9]{4,8}$" to "^CHG-[0-9]{6}$": "CHG-0000", valid before, is now refused`) {
			t.Fatalf("diff --base %s: exit %d\n%s%s", base, code, stdout, stderr)
		}
	}

	stdout, stderr, code := runDiff(t, "--base", "HEAD", "--format", "json")
	if code != 1 || !strings.Contains(stdout, `"kind": "pattern-changed"`) || strings.Contains(stdout, `"file"`) {
		t.Fatalf("--format json: exit %d (only github places changes in files)\n%s%s", code, stdout, stderr)
	}

	stdout, stderr, code = runDiff(t, "--base", "HEAD", "--format", "github")
	want := "::error file=forms.go,line=7,title=elicitgen diff%3A Change.ticket::breaking: pattern changed from"
	if code != 1 || !strings.HasPrefix(stdout, want) || !strings.HasSuffix(stdout, "::error title=elicitgen diff::1 change: 1 breaking, 0 compatible\n") {
		t.Fatalf("--format github: exit %d, want a first line starting\n%s\ngot:\n%s%s", code, want, stdout, stderr)
	}

	allow := filepath.Join(dir, ".elicit-allow")
	writeFile(t, allow, "# intended breaks\nChange.ticket: tickets have six digits since the tracker moved\n")
	stdout, stderr, code = runDiff(t, "--base", "HEAD", "--allow", allow)
	if code != 0 || !strings.Contains(stdout, "acknowledged Change.ticket: pattern changed") ||
		!strings.Contains(stdout, "(allowed: tickets have six digits since the tracker moved)") ||
		!strings.Contains(stdout, "1 change: 0 breaking, 1 acknowledged, 0 compatible") {
		t.Fatalf("--allow: exit %d\n%s%s", code, stdout, stderr)
	}
	stdout, _, code = runDiff(t, "--base", "HEAD", "--allow", allow, "--format", "markdown")
	if code != 0 || !strings.Contains(stdout, "### Change") || !strings.Contains(stdout, "| acknowledged | `ticket` |") {
		t.Fatalf("--format markdown --allow: exit %d\n%s", code, stdout)
	}

	writeFile(t, allow, "Change.ticket: six digits\nChange.approve: nothing changed here\n")
	_, stderr, code = runDiff(t, "--base", "HEAD", "--allow", allow)
	if code != 2 || !strings.Contains(stderr, allow+":2:1: Change.approve has no breaking change to allow: the line is stale, remove it") {
		t.Fatalf("stale allow line: exit %d, stderr:\n%s", code, stderr)
	}
}

// TestDiffBadInput: a bad allow file, an unresolvable --base and a schema
// file from a newer elicitgen are positioned errors, exit 2.
func TestDiffBadInput(t *testing.T) {
	dir := scratchRepo(t)
	allow := filepath.Join(dir, ".elicit-allow")
	for _, tc := range []struct{ file, want string }{
		{"Change.tiket: typo\n", ":1:1: form Change has no field \"tiket\" (did you mean ticket?)"},
		{"Chnage.ticket: typo\n", ":1:1: unknown form Chnage (did you mean Change?)"},
		{"\n  Change.ticket\n", ":2:3: want Form.field: reason, got \"Change.ticket\""},
		{"Change.ticket: a\nChange.ticket: b\n", ":2:1: Change.ticket is listed twice (first on line 1)"},
		{"Change.ticket:\n", ":1:15: Change.ticket: the reason is empty"},
	} {
		writeFile(t, allow, tc.file)
		_, stderr, code := runDiff(t, "--base", "HEAD", "--allow", allow)
		if code != 2 || !strings.Contains(stderr, allow+tc.want) {
			t.Errorf("allow file %q: exit %d, want 2 and %q in:\n%s", tc.file, code, tc.want, stderr)
		}
	}
	if _, stderr, code := runDiff(t, "--base", "HEAD", "--format", "junit"); code != 2 || !strings.Contains(stderr, `unknown --format "junit" (want text, json, markdown, github)`) {
		t.Errorf("--format junit: exit %d\n%s", code, stderr)
	}
	if _, stderr, code := runDiff(t, "--base", "HEAD", "--allow", filepath.Join(dir, "missing")); code != 2 || !strings.Contains(stderr, "--allow") {
		t.Errorf("missing allow file: exit %d\n%s", code, stderr)
	}
	if _, stderr, code := runDiff(t, "--base", "no-such-branch"); code != 2 || !strings.Contains(stderr, `git revision "no-such-branch": revision does not exist`) {
		t.Errorf("unknown base: exit %d\n%s", code, stderr)
	}
	newer := filepath.Join(dir, "newer.json")
	writeFile(t, newer, "{\n  \"x-elicitgen-version\": 99,\n  \"Change\": {\"type\": \"object\", \"properties\": {}}\n}\n")
	if _, stderr, code := runDiff(t, filepath.Join(dir, "elicit_gen.json"), newer); code != 2 || !strings.Contains(stderr, newer+":2:26: schema file format 99 is newer than this elicitgen reads (2)") {
		t.Errorf("newer schema file: exit %d\n%s", code, stderr)
	}
	if err := os.Remove(newer); err != nil {
		t.Fatal(err)
	}
}

// TestCheckFormatGitHub: check --format github annotates the stale form's
// line, then prints the usual report; exit 1.
func TestCheckFormatGitHub(t *testing.T) {
	dir := newPkg(t, changeForm)
	if _, stderr, code := runCLI(); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, stderr)
	}
	if stdout, stderr, code := runCLI("check", "--format", "github"); code != 0 || stdout != "" {
		t.Fatalf("check --format github on fresh files: exit %d\n%s%s", code, stdout, stderr)
	}
	writeFile(t, filepath.Join(dir, "forms.go"), strings.Replace(changeForm, "{4,8}", "{6}", 1))
	stdout, _, code := runCLI("check", "--format", "github")
	want := "::error file=forms.go,line=4,title=elicitgen check::form Change: schema in elicit_gen.json is stale, code in elicit_gen.go is stale: run go generate\n" +
		"forms.go:4:6: form Change: schema in elicit_gen.json is stale"
	if code != 1 || !strings.HasPrefix(stdout, want) {
		t.Fatalf("check --format github: exit %d, want output starting\n%s\ngot:\n%s", code, want, stdout)
	}
	if _, stderr, code := runCLI("check", "--format", "junit"); code != 2 || !strings.Contains(stderr, `unknown --format "junit"`) {
		t.Errorf("check --format junit: exit %d, %s", code, stderr)
	}
}

// TestDiffGitHubRemoved: a removed form is annotated in the schema file,
// at the line it had there; an added one at its declaration.
func TestDiffGitHubRemoved(t *testing.T) {
	dir := scratchRepo(t)
	writeFile(t, filepath.Join(dir, "forms.go"), strings.Replace(strings.Replace(changeForm, "Change", "Other", -1), "	// Approve goes ahead.\n	Approve bool `json:\"approve\" elicit:\"confirm\"`\n", "", 1))
	if _, stderr, code := runCLI(); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, stderr)
	}
	stdout, _, code := runDiff(t, "--base", "HEAD", "--format", "github")
	if code != 1 || !strings.Contains(stdout, "::error file=elicit_gen.json,line=3,title=elicitgen diff%3A Change::breaking: form removed") ||
		!strings.Contains(stdout, "::notice file=forms.go,line=4,title=elicitgen diff%3A Other::compatible: form added") {
		t.Fatalf("exit %d:\n%s", code, stdout)
	}
}
