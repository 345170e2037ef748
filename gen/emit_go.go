package gen

import (
	"bytes"
	"fmt"
	"go/format"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/elicitimpl"
)

// EmitGo returns elicit_gen.go for pkg. The model must have passed
// Analyze: emitters do not report user errors.
//
// The file reads as protoc-gen-go's output does: the header and imports,
// then the API of each form in source order (TSchema, Validate, AskT,
// AcceptT, DeclineT, CancelT), then the compile-time guards, then the data
// the API reads: each form's descriptor (its spec, a raw string), and the
// translations.
//
// What costs is rendering and formatting, so both happen once per file,
// not once per form. jennifer renders each construct once, with
// placeholders for the names and literals that differ between forms (a
// stamp), into one file that go/format formats in one pass; each form then
// fills the formatted stamps in. A filled stamp is what gofmt would print,
// because nothing in a stamp's layout depends on what fills it: function
// bodies are multi-line (gofmt keeps them so, whatever the names' length),
// a descriptor is one composite literal whose spec is a raw string (which
// gofmt never touches), and a guard's struct fields are aligned with
// text/tabwriter exactly as go/printer aligns them. Constructs whose layout
// could depend on their content (a field of a multi-line type, a tag
// holding a tab) are rendered whole instead, in the same pass.
func EmitGo(pkg *Package) ([]byte, error) {
	e := &emitter{pkg: pkg, types: map[string]int{}, texts: map[*TypeRef]string{}, guarded: map[string]bool{}}
	return e.emit()
}

// Placeholders of the stamps. Each is an identifier (so that the stamp
// parses), all have the same length and none is a prefix of another.
const (
	holeType       = "ZqTqZ" // the form type
	holeSchemaFunc = "ZqSqZ"
	holeAsk        = "ZqAqZ"
	holeAccept     = "ZqCqZ"
	holeDecline    = "ZqDqZ"
	holeCancel     = "ZqXqZ"
	holeFormVar    = "zqFqZ"
	holeName       = "ZqMqZ" // a name or a string literal
	holeList       = "ZqLqZ" // a form's locales variable
	holeLines      = "ZqPqZ" // lines of a struct
	holeAlias      = "ZqGqZ" // a guard's type alias
)

// pieceMark separates the constructs of the rendered file, so that the
// formatted output can be cut back into them.
const pieceMark = "// elicitgen:piece"

type emitter struct {
	pkg *Package
	f   *jen.File
	n   int // pieces rendered so far (the file's start is piece 0)

	// Piece indexes of the stamps.
	api, guard, formVar, formVarLocales int

	types   map[string]int // type key -> piece of its probe
	texts   map[*TypeRef]string
	guarded map[string]bool

	pieces []string           // formatted pieces, by index
	stamps map[int]stampParts // compiled stamps, by piece index

	// Scratch space, reused from form to form.
	cells bytes.Buffer
	tw    tabwriter.Writer
	line  []byte
	key   []byte
	spec  []byte
	paths []string
	props []runtime.Property
}

// piece marks the start of the next construct rendered into e.f and
// returns its index.
func (e *emitter) piece() int {
	e.f.Comment(pieceMark[3:])
	e.n++
	return e.n
}

