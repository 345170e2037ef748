package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/elicitgen/elicitgen/gen"
)

// newDocsCmd builds `elicitgen docs`: the Markdown catalog of every form.
func newDocsCmd() *cobra.Command {
	var (
		flags    genFlags
		tmplPath string
		output   string
	)
	cmd := &cobra.Command{
		Use:   "docs [packages]",
		Short: "Print a Markdown catalog of every form",
		Long: `docs prints a Markdown catalog of every form of the packages: for each
form its doc comment and a table of its fields (property, title, type,
required, bounds, format, options with their titles, default, description);
which protocol eras can ask it and what each era's client receives (see
schema --protocol); and the fields that meet a known client limit. The
catalog ends with the table of known client limits and their sources.

The catalog is rendered from an embedded text/template; --template renders
your own instead, with the same data (gen.DocsCatalog). The output is
deterministic, so it can be committed and checked in CI. Exit status: 0, or
2 on bad input.`,
		Example: `  elicitgen docs ./... > FORMS.md
  elicitgen docs -o docs/forms.md --type Deploy,Booking ./forms
  elicitgen docs --template forms.md.tmpl ./...`,
		Args:         cobra.ArbitraryArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			tmpl, err := gen.DocsTemplate(tmplPath)
			if err != nil {
				return withCode(2, fmt.Errorf("elicitgen: %w", err))
			}
			cfg, err := flags.config(args)
			if err != nil {
				return err
			}
			pkgs, err := gen.Models(cmd.Context(), cfg)
			if err != nil {
				return err
			}
			out, err := gen.Docs(pkgs, tmpl)
			if err != nil {
				return withCode(2, fmt.Errorf("elicitgen: %w", err))
			}
			if output == "" || output == "-" {
				_, err = cmd.OutOrStdout().Write(out)
				return err
			}
			if err := os.WriteFile(output, out, 0o644); err != nil {
				return withCode(2, fmt.Errorf("elicitgen: %w", err))
			}
			return nil
		},
	}
	flags.register(cmd, typeDocs)
	cmd.Flags().StringVar(&tmplPath, "template", "", "render with this text/template `file` instead of the built-in catalog")
	cmd.Flags().StringVarP(&output, "output", "o", "", "write the catalog to `file` (default: stdout)")
	return cmd
}
