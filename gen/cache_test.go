package gen

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

func cacheModule(t *testing.T, form string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range map[string]string{
		"go.mod":   "module example.com/cache\n\ngo 1.24\n",
		"forms.go": "package forms\n\n" + form,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestOutputCache(t *testing.T) {
	ctx := context.Background()
	dir := cacheModule(t, "type F struct {\n\tA string `json:\"a\" elicit:\"maxLength=3\"`\n}\n")
	cache := t.TempDir()
	cfg := Config{Dir: dir, CacheDir: cache, CacheSalt: "build-1"}
	cold, err := Generate(ctx, Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	first, err := Generate(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i := range cold.Files {
		if !bytes.Equal(cold.Files[i].Content, first.Files[i].Content) {
			t.Fatalf("%s: output with a cache differs from output without", cold.Files[i].Path)
		}
	}

	// The entry is consulted: poison it and the poison comes back.
	key, err := cacheKey("build-1", first.Packages[0])
	if err != nil {
		t.Fatal(err)
	}
	if _, _, ok := readCache(cache, key); !ok {
		t.Fatal("first run stored nothing")
	}
	if err := writeCache(cache, key, []byte("// poisoned\n"), []byte("{}\n")); err != nil {
		t.Fatal(err)
	}
	hit, err := Generate(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if string(hit.Files[0].Content) != "// poisoned\n" {
		t.Fatal("second run did not read the cache")
	}

	// Another generator build never sees the entry.
	other, err := Generate(ctx, Config{Dir: dir, CacheDir: cache, CacheSalt: "build-2"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(other.Files[0].Content, cold.Files[0].Content) {
		t.Fatal("a different salt reused another build's entry")
	}

	// A corrupted entry is a miss, not an error.
	path := cachePath(cache, key)
	b, _ := os.ReadFile(path)
	b[len(b)-2] ^= 0xff
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	again, err := Generate(ctx, cfg)
	if err != nil || !bytes.Equal(again.Files[0].Content, cold.Files[0].Content) {
		t.Fatalf("corrupted entry: %v", err)
	}

	// A changed form is a different key.
	dir2 := cacheModule(t, "type F struct {\n\tA string `json:\"a\" elicit:\"maxLength=4\"`\n}\n")
	changed, err := Generate(ctx, Config{Dir: dir2, CacheDir: cache, CacheSalt: "build-1"})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(changed.Files[0].Content, cold.Files[0].Content) || !bytes.Contains(changed.Files[0].Content, []byte(`"maxLength":4`)) {
		t.Fatal("a changed form was served from the cache")
	}

	// An unusable cache directory only costs the cache.
	blocked := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocked, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Generate(ctx, Config{Dir: dir, CacheDir: blocked, CacheSalt: "build-1"}); err != nil {
		t.Fatalf("unwritable cache: %v", err)
	}
}
