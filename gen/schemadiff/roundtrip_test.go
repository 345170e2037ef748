package schemadiff

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"
)

// TestGoldenSchemaFilesRoundTrip parses the elicit_gen.json of every
// generator golden (testdata/golden) and compares it with itself: each file
// the generator writes must be one schemadiff reads, with no change.
func TestGoldenSchemaFilesRoundTrip(t *testing.T) {
	files, err := filepath.Glob("../../testdata/golden/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no generator goldens: %v", err)
	}
	n := 0
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		data, ok := section(ar, "want/elicit_gen.json")
		if !ok {
			continue
		}
		n++
		name := filepath.Base(file)
		rep, err := CompareFiles(name, data, name, data)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(rep.Changes) != 0 {
			t.Errorf("%s compared with itself: %d changes: %+v", name, len(rep.Changes), rep.Changes)
		}
	}
	if n < 15 {
		t.Fatalf("only %d schema files found", n)
	}
}
