package gen

import (
	"fmt"
	"go/token"
	"path/filepath"
	"sort"
	"strings"
)

// Diagnostic is one problem in the user's input, at a source position.
type Diagnostic struct {
	Pos token.Position
	Msg string
}

func (d Diagnostic) String() string {
	if !d.Pos.IsValid() {
		return d.Msg
	}
	return fmt.Sprintf("%s: %s", d.Pos, d.Msg)
}

// Diagnostics is every problem found in one run, sorted by position. It is
// the error Generate returns for bad input.
type Diagnostics []Diagnostic

// Error prints one problem per line.
func (ds Diagnostics) Error() string {
	lines := make([]string, len(ds))
	for i, d := range ds {
		lines[i] = d.String()
	}
	return strings.Join(lines, "\n")
}

// Sort orders ds by file, line, column, then message, and drops exact
// duplicates.
func (ds Diagnostics) Sort() Diagnostics {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i].Pos, ds[j].Pos
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		return ds[i].Msg < ds[j].Msg
	})
	out := ds[:0]
	for i, d := range ds {
		if i > 0 && d == ds[i-1] {
			continue
		}
		out = append(out, d)
	}
	return out
}

// Relative rewrites every file name relative to dir when it lies below it,
// so messages read the same on every machine.
func (ds Diagnostics) Relative(dir string) Diagnostics {
	out := make(Diagnostics, len(ds))
	for i, d := range ds {
		out[i] = d
		if d.Pos.Filename != "" && dir != "" {
			if rel, err := filepath.Rel(dir, d.Pos.Filename); err == nil && !strings.HasPrefix(rel, "..") {
				out[i].Pos.Filename = rel
			}
		}
	}
	return out
}

type diagSink struct {
	list Diagnostics
}

func (s *diagSink) errorf(pos token.Position, format string, args ...any) {
	s.list = append(s.list, Diagnostic{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}