func (e *emitter) emit() ([]byte, error) {
	pkg := e.pkg
	f := jen.NewFilePathName(pkg.PkgPath, pkg.Name)
	e.f = f
	f.ImportName(RuntimePath, "runtime")
	f.ImportName(ImplPath, "elicitimpl")
	f.ImportName("context", "context")
	f.NoFormat = true // formatted below, once, with a readable error
	f.HeaderComment(Header)
	f.HeaderComment("// source: " + sourceLine(sourceFiles(pkg)))
	f.HeaderComment("")
	if pkg.BuildConstraint != "" {
		f.HeaderComment("//go:build !" + LoadTag + " && (" + pkg.BuildConstraint + ")")
	} else {
		f.HeaderComment("//go:build !" + LoadTag)
	}
	f.Comment("The generated code needs a runtime at least as new as this elicitgen.")
	f.Const().Id("_").Op("=").Qual(ImplPath, "SupportPackageIsVersion3")

	e.renderStamps()
	// Guards and translations are rendered whole where they cannot be
	// stamped; everything else is filled in from the stamps.
	whole := map[*Struct]int{}
	enums := map[*Enum]int{}
	for _, form := range pkg.Forms {
		for _, s := range append([]*Struct{form.Guard}, form.Embedded...) {
			if s == nil || e.guarded[s.PkgPath+"."+s.Name] {
				continue
			}
			e.guarded[s.PkgPath+"."+s.Name] = true
			e.probeType(&TypeRef{Kind: "name", PkgPath: s.PkgPath, Name: s.Name})
			if !e.stampable(s) {
				whole[s] = e.piece()
				emitGuard(f, s)
				continue
			}
			for _, sf := range s.Fields {
				e.probeType(sf.Type)
			}
		}
		for _, en := range form.Enums {
			if len(en.Consts) == 0 || e.guarded["enum "+en.PkgPath+"."+en.Name] {
				continue
			}
			e.guarded["enum "+en.PkgPath+"."+en.Name] = true
			enums[en] = e.piece()
			emitEnumGuard(f, en)
		}
	}
	args := map[*Form]int{}
	for _, form := range pkg.Forms {
		if form.Args || form.Checked {
			args[form] = e.piece()
			emitArgs(f, form) // emit_args.go
		}
	}
	locales := -1
	if hasLocales(pkg) {
		locales = e.piece()
		emitLocales(f, pkg) // translations (emit_locale.go)
	}
	if err := e.format(); err != nil {
		return nil, err
	}
	if err := e.checkProbes(); err != nil {
		return nil, err
	}

	out := make([]byte, 0, 4096*len(pkg.Forms))
	out = append(out, groupImports([]byte(e.pieces[0]))...) // the header holds the imports
	for _, form := range pkg.Forms {
		out = e.fill(out, e.api, apiArgs(form.Name))
		if i, ok := args[form]; ok {
			out = append(append(out, "\n\n"...), e.pieces[i]...)
		}
	}
	for k := range e.guarded {
		delete(e.guarded, k)
	}
	for _, form := range pkg.Forms {
		for _, s := range append([]*Struct{form.Guard}, form.Embedded...) {
			if s == nil || e.guarded[s.PkgPath+"."+s.Name] {
				continue
			}
			e.guarded[s.PkgPath+"."+s.Name] = true
			if i, ok := whole[s]; ok {
				out = append(append(out, "\n\n"...), e.pieces[i]...)
				continue
			}
			out = e.fillGuard(out, s)
		}
		for _, en := range form.Enums {
			if i, ok := enums[en]; ok {
				out = append(append(out, "\n\n"...), e.pieces[i]...)
				delete(enums, en)
			}
		}
	}
	for _, form := range pkg.Forms {
		out = e.fillData(out, form)
	}
	if locales >= 0 {
		out = append(append(out, "\n\n"...), e.pieces[locales]...)
	}
	out = append(out, '\n')
	return out, nil
}

