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
	f := jen.NewFilePathName(pkg.PkgPath, pkg.Name)
	f.ImportName(RuntimePath, "runtime")
	f.ImportName(ImplPath, "elicitimpl")
	f.ImportName("context", "context")
	f.NoFormat = true // formatted below, once, with a readable error
	f.HeaderComment(Header)
	f.HeaderComment("// source: " + strings.Join(sourceFiles(pkg), ", "))
	if pkg.BuildConstraint != "" {
		f.HeaderComment("")
		f.HeaderComment("//go:build " + pkg.BuildConstraint)
	}

	f.Comment("The generated code needs a runtime at least as new as this elicitgen.")
	f.Const().Id("_").Op("=").Qual(ImplPath, "SupportPackageIsVersion1")
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
	src, err := formatChunks(buf.Bytes())
	if err != nil {
		return nil, err
	}
	return groupImports(src), nil
}

// chunkMark separates the declarations of one form from the next in the
// unformatted output, so that formatting can run per form, in parallel.
const chunkMark = "elicitgen:chunk"

// formatChunks gofmts src one chunk at a time, on every CPU, and joins the
// chunks with one blank line: the same bytes as formatting the whole file,
// since gofmt aligns nothing across top-level declarations.
func formatChunks(src []byte) ([]byte, error) {
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
	return append(bytes.Join(out, []byte("\n\n")), '\n'), nil
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

// emitForm emits everything generated for one form T:
//
//	var elicitSchemaT = &runtime.Schema{...}
//	var elicitFormT = &runtime.Form[T]{...}
//	func TSchema() *runtime.Schema
//	func (v T) Validate() error
//	func elicitDecodeT(s *runtime.Schema, content map[string]any) (T, error)
//	func elicitEncodeT(v *T) map[string]any
//	func AskT(ctx, asker, message, opts...) (runtime.Outcome[T], error)
//	func AcceptT(v T) (*runtime.Response, error); DeclineT(); CancelT()
//	compile-time guards
func emitForm(f *jen.File, form *Form, guarded map[string]bool) {
	emitSchemaVar(f, form)
	emitFormVar(f, form)
	emitSchemaFunc(f, form)
	emitValidate(f, form)
	emitDecode(f, form)
	emitEncode(f, form)
	emitAsk(f, form)
	emitAnswers(f, form)
	emitGuards(f, form, guarded)
}

// multi renders {a, b, ...} with one item per line.
func multi(items ...jen.Code) *jen.Statement {
	return jen.Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, items...)
}

func kv(key string, v jen.Code) jen.Code { return jen.Id(key).Op(":").Add(v) }

// emitSchemaVar emits `var elicitSchemaT = &runtime.Schema{Name: "T", Properties: ...}`.
func emitSchemaVar(f *jen.File, form *Form) {
	props := make([]jen.Code, len(form.Fields))
	for i, fld := range form.Fields {
		props[i] = propertyLit(&fld.Prop)
	}
	n := NamesOf(form.Name)
	f.Commentf("%s is the requestedSchema of %s.", n.SchemaVar, form.Name)
	f.Var().Id(n.SchemaVar).Op("=").Op("&").Add(rt("Schema")).Add(multi(
		kv("Name", jen.Lit(form.Name)),
		kv("Properties", jen.Index().Add(rt("Property")).Add(multi(props...))),
	))
}

var kindConst = map[runtime.Kind]string{
	runtime.KindString: "KindString", runtime.KindInteger: "KindInteger", runtime.KindNumber: "KindNumber",
	runtime.KindBoolean: "KindBoolean", runtime.KindEnum: "KindEnum", runtime.KindMulti: "KindMulti",
}

var styleConst = map[runtime.EnumStyle]string{
	runtime.EnumPlain: "EnumPlain", runtime.EnumTitled: "EnumTitled", runtime.EnumLegacy: "EnumLegacy",
}

