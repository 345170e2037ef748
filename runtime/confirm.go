package runtime

import (
	"reflect"
	"unsafe"
)

// A box tagged confirm (Property.Confirm) is the one that approves: an
// accept that leaves it unticked is a decline, so that a handler that
// only checks Accepted() never acts on it.

// ReasonUnconfirmed is the Event.Reason of an EventAnswered whose accept
// left a box tagged confirm unticked: the ask returns it as a decline.
const ReasonUnconfirmed = "accepted without confirming"

// unconfirmed returns the name of the first property tagged confirm that
// the decoded value at base leaves false (or unset), or "".
func (e *engine) unconfirmed(base unsafe.Pointer) string {
	for i := range e.fields {
		fd := &e.fields[i]
		p := &e.schema.Properties[fd.prop]
		if !p.Confirm {
			continue
		}
		v := unsafe.Add(base, fd.offset)
		if fd.ptr {
			v = *(*unsafe.Pointer)(v)
		}
		if fd.kind != gkBool || v == nil || !*(*bool)(v) {
			return p.Name
		}
	}
	return ""
}

// declineUnconfirmed clears the decoded value at base and returns the
// decline an unticked confirm box turns an accept into.
func (e *engine) declineUnconfirmed(base unsafe.Pointer) Action {
	if e.typ != nil {
		reflect.NewAt(e.typ, base).Elem().SetZero()
	}
	return ActionDecline
}