// renderStamps renders the stamps every file uses into e.f.
//
// What a form adds to its package's compile is mostly its functions, and
// a function costs the compiler about the same however small it is; the
// instance of a generic type with methods costs more. So a form gets the
// fewest the contract allows: TSchema, Validate (a pointer method, which
// needs no value wrapper), AskT (whose runtime.Outcome[*T] shares one GC
// shape with every other form's and has one method) and AcceptT.
// DeclineT and CancelT are variables holding the one function all forms
// share, and the form's data is one static descriptor holding a string,
// so the package has no initialisation code.
func (e *emitter) renderStamps() {
	f := e.f
	t, id := jen.Id(holeType), jen.Id
	form := func(method string, args ...jen.Code) jen.Code {
		return jen.Return(id(holeFormVar).Dot(method).Call(args...))
	}

	// func TSchema() *runtime.Schema
	// func (v *T) Validate() error
	// func AskT(ctx, asker, message, opts...) (runtime.Outcome[*T], error)
	// func AcceptT(v T) (*runtime.Response, error)
	// var DeclineT, CancelT = elicitimpl.Decline, elicitimpl.Cancel
	e.api = e.piece()
	f.Commentf("%s returns a copy of the requestedSchema of %s.", holeSchemaFunc, holeType)
	f.Func().Id(holeSchemaFunc).Params().Op("*").Add(rt("Schema")).Block(form("Schema"))
	f.Commentf("Validate checks v against every rule of the %s schema; the error is a", holeType)
	f.Comment("*runtime.ValidationError naming each field that is wrong.")
	f.Func().Params(jen.Id("v").Op("*").Add(t)).Id("Validate").Params().Error().Block(form("Validate", jen.Id("v")))
	f.Commentf("%s asks the user to fill in %s. Only an answer that decodes and", holeAsk, holeType)
	f.Comment("validates is an accept, with the new value in o.Value (nil otherwise).")
	f.Comment("An unreachable client matches runtime.ErrUnavailable.")
	f.Func().Id(holeAsk).Params(
		jen.Id("ctx").Qual("context", "Context"),
		jen.Id("asker").Add(rt("Asker")),
		jen.Id("message").String(),
		jen.Id("opts").Op("...").Add(rt("AskOption")),
	).Params(jen.Id("o").Add(rt("Outcome")).Types(jen.Op("*").Add(t)), jen.Err().Error()).Block(
		jen.List(jen.Id("o").Dot("Action"), jen.Err()).Op("=").Id(holeFormVar).Dot("Ask").Call(
			jen.Id("ctx"), jen.Id("asker"), jen.Op("&").Id("o").Dot("Value"), jen.Id("message"), jen.Id("opts").Op("...")),
		jen.Return(jen.Id("o"), jen.Err()),
	)
	f.Commentf("%s is the client-side answer that submits v, if v validates.", holeAccept)
	f.Func().Id(holeAccept).Params(jen.Id("v").Add(t)).Params(jen.Op("*").Add(rt("Response")), jen.Error()).Block(
		form("Accept", jen.Op("&").Id("v")))
	for _, a := range []struct{ name, fn, verb string }{
		{holeDecline, "Decline", "declines"}, {holeCancel, "Cancel", "dismisses"},
	} {
		f.Commentf("%s is the client-side answer that %s a %s form.", a.name, a.verb, holeType)
		f.Var().Id(a.name).Op("=").Add(impl(a.fn))
	}

	// The data of one form: its descriptor, which holds its spec (see
	// elicitimpl.AppendSpec) in a raw string.
	//
	//	var elicitFormT = elicitimpl.Form{Type: (*T)(nil), Spec: `{"name":"T","properties":[
	//	{"name":"n","field":"N","kind":"integer","required":true,"minimum":1}]}`}
	descriptor := func(fields ...jen.Code) int {
		i := e.piece()
		f.Commentf("%s is the form of %s: its schema and the Go field of each property.", holeFormVar, holeType)
		f.Var().Id(holeFormVar).Op("=").Add(impl("Form")).Values(append([]jen.Code{
			kv("Type", jen.Parens(jen.Op("*").Id(holeType)).Parens(jen.Nil()))}, fields...)...)
		return i
	}
	e.formVar = descriptor(kv("Spec", id(holeName)))
	// A translated form names its locales (emit_locale.go).
	e.formVarLocales = descriptor(kv("Locales", id(holeList)), kv("Spec", id(holeName)))

	// The guard of a struct whose fields are filled in (see fillGuard).
	e.guard = e.piece()
	f.Commentf("If this does not compile, %s changed after elicitgen ran: run go generate.", holeName)
	f.Type().Id(holeAlias).Op("=").Struct(id(holeLines))
	f.Var().Id("_").Id(holeAlias).Op("=").Id(holeType).Values()
}

