package gen

import (
	"bytes"
	"errors"
	"fmt"
	"go/format"
	goruntime "runtime"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/dave/jennifer/jen"

	"github.com/elicitgen/elicitgen/runtime"
)

// EmitGo returns elicit_gen.go for pkg. The model must have passed
// Analyze: emitters do not report user errors.
func EmitGo(pkg *Package) ([]byte, error) {
	chunks, err := emitChunks(pkg)
	if err != nil {
		return nil, err
	}
	return groupImports(append(bytes.Join(chunks, []byte("\n\n")), '\n')), nil
}

// emitChunks renders the file header and each form's declarations,
// formatted, one chunk per form after the header.
func emitChunks(pkg *Package) ([][]byte, error) {
	f := jen.NewFilePathName(pkg.PkgPath, pkg.Name)
	f.ImportName(RuntimePath, "runtime")
	f.ImportName(ImplPath, "elicitimpl")
	f.ImportName("context", "context")
	f.NoFormat = true // formatted below, once, with a readable error
	f.HeaderComment(Header)
	f.HeaderComment("// source: " + strings.Join(sourceFiles(pkg), ", "))
	f.HeaderComment("")
	if pkg.BuildConstraint != "" {
		f.HeaderComment("//go:build !" + LoadTag + " && (" + pkg.BuildConstraint + ")")
	} else {
		f.HeaderComment("//go:build !" + LoadTag)
	}

	f.Comment("The generated code needs a runtime at least as new as this elicitgen.")
	f.Const().Id("_").Op("=").Qual(ImplPath, "SupportPackageIsVersion2")
	guarded := map[string]bool{}
	for _, form := range pkg.Forms {
		f.Comment(chunkMark)
		emitForm(f, form, guarded)
	}
	emitLocales(f, pkg) // translations (emit_locale.go)
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, generatorBug("rendering %s: %v", pkg.PkgPath, err)
	}
	return formatChunks(buf.Bytes())
}

// chunkMark separates the declarations of one form from the next in the
// unformatted output, so that formatting can run per form, in parallel.
const chunkMark = "elicitgen:chunk"

// formatChunks gofmts src one chunk at a time, on every CPU. Joined with
// one blank line, the chunks are the same bytes as formatting the whole
// file, since gofmt aligns nothing across top-level declarations.
func formatChunks(src []byte) ([][]byte, error) {
	chunks := bytes.Split(src, []byte("\n// "+chunkMark+"\n"))
	out := make([][]byte, len(chunks))
	errs := make([]error, len(chunks))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(goruntime.GOMAXPROCS(0), len(chunks)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i], errs[i] = format.Source(chunks[i])
				if errs[i] != nil {
					errs[i] = generatorBug("generated code does not format: %v\n%s", errs[i], numbered(chunks[i]))
				}
			}
		}()
	}
	for i := range chunks {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	for i := range out {
		out[i] = bytes.TrimSpace(out[i])
	}
	return out, nil
}

// groupImports splits jennifer's single import block into the standard
// library and the rest, as goimports does. The input is gofmt-formatted
// (jennifer formats what it renders), and the split keeps it so.
func groupImports(src []byte) []byte {
	start := bytes.Index(src, []byte("\nimport (\n"))
	if start < 0 {
		return src
	}
	start += len("\nimport (\n")
	end := bytes.Index(src[start:], []byte("\n)\n"))
	if end < 0 {
		return src
	}
	end += start
	var std, other []string
	for _, line := range strings.Split(string(src[start:end]), "\n") {
		path := strings.Trim(line[strings.LastIndexByte(line, ' ')+1:], "\"\t")
		if strings.Contains(strings.SplitN(path, "/", 2)[0], ".") {
			other = append(other, line)
		} else {
			std = append(std, line)
		}
	}
	if len(std) == 0 || len(other) == 0 {
		return src
	}
	block := strings.Join(std, "\n") + "\n\n" + strings.Join(other, "\n")
	out := make([]byte, 0, len(src)+1)
	out = append(out, src[:start]...)
	out = append(out, block...)
	return append(out, src[end:]...)
}

