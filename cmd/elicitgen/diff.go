package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/elicitgen/elicitgen/gen/schemadiff"
	"github.com/spf13/cobra"
)

// diffSchemaFile is the schema file `elicitgen generate` writes in each
// package directory.
const diffSchemaFile = "elicit_gen.json"

// newDiffCmd builds `elicitgen diff`: it compares two schema files, or each
// package's schema file at a git revision with the working tree, prints
// every change classified as breaking or compatible, and exits 0 when none
// is breaking, 1 when one is, and 2 on an error.
func newDiffCmd() *cobra.Command {
	var (
		base   string
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "diff OLD NEW | diff --base REV [packages]",
		Short: "Classify schema changes as breaking or compatible",
		Long: `Diff compares two elicit_gen.json schema files and classifies each change as
breaking (an answer valid under the old schema is rejected or misread by the
new server) or compatible.

With --base REV it compares, for each package (default "."), the package's
elicit_gen.json at git revision REV with the one in the working tree. A file
missing on one side counts as a file with no forms.

Exit status: 0 when no change is breaking, 1 when one is, 2 on an error.`,
		Example: `  # compare two schema files
  elicitgen diff old/elicit_gen.json elicit_gen.json

  # in CI: compare every package with the main branch, as JSON
  elicitgen diff --base origin/main --json ./...`,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			var (
				rep *schemadiff.Report
				err error
			)
			if cmd.Flags().Changed("base") {
				rep, err = diffBase(ctx, cmd, base, args)
			} else {
				rep, err = diffFiles(args)
			}
			if err != nil {
				return withCode(2, fmt.Errorf("elicitgen diff: %w", err))
			}
			if asJSON {
				err = rep.WriteJSON(cmd.OutOrStdout())
			} else {
				err = rep.WriteText(cmd.OutOrStdout())
			}
			if err != nil {
				return withCode(2, fmt.Errorf("elicitgen diff: %w", err))
			}
			if rep.Breaking() {
				return withCode(1, nil)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&base, "base", "", "compare each package's "+diffSchemaFile+" at git revision `REV` with the working tree")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	return cmd
}

// diffFiles compares the two schema files named by args.
func diffFiles(args []string) (*schemadiff.Report, error) {
	if len(args) != 2 {
		return nil, fmt.Errorf("want two schema files (OLD NEW), or --base REV [packages]; got %d argument(s)", len(args))
	}
	oldJSON, err := os.ReadFile(args[0])
	if err != nil {
		return nil, err
	}
	newJSON, err := os.ReadFile(args[1])
	if err != nil {
		return nil, err
	}
	return schemadiff.CompareFiles(args[0], oldJSON, args[1], newJSON)
}

// diffPackage is a package as `go list` reports it.
type diffPackage struct {
	importPath, dir string
}

// diffBase compares each package's schema file at rev with the working tree.
// With more than one package, form names are qualified by import path.
func diffBase(ctx context.Context, cmd *cobra.Command, rev string, patterns []string) (*schemadiff.Report, error) {
	if rev == "" {
		return nil, errors.New("--base needs a git revision")
	}
	pkgs, err := diffListPackages(ctx, patterns)
	if err != nil {
		return nil, err
	}
	all := &schemadiff.Report{Changes: []schemadiff.Change{}}
	found := false
	for _, p := range pkgs {
		rel := diffRel(filepath.Join(p.dir, diffSchemaFile))
		newJSON, err := os.ReadFile(filepath.Join(p.dir, diffSchemaFile))
		newMissing := errors.Is(err, fs.ErrNotExist)
		if err != nil && !newMissing {
			return nil, err
		}
		oldJSON, err := schemadiff.ReadAtRevision(ctx, p.dir, rev, diffSchemaFile)
		oldMissing := errors.Is(err, schemadiff.ErrNotExist)
		if err != nil && !oldMissing {
			return nil, err
		}
		if oldMissing && newMissing {
			continue
		}
		found = true
		if oldMissing {
			oldJSON = []byte("{}")
		}
		if newMissing {
			newJSON = []byte("{}")
		}
		rep, err := schemadiff.CompareFiles(rev+":"+filepath.ToSlash(rel), oldJSON, rel, newJSON)
		if err != nil {
			return nil, err
		}
		for _, c := range rep.Changes {
			if len(pkgs) > 1 {
				c.Form = p.importPath + "." + c.Form
			}
			all.Changes = append(all.Changes, c)
		}
	}
	if !found {
		fmt.Fprintf(cmd.ErrOrStderr(), "elicitgen diff: no %s in %s or in the working tree\n", diffSchemaFile, rev)
	}
	return all, nil
}

// diffListPackages resolves package patterns (default ".") with go list, in
// the working directory, sorted by import path.
func diffListPackages(ctx context.Context, patterns []string) ([]diffPackage, error) {
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	for _, p := range patterns {
		if strings.HasPrefix(p, "-") {
			return nil, fmt.Errorf("bad package pattern %q", p)
		}
	}
	args := append([]string{"list", "-f", "{{.ImportPath}}\t{{.Dir}}"}, patterns...)
	var stdout, stderr bytes.Buffer
	list := exec.CommandContext(ctx, "go", args...)
	list.Stdout, list.Stderr = &stdout, &stderr
	if err := list.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("go list %s: %s", strings.Join(patterns, " "), msg)
	}
	var pkgs []diffPackage
	for line := range strings.Lines(stdout.String()) {
		importPath, dir, ok := strings.Cut(strings.TrimRight(line, "\r\n"), "\t")
		if !ok || dir == "" {
			continue
		}
		pkgs = append(pkgs, diffPackage{importPath, dir})
	}
	slices.SortFunc(pkgs, func(a, b diffPackage) int { return strings.Compare(a.importPath, b.importPath) })
	return pkgs, nil
}

// diffRel returns path relative to the working directory when it is below
// it, for messages without absolute paths.
func diffRel(path string) string {
	wd, err := os.Getwd()
	if err != nil {
		return path
	}
	rel, err := filepath.Rel(wd, path)
	if err != nil || strings.HasPrefix(rel, "..") {
		return path
	}
	return rel
}
