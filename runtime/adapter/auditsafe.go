package adapter

import (
	"errors"
	"strconv"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// What an audit record may hold: the author's names and validated
// values, never a string the client chose (a key name, an SDK's error
// text quoting the answer), so that no client can forge or fill a record.

// decisionFields returns the Event.InvalidFields of an invalid
// Decision: the form's property names of its problems ("" for the answer
// as a whole), then "(N other keys)" counting the keys the client named
// that the form does not have. The runtime decided which is which.
func decisionFields(d *runtime.Decision) []string {
	out := make([]string, 0, len(d.Invalid)+1)
	for i := range d.Invalid {
		out = append(out, d.Invalid[i].Field)
	}
	if d.OtherKeys > 0 {
		out = append(out, "("+strconv.Itoa(d.OtherKeys)+" other keys)")
	}
	return out
}

// auditReason is the reason an audit record gives for a failure: a word
// from a fixed list, never the error's text, which may quote what the
// client sent (an SDK's decoding error, argument keys).
func auditReason(err error) string {
	switch {
	case errors.Is(err, ErrAmbiguousArguments):
		return "invalid_arguments"
	case errors.Is(err, ErrEnvelope):
		return "malformed_message"
	case errors.Is(err, ErrAnswerKeys), errors.Is(err, runtime.ErrMalformedInput):
		return "malformed_answer"
	case errors.Is(err, ErrTooManyInputResponses):
		return "too_many_input_responses"
	case errors.Is(err, seal.ErrStoreForgot):
		return "replay_store_forgot"
	case errors.Is(err, seal.ErrClaimUnknown):
		return "replay_claim_unknown"
	case errors.Is(err, seal.ErrReplayStore):
		return "replay_store"
	}
	return errorClass(err)
}
