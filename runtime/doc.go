// Package runtime is what an MCP server author calls to ask a person a
// question: typed outcomes, the Asker interface an SDK adapter implements,
// the ask options, the errors to match, URL-mode asks and the key ring that
// seals request state on protocol 2026-07-28.
//
// The runtime fails closed. The only way to obtain a value from an ask is
// an accept whose content decoded and validated against the schema that
// was sent; every other path (decline, cancel, a client that cannot
// elicit, a transport error, a timeout) is either a non-accept Outcome or
// an error.
//
// Forms come from elicitgen: each generated AskT returns an Outcome[T].
// Adapters for the official Go SDK and mcp-go live in the gosdk and mcpgo
// subpackages; a scripted Asker for tests lives in elicittest. Code that
// elicitgen generates calls the elicitimpl package, and SDK adapters call
// the adapter package; server code needs neither.
package runtime