func sourceFiles(pkg *Package) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range pkg.Forms {
		if !seen[f.SourceFile] {
			seen[f.SourceFile] = true
			out = append(out, f.SourceFile)
		}
	}
	sort.Strings(out)
	return out
}

func numbered(src []byte) string {
	var sb strings.Builder
	for i, line := range strings.Split(string(src), "\n") {
		fmt.Fprintf(&sb, "%5d  %s\n", i+1, line)
	}
	return sb.String()
}

func rt(name string) *jen.Statement { return jen.Qual(RuntimePath, name) }

// impl qualifies a name of the generated-code support package.
func impl(name string) *jen.Statement { return jen.Qual(ImplPath, name) }

// emitForm emits everything generated for one form T: a descriptor the
// runtime's table-driven engine works from, one-line wrappers over it, and
// the compile-time guards. Nothing per field is code, only data:
//
//	var elicitFormT = elicitimpl.NewForm((*T)(nil), &runtime.Schema{...}, "Field", ...)
//	func TSchema() *runtime.Schema
//	func (v T) Validate() error
//	func AskT(ctx, asker, message, opts...) (runtime.Outcome[T], error)
//	func AcceptT(v T) (*runtime.Response, error); DeclineT(); CancelT()
//	compile-time guards
func emitForm(f *jen.File, form *Form, guarded map[string]bool) {
	t, n := form.Name, NamesOf(form.Name)
	form1 := func(method string, args ...jen.Code) jen.Code {
		return oneLine(jen.Return(jen.Id(n.FormVar).Dot(method).Call(args...)))
	}
	emitFormVar(f, form)
	f.Commentf("%s returns a copy of the requestedSchema of %s.", n.SchemaFunc, t)
	f.Func().Id(n.SchemaFunc).Params().Op("*").Add(rt("Schema")).Add(
		oneLine(jen.Return(jen.Id(n.FormVar).Dot("Schema").Call().Dot("Clone").Call())))
	f.Commentf("Validate checks v against every rule of the %s schema; the error is a", t)
	f.Comment("*runtime.ValidationError naming each field that is wrong.")
	f.Func().Params(jen.Id("v").Id(t)).Id("Validate").Params().Error().Add(form1("Validate", jen.Op("&").Id("v")))
	f.Commentf("%s asks the user to fill in %s; only an answer that decodes and", n.Ask, t)
	f.Comment("validates is an accept. An unreachable client matches runtime.ErrUnavailable.")
	f.Func().Id(n.Ask).Params(
		jen.Id("ctx").Qual("context", "Context"),
		jen.Id("asker").Add(rt("Asker")),
		jen.Id("message").String(),
		jen.Id("opts").Op("...").Add(rt("AskOption")),
	).Params(jen.Id("o").Add(rt("Outcome")).Types(jen.Id(t)), jen.Err().Error()).Block(
		jen.List(jen.Id("o").Dot("Action"), jen.Err()).Op("=").Id(n.FormVar).Dot("Ask").Call(
			jen.Id("ctx"), jen.Id("asker"), jen.Op("&").Id("o").Dot("Value"), jen.Id("message"), jen.Id("opts").Op("...")),
		jen.Return(jen.Id("o"), jen.Err()),
	)
	f.Commentf("%s is the client-side answer that submits v, if v validates.", n.Accept)
	f.Func().Id(n.Accept).Params(jen.Id("v").Id(t)).Params(jen.Op("*").Add(rt("Response")), jen.Error()).Add(
		form1("Accept", jen.Op("&").Id("v")))
	for _, a := range []struct{ name, action, verb string }{
		{n.Decline, "ActionDecline", "declines"}, {n.Cancel, "ActionCancel", "dismisses"},
	} {
		f.Commentf("%s is the client-side answer that %s a %s form.", a.name, a.verb, t)
		f.Func().Id(a.name).Params().Op("*").Add(rt("Response")).Add(
			oneLine(jen.Return(jen.Op("&").Add(rt("Response")).Values(kv("Action", rt(a.action))))))
	}
	emitGuards(f, form, guarded)
	emitArgs(f, form) // emit_args.go
}

