package runtime

import (
	"context"
	"errors"
	"strings"
	"time"
)

// AskError is an ask that failed: the Asker could not get an answer (a
// transport failure, a client error, a timeout) or the answer did not
// validate. It wraps the cause, so errors.Is matches ErrTimeout,
// ErrInvalidContent, ErrUnavailable and so on.
type AskError struct {
	// Form is the form's name.
	Form string
	// Err is the cause.
	Err error
}

// Error implements error.
// The message names the form once and says "elicit:" once, whatever it
// wraps: "elicit: ask Triage: options not supplied: kr: options must be
// supplied with WithOptions".
func (e *AskError) Error() string {
	return "elicit: ask " + e.Form + ": " + strings.TrimPrefix(e.Err.Error(), "elicit: ")
}

// Unwrap returns the cause.
func (e *AskError) Unwrap() error { return e.Err }

// TimeoutError is an ask that timed out (WithTimeout). It matches
// ErrTimeout.
type TimeoutError struct {
	// After is the timeout that elapsed.
	After time.Duration
	// Err is the Asker's error when the deadline passed.
	Err error
}

// Error implements error.
func (e *TimeoutError) Error() string {
	return ErrTimeout.Error() + " after " + e.After.String() + ": " + e.Err.Error()
}

// Is reports whether target is ErrTimeout.
func (e *TimeoutError) Is(target error) bool { return target == ErrTimeout }

// Unwrap returns the Asker's error.
func (e *TimeoutError) Unwrap() error { return e.Err }

// WithRetries asks again, up to n more times, when the user's answer is
// invalid, adding what was wrong to the message, so the person can fix
// the answer instead of the tool failing. On 2025-era connections each
// retry is another elicitation/create; on 2026-07-28 it is another
// input_required round for the same inputRequests key (the count rides
// in the sealed requestState). When the retries are used up, the ask
// fails with the last validation error. A malformed answer (a protocol
// error) is never asked again.
func WithRetries(n int) AskOption {
	return func(c *askConfig) { c.retries = max(n, 0) }
}

// WithTitle sets the title of a quick ask's field (AskConfirm, AskText,
// AskChoice, AskChoices), the label a client shows beside the input. It
// does not change generated forms, whose titles come from the struct.
func WithTitle(title string) AskOption {
	return func(c *askConfig) { c.title = title }
}

// retryMessage adds the problems of an invalid answer to req's message,
// for the person, in the language req is asked in.
func retryMessage(req *Request, cfg *askConfig, a Asker, invalid error) string {
	lang := personLanguage(req, cfg, a)
	return req.Message + "\n\n" + cfg.messages.Text(lang, MsgRetry, "", cfg.messages.Problems(lang, req.Schema, invalid))
}

// personLanguage is the language the person reads req in: the form's
// language when it was translated, else the preference.
func personLanguage(req *Request, cfg *askConfig, a Asker) string {
	if req.Language != "" {
		return req.Language
	}
	if cfg.localeSet {
		return cfg.locale
	}
	return LanguagePreference(a)
}

// Problems lists the field problems of err for a person, from c (nil:
// the built-in catalog) in the language that best serves lang, naming
// fields by their titles in s, the form as the person saw it (see
// FieldError.PersonText). An error without field problems is written
// without its "elicit:" prefix.
func (c *Catalog) Problems(lang string, s *Schema, err error) string {
	var ve *ValidationError
	if !errors.As(err, &ve) || len(ve.Fields) == 0 {
		return problems(err)
	}
	parts := make([]string, len(ve.Fields))
	for i, f := range ve.Fields {
		parts[i] = f.PersonText(c, lang, s)
	}
	return strings.Join(parts, c.Text(lang, MsgListSep, ""))
}

// modelProblems lists the field problems of err for the model, in
// English, naming each field by title and key.
func modelProblems(err error) string {
	var ve *ValidationError
	if !errors.As(err, &ve) || len(ve.Fields) == 0 {
		return problems(err)
	}
	parts := make([]string, len(ve.Fields))
	for i, f := range ve.Fields {
		parts[i] = f.ModelText()
	}
	return strings.Join(parts, "; ")
}

// problems lists the field errors of err as Go errors do: "key: msg".
func problems(err error) string {
	var ve *ValidationError
	if !errors.As(err, &ve) || len(ve.Fields) == 0 {
		msg := err.Error()
		var ae *AskError
		if errors.As(err, &ae) {
			msg = ae.Err.Error()
		}
		return strings.TrimPrefix(msg, "elicit: ")
	}
	parts := make([]string, len(ve.Fields))
	for i, f := range ve.Fields {
		parts[i] = f.Error()
	}
	return strings.Join(parts, "; ")
}

// AskErrorPolicy chooses what a tool wrapper does when a handler fails
// because an ask failed for a reason that is not a protocol error: the
// user did not answer in time, the answer was invalid, or the client
// could not be reached.
type AskErrorPolicy uint8

const (
	// AskErrorsToolError answers a tool result with isError set whose
	// text says what happened and what to do next (AskFailureText), so
	// the model can act on it.
	AskErrorsToolError AskErrorPolicy = iota
	// AskErrorsJSONRPC answers a JSON-RPC error: -32602 for an invalid
	// answer, the handler's error otherwise.
	AskErrorsJSONRPC
)

// AskFailureText returns the text of a tool error result for a handler
// that failed with err because an ask failed, saying what happened and
// what to do next. It returns "" for errors that are not ask failures
// and for protocol errors, which stay JSON-RPC errors: a malformed
// answer (ErrMalformedInput), an unknown action (ErrInvalidAction), a
// bad requestState (ErrInvalidState), a cancelled request. An error
// matching ErrUnavailable gets AskUserText.
func AskFailureText(err error) string {
	var te *TimeoutError
	var ae *AskError
	var ue *UnfilledError
	switch {
	case err == nil, errors.Is(err, ErrMalformedInput), errors.Is(err, ErrInvalidAction),
		errors.Is(err, ErrInvalidState), errors.Is(err, ErrInputRequired),
		errors.Is(err, context.Canceled):
		return ""
	case errors.Is(err, ErrUnavailable):
		return AskUserText(err)
	case errors.As(err, &te):
		return "The user did not answer within " + shortDuration(te.After) + ": ask again later, or ask the user in the conversation."
	case errors.Is(err, ErrTimeout):
		return "The user did not answer in time: ask again later, or ask the user in the conversation."
	case errors.As(err, &ue):
		return ue.modelText()
	case errors.Is(err, ErrInvalidContent):
		return "The answer was invalid: " + modelProblems(err) + ". Call the tool again to ask the user again; do not fill in the answer yourself."
	case failureModelText(err) != "":
		return failureModelText(err)
	case errors.As(err, &ae):
		if errors.Is(err, context.DeadlineExceeded) {
			return "The user did not answer before the request timed out: ask again later."
		}
		return "Could not ask the user (" + strings.TrimPrefix(ae.Err.Error(), "elicit: ") + "): try again later, or ask the user in the conversation."
	}
	return ""
}

// shortDuration writes d without trailing zero units: 2m, 1h30m, 90s.
func shortDuration(d time.Duration) string {
	if d <= 0 || d%time.Second != 0 {
		return d.String()
	}
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// askErr wraps err as the failure of asking form ("url" for URL mode).
func askErr(form string, err error) error { return &AskError{Form: form, Err: err} }
