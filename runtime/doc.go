// Package runtime is what an MCP server author calls to ask a person a
// question: typed outcomes, the Asker interface an SDK adapter
// implements, the ask options, quick asks without a struct, URL-mode
// asks, the errors to match and the protocol eras.
//
// The runtime fails closed. The only way to obtain a value from an ask is
// an accept whose content decoded and validated against the schema that
// was sent; every other path (decline, cancel, a client that cannot
// elicit, a transport error, a timeout) is either a non-accept Outcome or
// an error.
//
// Forms come from elicitgen: each generated AskT returns an Outcome[*T],
// built on the form's Form (made from its static generated descriptor on
// first use). Adapters for the official Go SDK and mcp-go live in the
// gosdk and mcpgo subpackages, built on the adapter package; their HTTP
// and stdio limits are in serve; the key ring that seals request state on
// protocol 2026-07-28, the state errors and the replay store are in seal;
// the client side of a form (a Go MCP client, or a test over a real SDK)
// answers with the answer package; a scripted Asker for tests is in
// elicittest. Code that elicitgen generates also imports elicitimpl,
// which server code never needs.
package runtime