// oneLine renders a function body on one line: { return ... }.
func oneLine(stmt jen.Code) jen.Code {
	return jen.Custom(jen.Options{Open: "{ ", Close: " }"}, stmt)
}

func kv(key string, v jen.Code) jen.Code { return jen.Id(key).Op(":").Add(v) }

// emitFormVar emits the form's descriptor: its schema, one line per
// property, as static data (formBounds point into a per-form array, so that
// no code runs to build it), and the form, which adds the Go field path of
// each property:
//
//	var elicitCountsT, elicitBoundsT = [...]int{1}, [...]float64{1, 10}
//	var elicitSchemaT = runtime.Schema{Name: "T", Properties: []runtime.Property{
//		{Name: "n", Kind: runtime.KindInteger, Required: true, Minimum: &elicitBoundsT[0], Maximum: &elicitBoundsT[1]},
//	}}
//	var elicitFormT = elicitimpl.NewForm((*T)(nil), &elicitSchemaT, "N")
func emitFormVar(f *jen.File, form *Form) {
	n := NamesOf(form.Name)
	b := &formBounds{name: n.Bounds, counts: n.Counts}
	props := make([]jen.Code, len(form.Fields))
	paths := []jen.Code{jen.Parens(jen.Op("*").Id(form.Name)).Parens(jen.Nil()), jen.Op("&").Id(n.SchemaVar)}
	for i, fld := range form.Fields {
		props[i] = propertyLit(&fld.Prop, b)
		paths = append(paths, jen.Lit(strings.Join(fld.Access, ".")))
	}
	f.Commentf("%s is the schema of %s; %s adds the Go field of each property.", n.SchemaVar, form.Name, n.FormVar)
	if len(b.ints) > 0 || len(b.floats) > 0 {
		var names, vals []jen.Code
		if len(b.ints) > 0 {
			names, vals = append(names, jen.Id(n.Counts)), append(vals, jen.Index(jen.Op("...")).Int().Values(b.ints...))
		}
		if len(b.floats) > 0 {
			names, vals = append(names, jen.Id(n.Bounds)), append(vals, jen.Index(jen.Op("...")).Float64().Values(b.floats...))
		}
		f.Var().List(names...).Op("=").List(vals...)
	}
	f.Var().Id(n.SchemaVar).Op("=").Add(rt("Schema")).Values(
		kv("Name", jen.Lit(form.Name)),
		kv("Properties", jen.Index().Add(rt("Property")).Custom(
			jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, props...)),
	)
	f.Var().Id(n.FormVar).Op("=").Add(impl("NewForm")).Call(paths...)
}

// formBounds collects the numbers a form's schema points to: lengths and item
// counts (ints) and minimums and maximums (floats).
type formBounds struct {
	name, counts string
	ints, floats []jen.Code
	intAt        map[int]int
	fltKey       map[float64]int
}

func (b *formBounds) intRef(v int) jen.Code {
	if b.intAt == nil {
		b.intAt = map[int]int{}
	}
	i, ok := b.intAt[v]
	if !ok {
		i = len(b.ints)
		b.intAt[v] = i
		b.ints = append(b.ints, jen.Lit(v))
	}
	return jen.Op("&").Id(b.counts).Index(jen.Lit(i))
}

func (b *formBounds) floatRef(v float64) jen.Code {
	if b.fltKey == nil {
		b.fltKey = map[float64]int{}
	}
	i, ok := b.fltKey[v]
	if !ok {
		i = len(b.floats)
		b.fltKey[v] = i
		b.floats = append(b.floats, jen.Op(strconv.FormatFloat(v, 'g', -1, 64)))
	}
	return jen.Op("&").Id(b.name).Index(jen.Lit(i))
}

