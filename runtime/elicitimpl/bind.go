package elicitimpl

import (
	"context"
	"fmt"
	"reflect"

	"github.com/elicitgen/elicitgen/runtime"
)

// Init sets the TSchema, AskT and AcceptT variables of each form, which
// its descriptor points to: generated code declares them as variables of
// function type, holds its descriptors in one static array and calls Init
// once, from the package's init:
//
//	var TSchema func() *runtime.Schema
//	var AskT func(ctx context.Context, asker runtime.Asker, message string, opts ...runtime.AskOption) (runtime.Outcome[*T], error)
//	var AcceptT func(v T) (*runtime.Response, error)
//
//	var elicitDescriptors = [...]elicitimpl.Form{
//		{Type: (*T)(nil), SchemaVar: &TSchema, AskVar: &AskT, AcceptVar: &AcceptT, Spec: `...`},
//	}
//
//	func init() { elicitimpl.Init(elicitDescriptors[:]) }
//
// TSchema is the descriptor's Schema method. AskT and AcceptT are made
// with reflect.MakeFunc from the descriptor, so that a form adds no
// compiled function of its own for them to its package, and the package
// no initialisation code per form: what a form costs a build is mostly
// its functions, its package-level declarations and its init statements
// (see BENCHMARKS.md).
//
// A destination of another type (only a hand-edited or mismatched
// generated file has one) is bound to a function that returns an error
// saying so, when its type allows, and is otherwise left nil.
func Init(forms []Form) {
	for i := range forms {
		d := &forms[i]
		if d.SchemaVar != nil {
			*d.SchemaVar = d.Schema
		}
		bindFunc(d, d.AskVar, askFunc)
		bindFunc(d, d.AcceptVar, acceptFunc)
	}
}

// Bind sets a form's AskT and AcceptT as Init does, for files generated
// for SupportPackageIsVersion4, whose init calls it once per form:
//
//	func init() { elicitimpl.Bind(&elicitFormT, &AskT, &AcceptT) }
//
// ask and accept are pointers to those variables.
func Bind(d *Form, ask, accept any) {
	bindFunc(d, ask, askFunc)
	bindFunc(d, accept, acceptFunc)
}

// bindFunc sets *dst, a func variable, to the function make builds for its
// type, or to one that fails with build's error.
func bindFunc(d *Form, dst any, build func(d *Form, t reflect.Type) (func([]reflect.Value) []reflect.Value, error)) {
	p := reflect.ValueOf(dst)
	if p.Kind() != reflect.Pointer || p.IsNil() || p.Elem().Kind() != reflect.Func {
		return
	}
	v := p.Elem()
	t := v.Type()
	fn, err := build(d, t)
	if err != nil {
		n := t.NumOut()
		if n == 0 || t.Out(n-1) != reflect.TypeFor[error]() {
			return
		}
		err = fmt.Errorf("elicit: form %s: %w (regenerate with a matching runtime)", typeName(d.Type), err)
		fn = func([]reflect.Value) []reflect.Value {
			out := make([]reflect.Value, n)
			for i := range n - 1 {
				out[i] = reflect.Zero(t.Out(i))
			}
			out[n-1] = reflect.ValueOf(&err).Elem()
			return out
		}
	}
	v.Set(reflect.MakeFunc(t, fn))
}

// errValue is err as the reflect.Value of an error result.
func errValue(err error) reflect.Value {
	if err == nil {
		return reflect.Zero(reflect.TypeFor[error]())
	}
	return reflect.ValueOf(&err).Elem()
}

// askFunc builds AskT: func(ctx, asker, message, opts...) (runtime.Outcome[*T], error).
func askFunc(d *Form, t reflect.Type) (func([]reflect.Value) []reflect.Value, error) {
	ptr := reflect.TypeOf(d.Type)
	if ptr == nil || ptr.Kind() != reflect.Pointer {
		return nil, fmt.Errorf("the descriptor's Type is %T, not a nil *T", d.Type)
	}
	if t.NumIn() != 4 || !t.IsVariadic() || t.In(0) != reflect.TypeFor[context.Context]() || t.In(1) != reflect.TypeFor[runtime.Asker]() ||
		t.In(2).Kind() != reflect.String || t.In(3) != reflect.TypeFor[[]runtime.AskOption]() || t.NumOut() != 2 || t.Out(1) != reflect.TypeFor[error]() {
		return nil, fmt.Errorf("AskT has type %s", t)
	}
	out := t.Out(0)
	action, aok := out.FieldByName("Action")
	value, vok := out.FieldByName("Value")
	if out.Kind() != reflect.Struct || !aok || !vok || action.Type != reflect.TypeFor[runtime.Action]() || value.Type != ptr {
		return nil, fmt.Errorf("AskT returns %s, not runtime.Outcome[%s]", out, ptr)
	}
	return func(args []reflect.Value) []reflect.Value {
		ctx, _ := args[0].Interface().(context.Context)
		a, _ := args[1].Interface().(runtime.Asker)
		opts, _ := args[3].Interface().([]runtime.AskOption)
		o := reflect.New(out).Elem()
		act, err := d.Ask(ctx, a, o.FieldByIndex(value.Index).Addr().Interface(), args[2].String(), opts...)
		o.FieldByIndex(action.Index).SetString(string(act))
		return []reflect.Value{o, errValue(err)}
	}, nil
}

// acceptFunc builds AcceptT: func(v T) (*runtime.Response, error).
func acceptFunc(d *Form, t reflect.Type) (func([]reflect.Value) []reflect.Value, error) {
	ptr := reflect.TypeOf(d.Type)
	if ptr == nil || ptr.Kind() != reflect.Pointer {
		return nil, fmt.Errorf("the descriptor's Type is %T, not a nil *T", d.Type)
	}
	if t.NumIn() != 1 || t.IsVariadic() || t.In(0) != ptr.Elem() || t.NumOut() != 2 || t.Out(0) != reflect.TypeFor[*runtime.Response]() || t.Out(1) != reflect.TypeFor[error]() {
		return nil, fmt.Errorf("AcceptT has type %s", t)
	}
	return func(args []reflect.Value) []reflect.Value {
		v := reflect.New(ptr.Elem())
		v.Elem().Set(args[0])
		r, err := d.Accept(v.Interface())
		return []reflect.Value{reflect.ValueOf(r), errValue(err)}
	}, nil
}
