package gen

import (
	"bytes"
	"go/format"
	"sort"
	"strings"
	"text/tabwriter"

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
// the API reads: each form's descriptor (its spec, a raw string) and the
// translations.
//
// Each construct is rendered once per file by jennifer and filled in per
// form (see stamp.go); constructs whose layout could depend on their
// content (a guard field of a multi-line type, a tag holding a tab, an
// enum's guard, the translations) are rendered whole, in the same pass.
//
// A form's API is functions and a method whose one-line bodies call the
// form's descriptor, a package-level variable elicitFormT holding static
// data. Nothing names a
// form by its position, and the guards of what several forms share are
// ordered by name, so adding a form adds lines and changes none. The
// guards are blank functions, which the compiler type-checks and never
// compiles; the package has no init function.
func EmitGo(pkg *Package) ([]byte, error) {
	e := &emitter{pkg: pkg, types: map[string]int{}, texts: map[*TypeRef]string{}, guarded: map[string]bool{}}
	return e.emit()
}

// pieceMark separates the constructs of the rendered file, so that the
// formatted output can be cut back into them.
const pieceMark = "// elicitgen:piece"

type emitter struct {
	pkg *Package
	f   *jen.File
	n   int // pieces rendered so far (the file's start is piece 0)

	// Piece indexes of the stamps.
	api, guard, descriptors, descriptorsLocales int

	types   map[string]int // type key -> piece of its probe
	texts   map[*TypeRef]string
	guarded map[string]bool // structs and enums whose guard is rendered

	whole  map[string]int // guards rendered whole, by piece, by structKey
	enums  map[string]int // enum guards, by piece, by enumKey
	args   map[*Form]int  // AskMissingT and the checker assertion, by piece
	locale int            // the translations' piece, or -1

	pieces []string      // formatted pieces, by index
	stamps map[int]stamp // compiled stamps, by piece index

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
	e.renderHeader()
	e.renderAPI()
	e.renderDescriptors()
	e.renderGuardStamp()
	e.renderGuards()
	e.renderArgs()
	e.renderLocales()
	if err := e.format(); err != nil {
		return nil, err
	}
	if err := e.checkProbes(); err != nil {
		return nil, err
	}

	out := make([]byte, 0, 2048*len(e.pkg.Forms))
	out = append(out, groupImports([]byte(e.pieces[0]))...) // the header holds the imports
	out = e.writeAPI(out)
	out = e.writeGuards(out)
	out = e.writeDescriptors(out)
	if e.locale >= 0 {
		out = e.appendPiece(out, e.locale)
	}
	return append(out, '\n'), nil
}

// appendPiece appends a blank line and piece i as formatted.
func (e *emitter) appendPiece(out []byte, i int) []byte {
	return append(append(out, "\n\n"...), e.pieces[i]...)
}

// fill appends a blank line and the stamp of piece i, filled from args.
func (e *emitter) fill(out []byte, i int, args map[string]string) []byte {
	s := e.stamps[i]
	return s.appendTo(append(out, "\n\n"...), args)
}

// renderHeader renders the file's start: the header comment, the build
// constraint, the imports and the runtime version check.
func (e *emitter) renderHeader() {
	pkg := e.pkg
	f := jen.NewFilePathName(pkg.PkgPath, pkg.Name)
	e.f = f
	f.ImportName(RuntimePath, "runtime")
	f.ImportName(ImplPath, "elicitimpl")
	f.ImportName("context", "context")
	f.NoFormat = true // formatted once, in format, with a readable error
	f.HeaderComment(Header)
	f.HeaderComment("// source: " + sourceLine(sourceFiles(pkg)))
	f.HeaderComment("")
	if pkg.BuildConstraint != "" {
		f.HeaderComment("//go:build !" + LoadTag + " && (" + pkg.BuildConstraint + ")")
	} else {
		f.HeaderComment("//go:build !" + LoadTag)
	}
	f.Comment("The generated code needs a runtime at least as new as this elicitgen.")
	f.Const().Id("_").Op("=").Qual(ImplPath, "SupportPackageIsVersion6")
}

// renderAPI renders the stamp of a form's API, functions and a method
// whose bodies call the form's descriptor, elicitFormT, or elicitimpl:
//
//	func TSchema() *runtime.Schema
//	func (v *T) Validate() error
//	func AskT(ctx, asker, message, opts...) (o runtime.Outcome[*T], err error)
//	func AcceptT(v T) (*runtime.Response, error)
//	func DeclineT() *runtime.Response
//	func CancelT() *runtime.Response
//
// What a form costs the build is mostly how many functions it compiles,
// and then their size: AskT fills its named result in place rather than
// calling a generic helper (whose dictionary per form cost more than the
// two lines), and DeclineT and CancelT call functions that are not
// inlined (see BENCHMARKS.md).
func (e *emitter) renderAPI() {
	f, t, id := e.f, jen.Id(holeType), jen.Id
	e.api = e.piece()
	form := id(holeFormVar)
	f.Commentf("%s returns a copy of the requestedSchema of %s.", holeSchemaFunc, holeType)
	f.Func().Id(holeSchemaFunc).Params().Op("*").Add(rt("Schema")).Block(
		jen.Return(form.Clone().Dot("Schema").Call()))
	f.Commentf("Validate checks v against every rule of the %s schema; the error is a", holeType)
	f.Comment("*runtime.ValidationError naming each field that is wrong.")
	f.Func().Params(id("v").Op("*").Add(t)).Id("Validate").Params().Error().Block(
		jen.Return(form.Clone().Dot("Validate").Call(id("v"))))
	f.Commentf("%s asks the user to fill in %s. Only an answer that decodes and", holeAsk, holeType)
	f.Comment("validates is an accept, with the new value in the outcome's Value (nil")
	f.Comment("otherwise). An unreachable client matches runtime.ErrUnavailable.")
	f.Func().Id(holeAsk).Params(
		id("ctx").Qual("context", "Context"),
		id("asker").Add(rt("Asker")),
		id("message").String(),
		id("opts").Op("...").Add(rt("AskOption")),
	).Params(id("o").Add(rt("Outcome").Types(jen.Op("*").Add(t))), id("err").Error()).Block(
		jen.List(id("o").Dot("Action"), id("err")).Op("=").Add(form.Clone()).Dot("Ask").Call(
			id("ctx"), id("asker"), jen.Op("&").Id("o").Dot("Value"), id("message"), id("opts").Op("...")),
		jen.Return(id("o"), id("err")))
	f.Commentf("%s is the client-side answer that submits v, if v validates.", holeAccept)
	f.Func().Id(holeAccept).Params(id("v").Add(t)).Params(jen.Op("*").Add(rt("Response")), jen.Error()).Block(
		jen.Return(form.Clone().Dot("Accept").Call(jen.Op("&").Id("v"))))
	for _, a := range []struct{ name, fn, verb string }{
		{holeDecline, "Decline", "declines"}, {holeCancel, "Cancel", "dismisses"},
	} {
		f.Commentf("%s is the client-side answer that %s a %s form.", a.name, a.verb, holeType)
		f.Func().Id(a.name).Params().Op("*").Add(rt("Response")).Block(jen.Return(impl(a.fn).Call()))
	}
}

// writeAPI appends the API of every form, each followed by what its
// arguments struct adds.
func (e *emitter) writeAPI(out []byte) []byte {
	for _, form := range e.pkg.Forms {
		out = e.fill(out, e.api, apiArgs(form.Name))
		if i, ok := e.args[form]; ok {
			out = e.appendPiece(out, i)
		}
	}
	return out
}

// renderDescriptors renders the stamps of a form's descriptor, a
// package-level variable elicitFormT that the form's API calls. It names
// the form's translations if it has any, and holds its spec (see
// elicitimpl.AppendSpec) in a raw string:
//
//	var elicitFormT = elicitimpl.Form{Type: (*T)(nil), Spec: `{"name":"T","properties":[
//	{"name":"n","field":"N","kind":"integer","required":true,"minimum":1}]}`}
//
// A descriptor is static data: the package has no init function.
func (e *emitter) renderDescriptors() {
	descriptor := func(fields ...jen.Code) int {
		i := e.piece()
		e.f.Commentf("%s is the form of %s: its schema and the Go field of each property.", holeFormVar, holeType)
		e.f.Var().Id(holeFormVar).Op("=").Add(impl("Form")).Values(append([]jen.Code{
			kv("Type", jen.Parens(jen.Op("*").Id(holeType)).Parens(jen.Nil())),
		}, fields...)...)
		return i
	}
	e.descriptors = descriptor(kv("Spec", jen.Id(holeName)))
	e.descriptorsLocales = descriptor(kv("Locales", jen.Id(holeList)), kv("Spec", jen.Id(holeName)))
}

// writeDescriptors appends the descriptor of each form: its spec in a raw
// string (a spec holds no backquote: see elicitimpl.AppendSpec), and its
// locales.
func (e *emitter) writeDescriptors(out []byte) []byte {
	for _, form := range e.pkg.Forms {
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
		p := e.descriptors
		if translated(e.pkg, form) {
			p = e.descriptorsLocales
			args[holeList] = localesVar(form.Name)
		}
		out = e.fill(out, p, args)
	}
	return out
}

// renderGuardStamp renders the stamp of a struct's compile-time guard,
// whose fields are filled in (see fillGuard):
//
//	func _() {
//		type _T_changed_since_elicitgen_ran_run_go_generate = struct {
//			N int `json:"n"`
//		}
//		var _ _T_changed_since_elicitgen_ran_run_go_generate = T{}
//	}
//
// T is assignable to the struct only while every field's name, type, tag
// and position are as generated; the alias's name is what the compiler's
// error shows. A blank function is type-checked and never compiled, so
// the guard costs the build its type check alone.
func (e *emitter) renderGuardStamp() {
	e.guard = e.piece()
	e.f.Commentf("If this does not compile, %s changed after elicitgen ran: run go generate.", holeName)
	e.f.Func().Id("_").Params().Block(
		jen.Type().Id(holeAlias).Op("=").Struct(jen.Id(holeLines)),
		jen.Var().Id("_").Id(holeAlias).Op("=").Id(holeType).Values())
}

// renderGuards renders, for each struct a form guards (the form and the
// structs it embeds, once each), the probes of its field types, or the
// whole guard where it cannot be stamped; and each enum's guard.
func (e *emitter) renderGuards() {
	e.whole, e.enums = map[string]int{}, map[string]int{}
	for _, form := range e.pkg.Forms {
		for _, s := range append([]*Struct{form.Guard}, form.Embedded...) {
			k := structKey(s)
			if s == nil || e.guarded[k] {
				continue
			}
			e.guarded[k] = true
			e.probeType(&TypeRef{Kind: "name", PkgPath: s.PkgPath, Name: s.Name})
			if !stampable(s) {
				e.whole[k] = e.piece()
				emitGuard(e.f, s)
				continue
			}
			for _, sf := range s.Fields {
				e.probeType(sf.Type)
			}
		}
		for _, en := range form.Enums {
			k := enumKey(en)
			if len(en.Consts) == 0 || e.guarded[k] {
				continue
			}
			e.guarded[k] = true
			e.enums[k] = e.piece()
			emitEnumGuard(e.f, en)
		}
	}
}

func structKey(s *Struct) string {
	if s == nil {
		return ""
	}
	return s.PkgPath + "." + s.Name
}

func enumKey(en *Enum) string { return en.PkgPath + "." + en.Name + " enum" }

// writeGuards appends the guards: each form's own, in the forms' order,
// then those of the structs the forms embed and of their enums, which
// several forms can share, ordered by package path and name. So no guard's
// place depends on which form uses it first, and adding a form only adds
// guards.
func (e *emitter) writeGuards(out []byte) []byte {
	clear(e.guarded)
	type shared struct {
		key string
		s   *Struct
		en  *Enum
	}
	var rest []shared
	for _, form := range e.pkg.Forms {
		if s := form.Guard; s != nil && !e.guarded[structKey(s)] {
			e.guarded[structKey(s)] = true
			out = e.writeGuard(out, s)
		}
	}
	for _, form := range e.pkg.Forms {
		for _, s := range form.Embedded {
			if k := structKey(s); s != nil && !e.guarded[k] {
				e.guarded[k] = true
				rest = append(rest, shared{key: k, s: s})
			}
		}
		for _, en := range form.Enums {
			if k := enumKey(en); !e.guarded[k] {
				e.guarded[k] = true
				if _, ok := e.enums[k]; ok {
					rest = append(rest, shared{key: k, en: en})
				}
			}
		}
	}
	sort.Slice(rest, func(i, j int) bool { return rest[i].key < rest[j].key })
	for _, r := range rest {
		if r.en != nil {
			out = e.appendPiece(out, e.enums[r.key])
			continue
		}
		out = e.writeGuard(out, r.s)
	}
	return out
}

// writeGuard appends the guard of struct s.
func (e *emitter) writeGuard(out []byte, s *Struct) []byte {
	if i, ok := e.whole[structKey(s)]; ok {
		return e.appendPiece(out, i)
	}
	return e.fillGuard(out, s)
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
		line = append(line[:0], '\t', '\t')
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
	return e.fill(out, e.guard, map[string]string{
		holeName: s.Name, holeAlias: guardName(s.Name), holeLines: cells.String(), holeType: named,
	})
}

// emitGuard renders the compile-time guard of a struct whole (one that
// stampable refuses), as renderGuardStamp describes it.
func emitGuard(f *jen.File, s *Struct) {
	f.Commentf("If this does not compile, %s changed after elicitgen ran: run go generate.", s.Name)
	f.Func().Id("_").Params().Block(
		jen.Type().Id(guardName(s.Name)).Op("=").Add(structType(s.Fields)),
		jen.Var().Id("_").Id(guardName(s.Name)).Op("=").Qual(s.PkgPath, s.Name).Values())
}

// stampable reports whether the guard of s can be filled in from the
// guard stamp: it has fields, each on one line (a type that is not a
// struct or interface with members, nor a func holding one) with a tag
// that needs no tab.
func stampable(s *Struct) bool {
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

// emitEnumGuard renders the guard of an enum's constants, a blank
// function as the struct guards are:
//
//	func _() {
//		_ = map[bool]int{false: 0, A == "a" && B == "b": 1}
//	}
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
	f.Func().Id("_").Params().Block(jen.Id("_").Op("=").Map(jen.Bool()).Int().Values(
		jen.False().Op(":").Lit(0), all.Op(":").Lit(1)))
}

// renderArgs renders, whole, what each tool's arguments struct and each
// checked form adds (emit_args.go).
func (e *emitter) renderArgs() {
	e.args = map[*Form]int{}
	for _, form := range e.pkg.Forms {
		if form.Args || form.Checked {
			e.args[form] = e.piece()
			emitArgs(e.f, form, formVar(form.Name))
		}
	}
}

// renderLocales renders the translations whole (emit_locale.go), if any
// catalog translates a form.
func (e *emitter) renderLocales() {
	e.locale = -1
	if hasLocales(e.pkg) {
		e.locale = e.piece()
		emitLocales(e.f, e.pkg)
	}
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
	e.stamps = map[int]stamp{
		e.api:                compileStamp(parts[e.api]),
		e.descriptors:        compileStamp(parts[e.descriptors]),
		e.descriptorsLocales: compileStamp(parts[e.descriptorsLocales]),
	}
	// The lines hole stands for whole lines: "\t\tZqPqZ\n" in a struct.
	e.stamps[e.guard] = compileStamp(strings.Replace(parts[e.guard], "\t\t"+holeLines+"\n", holeLines, 1))
	return nil
}