var kindConst = map[runtime.Kind]string{
	runtime.KindString: "KindString", runtime.KindInteger: "KindInteger", runtime.KindNumber: "KindNumber",
	runtime.KindBoolean: "KindBoolean", runtime.KindEnum: "KindEnum", runtime.KindMulti: "KindMulti",
}

var styleConst = map[runtime.EnumStyle]string{
	runtime.EnumPlain: "EnumPlain", runtime.EnumTitled: "EnumTitled", runtime.EnumLegacy: "EnumLegacy",
}

// propertyLit emits one runtime.Property literal on one line: non-zero
// fields only, in a fixed order.
func propertyLit(p *runtime.Property, b *formBounds) jen.Code {
	items := []jen.Code{
		kv("Name", jen.Lit(p.Name)),
		kv("Kind", rt(kindConst[p.Kind])),
	}
	add := func(key string, v jen.Code) { items = append(items, kv(key, v)) }
	if p.Title != "" {
		add("Title", jen.Lit(p.Title))
	}
	if p.Description != "" {
		add("Description", jen.Lit(p.Description))
	}
	if p.Required {
		add("Required", jen.True())
	}
	intPtr := func(key string, v *int) {
		if v != nil {
			add(key, b.intRef(*v))
		}
	}
	floatPtr := func(key string, v *float64) {
		if v != nil {
			add(key, b.floatRef(*v))
		}
	}
	intPtr("MinLength", p.MinLength)
	intPtr("MaxLength", p.MaxLength)
	if p.Format != "" {
		add("Format", jen.Lit(p.Format))
	}
	floatPtr("Minimum", p.Minimum)
	floatPtr("Maximum", p.Maximum)
	if len(p.Options) > 0 {
		opts := make([]jen.Code, len(p.Options))
		for i, o := range p.Options {
			if o.Title != "" {
				opts[i] = jen.Values(kv("Value", jen.Lit(o.Value)), kv("Title", jen.Lit(o.Title)))
			} else {
				opts[i] = jen.Values(kv("Value", jen.Lit(o.Value)))
			}
		}
		add("Options", jen.Index().Add(rt("Option")).Values(opts...))
	}
	if p.Style != runtime.EnumPlain {
		add("Style", rt(styleConst[p.Style]))
	}
	if p.Dynamic {
		add("Dynamic", jen.True())
	}
	intPtr("MinItems", p.MinItems)
	intPtr("MaxItems", p.MaxItems)
	if p.Default != nil {
		add("Default", defaultLit(p.Default))
	}
	if p.Pattern != "" {
		add("Pattern", jen.Lit(p.Pattern))
	}
	return jen.Values(items...)
}

func defaultLit(v any) jen.Code {
	switch v := v.(type) {
	case []string:
		vals := make([]jen.Code, len(v))
		for i, s := range v {
			vals[i] = jen.Lit(s)
		}
		return jen.Index().String().Values(vals...)
	case int64:
		return jen.Int64().Call(jen.Op(strconv.FormatInt(v, 10)))
	case uint64:
		return jen.Uint64().Call(jen.Op(strconv.FormatUint(v, 10)))
	default:
		return jen.Lit(v)
	}
}

