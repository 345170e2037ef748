package gen

import (
	"go/ast"
	"go/token"
	"strings"
)

// The //go:generate directive: its --type list is the default form
// selection, so that check, docs and the analyzer see what go generate
// generated.

// DirectiveTypes returns the --type list of the first //go:generate line
// in files that runs elicitgen's generate command (go tool elicitgen,
// elicitgen, go run .../cmd/elicitgen[@version]), and the line's position;
// nil when there is none or it has no --type.
func DirectiveTypes(files []*ast.File) ([]string, token.Pos) {
	for _, f := range files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				line, ok := strings.CutPrefix(c.Text, "//go:generate ")
				if !ok {
					continue
				}
				args, ok := generateArgs(strings.Fields(line))
				if !ok {
					continue
				}
				return typeFlag(args), c.Pos()
			}
		}
	}
	return nil, token.NoPos
}

// generateArgs returns the arguments after the elicitgen command of a
// generate directive, and whether the line runs elicitgen's generate
// command (the default) rather than another one such as docs.
func generateArgs(args []string) ([]string, bool) {
	for i, a := range args {
		name, _, _ := strings.Cut(a, "@")
		if name != "elicitgen" && !strings.HasSuffix(name, "/elicitgen") {
			continue
		}
		rest := args[i+1:]
		if len(rest) > 0 {
			switch rest[0] {
			case "schema", "check", "diff", "docs", "version", "help", "completion":
				return nil, false
			}
		}
		return rest, true
	}
	return nil, false
}

// typeFlag returns the type names of a --type flag in args.
func typeFlag(args []string) []string {
	for i, a := range args {
		var val string
		switch {
		case a == "--type" || a == "-type":
			if i+1 < len(args) {
				val = args[i+1]
			}
		case strings.HasPrefix(a, "--type=") || strings.HasPrefix(a, "-type="):
			_, val, _ = strings.Cut(a, "=")
		default:
			continue
		}
		var names []string
		for _, t := range strings.Split(val, ",") {
			if t = strings.TrimSpace(t); t != "" {
				names = append(names, t)
			}
		}
		return names
	}
	return nil
}
