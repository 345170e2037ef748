package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/elicitgen/elicitgen/gen"
)

// newLocaleCmd builds `elicitgen locale TAG`: the translators' catalog
// template.
func newLocaleCmd() *cobra.Command {
	var (
		flags  genFlags
		stdout bool
	)
	cmd := &cobra.Command{
		Use:   "locale TAG [packages]",
		Short: "Write or update the translation catalog elicit.TAG.json for translators",
		Long: `locale writes elicit.TAG.json (TAG a BCP 47 language tag: ja, ja-JP, pt-BR)
beside the forms of each package: every property title, description and
option title of every form, keyed form -> property, with "" where a
translation is still missing and, under the key "//", the source text as a
hint. Translations the catalog already has are kept, strings of fields that
are gone are dropped, new ones are added: run it again whenever the forms
change. An empty string asks in the source text; a form whose entry is
null stays in the source language on purpose (kept null, never reported).
The "//" comments are rewritten.

go generate embeds the catalogs into elicit_gen.go; elicitgen check lists
what is not translated yet (a warning). --stdout prints the catalog of a
single package instead of writing it.`,
		Example: `  elicitgen locale ja
  elicitgen locale pt-BR ./forms
  elicitgen locale --stdout ja > /tmp/elicit.ja.json`,
		Args:         cobra.MinimumNArgs(1),
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			tag := args[0]
			if !gen.ValidLangTag(tag) {
				return withCode(2, fmt.Errorf("elicitgen: %q is not a BCP 47 language tag (e.g. ja, ja-JP, pt-BR)", tag))
			}
			cfg, err := flags.config(args[1:])
			if err != nil {
				return err
			}
			pkgs, err := gen.Models(cmd.Context(), cfg)
			if err != nil {
				return err
			}
			var withForms []*gen.Package
			for _, p := range pkgs {
				if len(p.Forms) > 0 {
					withForms = append(withForms, p)
				}
			}
			if len(withForms) == 0 {
				return withCode(2, fmt.Errorf("elicitgen: no forms to translate"))
			}
			if stdout && len(withForms) > 1 {
				return withCode(2, fmt.Errorf("elicitgen: --stdout prints one package's catalog, and %d packages have forms", len(withForms)))
			}
			for _, p := range withForms {
				out, err := gen.LocaleTemplate(p, tag)
				if err != nil {
					return withCode(2, fmt.Errorf("elicitgen: %w", err))
				}
				if stdout {
					_, err = cmd.OutOrStdout().Write(out)
					return err
				}
				path := filepath.Join(p.Dir, catalogName(p, tag))
				if old, err := os.ReadFile(path); err != nil || !bytes.Equal(old, out) {
					if err := os.WriteFile(path, out, 0o644); err != nil {
						return withCode(2, fmt.Errorf("elicitgen: %w", err))
					}
				}
				todo := len(gen.MissingTranslations([]*gen.Package{onlyCatalog(p, tag)}))
				fmt.Fprintf(cmd.OutOrStdout(), "%s: %d strings to translate\n", relPath(cfg.Dir, path), todo)
			}
			return nil
		},
	}
	// No --type: a catalog covers every form of its package, and a
	// partial one written back would drop the other forms' translations.
	cmd.Flags().StringVar(&flags.tags, "tags", "", "comma-separated build tags")
	cmd.Flags().BoolVar(&stdout, "stdout", false, "print the catalog instead of writing it (one package only)")
	return cmd
}

// catalogName is the existing catalog's file name for tag (whatever its
// case), else the canonical one.
func catalogName(p *gen.Package, tag string) string {
	for _, l := range p.Locales {
		if equalFold(l.Tag, tag) {
			return filepath.Base(l.File)
		}
	}
	return gen.LocaleFileName(tag)
}

// onlyCatalog returns p with its catalog for tag as its only one (an
// empty one when it has none), to count what is left to translate.
func onlyCatalog(p *gen.Package, tag string) *gen.Package {
	c := *p
	c.Locales = []*gen.Locale{{Tag: tag, File: gen.LocaleFileName(tag)}}
	for _, l := range p.Locales {
		if equalFold(l.Tag, tag) {
			c.Locales = []*gen.Locale{l}
		}
	}
	return &c
}

func equalFold(a, b string) bool {
	return len(a) == len(b) && bytes.EqualFold([]byte(a), []byte(b))
}

func relPath(dir, path string) string {
	if rel, err := filepath.Rel(dir, path); err == nil {
		return rel
	}
	return path
}

// printMissingTranslations writes one warning line per string a catalog
// of pkgs does not translate (elicitgen check; exit status unchanged).
func printMissingTranslations(w io.Writer, dir string, pkgs []*gen.Package) {
	for _, m := range gen.MissingTranslations(pkgs) {
		m.File = relPath(dir, m.File)
		fmt.Fprintln(w, m.String())
	}
}
