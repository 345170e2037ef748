package gen

import (
	"go/build/constraint"
)

// Build constraints: the generated file builds exactly when the files
// that declare the forms do.

// buildConstraint sets pkg.BuildConstraint from the //go:build lines of
// the files that declare forms: the generated file must build exactly when
// they do. Forms under different constraints cannot share one file.
func (b *builder) buildConstraint(pkg *Package) {
	var first *Form
	for _, f := range pkg.Forms {
		c := b.constraintOf(f.Pos.Filename)
		if first == nil {
			first, pkg.BuildConstraint = f, c
			continue
		}
		if c != pkg.BuildConstraint {
			b.sink.errorf(f.Pos, "form %s builds under %q but form %s under %q: one generated file cannot serve both; move the forms so they share a build constraint", f.Name, c, first.Name, pkg.BuildConstraint)
			return
		}
	}
}

// constraintOf returns the //go:build expression of the named file.
func (b *builder) constraintOf(filename string) string {
	for _, f := range b.src.Files {
		if b.src.Fset.File(f.Pos()).Name() != filename {
			continue
		}
		for _, cg := range f.Comments {
			if cg.Pos() > f.Package {
				break
			}
			for _, c := range cg.List {
				if constraint.IsGoBuild(c.Text) {
					if expr, err := constraint.Parse(c.Text); err == nil {
						return expr.String()
					}
				}
			}
		}
	}
	return ""
}
