package main

import (
	"context"
	"fmt"
	"io"

	"github.com/elicitgen/elicitgen/gen"
	"github.com/elicitgen/elicitgen/gen/schemadiff"
	"github.com/spf13/cobra"
)

// printCheckAnnotations writes one GitHub Actions ::error per finding of
// check, at the stale form's line (paths relative to the repository's
// top directory), or one for the generated files when the findings name
// nothing (bytes outside any form differ).
func printCheckAnnotations(cmd *cobra.Command, res *gen.Result, dir string) error {
	findings, err := gen.StaleFindings(res, dir)
	if err != nil {
		return err
	}
	return writeCheckAnnotations(cmd.Context(), cmd.OutOrStdout(), findings)
}

func writeCheckAnnotations(ctx context.Context, w io.Writer, findings []gen.StaleFinding) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if len(findings) == 0 {
		_, err := io.WriteString(w, schemadiff.Annotation("error", "", 0, "elicitgen check", "generated files are out of date: run go generate"))
		return err
	}
	for _, f := range findings {
		msg := f.Msg
		if f.Line == 0 {
			msg = fmt.Sprintf("%s: %s", f.Path, f.Msg)
		}
		if _, err := io.WriteString(w, schemadiff.Annotation("error", diffTopRel(ctx, f.Abs), f.Line, "elicitgen check", msg)); err != nil {
			return err
		}
	}
	return nil
}
