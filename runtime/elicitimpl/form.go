package elicitimpl

import (
	"context"
	"fmt"
	"reflect"
	"sync"

	"github.com/elicitgen/elicitgen/runtime"
)

// Form is the descriptor of one generated form type T. Generated code
// declares one per form, a package-level variable that is static data (no
// initialisation code), and the form's API calls it:
//
//	var elicitFormT = elicitimpl.Form{Type: (*T)(nil), Spec: `{"name":"T","properties":[...]}`}
//
//	func TSchema() *runtime.Schema { return elicitFormT.Schema() }
//	func (v *T) Validate() error { return elicitFormT.Validate(v) }
//	func AskT(ctx context.Context, asker runtime.Asker, message string, opts ...runtime.AskOption) (o runtime.Outcome[*T], err error) {
//		o.Action, err = elicitFormT.Ask(ctx, asker, &o.Value, message, opts...)
//		return o, err
//	}
//	func AcceptT(v T) (*runtime.Response, error) { return elicitFormT.Accept(&v) }
//
// The spec (see AppendSpec) is read and the runtime.Form built on first
// use. A spec that does not read, or does not match T, makes every use
// fail with an error that says so, rather than panic.
type Form struct {
	// Type is a nil *T.
	Type any
	// Spec is the form's schema and the Go field of each property, as
	// AppendSpec writes them.
	Spec string
	// Locales are the form's translations.
	Locales []Locale

	once  sync.Once
	built any // *runtime.Form; an interface, so that a package declaring a Form needs nothing of runtime.Form's type
	err   error
}

// Runtime returns the runtime.Form of d, built on first use. It is a
// function rather than a method so that a package declaring a Form (every
// package of generated forms) never needs the type runtime.Form: a type
// that leads to reflect.Type costs such a package about forty compiled
// wrapper functions (reflect.Type's methods on its interface shape).
func Runtime(d *Form) (*runtime.Form, error) {
	d.once.Do(d.build)
	f, _ := d.built.(*runtime.Form)
	return f, d.err
}

func (d *Form) build() {
	s, paths, err := ParseSpec(d.Spec)
	if err != nil {
		d.err = fmt.Errorf("elicit: form %T: %w (regenerate with a matching runtime)", d.Type, err)
		return
	}
	f := runtime.NewForm(d.Type, s, paths...)
	f.Locales = d.Locales
	d.built = f
}

// Schema returns a copy of the form's schema; a form whose spec does not
// read has a schema without properties, which no client can answer.
func (d *Form) Schema() *runtime.Schema {
	f, err := Runtime(d)
	if err != nil {
		return &runtime.Schema{Name: typeName(d.Type)}
	}
	return f.Schema().Clone()
}

// Validate checks v, a *T; see runtime.Form.Validate.
func (d *Form) Validate(v any) error {
	f, err := Runtime(d)
	if err != nil {
		return err
	}
	return f.Validate(v)
}

// Accept builds the client-side answer that submits v, a *T; see
// runtime.Form.Accept.
func (d *Form) Accept(v any) (*runtime.Response, error) {
	f, err := Runtime(d)
	if err != nil {
		return nil, err
	}
	return f.Accept(v)
}

// Ask asks the form (see runtime.Form.Ask). dst is a **T: on an accept
// whose answer decodes and validates, *dst is set to a new T holding it;
// otherwise *dst is left as it was (nil in generated code).
func (d *Form) Ask(ctx context.Context, a runtime.Asker, dst any, message string, opts ...runtime.AskOption) (runtime.Action, error) {
	f, err := Runtime(d)
	if err != nil {
		return "", err
	}
	pp := reflect.ValueOf(dst)
	t := reflect.TypeOf(d.Type)
	if t == nil || t.Kind() != reflect.Pointer || pp.Kind() != reflect.Pointer || pp.IsNil() || pp.Type().Elem() != t {
		return "", fmt.Errorf("elicit: form %s: Ask needs a non-nil *%s, got %T", typeName(d.Type), t, dst)
	}
	v := reflect.New(t.Elem())
	act, err := f.Ask(ctx, a, v.Interface(), message, opts...)
	if err == nil && act == runtime.ActionAccept {
		pp.Elem().Set(v)
	}
	return act, err
}

// AskMissing asks for the missing fields of v, a *T; see
// runtime.Form.AskMissing.
func (d *Form) AskMissing(ctx context.Context, a runtime.Asker, v any, message string, opts ...runtime.AskOption) (runtime.Action, error) {
	f, err := Runtime(d)
	if err != nil {
		return "", err
	}
	return f.AskMissing(ctx, a, v, message, opts...)
}

// typeName is the name of T, given a *T.
func typeName(nilPtr any) string {
	if t := reflect.TypeOf(nilPtr); t != nil && t.Kind() == reflect.Pointer {
		return t.Elem().Name()
	}
	return fmt.Sprintf("%T", nilPtr)
}