// propertyLit emits one runtime.Property literal: non-zero fields only, in
// a fixed order.
func propertyLit(p *runtime.Property) jen.Code {
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
			add(key, impl("Ptr").Call(jen.Lit(*v)))
		}
	}
	floatPtr := func(key string, v *float64) {
		if v != nil {
			add(key, impl("Ptr").Call(jen.Lit(*v)))
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
		add("Options", jen.Index().Add(rt("Option")).Add(multi(opts...)))
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
	return multi(items...)
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

// emitFormVar emits `var elicitFormT = &runtime.Form[T]{...}`, the value Ask and
// Accept work from.
func emitFormVar(f *jen.File, form *Form) {
	n := NamesOf(form.Name)
	f.Commentf("%s ties %s to its schema and codec.", n.FormVar, form.Name)
	f.Var().Id(n.FormVar).Op("=").Op("&").Add(impl("Form")).Types(jen.Id(form.Name)).Add(multi(
		kv("Schema", jen.Id(n.SchemaVar)),
		kv("Decode", jen.Id(n.Decode)),
		kv("Encode", jen.Id(n.Encode)),
		kv("Validate", jen.Func().Params(jen.Id("v").Op("*").Id(form.Name)).Error().Block(
			jen.Return(jen.Id("v").Dot("Validate").Call()),
		)),
	))
}

// emitSchemaFunc emits `func TSchema() *runtime.Schema`.
func emitSchemaFunc(f *jen.File, form *Form) {
	n := NamesOf(form.Name)
	f.Commentf("%s returns a copy of the requestedSchema of %s, for", n.SchemaFunc, form.Name)
	f.Comment("callers that build requests themselves.")
	f.Func().Id(n.SchemaFunc).Params().Op("*").Add(rt("Schema")).Block(
		jen.Return(jen.Id(n.SchemaVar).Dot("Clone").Call()),
	)
}

// access returns v.A.B for a field.
func access(v string, fld *Field) *jen.Statement {
	s := jen.Id(v)
	for _, a := range fld.Access {
		s = s.Dot(a)
	}
	return s
}

func propRef(form *Form, i int) *jen.Statement {
	return jen.Op("&").Id(NamesOf(form.Name).SchemaVar).Dot("Properties").Index(jen.Lit(i))
}

// emitValidate emits `func (v T) Validate() error`, one runtime check per
// field that has rules.
func emitValidate(f *jen.File, form *Form) {
	f.Commentf("Validate checks v against every rule of the %s schema: bounds,", form.Name)
	f.Comment("lengths, formats and options. It returns a *runtime.ValidationError")
	f.Comment("naming each field that is wrong.")
	f.Func().Params(jen.Id("v").Id(form.Name)).Id("Validate").Params().Error().BlockFunc(func(g *jen.Group) {
		g.Var().Id("errs").Add(impl("Errors"))
		for i, fld := range form.Fields {
			var check string
			var conv func(jen.Code) jen.Code
			switch fld.GoKind {
			case GoString:
				check, conv = "CheckString", func(c jen.Code) jen.Code { return jen.String().Call(c) }
			case GoInt:
				check = "CheckInt"
			case GoUint:
				check = "CheckUint"
			case GoFloat:
				check = "CheckFloat"
			case GoMulti:
				check = "CheckMulti"
			default:
				continue
			}
			val := jen.Code(access("v", fld))
			if fld.Pointer {
				val = jen.Op("*").Add(access("v", fld))
			}
			if conv != nil {
				val = conv(val)
			}
			call := impl(check).Call(jen.Op("&").Id("errs"), propRef(form, i), val)
			if fld.Pointer {
				g.If(access("v", fld).Op("!=").Nil()).Block(call)
			} else {
				g.Add(call)
			}
		}
		g.Return(jen.Id("errs").Dot("Err").Call(jen.Lit(form.Name)))
	})
}

var decodeFunc = map[GoKind]string{
	GoString: "DecodeString", GoBool: "DecodeBool", GoInt: "DecodeInt", GoUint: "DecodeInt",
	GoFloat: "DecodeFloat", GoTime: "DecodeTime", GoMulti: "DecodeMulti",
}

// emitDecode emits `func elicitDecodeT(s *runtime.Schema, content map[string]any) (T, error)`.
func emitDecode(f *jen.File, form *Form) {
	n := NamesOf(form.Name)
	f.Commentf("%s decodes and validates a client's accepted content against s.", n.Decode)
	f.Func().Id(n.Decode).Params(
		jen.Id("s").Op("*").Add(rt("Schema")), jen.Id("content").Map(jen.String()).Any(),
	).Params(jen.Id(form.Name), jen.Error()).BlockFunc(func(g *jen.Group) {
		g.Var().Id("v").Id(form.Name)
		g.Id("d").Op(":=").Add(impl("NewDecoder")).Call(jen.Id("s"), jen.Id("content"))
		for i, fld := range form.Fields {
			fn := decodeFunc[fld.GoKind]
			if fld.Pointer {
				fn += "Ptr"
			}
			g.Add(impl(fn)).Call(jen.Op("&").Id("d"), jen.Lit(i), jen.Op("&").Add(access("v", fld)))
		}
		g.If(jen.Err().Op(":=").Id("d").Dot("Finish").Call(), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Id(form.Name).Values(), jen.Err()),
		)
		g.Return(jen.Id("v"), jen.Nil())
	})
}

// emitEncode emits `func elicitEncodeT(v *T) map[string]any`, content as a client
// sends it.
func emitEncode(f *jen.File, form *Form) {
	n := NamesOf(form.Name)
	f.Commentf("%s writes v as the content of an accept.", n.Encode)
	f.Func().Id(n.Encode).Params(jen.Id("v").Op("*").Id(form.Name)).Map(jen.String()).Any().BlockFunc(func(g *jen.Group) {
		g.Id("m").Op(":=").Make(jen.Map(jen.String()).Any(), jen.Lit(len(form.Fields)))
		for _, fld := range form.Fields {
			val := jen.Code(access("v", fld))
			if fld.Pointer {
				val = jen.Op("*").Add(access("v", fld))
			}
			var enc jen.Code
			switch fld.GoKind {
			case GoString:
				enc = jen.String().Call(val)
			case GoBool:
				enc = jen.Bool().Call(val)
			case GoInt:
				enc = jen.Int64().Call(val)
			case GoUint:
				enc = jen.Uint64().Call(val)
			case GoFloat:
				enc = jen.Float64().Call(val)
			case GoTime:
				format := fld.Prop.Format
				enc = impl("FormatTime").Call(jen.Lit(format), val)
			case GoMulti:
				enc = impl("Strings").Call(val)
			}
			set := jen.Id("m").Index(jen.Lit(fld.Prop.Name)).Op("=").Add(enc)
			switch {
			case fld.Pointer:
				g.If(access("v", fld).Op("!=").Nil()).Block(set)
			case fld.GoKind == GoMulti && !fld.Prop.Required:
				g.If(access("v", fld).Op("!=").Nil()).Block(set)
			default:
				g.Add(set)
			}
		}
		g.Return(jen.Id("m"))
	})
}

// emitAsk emits AskT.
func emitAsk(f *jen.File, form *Form) {
	t, n := form.Name, NamesOf(form.Name)
	f.Commentf("%s asks the user to fill in a %s form, with message as the", n.Ask, t)
	f.Comment("question. It returns the accepted value only when the client's answer")
	f.Comment("decoded and validated; a decline or cancel is an Outcome without a value,")
	f.Comment("and a client that cannot be asked is an error matching")
	f.Comment("runtime.ErrUnavailable, never an accept.")
	f.Func().Id(n.Ask).Params(
		jen.Id("ctx").Qual("context", "Context"),
		jen.Id("asker").Add(rt("Asker")),
		jen.Id("message").String(),
		jen.Id("opts").Op("...").Add(rt("AskOption")),
	).Params(rt("Outcome").Types(jen.Id(t)), jen.Error()).Block(
		jen.Return(impl("Ask").Call(jen.Id("ctx"), jen.Id("asker"), jen.Id(n.FormVar), jen.Id("message"), jen.Id("opts").Op("..."))),
	)
}

// emitAnswers emits AcceptT, DeclineT and CancelT: client-side answers.
func emitAnswers(f *jen.File, form *Form) {
	t, n := form.Name, NamesOf(form.Name)
	f.Commentf("%s is the client-side answer that submits v. It refuses a v", n.Accept)
	f.Comment("that does not validate.")
	f.Func().Id(n.Accept).Params(jen.Id("v").Id(t)).Params(jen.Op("*").Add(rt("Response")), jen.Error()).Block(
		jen.Return(jen.Id(n.FormVar).Dot("Accept").Call(jen.Id("v"))),
	)
	f.Commentf("%s is the client-side answer that declines a %s form.", n.Decline, t)
	f.Func().Id(n.Decline).Params().Op("*").Add(rt("Response")).Block(
		jen.Return(jen.Op("&").Add(rt("Response")).Values(kv("Action", rt("ActionDecline")))),
	)
	f.Commentf("%s is the client-side answer that dismisses a %s form.", n.Cancel, t)
	f.Func().Id(n.Cancel).Params().Op("*").Add(rt("Response")).Block(
		jen.Return(jen.Op("&").Add(rt("Response")).Values(kv("Action", rt("ActionCancel")))),
	)
}

// emitGuards emits the compile-time checks that fail when the form's
// struct, an embedded struct or an enum's constants changed after
// generation:
//
//	type _T_changed_since_elicitgen_ran_run_go_generate = struct{...}
//	var _ _T_changed_since_elicitgen_ran_run_go_generate = T{}
func emitGuards(f *jen.File, form *Form, guarded map[string]bool) {
	structs := append([]*Struct{form.Guard}, form.Embedded...)
	for _, s := range structs {
		if s == nil || guarded[s.PkgPath+"."+s.Name] {
			continue
		}
		guarded[s.PkgPath+"."+s.Name] = true
		alias := "_" + s.Name + "_changed_since_elicitgen_ran_run_go_generate"
		f.Commentf("If this does not compile, %s changed after elicitgen ran: run go generate.", s.Name)
		f.Type().Id(alias).Op("=").Add(structType(s.Fields))
		f.Var().Id("_").Id(alias).Op("=").Qual(s.PkgPath, s.Name).Values()
	}
	for _, e := range form.Enums {
		if len(e.Consts) == 0 || guarded["enum "+e.PkgPath+"."+e.Name] {
			continue
		}
		guarded["enum "+e.PkgPath+"."+e.Name] = true
		consts := make([]jen.Code, len(e.Consts))
		for i, c := range e.Consts {
			consts[i] = jen.Qual(e.PkgPath, c)
		}
		f.Commentf("If this does not compile, the options of %s changed: run go generate.", e.Name)
		f.Var().Id("_").Op("=").Index(jen.Op("...")).Qual(e.PkgPath, e.Name).Values(consts...)
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
