package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/elicitgen/elicitgen/internal/testmod"
)

// packageDoc returns the package doc comment of this command, as go doc
// shows it.
func packageDoc(t *testing.T) string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	if f.Doc == nil {
		t.Fatal("doc.go has no package doc")
	}
	return f.Doc.Text()
}

// TestDocCoversCommandsAndFlags: go doc ./cmd/elicitgen names every
// command and every flag of every command.
func TestDocCoversCommandsAndFlags(t *testing.T) {
	doc := packageDoc(t)
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Hidden || c.Name() == "help" || c.Name() == "completion" {
			return
		}
		if c.HasParent() && !strings.Contains(doc, "elicitgen "+c.Name()) {
			t.Errorf("the package doc does not document the command %q", c.Name())
		}
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if f.Name == "help" {
				return
			}
			if !strings.Contains(doc, "--"+f.Name) && !(f.Shorthand != "" && strings.Contains(doc, "-"+f.Shorthand+" ")) {
				t.Errorf("the package doc does not document %s --%s", c.Name(), f.Name)
			}
		})
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(newRootCmd())
}

// TestDocCoversTagOptions: the package doc names every elicit tag option
// gen/tag.go knows.
func TestDocCoversTagOptions(t *testing.T) {
	doc := packageDoc(t)
	path := filepath.Join(testmod.Root(t), "gen", "tag.go")
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Names) != 1 || vs.Names[0].Name != "knownKeys" || len(vs.Values) != 1 {
			return true
		}
		for _, e := range vs.Values[0].(*ast.CompositeLit).Elts {
			k, _ := strconv.Unquote(e.(*ast.KeyValueExpr).Key.(*ast.BasicLit).Value)
			keys = append(keys, k)
		}
		return false
	})
	if len(keys) < 10 {
		t.Fatalf("found %d tag options in gen/tag.go's knownKeys; the test no longer reads it", len(keys))
	}
	_, section, ok := strings.Cut(doc, "# Tag options\n")
	if !ok {
		t.Fatal(`the package doc has no "# Tag options" section`)
	}
	section, _, _ = strings.Cut(section, "\n# ")
	for _, k := range keys {
		if !regexp.MustCompile(`(?m)^  - (.*\W)?` + k + `\b`).MatchString(section) {
			t.Errorf("the package doc's tag options do not list %q", k)
		}
	}
}
