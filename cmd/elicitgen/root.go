package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/elicitgen/elicitgen/gen"
)

// run executes the command line and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	root := newRootCmd()
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(context.Background())
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintln(stderr, ee.err)
		}
		return ee.code
	}
	var diags gen.Diagnostics
	if errors.As(err, &diags) {
		for _, d := range diags {
			if d.Pos.IsValid() {
				fmt.Fprintln(stderr, d)
			} else {
				fmt.Fprintln(stderr, "elicitgen:", d.Msg)
			}
		}
		return 2
	}
	fmt.Fprintln(stderr, "elicitgen:", strings.TrimPrefix(err.Error(), "elicitgen: "))
	return 2
}

// genFlags are the flags shared by the commands that load packages.
type genFlags struct {
	types   string
	tags    string
	noCache bool
}

// typeDefault is how --type defaults, the same for every command.
const typeDefault = " (default: the --type of the package's //go:generate elicitgen line, else every form)"

// register adds --type, with what it does for cmd, and --tags.
func (g *genFlags) register(cmd *cobra.Command, typeDoes string) {
	cmd.Flags().StringVar(&g.types, "type", "", "comma-separated type `names`: "+typeDoes+typeDefault)
	cmd.Flags().StringVar(&g.tags, "tags", "", "comma-separated build `tags`, as for go build (the same as go generate's run saw)")
}

// --type's meaning per command.
const (
	typeGenerate = "generate only these forms"
	typeSchema   = "print only these forms' schemas"
	typeCheck    = "check the files as generate --type would write them"
	typeDocs     = "list only these forms in the catalog"
)

func (g *genFlags) config(args []string) (gen.Config, error) {
	dir, err := os.Getwd()
	if err != nil {
		return gen.Config{}, err
	}
	return gen.Config{Dir: dir, Patterns: args, Types: splitComma(g.types), Tags: splitComma(g.tags)}, nil
}

func splitComma(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func newRootCmd() *cobra.Command {
	var flags genFlags
	root := &cobra.Command{
		Use:   "elicitgen [packages]",
		Short: "Generate typed MCP elicitation forms from tagged Go structs",
		Long: `elicitgen turns Go structs tagged elicit:"..." into MCP elicitation forms:
a flat requestedSchema (elicit_gen.json), a validator and decoder, and typed
AskT, AcceptT, DeclineT and CancelT functions (elicit_gen.go).

With no command it generates, as under go generate.`,
		Example: `  //go:generate go tool elicitgen
  elicitgen ./...
  elicitgen check ./...
  elicitgen schema . > forms.json`,
		Args:          cobra.ArbitraryArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runGenerate(cmd, &flags, args)
		},
	}
	flags.register(root, typeGenerate)
	flags.registerCache(root)
	root.AddCommand(commands()...)
	return root
}

// commands lists every subcommand, in the order help shows them.
func commands() []*cobra.Command {
	return []*cobra.Command{
		newGenerateCmd(),
		newSchemaCmd(),
		newCheckCmd(),
		newDiffCmd(),
		newDocsCmd(),
		newLocaleCmd(),
		newVerifyCmd(),
		newVersionCmd(),
	}
}

func newGenerateCmd() *cobra.Command {
	var flags genFlags
	cmd := &cobra.Command{
		Use:   "generate [packages]",
		Short: "Write elicit_gen.go and elicit_gen.json in each package with forms",
		Example: `  elicitgen generate
  elicitgen generate --type Deploy,Booking ./forms`,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runGenerate(cmd, &flags, args)
		},
	}
	flags.register(cmd, typeGenerate)
	flags.registerCache(cmd)
	return cmd
}

func (g *genFlags) registerCache(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&g.noCache, "no-cache", false, "regenerate every package, ignoring the output cache")
}

// outputCache returns the output cache directory and the salt that
// identifies this elicitgen build, or empty strings when there is no
// usable cache. ELICITGEN_CACHE names another directory, or "off".
func outputCache() (dir, salt string) {
	dir = os.Getenv("ELICITGEN_CACHE")
	if dir == "off" {
		return "", ""
	}
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return "", ""
		}
		dir = filepath.Join(base, "elicitgen")
	}
	return dir, buildSalt()
}

// buildSalt identifies this executable: its module version and checksum
// when it was installed from a module, else its path, size and
// modification time.
func buildSalt() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" && bi.Main.Sum != "" {
		return bi.Main.Path + "@" + bi.Main.Version + " " + bi.Main.Sum
	}
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	st, err := os.Stat(exe)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%s %d %d", exe, st.Size(), st.ModTime().UnixNano())
}

func runGenerate(cmd *cobra.Command, flags *genFlags, args []string) error {
	cfg, err := flags.config(args)
	if err != nil {
		return err
	}
	if !flags.noCache {
		cfg.CacheDir, cfg.CacheSalt = outputCache()
	}
	res, err := gen.Generate(cmd.Context(), cfg)
	if err != nil {
		return err
	}
	printWarnings(cmd.ErrOrStderr(), cfg.Dir, res.Packages)
	sayNoForms(cmd.ErrOrStderr(), res)
	if _, err := gen.Write(res); err != nil {
		return withCode(2, fmt.Errorf("elicitgen: %w", err))
	}
	return nil
}

