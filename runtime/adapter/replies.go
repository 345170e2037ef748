package adapter

import "github.com/elicitgen/elicitgen/runtime"

// JSON-RPC error codes the adapters send.
const (
	// CodeInvalidParams (-32602): a tampered, expired or foreign
	// requestState, or an answer that does not decode or validate.
	CodeInvalidParams = -32602
	// CodeInternalError (-32603).
	CodeInternalError = -32603
	// CodeMissingRequiredClientCapability (-32021, 2026-07-28): the
	// request needs a capability the client did not declare.
	CodeMissingRequiredClientCapability = -32021
	// CodeURLElicitationRequired (-32042, 2025-11-25 only): the request
	// needs URL-mode elicitations first.
	CodeURLElicitationRequired = -32042
)

// RequiredCapabilities returns the requiredCapabilities object of a
// -32021 error for a request that needs elicitation in mode m:
// {"elicitation":{"form":{}}} or {"elicitation":{"url":{}}}.
func RequiredCapabilities(m runtime.Mode) map[string]any {
	mode := "form"
	if m == runtime.ModeURL {
		mode = "url"
	}
	return map[string]any{"elicitation": map[string]any{mode: map[string]any{}}}
}

// MissingCapabilityData returns the data member of the 2026-07-28 -32021
// error for a request that needs elicitation in mode m:
// {"requiredCapabilities":{"elicitation":{"form":{}}}}.
func MissingCapabilityData(m runtime.Mode) map[string]any {
	return map[string]any{"requiredCapabilities": RequiredCapabilities(m)}
}

// MissingCapabilityMessage returns the message of a -32021 error for the
// tool named tool.
func MissingCapabilityMessage(tool string, m runtime.Mode) string {
	what := "elicitation"
	if m == runtime.ModeURL {
		what = "URL-mode elicitation"
	}
	if tool == "" {
		return "this request needs the " + what + " client capability"
	}
	return tool + " needs the " + what + " client capability"
}
