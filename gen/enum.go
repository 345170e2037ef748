package gen

import (
	"go/constant"
	"go/types"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/elicitgen/elicitgen/runtime"
)

// Enums: a named string type with constants in its package is a
// single-select (or, in a slice, a multi-select); the constants give the
// options in declaration order and their comments the titles.

// enumInfo is a named string type's constants, in declaration order.
type enumInfo struct {
	enum   *Enum
	values []runtime.Option
}

// enum returns the constants of a named string type, or nil if it has none.
func (b *builder) enum(named *types.Named) *enumInfo {
	obj := named.Obj()
	if obj.Pkg() == nil {
		return nil
	}
	if e, ok := b.enums[obj]; ok {
		return e
	}
	e := b.scanEnum(named)
	b.enums[obj] = e
	return e
}

// scanEnum finds the constants of a named string type in its package.
func (b *builder) scanEnum(named *types.Named) *enumInfo {
	obj := named.Obj()
	scope := obj.Pkg().Scope()
	var consts []*types.Const
	for _, n := range scope.Names() {
		c, ok := scope.Lookup(n).(*types.Const)
		if ok && types.Identical(c.Type(), named) {
			consts = append(consts, c)
		}
	}
	if len(consts) == 0 {
		return nil
	}
	sort.SliceStable(consts, func(i, j int) bool {
		pi, pj := b.pos(consts[i].Pos()), b.pos(consts[j].Pos())
		if pi.Filename != pj.Filename {
			return pi.Filename < pj.Filename
		}
		return pi.Offset < pj.Offset
	})
	e := &enumInfo{enum: &Enum{PkgPath: obj.Pkg().Path(), Name: obj.Name()}}
	for _, c := range consts {
		if c.Val().Kind() != constant.String {
			continue
		}
		if v := constant.StringVal(c.Val()); !utf8.ValidString(v) {
			// JSON carries text: the value would be offered as U+FFFD and
			// no answer could ever match the constant.
			b.sink.errorf(b.pos(c.Pos()), "enum constant %s holds invalid UTF-8 (%s): JSON would send it as U+FFFD and no answer could match it; use valid UTF-8 text", c.Name(), strconv.QuoteToASCII(v))
			continue
		}
		title := ""
		if vs := b.consts[c.Pos()]; vs != nil {
			title = foldSpace(commentText(vs.Comment))
			if title == "" {
				title = foldSpace(commentText(vs.Doc))
			}
			if title == "" {
				title = foldSpace(commentText(b.constDocs[c.Pos()]))
			}
			title = stripName(title, c.Name())
			if obj.Pkg() == b.src.Types {
				b.warnOptionTitle(b.pos(c.Pos()), c.Name(), title)
			}
		}
		if c.Exported() || obj.Pkg() == b.src.Types {
			e.enum.Consts = append(e.enum.Consts, c.Name())
			e.enum.Values = append(e.enum.Values, constant.StringVal(c.Val()))
		}
		e.values = append(e.values, runtime.Option{Value: constant.StringVal(c.Val()), Title: title})
	}
	return e
}

// stripName removes the Go doc-comment prefix of a constant's title: a
// comment that begins with the constant's name followed by "is", "means",
// ":" or "-" ("EnvProd is Production", "EnvProd: Production") keeps only
// what follows. Anything else is the author's title, kept whole: the
// constant Staging with the comment "Staging (test)" is titled
// "Staging (test)".
func stripName(title, name string) string {
	rest, ok := strings.CutPrefix(title, name)
	if !ok {
		return title
	}
	if r, ok := strings.CutPrefix(rest, ":"); ok {
		return strings.TrimSpace(r)
	}
	rest, ok = strings.CutPrefix(rest, " ")
	if !ok {
		return title
	}
	for _, w := range []string{"is ", "means ", "- ", ": "} {
		if r, ok := strings.CutPrefix(rest, w); ok && strings.TrimSpace(r) != "" {
			return strings.TrimSpace(r)
		}
	}
	return title
}

func (b *builder) useEnum(fs *formState, e *enumInfo, p *runtime.Property) {
	p.Options = e.values
	p.Style = runtime.EnumPlain
	for _, o := range e.values {
		if o.Title != "" {
			p.Style = runtime.EnumTitled
			break
		}
	}
	key := e.enum.PkgPath + "." + e.enum.Name
	if !fs.enums[key] {
		fs.enums[key] = true
		fs.form.Enums = append(fs.form.Enums, e.enum)
	}
}
