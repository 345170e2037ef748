package gen

import "strings"

// Options of the server-side rules that patternPass does not apply: a
// pattern's words, and the box that approves.
const (
	optPatternMessage = "patternMessage"
	optConfirm        = "confirm"
)

// confirmPass applies patternMessage= (the words of a pattern= rule) and
// confirm (the box that approves: an accept with it false is a decline).
// confirm needs a plain bool: a *bool's nil would be a third answer, a
// default of true would approve for a person who never touched the box,
// and a tool argument asked when missing is the model's to send.
func (o *fieldOpts) confirmPass() {
	if t, ok := o.opts.get(optPatternMessage); ok {
		switch {
		case !hasKey(o.opts, "pattern"):
			o.b.sink.errorf(o.at(t), "patternMessage gives the words of a pattern= rule, but %s has no pattern=: add one, or remove patternMessage", o.v.Name())
		case strings.TrimSpace(t.Value) == "":
			o.b.sink.errorf(o.at(t), "patternMessage is empty: say in words what the pattern asks for, e.g. patternMessage='a change number like CHG-123456'")
		default:
			o.fld.Prop.PatternMessage = foldSpace(t.Value)
		}
	}
	t, ok := o.opts.get(optConfirm)
	if !ok {
		return
	}
	switch {
	case o.fld.GoKind != GoBool:
		o.b.sink.errorf(o.at(t), "confirm marks the box that approves and applies only to bool fields, not %s", o.goType())
	case o.fld.Pointer:
		o.b.sink.errorf(o.at(t), "confirm applies to a bool, not %s: the box is either ticked or not", o.goType())
	case hasKey(o.opts, optAsk):
		o.b.sink.errorf(o.at(t), "confirm cannot be combined with ask: a box that approves is ticked by a person, not sent by the model")
	case o.opts.must("default").Value == "true":
		o.b.sink.errorf(o.at(o.opts.must("default")), "confirm with default=true would approve for a person who never touched the box: remove default=true (a confirm box starts unticked)")
	default:
		o.fld.Prop.Confirm = true
	}
}
