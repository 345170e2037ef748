// Package adapter is the plumbing that connects the runtime to an MCP SDK:
// client capabilities per protocol era, the exchange of one tool call with
// its sealed request state, and the replies a tool wrapper turns into
// results or JSON-RPC errors. The gosdk and mcpgo adapters are built on
// it, and so may an adapter for another SDK. Server code uses the runtime
// package and an adapter instead.
package adapter
