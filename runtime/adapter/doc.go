// Package adapter is the exchange of one tool call between the runtime and
// an MCP SDK, for SDK authors: the settings every adapter's Config shares
// (Options, embedded in gosdk.Config and mcpgo.Config), client
// capabilities per protocol era (ClientCaps, InitializeCaps,
// ParseClientCaps), the Exchange of a call with its sealed request state
// and single-use claim (Options.Start, Options.Claim), the runtime's
// decision about each answer, which the Exchange audits
// (Exchange.Decided), the replies a tool wrapper turns into results or
// JSON-RPC errors (Options.Finish, Reply), the exact-key checks of what a
// client sends (CheckEnvelope, ExactAnswers, CheckArgKeys). How a question
// reaches a person off the client's own form (hosted pages, links, form
// apps, progress) is in runtime/deliver. The gosdk and mcpgo adapters are
// built on it, and so may
// an adapter for another SDK (see the package example). Server code uses
// the runtime package and an adapter instead; the HTTP and stdio limits
// are in serve, the state errors and replay stores in seal.
package adapter
