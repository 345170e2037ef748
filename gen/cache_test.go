package gen

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// writeFiles writes name -> content files under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func cacheModule(t *testing.T, form string) string {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":   "module example.com/cache\n\ngo 1.24\n",
		"forms.go": "package forms\n\n" + form,
	})
	return dir
}

func mustGenerate(t *testing.T, cfg Config) *Result {
	t.Helper()
	res, err := Generate(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// sameFiles fails unless got holds want's files.
func sameFiles(t *testing.T, what string, got, want *Result) {
	t.Helper()
	if len(got.Files) != len(want.Files) {
		t.Fatalf("%s: %d files, want %d", what, len(got.Files), len(want.Files))
	}
	for i := range want.Files {
		if got.Files[i].Path != want.Files[i].Path || !bytes.Equal(got.Files[i].Content, want.Files[i].Content) {
			t.Fatalf("%s: %s differs from an uncached run's:\n%.300s", what, want.Files[i].Path, got.Files[i].Content)
		}
	}
}

const poison = "// poisoned\n"

// poisonCache rewrites the files of every entry in dir (not a raw entry's
// models) as poison, keeping the entries valid: a run that hits one
// returns poison.
func poisonCache(t *testing.T, dir string) {
	t.Helper()
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		key := filepath.Base(path)
		sections, ok := readCache(dir, key)
		if !ok {
			t.Fatalf("unreadable entry %s", key)
		}
		for i := len(sections) % 2; i < len(sections); i++ { // raw entries: models, then files
			sections[i] = []byte(poison)
		}
		if err := writeCache(dir, key, sections...); err != nil {
			t.Fatal(err)
		}
		return nil
	})
}

// nowKey returns the raw key of cfg's inputs as a lookup computes it.
func nowKey(t *testing.T, cfg Config) string {
	t.Helper()
	pcfg, patterns := packagesConfig(context.Background(), cfg)
	pcfg.Mode = rawMode
	own, err := ownOutput(pcfg.Dir, patterns, cfg.Tags)
	if err != nil {
		t.Fatal(err)
	}
	roots, err := packages.Load(pcfg, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	key, ok := rawKey(&cfg, roots, diskReads{own.stub})
	if !ok {
		t.Fatal("inputs not cacheable")
	}
	return key
}

// rawModule is a package of forms whose output depends on every kind of
// raw input: its own files, an enum constant of an imported package (its
// export data), a file selected by a build tag, and a catalog.
func rawModule(t *testing.T) string {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":           "module example.com/cache\n\ngo 1.24\n",
		"limits/limits.go": "package limits\n\n// Env is a place.\ntype Env string\n\nconst Staging Env = \"staging\"\n",
		"forms.go": "package forms\n\nimport \"example.com/cache/limits\"\n\ntype F struct {\n\t// Name of it.\n" +
			"\tName string `json:\"name\" elicit:\"maxLength=3\"`\n\tEnv limits.Env `json:\"env\"`\n\tMode Mode `json:\"mode\"`\n}\n\n" +
			"type Mode string\n\nconst Fast Mode = \"fast\"\n",
		"extra.go":       "//go:build extra\n\npackage forms\n\nconst Slow Mode = \"slow\"\n",
		"elicit.ja.json": `{"F": {"name": {"title": "名前"}}}`,
	})
	return dir
}

// TestRawCacheMisses changes each kind of raw input in turn, with every
// entry made so far poisoned: each run must miss and match an uncached
// run.
func TestRawCacheMisses(t *testing.T) {
	dir, cache := rawModule(t), t.TempDir()
	cfg := Config{Dir: dir, CacheDir: cache, CacheSalt: "build-1"}
	prev := mustGenerate(t, cfg)
	sameFiles(t, "first run", prev, mustGenerate(t, Config{Dir: dir}))
	poisonCache(t, cache)
	if hit := mustGenerate(t, cfg); string(hit.Files[0].Content) != poison {
		t.Fatal("an unchanged package was not served from the cache")
	}
	edit := func(name, old, new string) func() {
		return func() {
			path := filepath.Join(dir, name)
			b, _ := os.ReadFile(path)
			if !bytes.Contains(b, []byte(old)) {
				t.Fatalf("%s lacks %q", name, old)
			}
			writeFiles(t, dir, map[string]string{name: strings.Replace(string(b), old, new, 1)})
		}
	}
	for _, step := range []struct {
		name   string
		change func()
	}{
		{"a file's contents", edit("forms.go", "Name of it.", "Name of the thing.")},
		{"a struct tag", edit("forms.go", "maxLength=3", "maxLength=4")},
		{"an imported constant", edit("limits/limits.go", `"staging"`, `"stage"`)},
		{"a build tag", func() { cfg.Tags = []string{"extra"} }},
		{"a catalog", edit("elicit.ja.json", "名前", "氏名")},
		{"the generator build", func() { cfg.CacheSalt = "build-2" }},
	} {
		step.change()
		got := mustGenerate(t, cfg)
		want := mustGenerate(t, Config{Dir: dir, Tags: cfg.Tags})
		sameFiles(t, step.name, got, want)
		if bytes.Equal(got.Files[0].Content, prev.Files[0].Content) && step.name != "the generator build" {
			t.Fatalf("%s: the change does not show in the output", step.name)
		}
		prev = got
		poisonCache(t, cache)
	}
}

