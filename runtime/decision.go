package runtime

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
)

// Decision is what the runtime decided about one answer to one question:
// the action the handler gets once the form's confirm box is applied, the
// fields of an answer that did not validate, and the values of the fields
// named with WithAuditFields, taken from the validated answer. The
// runtime decides each answer once, in the ask function, and reports the
// Decision to the Asker chain (Decided, see Asker) before the handler
// sees the outcome; audit events, OpenTelemetry and the test kit
// (elicittest) read it, and nothing decides the answer again.
//
// Of the answer's values a Decision shows only its Audit fields, and what
// the problems in Invalid quote for the model (their Msg and Args); an
// audit record takes only their Field names.
type Decision struct {
	// Request is the question as it was asked: its form (Schema), message,
	// rendering, attempt; an Asker's own Ask got the same *Request.
	Request *Request
	// Action is what the handler gets: ActionAccept, ActionDecline or
	// ActionCancel, after confirm (an accept that leaves a box tagged
	// confirm unticked is ActionDecline); "" for an answer that did not
	// validate (Invalid and OtherKeys say why), which the ask asks again
	// or fails with.
	Action Action
	// Unconfirmed reports that the client said accept but left a box
	// tagged confirm (Property.Confirm) unticked: Action is then
	// ActionDecline, and an audit record says ReasonUnconfirmed.
	Unconfirmed bool
	// Invalid lists the problems of an answer that did not validate, each
	// under the form's own property name ("" for the answer as a whole);
	// problems with keys the form does not have are only counted, in
	// OtherKeys, since their names are the client's. Empty for a valid
	// answer.
	Invalid []FieldError
	// OtherKeys counts the problems of an invalid answer with keys that
	// are not properties of the form.
	OtherKeys int
	// Audit holds the values of the fields named with WithAuditFields, in
	// the order named, from an answer that validated (Action accept, or
	// decline when Unconfirmed); a field the answer left out is left out.
	// Nil otherwise.
	Audit []AuditValue
	// Approvers are the people who answered a question asked with
	// WithApprovers (Response.Approvers), in the order they answered; nil
	// when the requester answered.
	Approvers []string
	// Verified says how the people who answered were verified
	// (Response.Verified): "passkey" after a WithStepUp step-up; "" when
	// the asker does not say.
	Verified string

	// content is the answer as validated, for AnswerDigest.
	content map[string]any
}

// AuditValue is the validated value of a field named with WithAuditFields,
// as JSON decodes it (string, float64, bool, []any).
type AuditValue struct {
	Field string
	Value any
}

// Valid reports whether the answer validated: Action is set and neither
// Invalid nor OtherKeys report a problem.
func (d *Decision) Valid() bool {
	return d.Action != "" && len(d.Invalid) == 0 && d.OtherKeys == 0
}

// Accepted reports whether the handler gets an accept: a valid answer
// whose Action, after confirm, is ActionAccept.
func (d *Decision) Accepted() bool { return d.Valid() && d.Action == ActionAccept }

// AnswerDigest returns the hex SHA-256 of the answer's content as JSON
// with its keys sorted (encoding/json's encoding of the map), equal for
// equal answers whatever the key order, or "" for an answer without
// content (decline, cancel, URL mode, or an answer an SDK refused before
// the runtime saw it).
func (d *Decision) AnswerDigest() string {
	if d.content == nil {
		return ""
	}
	b, err := json.Marshal(d.content)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// AuditMap returns Audit as a map from field to value, nil when Audit is
// empty: the shape of Event.Content.
func (d *Decision) AuditMap() map[string]any {
	if len(d.Audit) == 0 {
		return nil
	}
	m := make(map[string]any, len(d.Audit))
	for _, a := range d.Audit {
		m[a.Field] = a.Value
	}
	return m
}

// decider is the optional method of an Asker that is told each Decision
// (see Asker).
type decider interface {
	Decided(ctx context.Context, d *Decision) error
}

// ErrDecisionRefused is matched (errors.Is) by the error of an ask whose
// Decision an Asker's Decided refused: the handler gets no answer.
var ErrDecisionRefused = errors.New("elicit: decision refused")

// Decide tells d to the first Asker of the chain a, a.Unwrap(), ... that
// has a Decided method (see Asker), and returns its error; nil when none
// has. A wrapper whose Decided records or checks a Decision calls it to
// pass d on to what it wraps.
func Decide(ctx context.Context, a Asker, d *Decision) error {
	dc, ok := findAs[decider](a)
	if !ok {
		return nil
	}
	return dc.Decided(ctx, d)
}

// report tells the Asker chain of a the Decision d. A non-nil error
// (matching ErrDecisionRefused and the hook's own error) ends the ask:
// the handler never gets the answer.
func report(ctx context.Context, a Asker, d *Decision) error {
	if err := Decide(ctx, a, d); err != nil {
		return fmt.Errorf("%w: %w", ErrDecisionRefused, err)
	}
	return nil
}

// decideAnswer is the decision about resp, an answer to req whose
// content, when accepted, validated: the one place where an accept
// becomes a decline when a box tagged confirm is unticked (confirm.go).
func decideAnswer(req *Request, resp *Response) *Decision {
	d := &Decision{Request: req, Action: resp.Action, Approvers: resp.Approvers, Verified: resp.Verified}
	if resp.Action != ActionAccept || req.Mode != ModeForm {
		return d
	}
	d.content = resp.Content
	if unconfirmed(req.Schema, resp.Content) != "" {
		d.Action, d.Unconfirmed = ActionDecline, true
	}
	if len(req.AuditFields) > 0 && resp.Content != nil {
		d.Audit = make([]AuditValue, 0, len(req.AuditFields))
		seen := make(map[string]bool, len(req.AuditFields))
		for _, f := range req.AuditFields {
			if v, ok := resp.Content[f]; ok && !seen[f] {
				seen[f] = true
				d.Audit = append(d.Audit, AuditValue{Field: f, Value: v})
			}
		}
	}
	return d
}

// decideInvalid is the decision about an accepted answer to req that
// failed to validate with err; resp is the answer when the runtime saw
// it (nil when an SDK refused it first).
func decideInvalid(req *Request, resp *Response, err error) *Decision {
	d := &Decision{Request: req}
	if resp != nil {
		d.content = resp.Content
	}
	var ve *ValidationError
	if !errors.As(err, &ve) {
		d.Invalid = []FieldError{{Msg: "the answer did not validate"}}
		return d
	}
	for _, f := range ve.Fields {
		if f.Field == "" || req.Schema != nil && req.Schema.Property(f.Field) != nil {
			d.Invalid = append(d.Invalid, *f)
			continue
		}
		d.OtherKeys++
	}
	if len(d.Invalid) == 0 && d.OtherKeys == 0 {
		d.Invalid = []FieldError{{Msg: "the answer did not validate"}}
	}
	return d
}
