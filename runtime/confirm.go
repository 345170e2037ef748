package runtime

// A box tagged confirm (Property.Confirm) is the one that approves: an
// accept that leaves it unticked is a decline, so that a handler that
// only checks Accepted() never acts on it. The runtime decides it here,
// once per answer (decideAnswer), and reports it in Decision.Action and
// Decision.Unconfirmed; nothing else decides it again.

// ReasonUnconfirmed is the Event.Reason of an EventAnswered whose accept
// left a box tagged confirm unticked: the ask returns it as a decline,
// and the event's Action is ActionDecline.
const ReasonUnconfirmed = "accepted without confirming"

// unconfirmed returns the name of the first property of s tagged confirm
// that content, an accepted answer to s that validated, leaves false or
// unset, or "".
func unconfirmed(s *Schema, content map[string]any) string {
	if s == nil {
		return ""
	}
	for i := range s.Properties {
		p := &s.Properties[i]
		if !p.Confirm {
			continue
		}
		if v, ok := content[p.Name].(bool); !ok || !v {
			return p.Name
		}
	}
	return ""
}
