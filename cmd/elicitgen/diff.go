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

	"github.com/elicitgen/elicitgen/gen"
	"github.com/elicitgen/elicitgen/gen/schemadiff"
	"github.com/spf13/cobra"
)

// diffSchemaFile is the schema file `elicitgen generate` writes in each
// package directory.
const diffSchemaFile = "elicit_gen.json"

// newDiffCmd builds `elicitgen diff`: it compares two schema files, or each
// package's schema file at a git revision with the working tree, prints
// every change classified as breaking or compatible, and exits 0 when none
// is breaking (or every breaking one is allowed), 1 when one is, and 2 on
// an error.
func newDiffCmd() *cobra.Command {
	var (
		base, format, allow string
		asJSON              bool
	)
	cmd := &cobra.Command{
		Use:   "diff OLD NEW | diff --base REV [packages]",
		Short: "Classify schema changes as breaking or compatible",
		Long: `Diff compares two elicit_gen.json schema files and classifies each change as
breaking (an answer valid under the old schema is refused or misread by the
new server) or compatible. It sees what is sent to clients and the rules the
server applies without sending them, which the schema file records as
x-elicitgen- keys: pattern= and its patternMessage, confirm, ask, and a
form's CheckElicit method. Each change says what an answer valid before now
gets ("CHG-0000", valid before, is now refused).

With --base REV it compares, for each package (default "."), the package's
elicit_gen.json at git revision REV (anything git resolves: a branch, a
commit, HEAD~1, HEAD^{tree}) with the one in the working tree. A file
missing on one side counts as a file with no forms.

--format picks the report: text (one line per change), json, markdown (a
summary per form to post on a pull request) or github (one GitHub Actions
annotation per change, ::error for breaking, ::notice for compatible, at the
struct field's line when the package loads, else at the schema file's line).

--allow FILE names intended breaks, one per line, "Form.field: reason" (or
"Form: reason" for the form itself; # starts a comment). A breaking change
listed there is reported as acknowledged, with its reason, and does not fail
the run. A line that allows no breaking change (stale), names an unknown
form or field, is malformed or repeats another is an error at its position.

Exit status: 0 when no change is breaking (or all are allowed), 1 when one
is, 2 on an error (bad input, a revision git cannot resolve, a schema file
from a newer elicitgen, a bad or stale allow file).`,
		Example: `  # compare two schema files
  elicitgen diff old/elicit_gen.json elicit_gen.json

  # in CI: annotate the pull request, with the intended breaks listed
  elicitgen diff --base origin/main --format github --allow .elicit-allow ./...

  # the summary a bot posts on the pull request
  elicitgen diff --base origin/main --format markdown --allow .elicit-allow ./...`,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			if asJSON {
				if cmd.Flags().Changed("format") && format != schemadiff.FormatJSON {
					return withCode(2, fmt.Errorf("elicitgen diff: --json and --format %s disagree", format))
				}
				format = schemadiff.FormatJSON
			}
			if !slices.Contains(schemadiff.Formats, format) {
				return withCode(2, fmt.Errorf("elicitgen diff: unknown --format %q (want %s)", format, strings.Join(schemadiff.Formats, ", ")))
			}
			var list *schemadiff.AllowList
			if allow != "" {
				data, err := os.ReadFile(allow)
				if err != nil {
					return withCode(2, fmt.Errorf("elicitgen diff: --allow: %w", err))
				}
				if list, err = schemadiff.ParseAllow(allow, data); err != nil {
					return withCode(2, err)
				}
			}
			var (
				rep *schemadiff.Report
				err error
			)
			if cmd.Flags().Changed("base") {
				rep, err = diffBase(ctx, cmd, base, args, format == schemadiff.FormatGitHub)
			} else {
				rep, err = diffFiles(args)
			}
			if err != nil {
				return withCode(2, fmt.Errorf("elicitgen diff: %w", err))
			}
			if list != nil {
				if err := rep.Allow(list); err != nil {
					return withCode(2, err)
				}
			}
			if err := rep.Write(cmd.OutOrStdout(), format); err != nil {
				return withCode(2, fmt.Errorf("elicitgen diff: %w", err))
			}
			if rep.Breaking() {
				return withCode(1, nil)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&base, "base", "", "compare each package's "+diffSchemaFile+" at git revision `REV` (a commit, branch or tree) with the working tree")
	cmd.Flags().StringVar(&format, "format", schemadiff.FormatText, "report `format`: "+strings.Join(schemadiff.Formats, ", "))
	cmd.Flags().StringVar(&allow, "allow", "", "`FILE` of intended breaking changes, one \"Form.field: reason\" a line")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON (the same as --format json)")
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
	rep, err := schemadiff.CompareFiles(args[0], oldJSON, args[1], newJSON)
	if err != nil {
		return nil, err
	}
	rep.Locate(schemadiff.InSchemaFile(filepath.ToSlash(args[1]), newJSON, ""), schemadiff.InSchemaFile(filepath.ToSlash(args[0]), oldJSON, ""))
	return rep, nil
}

// diffPackage is a package as `go list` reports it.
type diffPackage struct {
	importPath, dir string
}

// diffBase compares each package's schema file at rev with the working tree.
// With more than one package, form names are qualified by import path.
// With locate, each change is placed at its struct field's line (paths
// relative to the repository's top directory), loading the packages; a
// package that does not load is placed in its schema file.
func diffBase(ctx context.Context, cmd *cobra.Command, rev string, patterns []string, locate bool) (*schemadiff.Report, error) {
	if rev == "" {
		return nil, errors.New("--base needs a git revision")
	}
	if err := schemadiff.ResolveRevision(ctx, ".", rev); err != nil {
		return nil, err
	}
	pkgs, err := diffListPackages(ctx, patterns)
	if err != nil {
		return nil, err
	}
	all := &schemadiff.Report{Changes: []schemadiff.Change{}}
	var locators []schemadiff.Locator
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
		prefix := ""
		if len(pkgs) > 1 {
			prefix = p.importPath + "."
		}
		all.Add(rep, prefix)
		if locate && len(rep.Changes) > 0 {
			file := diffTopRel(ctx, filepath.Join(p.dir, diffSchemaFile))
			locators = append(locators, diffSourceLocator(ctx, p, prefix),
				schemadiff.InSchemaFile(file, newJSON, prefix),
				schemadiff.InSchemaFile(file, oldJSON, prefix), // what the working tree lost
			)
		}
	}
	if !found {
		fmt.Fprintf(cmd.ErrOrStderr(), "elicitgen diff: no %s in %s or in the working tree\n", diffSchemaFile, rev)
	}
	all.Locate(locators...)
	return all, nil
}

