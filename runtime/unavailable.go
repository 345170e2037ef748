package runtime

import (
	"errors"
	"strconv"
	"strings"
)

// UnavailablePolicy chooses what a tool wrapper does when a handler fails
// because the client cannot be asked (an error matching ErrUnavailable).
type UnavailablePolicy uint8

const (
	// UnavailableAuto answers -32021 with requiredCapabilities on a
	// 2026-07-28 request (when the SDK can send it), and a tool error
	// telling the model what to ask the user otherwise.
	UnavailableAuto UnavailablePolicy = iota
	// UnavailableToolError always answers a tool result with isError set,
	// whose text tells the model exactly which fields to ask the user for.
	UnavailableToolError
	// UnavailableMissingCapability answers -32021 on 2026-07-28 requests
	// and returns the handler's error unchanged on older ones.
	UnavailableMissingCapability
	// UnavailablePassThrough returns the handler's error unchanged.
	UnavailablePassThrough
)

// AskUserText returns the text of a tool error result for a handler that
// failed with err because the client cannot be asked: it tells the model
// which question could not be asked and exactly which fields to ask the
// user for (name, title, description, type, options, bounds, whether
// required). It returns "" when err does not match ErrUnavailable.
func AskUserText(err error) string {
	if !errors.Is(err, ErrUnavailable) {
		return ""
	}
	var ue *UnavailableError
	errors.As(err, &ue)
	var sb strings.Builder
	sb.WriteString("This tool needs an answer from the user but cannot ask them directly")
	if ue != nil && ue.Reason != "" {
		sb.WriteString(" (")
		sb.WriteString(ue.Reason)
		sb.WriteString(")")
	}
	sb.WriteString(". Do not guess or invent the answer and do not proceed without it.\n")
	if ue == nil {
		return sb.String()
	}
	if ue.Mode == ModeURL {
		sb.WriteString("The user must complete a step in their browser; tell them so")
		if ue.Message != "" {
			sb.WriteString(": ")
			sb.WriteString(strconv.Quote(ue.Message))
		}
		sb.WriteString(".\n")
		return sb.String()
	}
	if ue.Message != "" {
		sb.WriteString("Question: ")
		sb.WriteString(strconv.Quote(ue.Message))
		sb.WriteString("\n")
	}
	if ue.Schema == nil || len(ue.Schema.Properties) == 0 {
		return sb.String()
	}
	sb.WriteString("Ask the user for these fields")
	if ue.Schema.Name != "" {
		sb.WriteString(" (form ")
		sb.WriteString(ue.Schema.Name)
		sb.WriteString(")")
	}
	sb.WriteString("; do not fill any in yourself:\n")
	for i := range ue.Schema.Properties {
		describeProperty(&sb, &ue.Schema.Properties[i])
	}
	sb.WriteString("If this tool takes these fields as arguments, call it again with the user's answers; otherwise tell the user that this action needs a client that supports MCP elicitation.\n")
	return sb.String()
}

func describeProperty(sb *strings.Builder, p *Property) {
	sb.WriteString("- ")
	sb.WriteString(p.Name)
	if p.Title != "" {
		sb.WriteString(" (")
		sb.WriteString(strconv.Quote(p.Title))
		sb.WriteString(")")
	}
	sb.WriteString(": ")
	var parts []string
	if p.Required {
		parts = append(parts, "required")
	} else {
		parts = append(parts, "optional")
	}
	switch p.Kind {
	case KindEnum:
		parts = append(parts, "one of "+describeOptions(p.Options))
	case KindMulti:
		parts = append(parts, "any of "+describeOptions(p.Options))
		if p.MinItems != nil {
			parts = append(parts, "at least "+plural(*p.MinItems, "choice"))
		}
		if p.MaxItems != nil {
			parts = append(parts, "at most "+plural(*p.MaxItems, "choice"))
		}
	default:
		t := p.Kind.String()
		if p.Format != "" {
			t += " (" + p.Format + ")"
		}
		parts = append(parts, t)
	}
	if p.MinLength != nil {
		parts = append(parts, "at least "+plural(*p.MinLength, "character"))
	}
	if p.MaxLength != nil {
		parts = append(parts, "at most "+plural(*p.MaxLength, "character"))
	}
	if p.Minimum != nil {
		parts = append(parts, "minimum "+formatNumber(*p.Minimum))
	}
	if p.Maximum != nil {
		parts = append(parts, "maximum "+formatNumber(*p.Maximum))
	}
	if p.Default != nil {
		parts = append(parts, "default "+string(appendValue(nil, p.Default)))
	}
	sb.WriteString(strings.Join(parts, ", "))
	if p.Description != "" {
		sb.WriteString(". ")
		sb.WriteString(p.Description)
	}
	if p.Kind == KindBoolean {
		sb.WriteString(" (a confirmation: only the user can give it; never set it yourself, and if the user cannot see it, tell them it could not be shown)")
	}
	sb.WriteString("\n")
}

func describeOptions(opts []Option) string {
	if len(opts) == 0 {
		return "(options not given)"
	}
	var sb strings.Builder
	for i, o := range opts {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(strconv.Quote(o.Value))
		if o.Title != "" && o.Title != o.Value {
			sb.WriteString(" (")
			sb.WriteString(o.Title)
			sb.WriteString(")")
		}
	}
	return sb.String()
}
