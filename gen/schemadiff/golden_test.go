package schemadiff

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata/diff/*.txtar")

const updateHint = "go test ./gen/schemadiff -update"

// goldenDir holds one txtar archive per case: old.json, new.json,
// optionally an allow file (allow), and the report in each format:
// want.txt, and optionally want.json, want.md (markdown) and want.github
// (annotations placed in new.json, or old.json for what it lost). The
// archive comment says what the case covers.
const goldenDir = "../../testdata/diff"

func goldenFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(goldenDir, "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no golden cases in %s", goldenDir)
	}
	return files
}

func section(ar *txtar.Archive, name string) ([]byte, bool) {
	for _, f := range ar.Files {
		if f.Name == name {
			return f.Data, true
		}
	}
	return nil, false
}

func TestGolden(t *testing.T) {
	for _, file := range goldenFiles(t) {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range ar.Files {
				switch f.Name {
				case "old.json", "new.json", "allow", "want.txt", "want.json", "want.md", "want.github":
				default:
					t.Fatalf("%s: unexpected section %q", file, f.Name)
				}
			}
			oldJSON, ok1 := section(ar, "old.json")
			newJSON, ok2 := section(ar, "new.json")
			if !ok1 || !ok2 {
				t.Fatalf("%s: needs old.json and new.json sections", file)
			}
			rep, err := Compare(oldJSON, newJSON)
			if err != nil {
				t.Fatalf("Compare: %v", err)
			}
			if data, ok := section(ar, "allow"); ok {
				list, err := ParseAllow("allow", data)
				if err != nil {
					t.Fatal(err)
				}
				if err := rep.Allow(list); err != nil {
					t.Fatal(err)
				}
			}
			rep.Locate(InSchemaFile("new.json", newJSON, ""), InSchemaFile("old.json", oldJSON, ""))
			got := map[string][]byte{}
			for name, format := range map[string]string{"want.txt": FormatText, "want.json": FormatJSON, "want.md": FormatMarkdown, "want.github": FormatGitHub} {
				var b bytes.Buffer
				if err := rep.Write(&b, format); err != nil {
					t.Fatal(err)
				}
				got[name] = b.Bytes()
			}

			if *update {
				for _, name := range []string{"want.txt", "want.json", "want.md", "want.github"} {
					if _, ok := section(ar, name); !ok {
						ar.Files = append(ar.Files, txtar.File{Name: name})
					}
				}
				for i, f := range ar.Files {
					if g, ok := got[f.Name]; ok {
						ar.Files[i].Data = g
					}
				}
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			for _, name := range []string{"want.txt", "want.json", "want.md", "want.github"} {
				want, ok := section(ar, name)
				if !ok {
					if name == "want.txt" {
						t.Errorf("%s: no want.txt section; run %s", file, updateHint)
					}
					continue
				}
				if !bytes.Equal(got[name], want) {
					t.Errorf("%s: %s differs; if the new output is right, run %s\n--- got\n%s--- want\n%s",
						file, name, updateHint, got[name], want)
				}
			}
			// Comparing a file with itself reports nothing.
			for _, side := range [][]byte{oldJSON, newJSON} {
				same, err := Compare(side, side)
				if err != nil {
					t.Fatal(err)
				}
				if len(same.Changes) != 0 {
					t.Errorf("Compare(x, x) = %v, want no changes", same.Changes)
				}
			}
		})
	}
}

// TestGoldenCoversEveryKind fails when a kind has no golden case whose
// want.json reports it.
func TestGoldenCoversEveryKind(t *testing.T) {
	seen := make(map[string]bool)
	for _, file := range goldenFiles(t) {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		data, ok := section(ar, "want.json")
		if !ok {
			continue
		}
		var out struct {
			Changes []Change `json:"changes"`
		}
		if err := json.Unmarshal(data, &out); err != nil {
			t.Fatalf("%s: want.json: %v", file, err)
		}
		for _, c := range out.Changes {
			if c.Breaking != IsBreakingKind(c.Kind) {
				t.Errorf("%s: %s: breaking=%v, but kind %s is breaking=%v", file, c.Form, c.Breaking, c.Kind, IsBreakingKind(c.Kind))
			}
			seen[c.Kind] = true
		}
	}
	var missing []string
	for _, k := range allKinds() {
		if !seen[k] {
			missing = append(missing, k)
		}
	}
	slices.Sort(missing)
	if len(missing) > 0 {
		t.Errorf("no golden case in %s reports: %s", goldenDir, strings.Join(missing, ", "))
	}
}
