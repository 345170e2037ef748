package runtime

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
)

// answerDigest returns a short digest of an answer's content, equal for
// equal content whatever the key order.
func answerDigest(content map[string]any) string {
	b, err := json.Marshal(content) // sorts map keys
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:12])
}

// repeatedAnswer reports whether content is the invalid answer the
// question got last time: through a's SameInvalidAnswer when it has one, else
// through *prev, the digest of this ask's previous invalid answer.
func repeatedAnswer(a Asker, req *Request, content map[string]any, prev *string) bool {
	d := answerDigest(content)
	if m, ok := findAs[answerMemo](a); ok {
		return m.SameInvalidAnswer(req, d)
	}
	same := *prev != "" && *prev == d
	*prev = d
	return same
}

// UnfilledError is an ask stopped because the client sent the same
// invalid answer again: asking once more would not help, since this client
// apparently cannot fill in the fields. It matches ErrInvalidContent; the
// adapters' default tool error tells the model to ask the person for the
// fields in the conversation.
type UnfilledError struct {
	// Form is the form's name.
	Form string
	// Fields are the properties the client could not fill, in form order
	// (empty when only the form as a whole was wrong).
	Fields []string
	// Args says the fields are tool arguments (AskMissing): the model can
	// supply them in its next call.
	Args bool
	// Err is the validation error of the repeated answer.
	Err error

	// labels are the model's names of Fields ("Title" (key)), and
	// approvals says which of them are booleans: confirmations the
	// model must never give itself.
	labels    []string
	approvals []bool
	// titles are the fields' titles as the person saw them ("" for none).
	titles []string
}

// unfilled returns the UnfilledError of an ask of s whose answer was
// invalid again; the fields named are those of s (not unknown keys).
func unfilled(s *Schema, invalid error, args bool) *UnfilledError {
	e := &UnfilledError{Form: s.Name, Args: args, Err: invalid}
	var ve *ValidationError
	if errors.As(invalid, &ve) {
		seen := map[string]bool{}
		for _, f := range ve.Fields {
			if p := s.Property(f.Field); f.Field != "" && !seen[f.Field] && p != nil {
				seen[f.Field] = true
				e.Fields = append(e.Fields, f.Field)
				label := f.Field
				if f.Title != "" && f.Title != f.Field {
					label = quote(f.Title) + " (" + f.Field + ")"
				}
				e.labels = append(e.labels, label)
				e.titles = append(e.titles, p.Title)
				e.approvals = append(e.approvals, p.Kind == KindBoolean)
			}
		}
	}
	return e
}

// Error implements error.
func (e *UnfilledError) Error() string {
	return "elicit: ask " + e.Form + ": the client sent the same invalid answer again: " + problems(e.Err)
}

// Is reports whether target is ErrInvalidContent.
func (e *UnfilledError) Is(target error) bool { return target == ErrInvalidContent }

// Unwrap returns the validation error.
func (e *UnfilledError) Unwrap() error { return e.Err }

// modelText is the model-facing text of an UnfilledError. A boolean
// field is a confirmation or an approval: the model is told to tell the
// person it could not be shown, never to ask for it in the conversation
// (which would invite the model to give it itself).
func (e *UnfilledError) modelText() string {
	var sb strings.Builder
	sb.WriteString("The user's client sent the same invalid answer twice (")
	sb.WriteString(modelProblems(e.Err))
	sb.WriteString("), so it apparently cannot fill in ")
	var values, approvals []string
	for i, l := range e.labels {
		if e.approvals[i] {
			approvals = append(approvals, l)
		} else {
			values = append(values, l)
		}
	}
	switch {
	case len(e.labels) == 0:
		sb.WriteString("this form. Ask the user in the conversation instead; do not fill it in yourself.")
		return sb.String()
	case len(approvals) > 0:
		sb.WriteString(strings.Join(e.labels, ", "))
		sb.WriteString(". The approval ")
		sb.WriteString(strings.Join(approvals, ", "))
		sb.WriteString(" could not be shown to the user: tell the user so, and that the action was not done. Never give the approval yourself, and do not call the tool again with an approval the user did not give in their own client.")
		return sb.String()
	}
	sb.WriteString(strings.Join(values, ", "))
	sb.WriteString(". Ask the user for ")
	sb.WriteString(strings.Join(values, ", "))
	sb.WriteString(" in the conversation")
	if e.Args {
		sb.WriteString(", then call the tool again with the values they give as arguments")
	}
	sb.WriteString("; do not fill them in yourself.")
	return sb.String()
}
