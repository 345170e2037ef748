package runtime

import (
	"errors"
	"reflect"
	"regexp"
	"unsafe"
)

// FormChecker is implemented by a form type with rules that a schema
// cannot state: rules across fields, or that need code (a date in the
// future, an end after a start). Every answer that passes the field rules
// is checked with CheckElicit before it is an accept, and Validate and
// AcceptT check it too.
//
// Return nil when v is valid. To name fields, return a *FieldError, a
// *ValidationError, or several *FieldError joined with errors.Join: they
// are answered like any other invalid answer (the same message to the
// person and the model, the same re-ask with WithRetries). Any other error
// is a problem with the form as a whole.
//
// elicitgen reports a method named CheckElicit with another signature.
type FormChecker interface {
	CheckElicit() error
}

var formCheckerType = reflect.TypeFor[FormChecker]()

// checkHook runs the form's CheckElicit on the value at base, adding its
// problems to errs.
func (e *engine) checkHook(errs *errList, base unsafe.Pointer) {
	if !e.hook {
		return
	}
	v, _ := reflect.NewAt(e.typ, base).Interface().(FormChecker)
	if v == nil {
		return
	}
	addCheckErr(errs, v.CheckElicit())
}

// addCheckErr adds the field errors of a CheckElicit result to errs.
func addCheckErr(errs *errList, err error) {
	if err == nil {
		return
	}
	var fe *FieldError
	var ve *ValidationError
	switch {
	case errors.As(err, &ve) && ve == err:
		for _, f := range ve.Fields {
			errs.addField(f)
		}
	case errors.As(err, &fe) && fe == err:
		errs.addField(fe)
	default:
		if m, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range m.Unwrap() {
				addCheckErr(errs, e)
			}
			return
		}
		errs.Add("", err.Error())
	}
}

// checkPattern checks a string answer against the field's server-side
// pattern.
func checkPattern(errs *errList, p *Property, re *regexp.Regexp, v string) {
	if re != nil && !re.MatchString(v) {
		msg := quote(v) + " does not match the pattern " + p.Pattern
		if p.PatternMessage != "" {
			msg += " (" + p.PatternMessage + ")"
		}
		errs.AddID(p, MsgPattern, msg, quote(v))
	}
}

// compilePattern compiles p.Pattern ("" gives nil).
func compilePattern(p *Property) (*regexp.Regexp, error) {
	if p.Pattern == "" {
		return nil, nil
	}
	return regexp.Compile(p.Pattern)
}
