package runtime

import (
	"errors"
	"strings"
)

// ClientFailure is a known way a client fails a question, told apart so
// that each gets one plain sentence for the person (Catalog.FailureText)
// and one for the model (AskFailureText), instead of the client's raw
// error.
type ClientFailure uint8

// Known client failures.
const (
	// FailureNone: err is not one of the known client failures.
	FailureNone ClientFailure = iota
	// FailureNoHandler: the client declared elicitation but has no
	// handler for it; it answered JSON-RPC -32601 "Method not found" or
	// "No handler registered".
	FailureNoHandler
	// FailureClientInvalid: the client refused the question itself as
	// invalid, with its validator's raw report (the AI SDK's zod JSON,
	// for a URL-mode question it declared but cannot parse).
	FailureClientInvalid
	// FailureRepeated: the client sent the same invalid answer twice
	// (an *UnfilledError): it apparently cannot fill in the fields.
	FailureRepeated
)

// ClassifyFailure tells which known client failure err is, FailureNone
// for any other error.
func ClassifyFailure(err error) ClientFailure {
	if err == nil {
		return FailureNone
	}
	var ue *UnfilledError
	if errors.As(err, &ue) {
		return FailureRepeated
	}
	var ae *AskError
	if !errors.As(err, &ae) || errors.Is(err, ErrInvalidContent) || errors.Is(err, ErrUnavailable) || errors.Is(err, ErrTimeout) {
		return FailureNone
	}
	msg := strings.ToLower(ae.Err.Error())
	switch {
	case strings.Contains(msg, "method not found"), strings.Contains(msg, "-32601"), strings.Contains(msg, "no handler registered"):
		return FailureNoHandler
	case isValidatorReport(msg):
		return FailureClientInvalid
	}
	return FailureNone
}

// isValidatorReport recognizes a schema validator's raw report in a
// client's error message: zod's JSON issue list, or a JSON Schema
// validator's words.
func isValidatorReport(msg string) bool {
	zod := strings.Contains(msg, `"code":`) && (strings.Contains(msg, `"path":`) || strings.Contains(msg, `"expected":`))
	return zod || strings.Contains(msg, "zoderror") || strings.Contains(msg, "invalid_union") ||
		strings.Contains(msg, "invalid_type") || strings.Contains(msg, "does not match requested schema")
}

// failureModelText is the model's sentence for a known client failure,
// or "".
func failureModelText(err error) string {
	switch ClassifyFailure(err) {
	case FailureNoHandler:
		return "The user's client says it supports MCP elicitation but could not show the question (it has no handler for it: \"Method not found\"). Asking again will fail the same way: tell the user their client could not show the question and that the action was not done; do not answer it yourself."
	case FailureClientInvalid:
		return "The user's client refused to show the question (its own check rejected the request; it may not support this kind of question). Tell the user their client could not show the question and that the action was not done; do not answer it yourself."
	}
	return ""
}

// FailureText is the sentence a person reads when their client failed a
// question in a known way (see ClassifyFailure), from c (nil: the
// built-in catalog) in the language that best serves lang; "" for any
// other error. An app that shows tool errors to the person can show it in
// place of the model's text.
func (c *Catalog) FailureText(err error, lang string) string {
	switch ClassifyFailure(err) {
	case FailureNoHandler:
		return c.Text(lang, MsgFailNoHandler, "")
	case FailureClientInvalid:
		return c.Text(lang, MsgFailClientInvalid, "")
	case FailureRepeated:
		var ue *UnfilledError
		errors.As(err, &ue)
		names := make([]string, 0, len(ue.Fields))
		for i, f := range ue.Fields {
			n := f
			if i < len(ue.titles) && ue.titles[i] != "" {
				n = ue.titles[i]
			}
			names = append(names, n)
		}
		return c.Text(lang, MsgFailRepeated, strings.Join(names, c.Text(lang, MsgTitleSep, "")))
	}
	return ""
}