// printWarnings writes the packages' warnings (a Go name in a title or
// description, a stale translation) to w, one positioned line each; they
// do not change the exit status.
func printWarnings(w io.Writer, dir string, pkgs []*gen.Package) {
	for _, p := range pkgs {
		for _, d := range p.Warnings.Relative(dir) {
			fmt.Fprintln(w, d)
		}
	}
}

func newSchemaCmd() *cobra.Command {
	var (
		flags    genFlags
		protocol string
	)
	cmd := &cobra.Command{
		Use:   "schema [packages]",
		Short: "Print every form's requestedSchema as one JSON object",
		Long: `schema prints one JSON object mapping each form to its requestedSchema, as
sent to a 2025-11-25 or later client. Keys are type names, or
importpath.TypeName when forms come from more than one package.

--protocol prints the schemas as sent to a client of that protocol version
(` + strings.Join(gen.ProtocolVersions(), ", ") + `). On 2025-06-18 titled enums become
enum + enumNames, only boolean defaults are kept, optional multi-select
fields are left out and a required multi-select is one boolean per option
(named field.value); a form that cannot be asked there (one whose only
fields are optional multi-selects) is left out of the output and named
on stderr. A tool's arguments struct (fields tagged ask) is printed whole
and named on stderr: a client is asked only for the properties the model
left out. Exit status:
0, or 2 on bad input or an unknown version.`,
		Example: `  elicitgen schema ./... | jq '.Deploy'
  elicitgen schema --protocol 2025-06-18 ./...`,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := gen.CheckProtocolVersion(protocol); err != nil {
				return withCode(2, fmt.Errorf("elicitgen: --protocol: %w", err))
			}
			cfg, err := flags.config(args)
			if err != nil {
				return err
			}
			pkgs, err := gen.Models(cmd.Context(), cfg)
			if err != nil {
				return err
			}
			out, unavailable, err := gen.EmitSchemasFor(pkgs, protocol)
			if err != nil {
				return err
			}
			for _, u := range unavailable {
				fmt.Fprintf(cmd.ErrOrStderr(), "elicitgen: %s left out: %s\n", u.Key, u.Reason)
			}
			for _, k := range gen.ArgumentsForms(pkgs) {
				fmt.Fprintf(cmd.ErrOrStderr(), "elicitgen: %s is a tool's arguments struct: a client is asked only for the properties the model left out, a subset of this schema, never the whole form\n", k)
			}
			_, err = cmd.OutOrStdout().Write(out)
			return err
		},
	}
	flags.register(cmd, typeSchema)
	cmd.Flags().StringVar(&protocol, "protocol", "", "print the schemas as sent on protocol `version` (default: as sent to 2025-11-25 and later clients)")
	return cmd
}

func newCheckCmd() *cobra.Command {
	var (
		flags  genFlags
		format string
	)
	cmd := &cobra.Command{
		Use:   "check [packages]",
		Short: "Fail when generated files are stale, missing or orphaned",
		Long: `check regenerates in memory and reports every generated file that is
stale, missing or orphaned: first each form that changed, at its position,
then a unified diff of each file (at most 300 lines per file). Like go
generate, it honours the --type of each package's //go:generate elicitgen
line, so it needs no --type of its own; give --tags when go generate ran
with build tags. Warnings go to stderr and do not change the exit status:
titles and descriptions that show Go names to a person, translations whose
source text changed since they were written (stale), and strings a
translation catalog (elicit.<tag>.json) lacks.
With --format github it first prints one GitHub Actions annotation
(::error) per finding, at the stale form's line, so that a pull request
shows where to run go generate.
Exit status: 0 clean, 1 stale, 2 error.`,
		Example: `  elicitgen check ./...

  # in GitHub Actions
  elicitgen check --format github ./...`,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "text" && format != "github" {
				return withCode(2, fmt.Errorf("elicitgen check: unknown --format %q (want text or github)", format))
			}
			cfg, err := flags.config(args)
			if err != nil {
				return err
			}
			res, err := gen.Generate(cmd.Context(), cfg)
			if err != nil {
				return err
			}
			printWarnings(cmd.ErrOrStderr(), cfg.Dir, res.Packages)
			printMissingTranslations(cmd.ErrOrStderr(), cfg.Dir, res.Packages) // locale.go
			diff, err := gen.Stale(res, cfg.Dir)
			if err != nil {
				return withCode(2, fmt.Errorf("elicitgen: %w", err))
			}
			if diff != "" {
				if format == "github" {
					if err := printCheckAnnotations(cmd, res, cfg.Dir); err != nil { // check_github.go
						return withCode(2, fmt.Errorf("elicitgen: %w", err))
					}
				}
				fmt.Fprint(cmd.OutOrStdout(), diff)
				return withCode(1, fmt.Errorf("elicitgen: generated files are out of date: run go generate"))
			}
			return nil
		},
	}
	flags.register(cmd, typeCheck)
	cmd.Flags().StringVar(&format, "format", "text", "report `format`: text, or github (GitHub Actions annotations first)")
	return cmd
}

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the elicitgen version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			v := "(devel)"
			if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
				v = bi.Main.Version
			}
			fmt.Fprintln(cmd.OutOrStdout(), "elicitgen", v)
			return nil
		},
	}
}