// TestRawCacheHit checks that a hit returns the stored Result, models
// included, without the typed load: the entry of a healthy package,
// filed under the key of the same package with a type error, is returned
// although loading that package fails. A corrupted entry is a miss.
func TestRawCacheHit(t *testing.T) {
	dir, cache := rawModule(t), t.TempDir()
	cfg := Config{Dir: dir, CacheDir: cache, CacheSalt: "build-1"}
	cold := mustGenerate(t, Config{Dir: dir})
	mustGenerate(t, cfg)
	hit := mustGenerate(t, cfg)
	sameFiles(t, "hit", hit, cold)
	if !reflect.DeepEqual(hit.Packages, cold.Packages) {
		t.Fatal("a hit's models differ from the analysed ones")
	}

	healthy := nowKey(t, cfg)
	writeFiles(t, dir, map[string]string{"broken.go": "package forms\n\nvar broken int = \"x\"\n"})
	if _, err := Generate(context.Background(), Config{Dir: dir}); err == nil {
		t.Fatal("the broken package loads")
	}
	entry, err := os.ReadFile(cachePath(cache, healthy))
	if err != nil {
		t.Fatal(err)
	}
	broken := nowKey(t, cfg)
	writeFiles(t, cache, map[string]string{broken[:2] + "/" + broken: string(entry)})
	res, err := Generate(context.Background(), cfg)
	if err != nil {
		t.Fatalf("the hit loaded the package: %v", err)
	}
	sameFiles(t, "hit without load", res, cold)

	entry[len(entry)-1] ^= 0xff
	writeFiles(t, cache, map[string]string{broken[:2] + "/" + broken: string(entry)})
	if _, err := Generate(context.Background(), cfg); err == nil {
		t.Fatal("a corrupted entry was served")
	}
}

// TestOutputCache covers the model-keyed level: an edit that leaves the
// model alone reuses the rendered files; another salt, a corrupted entry
// or a changed form does not; an unusable cache directory only costs the
// cache.
func TestOutputCache(t *testing.T) {
	ctx := context.Background()
	dir := cacheModule(t, "type F struct {\n\tA string `json:\"a\" elicit:\"maxLength=3\"`\n}\n")
	cache := t.TempDir()
	cfg := Config{Dir: dir, CacheDir: cache, CacheSalt: "build-1"}
	cold := mustGenerate(t, Config{Dir: dir})
	sameFiles(t, "first run", mustGenerate(t, cfg), cold)

	key, err := cacheKey("build-1", cold.Packages[0])
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := readCache(cache, key); !ok {
		t.Fatal("first run stored nothing under the model's key")
	}
	if err := writeCache(cache, key, []byte(poison), []byte("{}\n")); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, map[string]string{"helper.go": "package forms\n\nfunc helper() {}\n"})
	if hit := mustGenerate(t, cfg); string(hit.Files[0].Content) != poison {
		t.Fatal("an edit outside the forms rendered them again")
	}
	if err := os.Remove(filepath.Join(dir, "helper.go")); err != nil {
		t.Fatal(err)
	}

	sameFiles(t, "another salt", mustGenerate(t, Config{Dir: dir, CacheDir: cache, CacheSalt: "build-2"}), cold)

	if err := os.RemoveAll(cache); err != nil {
		t.Fatal(err)
	}
	mustGenerate(t, cfg)
	path := cachePath(cache, key)
	b, _ := os.ReadFile(path)
	b[len(b)-2] ^= 0xff
	writeFiles(t, filepath.Dir(path), map[string]string{filepath.Base(path): string(b)})
	writeFiles(t, dir, map[string]string{"helper.go": "package forms\n\nfunc helper() {}\n"})
	sameFiles(t, "corrupted entry", mustGenerate(t, cfg), cold)

	dir2 := cacheModule(t, "type F struct {\n\tA string `json:\"a\" elicit:\"maxLength=4\"`\n}\n")
	changed := mustGenerate(t, Config{Dir: dir2, CacheDir: cache, CacheSalt: "build-1"})
	if !bytes.Contains(changed.Files[0].Content, []byte(`"maxLength":4`)) {
		t.Fatal("a changed form was served from the cache")
	}

	blocked := filepath.Join(t.TempDir(), "file")
	writeFiles(t, filepath.Dir(blocked), map[string]string{"file": ""})
	if _, err := Generate(ctx, Config{Dir: dir, CacheDir: blocked, CacheSalt: "build-1"}); err != nil {
		t.Fatalf("unwritable cache: %v", err)
	}
}