// probeType renders r once into the file, so that jennifer writes it
// (with its imports) and go/format formats it; the texts of the guard's
// field types are cut from these probes.
func (e *emitter) probeType(r *TypeRef) {
	k := typeKey(r)
	if _, ok := e.types[k]; ok {
		return
	}
	e.types[k] = e.piece()
	e.f.Var().Id("_").Add(typeCode(r))
}

// format formats the rendered file in one go/format pass and cuts it into
// its pieces; it compiles the stamps.
func (e *emitter) format() error {
	var buf bytes.Buffer
	if err := e.f.Render(&buf); err != nil {
		return generatorBug("rendering %s: %v", e.pkg.PkgPath, err)
	}
	src, err := format.Source(buf.Bytes())
	if err != nil {
		return generatorBug("generated code does not format: %v\n%s", err, numbered(buf.Bytes()))
	}
	parts := strings.Split(string(src), "\n"+pieceMark+"\n")
	if len(parts) != e.n+1 {
		return generatorBug("rendering %s: %d pieces, want %d", e.pkg.PkgPath, len(parts), e.n+1)
	}
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	e.pieces = parts
	e.stamps = map[int]stampParts{}
	for _, i := range []int{e.api, e.formVar, e.formVarLocales} {
		e.stamps[i] = compileStamp(parts[i])
	}
	// The lines hole stands for whole lines: "\tZqPqZ\n" in a struct.
	e.stamps[e.guard] = compileStamp(strings.Replace(parts[e.guard], "\t"+holeLines+"\n", holeLines, 1))
	return nil
}

// checkProbes makes sure every type probe came out on one line; a type
// that does not is a generator bug, since stampable let it through.
func (e *emitter) checkProbes() error {
	for k, i := range e.types {
		p := e.pieces[i]
		if !strings.HasPrefix(p, "var _ ") || strings.Contains(p, "\n") {
			return generatorBug("type %s renders as %q", k, p)
		}
	}
	return nil
}

// typeText returns the formatted text of r, from its probe.
func (e *emitter) typeText(r *TypeRef) string {
	if t, ok := e.texts[r]; ok {
		return t
	}
	e.key = appendTypeKey(e.key[:0], r)
	t := e.pieces[e.types[string(e.key)]][len("var _ "):]
	e.texts[r] = t
	return t
}

// stampParts is a formatted stamp cut at its placeholders: literal text
// and, between texts, the placeholder standing there.
type stampParts struct {
	texts []string // len(holes)+1
	holes []string
}

// compileStamp cuts text at every placeholder.
func compileStamp(text string) stampParts {
	var s stampParts
	for {
		i := strings.Index(text, "Zq")
		j := strings.Index(text, "zq")
		if i < 0 || (j >= 0 && j < i) {
			i = j
		}
		if i < 0 || i+len(holeType) > len(text) {
			s.texts = append(s.texts, text)
			return s
		}
		h := text[i : i+len(holeType)]
		if !isHole(h) {
			// Not a placeholder: keep the text and look further.
			s.texts = append(s.texts, text[:i+2])
			s.holes = append(s.holes, "")
			text = text[i+2:]
			continue
		}
		s.texts = append(s.texts, text[:i])
		s.holes = append(s.holes, h)
		text = text[i+len(h):]
	}
}

func isHole(h string) bool {
	switch h {
	case holeType, holeSchemaFunc, holeAsk, holeAccept, holeDecline, holeCancel,
		holeFormVar, holeName, holeList, holeLines, holeAlias:
		return true
	}
	return false
}

// fill appends a blank line and the stamp of piece i, its placeholders
// replaced by args.
func (e *emitter) fill(out []byte, i int, args map[string]string) []byte {
	s := e.stamps[i]
	return s.appendTo(append(out, "\n\n"...), args)
}

