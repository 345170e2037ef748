package gen_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/gen"
	"github.com/elicitgen/elicitgen/internal/testmod"
)

// TestLocale runs every testdata/locale/*.txtar case: the package's
// catalogs (elicit.<tag>.json) must give want/stderr (positioned
// errors), or the translations emitted into elicit_gen.go (want/locales.go,
// the part after the forms), the package's warnings (stale translations)
// and those of MissingTranslations (want/warnings) and, per catalog, the translator's template
// (want/template.<tag>.json).
func TestLocale(t *testing.T) {
	eachCase(t, "locale", func(t *testing.T, file string) {
		c := loadCase(t, file, "example.com/locale")
		got := map[string][]byte{}
		res, err := gen.Generate(context.Background(), gen.Config{Dir: c.dir})
		if !diagnosed(t, got, err, "Generate") {
			again, err := gen.Generate(context.Background(), gen.Config{Dir: c.dir})
			if err != nil {
				t.Fatal(err)
			}
			for i, f := range res.Files {
				if !bytes.Equal(f.Content, again.Files[i].Content) {
					t.Errorf("%s differs between two runs", f.Path)
				}
				if filepath.Base(f.Path) == gen.GoFile {
					src := string(f.Content)
					if i := strings.Index(src, "// The translations of the elicit."); i >= 0 {
						got["locales.go"] = []byte(src[i:])
					}
				}
			}
			var warn bytes.Buffer
			for _, pkg := range res.Packages {
				for _, d := range pkg.Warnings.Relative(c.dir) {
					warn.WriteString(d.String() + "\n")
				}
			}
			for _, m := range gen.MissingTranslations(res.Packages) {
				m.File, _ = filepath.Rel(c.dir, m.File)
				warn.WriteString(m.String() + "\n")
			}
			got["warnings"] = warn.Bytes()
			for _, pkg := range res.Packages {
				for _, l := range pkg.Locales {
					tmpl, err := gen.LocaleTemplate(pkg, l.Tag)
					if err != nil {
						t.Fatal(err)
					}
					got["template."+l.Tag+".json"] = tmpl
				}
			}
		}
		c.check(t, got, "go test ./gen -run TestLocale")
	})
}

// TestLocaleTemplateRoundTrip checks that a fresh template loads without
// errors, translates nothing (every string empty) and reports every
// source string missing; filling it in removes the warnings.
func TestLocaleTemplateRoundTrip(t *testing.T) {
	c := loadCase(t, "../testdata/locale/ok.txtar", "example.com/locale")
	for _, name := range []string{"elicit.ja.json", "elicit.pt-BR.json"} {
		if err := os.Remove(filepath.Join(c.dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	pkgs, err := gen.Models(context.Background(), gen.Config{Dir: c.dir})
	if err != nil {
		t.Fatal(err)
	}
	tmpl, err := gen.LocaleTemplate(pkgs[0], "ja-JP")
	if err != nil {
		t.Fatal(err)
	}
	testmod.WriteFile(t, filepath.Join(c.dir, "elicit.ja-JP.json"), tmpl)
	pkgs, err = gen.Models(context.Background(), gen.Config{Dir: c.dir})
	if err != nil {
		t.Fatalf("the template does not load: %v\n%s", err, tmpl)
	}
	if l := pkgs[0].Locales; len(l) != 1 || len(l[0].Forms) != 0 {
		t.Fatalf("an empty template translates something: %+v", l)
	}
	missing := gen.MissingTranslations(pkgs)
	// branch description, environment title and its two options, approve description
	if len(missing) != 5 {
		t.Fatalf("%d missing, want 5: %v", len(missing), missing)
	}
	filled := strings.ReplaceAll(string(tmpl), `""`, `"訳"`)
	testmod.WriteFile(t, filepath.Join(c.dir, "elicit.ja-JP.json"), []byte(filled))
	pkgs, err = gen.Models(context.Background(), gen.Config{Dir: c.dir})
	if err != nil {
		t.Fatal(err)
	}
	if m := gen.MissingTranslations(pkgs); len(m) != 0 {
		t.Fatalf("still missing after filling in: %v", m)
	}
	// Filling in keeps the template's shape: regenerating it is stable.
	again, err := gen.LocaleTemplate(pkgs[0], "ja-JP")
	if err != nil || string(again) != filled {
		t.Fatalf("template of a filled catalog changed (%v):\n%s", err, gen.UnifiedDiff("filled", "again", filled, string(again)))
	}
	if _, err := gen.LocaleTemplate(pkgs[0], "EN"); err == nil {
		t.Error("a template for the source language")
	}
	if _, err := gen.LocaleTemplate(pkgs[0], "ja_JP"); err == nil {
		t.Error("a template for a malformed tag")
	}
}

// TestLocaleInvalidatesCache changes only a catalog and checks that the
// output cache does not serve the old translations.
func TestLocaleInvalidatesCache(t *testing.T) {
	c := loadCase(t, "../testdata/locale/ok.txtar", "example.com/locale")
	cfg := gen.Config{Dir: c.dir, CacheDir: t.TempDir(), CacheSalt: "test"}
	first, err := gen.Generate(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(c.dir, "elicit.pt-BR.json")
	testmod.WriteFile(t, path, []byte(`{"Approve": {"approve": {"description": "Aprovar agora"}}}`))
	second, err := gen.Generate(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(second.Files[0].Content, []byte("Aprovar agora")) || bytes.Equal(first.Files[0].Content, second.Files[0].Content) {
		t.Fatalf("a changed catalog was served from the cache:\n%s", second.Files[0].Content)
	}
}

func TestValidLangTag(t *testing.T) {
	for tag, want := range map[string]bool{
		"ja": true, "ja-JP": true, "pt-BR": true, "zh-Hant-TW": true, "es-419": true, "de-CH-1996": true,
		"ja-x-kansai": true, "fil": true, "JA-jp": true,
		"": false, "j": false, "ja_JP": false, "ja-": false, "-ja": false, "ja--JP": false,
		"japanese!": false, "1a": false, "ja-abcdefghi": false, "abcd": false,
	} {
		if got := gen.ValidLangTag(tag); got != want {
			t.Errorf("ValidLangTag(%q) = %v, want %v", tag, got, want)
		}
	}
}
