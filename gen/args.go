package gen

import (
	"go/types"
	"reflect"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"

	"github.com/elicitgen/elicitgen/runtime"
)

// A tool's arguments struct is a struct with a field tagged `elicit:"ask"`.
// Its form has one property per field tagged ask: asked of the person,
// in one form, when the model leaves them out (AskMissingT). Its other
// fields are the model's alone and are not part of the form.

// optAsk is the tag option that marks a tool argument asked when missing.
const optAsk = "ask"

// isArgs reports whether st is a tool's arguments struct.
func isArgs(st *types.Struct) bool {
	for i := 0; i < st.NumFields(); i++ {
		if hasAsk(reflect.StructTag(st.Tag(i))) {
			return true
		}
	}
	return false
}

// hasAsk reports whether a struct tag's elicit options include ask.
func hasAsk(tag reflect.StructTag) bool {
	et, ok := tag.Lookup("elicit")
	if !ok || !strings.Contains(et, "ask") {
		return false
	}
	opts, _ := parseTag(et)
	return hasKey(opts, optAsk)
}

// skipArg reports whether field v of an arguments struct is not one of
// its form's properties (it has no ask option); an elicit tag on such a
// field is reported, since it would have no effect.
func (b *builder) skipArg(v *types.Var, et string, hasElicit bool) bool {
	if !hasElicit {
		return true
	}
	opts, _ := parseTag(et)
	if hasKey(opts, optAsk) {
		return false
	}
	b.sink.errorf(b.pos(v.Pos()), "field %s has an elicit tag but no ask option, in an arguments struct whose properties are the fields tagged ask: add ask (elicit:\"ask,%s\") to ask it when the model leaves it out, or remove the tag", v.Name(), et)
	return true
}

// patternPass applies pattern=, a server-side rule: an RE2 regular
// expression (Go's regexp syntax), checked on answers and never sent.
func (o *fieldOpts) patternPass() {
	t, ok := o.opts.get("pattern")
	if !ok {
		return
	}
	switch {
	case o.fld.Prop.Kind == runtime.KindEnum:
		o.b.sink.errorf(o.at(t), "pattern applies only to free-text string fields: the answers of %s are its options", o.v.Name())
		return
	case !o.plainString():
		o.b.sink.errorf(o.at(t), "pattern applies only to string fields, not %s", o.goType())
		return
	}
	if _, err := regexp.Compile(t.Value); err != nil {
		msg := err.Error()
		if re, ok := err.(*syntax.Error); ok {
			msg = string(re.Code) + ": `" + re.Expr + "`"
		}
		o.b.sink.errorf(o.at(t), "pattern=%s is not a valid RE2 regular expression (Go regexp syntax): %s", t.Value, msg)
		return
	}
	o.fld.Prop.Pattern = t.Value
}

// argsPass applies ask: the field must be one the model may leave out of
// the tool's arguments, and a missing one must be told from a supplied
// one; asked, it is required unless tagged optional.
func (o *fieldOpts) argsPass() {
	t, ok := o.opts.get(optAsk)
	if !ok {
		return
	}
	p := &o.fld.Prop
	jsonName, jsonOpts := o.jsonTag()
	if !o.fld.Pointer && !strings.Contains(","+jsonOpts+",", ",omitempty,") && !strings.Contains(","+jsonOpts+",", ",omitzero,") {
		name := jsonName
		if name == "" {
			name = p.Name
		}
		o.b.sink.errorf(o.at(t), "field %s is asked when the model leaves it out, so the tool's input schema must let the model omit it: add omitempty to its json tag (json:\"%s,omitempty\")", o.v.Name(), name)
	}
	if o.fld.GoKind == GoBool && !o.fld.Pointer {
		o.b.sink.errorf(o.at(t), "field %s is a bool asked when missing, but false cannot be told from missing: use *bool", o.v.Name())
	}
	p.Required = !hasKey(o.opts, "optional")
}

// jsonTag returns the name and options of the field's json tag.
func (o *fieldOpts) jsonTag() (name, opts string) {
	if o.field == nil || o.field.Tag == nil {
		return "", ""
	}
	tag, err := strconv.Unquote(o.field.Tag.Value)
	if err != nil {
		return "", ""
	}
	name, opts, _ = strings.Cut(reflect.StructTag(tag).Get("json"), ",")
	return name, opts
}

// checkMethod records whether the form type has runtime.FormChecker's
// CheckElicit, and reports a method of that name with another signature
// (it would silently not be called), and an AskMissing name already
// declared.
func (b *builder) checkMethod(f *Form, obj *types.TypeName) {
	if f.Args {
		name := askMissingName(f.Name)
		if o := b.src.Types.Scope().Lookup(name); o != nil && !isGenerated(b.pos(o.Pos()).Filename) {
			b.sink.errorf(f.Pos, "arguments struct %s needs the name %s, which is already declared at %s: rename it or the type", f.Name, name, relPos(b.pos(o.Pos())))
		}
	}
	ms := types.NewMethodSet(types.NewPointer(obj.Type()))
	sel := ms.Lookup(obj.Pkg(), "CheckElicit")
	if sel == nil {
		return
	}
	fn, ok := sel.Obj().(*types.Func)
	if !ok {
		return
	}
	sig := fn.Type().(*types.Signature)
	errType := types.Universe.Lookup("error").Type()
	if sig.Params().Len() != 0 || sig.Results().Len() != 1 || !types.Identical(sig.Results().At(0).Type(), errType) {
		b.sink.errorf(b.pos(fn.Pos()), "method CheckElicit of %s has signature %s, but the check of a form's answers (runtime.FormChecker) is func() error; rename the method or change its signature", f.Name, strings.TrimPrefix(types.TypeString(sig, types.RelativeTo(b.src.Types)), "func"))
		return
	}
	f.Checked = true
}

// askMissingName is the name of the AskMissing function of an arguments
// struct.
func askMissingName(typeName string) string {
	n := NamesOf(typeName)
	return strings.Replace(n.Ask, "sk", "skMissing", 1)
}

func relPos(p interface{ String() string }) string {
	s := p.String()
	if i := strings.LastIndexAny(s, `/\`); i >= 0 {
		return s[i+1:]
	}
	return s
}