// appendTo appends the stamp, its placeholders replaced by args.
func (s *stampParts) appendTo(out []byte, args map[string]string) []byte {
	for k, t := range s.texts {
		out = append(out, t...)
		if k < len(s.holes) {
			if h := s.holes[k]; h != "" {
				out = append(out, args[h]...)
			}
		}
	}
	return out
}

// apiArgs are the names the API stamp of form t is filled with.
func apiArgs(t string) map[string]string {
	n := NamesOf(t)
	return map[string]string{
		holeType: t, holeSchemaFunc: n.SchemaFunc, holeAsk: n.Ask, holeAccept: n.Accept,
		holeDecline: n.Decline, holeCancel: n.Cancel, holeFormVar: n.FormVar,
	}
}

// fillData appends the form's descriptor: its spec, in a raw string (a
// spec holds no backquote: see elicitimpl.AppendSpec), and its locales.
func (e *emitter) fillData(out []byte, form *Form) []byte {
	args := apiArgs(form.Name)
	e.paths, e.props = e.paths[:0], e.props[:0]
	for i := range form.Fields {
		e.paths = append(e.paths, strings.Join(form.Fields[i].Access, "."))
		e.props = append(e.props, form.Fields[i].Prop)
	}
	e.spec = append(e.spec[:0], '`')
	e.spec = elicitimpl.AppendSpec(e.spec, &runtime.Schema{Name: form.Name, Properties: e.props}, e.paths)
	e.spec = append(e.spec, '`')
	args[holeName] = string(e.spec)
	i := e.formVar
	if translated(e.pkg, form) {
		i = e.formVarLocales
		args[holeList] = localesVar(form.Name)
	}
	return e.fill(out, i, args)
}

// stampable reports whether the guard of s can be filled in from the
// guard stamp: it has fields, each on one line (a type that is not a
// struct or interface with members, nor a func holding one) with a tag
// that needs no tab.
func (e *emitter) stampable(s *Struct) bool {
	if len(s.Fields) == 0 {
		return false
	}
	for _, sf := range s.Fields {
		if !oneLineType(sf.Type) || strings.ContainsAny(tagLiteral(sf.Tag), "\t\n") {
			return false
		}
	}
	return true
}

func oneLineType(r *TypeRef) bool {
	if r == nil {
		return true
	}
	switch r.Kind {
	case "struct":
		return false
	case "func":
		for _, p := range append(append([]*TypeRef{}, r.Params...), r.Results...) {
			if !oneLineType(p) {
				return false
			}
		}
		return true
	}
	for _, a := range r.Args {
		if !oneLineType(a) {
			return false
		}
	}
	return oneLineType(r.Elem) && oneLineType(r.Key)
}

// typeKey identifies a type expression.
func typeKey(r *TypeRef) string {
	return string(appendTypeKey(nil, r))
}

func appendTypeKey(b []byte, r *TypeRef) []byte {
	if r == nil {
		return append(b, "()"...)
	}
	b = append(append(b, '('), r.Kind...)
	b = strconv.AppendQuote(append(b, ' '), r.PkgPath)
	b = strconv.AppendQuote(append(b, ' '), r.Name)
	b = strconv.AppendInt(append(b, ' '), r.Len, 10)
	b = strconv.AppendInt(append(b, ' '), int64(r.Dir), 10)
	b = strconv.AppendBool(append(b, ' '), r.Variadic)
	for _, l := range [][]*TypeRef{r.Args, {r.Elem}, {r.Key}, r.Params, r.Results} {
		b = append(b, '[')
		for _, a := range l {
			b = appendTypeKey(b, a)
		}
		b = append(b, ']')
	}
	for _, f := range r.Fields {
		b = strconv.AppendQuote(b, f.Name)
		b = strconv.AppendQuote(b, f.Tag)
		b = appendTypeKey(b, f.Type)
	}
	return append(b, ')')
}