// emitGuards emits the compile-time checks that fail when the form's
// struct, an embedded struct or an enum's constants changed after
// generation:
//
//	type _T_changed_since_elicitgen_ran_run_go_generate = struct{...}
//	var _ _T_changed_since_elicitgen_ran_run_go_generate = T{}
//	var _ = map[bool]int{false: 0, A == "a" && B == "b": 1}
//
// The struct alias catches any change to a field's name, type, tag or
// position. The constant map catches a changed value (the && turns false
// and its key collides with false) and a removed or renamed constant (an
// undefined name). An added constant, a changed order or a changed title
// is invisible to the compiler: elicitgen check and the elicit analyzer
// report those.
func emitGuards(f *jen.File, form *Form, guarded map[string]bool) {
	structs := append([]*Struct{form.Guard}, form.Embedded...)
	for _, s := range structs {
		if s == nil || guarded[s.PkgPath+"."+s.Name] {
			continue
		}
		guarded[s.PkgPath+"."+s.Name] = true
		alias := guardName(s.Name)
		f.Commentf("If this does not compile, %s changed after elicitgen ran: run go generate.", s.Name)
		f.Type().Id(alias).Op("=").Add(structType(s.Fields))
		f.Var().Id("_").Id(alias).Op("=").Qual(s.PkgPath, s.Name).Values()
	}
	for _, e := range form.Enums {
		if len(e.Consts) == 0 || guarded["enum "+e.PkgPath+"."+e.Name] {
			continue
		}
		guarded["enum "+e.PkgPath+"."+e.Name] = true
		var all *jen.Statement
		for i, c := range e.Consts {
			eq := jen.Qual(e.PkgPath, c).Op("==").Lit(e.Values[i])
			if all == nil {
				all = eq
			} else {
				all = all.Op("&&").Add(eq)
			}
		}
		f.Commentf("If this does not compile (duplicate key false), the constants of %s changed: run go generate.", e.Name)
		f.Var().Id("_").Op("=").Map(jen.Bool()).Int().Values(
			jen.False().Op(":").Lit(0), all.Op(":").Lit(1))
	}
}

func structType(fields []StructField) *jen.Statement {
	return jen.StructFunc(func(g *jen.Group) {
		for _, sf := range fields {
			var s *jen.Statement
			if sf.Name == "" {
				s = g.Add(typeCode(sf.Type))
			} else {
				s = g.Id(sf.Name).Add(typeCode(sf.Type))
			}
			if sf.Tag != "" {
				s.Op(tagLiteral(sf.Tag))
			}
		}
	})
}

// tagLiteral writes a struct tag exactly, as a raw string when it can.
func tagLiteral(tag string) string {
	if !strings.Contains(tag, "`") && strconv.CanBackquote(tag) {
		return "`" + tag + "`"
	}
	return strconv.Quote(tag)
}

// typeCode writes a TypeRef as Go code.
func typeCode(r *TypeRef) *jen.Statement {
	switch r.Kind {
	case "name":
		var s *jen.Statement
		if r.PkgPath == "" {
			s = jen.Id(r.Name)
		} else {
			s = jen.Qual(r.PkgPath, r.Name)
		}
		if len(r.Args) > 0 {
			args := make([]jen.Code, len(r.Args))
			for i, a := range r.Args {
				args[i] = typeCode(a)
			}
			s = s.Types(args...)
		}
		return s
	case "pointer":
		return jen.Op("*").Add(typeCode(r.Elem))
	case "slice":
		return jen.Index().Add(typeCode(r.Elem))
	case "array":
		return jen.Index(jen.Lit(int(r.Len))).Add(typeCode(r.Elem))
	case "map":
		return jen.Map(typeCode(r.Key)).Add(typeCode(r.Elem))
	case "chan":
		switch r.Dir {
		case 1:
			return jen.Chan().Op("<-").Add(typeCode(r.Elem))
		case 2:
			return jen.Op("<-").Chan().Add(typeCode(r.Elem))
		}
		return jen.Chan().Add(typeCode(r.Elem))
	case "func":
		params := make([]jen.Code, len(r.Params))
		for i, p := range r.Params {
			if r.Variadic && i == len(r.Params)-1 {
				params[i] = jen.Op("...").Add(typeCode(p.Elem))
			} else {
				params[i] = typeCode(p)
			}
		}
		results := make([]jen.Code, len(r.Results))
		for i, p := range r.Results {
			results[i] = typeCode(p)
		}
		return jen.Func().Params(params...).Params(results...)
	case "struct":
		return structType(r.Fields)
	}
	return jen.Interface()
}
