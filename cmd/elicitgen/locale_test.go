package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const localeForm = `package forms

// Deploy confirms a deploy.
type Deploy struct {
	Branch string ` + "`json:\"branch\" elicit:\"title=Branch\"`" + `
	// Go ahead?
	OK bool ` + "`json:\"ok\"`" + `
}
`

func TestLocaleCommand(t *testing.T) {
	dir := newPkg(t, localeForm)
	stdout, stderr, code := runCLI("locale", "ja")
	if code != 0 || stdout != "elicit.ja.json: 2 strings to translate\n" {
		t.Fatalf("locale ja: exit %d\n%s%s", code, stdout, stderr)
	}
	path := filepath.Join(dir, "elicit.ja.json")
	tmpl, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(tmpl), `"//": {"title": "Branch"}`) || !strings.Contains(string(tmpl), `"//": {"description": "Go ahead?"}`) {
		t.Fatalf("template lacks the source hints:\n%s", tmpl)
	}
	// Generate and check: fresh output, two warnings, exit 0.
	if _, stderr, code := runCLI(); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, stderr)
	}
	stdout, stderr, code = runCLI("check")
	want := "elicit.ja.json: warning: Deploy.branch title not translated to ja (shows \"Branch\")\n" +
		"elicit.ja.json: warning: Deploy.ok description not translated to ja (shows \"Go ahead?\")\n"
	if code != 0 || stdout != "" || stderr != want {
		t.Fatalf("check: exit %d\nstdout: %s\nstderr: %s\nwant stderr: %s", code, stdout, stderr, want)
	}
	// A translation makes the generated file stale; re-running locale
	// keeps it.
	writeFile(t, path, strings.Replace(string(tmpl), `"title": ""`, `"title": "ブランチ"`, 1))
	if _, _, code := runCLI("check"); code != 1 {
		t.Fatalf("check after translating: exit %d, want 1 (stale)", code)
	}
	if stdout, stderr, code := runCLI("locale", "ja"); code != 0 || stdout != "elicit.ja.json: 1 strings to translate\n" {
		t.Fatalf("locale ja again: exit %d\n%s%s", code, stdout, stderr)
	}
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), `"title": "ブランチ"`) {
		t.Fatalf("locale dropped a translation:\n%s", b)
	}
	if _, _, code := runCLI(); code != 0 {
		t.Fatal("generate")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "elicit_gen.go")); !strings.Contains(string(b), `Title: "ブランチ"`) {
		t.Fatalf("translation not in elicit_gen.go")
	}
	// --stdout prints; a bad tag or a key naming nothing is exit 2.
	if stdout, _, code := runCLI("locale", "--stdout", "pt-BR"); code != 0 || !strings.HasPrefix(stdout, "{\n") {
		t.Fatalf("--stdout: exit %d\n%s", code, stdout)
	}
	if _, err := os.Stat(filepath.Join(dir, "elicit.pt-BR.json")); err == nil {
		t.Fatal("--stdout wrote a file")
	}
	if _, stderr, code := runCLI("locale", "ja_JP"); code != 2 || !strings.Contains(stderr, "not a BCP 47") {
		t.Fatalf("bad tag: exit %d: %s", code, stderr)
	}
	writeFile(t, path, "{\n  \"Deploy\": {\"brnch\": {}}\n}\n")
	if _, stderr, code := runCLI("check"); code != 2 || stderr != "elicit.ja.json:2:14: form Deploy has no property \"brnch\" (did you mean \"branch\"?)\n" {
		t.Fatalf("unknown key: exit %d: %q", code, stderr)
	}
}
