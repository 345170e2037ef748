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

// auditContent returns the accepted values of the fields req names in
// AuditFields that pass their property's checks, or nil: a value that
// does not validate is never recorded.
func auditContent(req *runtime.Request, resp *runtime.Response) map[string]any {
	if resp == nil || resp.Action != runtime.ActionAccept || len(req.AuditFields) == 0 || resp.Content == nil {
		return nil
	}
	m := make(map[string]any, len(req.AuditFields))
	for _, f := range req.AuditFields {
		v, ok := resp.Content[f]
		if !ok || req.Schema == nil {
			continue
		}
		if p := req.Schema.Property(f); p != nil && p.Check(v) == nil {
			m[f] = v
		}
	}
	return m
}

// invalidFields returns the names of the invalid fields of a validation
// error that are properties of req's form; any others (names the client
// chose) are counted in one last entry, "(N other keys)". An error
// without fields gives [""].
func invalidFields(req *runtime.Request, err error) []string {
	var ve *runtime.ValidationError
	if !errors.As(err, &ve) {
		return []string{""}
	}
	out := make([]string, 0, len(ve.Fields))
	other := 0
	for _, f := range ve.Fields {
		if f.Field == "" || req != nil && req.Schema != nil && req.Schema.Property(f.Field) != nil {
			out = append(out, f.Field)
			continue
		}
		other++
	}
	if other > 0 {
		out = append(out, "("+strconv.Itoa(other)+" other keys)")
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
