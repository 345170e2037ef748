package receipt

import (
	"cmp"
	"context"
	"encoding/json"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
)

// Anonymous is the approver of a receipt whose call named no principal.
const Anonymous = "anonymous"

// Recorder returns the adapter.Options.Record hook that appends a receipt
// of every decided question to l before the handler sees the answer: an
// accept whose receipt is not stored never reaches the handler (the ask
// fails with runtime.ErrDecisionRefused, wrapping the log's error).
// server names the server in every receipt; verified says how the
// answering person's identity was established (VerifiedTrustedHeader,
// VerifiedSession, VerifiedNone, ...).
//
//	cfg.Record = receipt.Recorder(log, "deployer", func(adapter.Decided) string { return receipt.VerifiedTrustedHeader })
func Recorder(l *Log, server string, verified func(q adapter.Decided) string) func(context.Context, adapter.Decided) error {
	return func(ctx context.Context, q adapter.Decided) error {
		f, err := FieldsOf(server, q, verified(q))
		if err != nil {
			return err
		}
		_, err = l.Append(ctx, f)
		return err
	}
}

// FieldsOf returns the receipt fields of the decided question q: the
// runtime's decision (its action after confirm, the answer's digest) and
// the call around it, with q's principal as requester and as the one
// approver (the approvers who answered on the page instead, for a question
// asked with runtime.WithApprovers), verified as verified says, or as the
// delivery established (q.Verified: VerifiedPasskey after a
// runtime.WithStepUp step-up) when it did. A call without a principal (a
// server without authentication) is answered by Anonymous.
func FieldsOf(server string, q adapter.Decided, verified string) (Fields, error) {
	d := q.Decision
	verified = cmp.Or(q.Verified, verified)
	args := any(map[string]any{})
	if len(q.Args) > 0 {
		if err := json.Unmarshal(q.Args, &args); err != nil {
			return Fields{}, err
		}
	}
	argsDigest, err := DigestJSON(args)
	if err != nil {
		return Fields{}, err
	}
	f := Fields{
		Server: server, Tool: q.Tool, ArgsDigest: argsDigest, SchemaDigest: q.SchemaDigest,
		Action: Action(d.Action), Confirm: ConfirmNone, Requester: q.Principal,
		Approvers: []Approver{{Principal: cmp.Or(q.Principal, Anonymous), Verified: verified}},
		Rendering: string(q.Rendering), AskedAt: q.Asked, DecidedAt: q.At,
	}
	if len(q.Approvers) > 0 {
		// runtime.WithApprovers: the people who answered on the page,
		// identified as the page identifies a person.
		f.Approvers = make([]Approver, len(q.Approvers))
		for i, who := range q.Approvers {
			f.Approvers[i] = Approver{Principal: who, Verified: verified}
		}
	}
	req := d.Request
	if req.Mode == runtime.ModeURL {
		f.Rendering = "url"
	} else if req.Schema != nil {
		f.Form = req.Schema.Name
	}
	switch {
	case d.Action.Expired():
		// The question's wait ran out before its answer came: nobody's
		// answer was taken.
		f.Action, f.Reason, f.Approvers = ActionExpired, runtime.ReasonExpired, []Approver{}
	case d.Unconfirmed:
		f.Confirm, f.Reason = ConfirmUnticked, runtime.ReasonUnconfirmed
	case d.Accepted() && hasConfirm(req.Schema):
		f.Confirm = ConfirmTicked
	}
	if d.Accepted() {
		f.AnswerDigest = d.AnswerDigest()
	}
	return f, nil
}

// hasConfirm reports whether s has a box tagged confirm.
func hasConfirm(s *runtime.Schema) bool {
	if s == nil {
		return false
	}
	for _, p := range s.Properties {
		if p.Confirm {
			return true
		}
	}
	return false
}
