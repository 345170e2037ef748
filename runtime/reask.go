package runtime

import "errors"

// keepValid returns s with the answers in content that were valid as the
// defaults of the re-ask of an invalid answer (invalid lists its
// problems), so that the person corrects only what was wrong instead of
// filling in the whole form again: on 2025-11-25 and 2026-07-28 clients
// pre-fill every field (2025-06-18 carries boolean defaults only). A
// field named in invalid, an answer that is not a valid default, and a
// box tagged confirm (never pre-ticked) keep the default s gives them.
// s itself is returned when nothing changes; it is never modified.
func keepValid(s *Schema, content map[string]any, invalid error) *Schema {
	if len(content) == 0 {
		return s
	}
	bad := map[string]bool{}
	var ve *ValidationError
	var fe *FieldError
	switch {
	case errors.As(invalid, &ve):
		for _, f := range ve.Fields {
			bad[f.Field] = true
		}
	case errors.As(invalid, &fe):
		bad[fe.Field] = true
	}
	out := s
	for i := range s.Properties {
		p := &s.Properties[i]
		v, ok := content[p.Name]
		if !ok || bad[p.Name] || p.Confirm {
			continue
		}
		var errs errList
		d, ok := checkDefault(&errs, p, v)
		if !ok {
			continue
		}
		if out == s {
			out = s.Clone()
		}
		out.Properties[i].Default = d
	}
	return out
}