// diffSourceLocator loads package p and finds each form and field at its
// declaration, as a path relative to the repository's top directory (the
// file= of a GitHub annotation). A package that does not load finds
// nothing.
func diffSourceLocator(ctx context.Context, p diffPackage, prefix string) schemadiff.Locator {
	models, err := gen.Models(ctx, gen.Config{Dir: p.dir})
	if err != nil || len(models) != 1 {
		return func(string, string) (string, int, bool) { return "", 0, false }
	}
	type where struct {
		file string
		line int
	}
	at := map[[2]string]where{}
	for _, f := range models[0].Forms {
		at[[2]string{prefix + f.Name, ""}] = where{diffTopRel(ctx, f.Pos.Filename), f.Pos.Line}
		for _, fld := range f.Fields {
			at[[2]string{prefix + f.Name, fld.Prop.Name}] = where{diffTopRel(ctx, fld.Pos.Filename), fld.Pos.Line}
		}
	}
	return func(form, property string) (string, int, bool) {
		w, ok := at[[2]string{form, property}]
		return w.file, w.line, ok
	}
}

// diffTopRel returns path relative to the git repository's top
// directory, with slashes (else relative to the working directory).
func diffTopRel(ctx context.Context, path string) string {
	out, err := exec.CommandContext(ctx, "git", "-C", filepath.Dir(path), "rev-parse", "--show-toplevel").Output()
	if err == nil {
		if rel, err := filepath.Rel(strings.TrimSpace(string(out)), path); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(diffRel(path))
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