// fillGuard appends the compile-time guard of s from the guard stamp, its
// fields aligned as go/printer aligns them: each field is a line of cells
// (name, type, tag) separated by vertical tabs, run through a tabwriter
// configured as go/printer configures its own (go/format: spaces for
// padding, tabs for indentation, tab width 8).
func (e *emitter) fillGuard(out []byte, s *Struct) []byte {
	cells := &e.cells
	cells.Reset()
	tw := e.tw.Init(cells, 0, 8, 1, ' ', tabwriter.DiscardEmptyColumns|tabwriter.TabIndent)
	line := e.line
	for _, sf := range s.Fields {
		line = append(line[:0], '\t')
		if sf.Name != "" {
			line = append(append(line, sf.Name...), '\v')
		}
		line = append(line, e.typeText(sf.Type)...)
		if sf.Tag != "" {
			line = append(append(line, '\v'), tagLiteral(sf.Tag)...)
		}
		line = append(line, '\n')
		_, _ = tw.Write(line)
	}
	e.line = line
	_ = tw.Flush()
	named := e.typeText(&TypeRef{Kind: "name", PkgPath: s.PkgPath, Name: s.Name})
	st := e.stamps[e.guard]
	return st.appendTo(append(out, "\n\n"...), map[string]string{
		holeName: s.Name, holeAlias: guardAlias(s), holeLines: cells.String(), holeType: named,
	})
}

func guardAlias(s *Struct) string { return guardName(s.Name) }

// emitGuard renders the compile-time guard of a struct whole:
//
//	type _T_changed_since_elicitgen_ran_run_go_generate = struct{...}
//	var _ _T_changed_since_elicitgen_ran_run_go_generate = T{}
//
// The struct alias catches any change to a field's name, type, tag or
// position.
func emitGuard(f *jen.File, s *Struct) {
	f.Commentf("If this does not compile, %s changed after elicitgen ran: run go generate.", s.Name)
	f.Type().Id(guardAlias(s)).Op("=").Add(structType(s.Fields))
	f.Var().Id("_").Id(guardAlias(s)).Op("=").Qual(s.PkgPath, s.Name).Values()
}

// emitEnumGuard renders the guard of an enum's constants:
//
//	var _ = map[bool]int{false: 0, A == "a" && B == "b": 1}
//
// It catches a changed value (the && turns false and its key collides
// with false) and a removed or renamed constant (an undefined name). An
// added constant, a changed order or a changed title is invisible to the
// compiler: elicitgen check and the elicit analyzer report those.
func emitEnumGuard(f *jen.File, e *Enum) {
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

// groupImports splits jennifer's single import block into the standard
// library and the rest, as goimports does. The input is gofmt-formatted,
// and the split keeps it so.
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

// sourceLine lists the source files for the header's "// source:" line.
// A name that would not read as itself there (a control or bidirectional
// formatting character, a quote, a comma) is written quoted, escaped as a
// Go string: a file name can neither end the comment nor reorder what a
// reader sees.
func sourceLine(files []string) string {
	out := make([]string, len(files))
	for i, name := range files {
		out[i] = name
		if !plainText(name) || strings.ContainsAny(name, `,"`) {
			out[i] = strconv.Quote(name)
		}
	}
	return strings.Join(out, ", ")
}

// plainText reports whether s is valid UTF-8 of printable characters only
// (strconv.IsPrint: no control, format or bidirectional characters; the
// ASCII space is printable).
func plainText(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if !strconv.IsPrint(r) {
			return false
		}
	}
	return true
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

func kv(key string, v jen.Code) jen.Code { return jen.Id(key).Op(":").Add(v) }

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

// tagLiteral writes a struct tag exactly: as a raw string when it holds
// only printable characters and no backquote, else quoted, so that a
// control or bidirectional-formatting character in a tag is escaped in the
// generated file rather than written as is.
func tagLiteral(tag string) string {
	if !strings.Contains(tag, "`") && plainText(tag) {
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
