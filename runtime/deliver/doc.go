// Package deliver is how a question reaches a person off the client's own
// form: the choice of a question's rendering from the client's declared
// capabilities and its known limits (ChooseRendering, ClientProfiles), a
// form asked through URL mode on the server's hosted page, the page's link
// in the tool result (LinkRequiredError, LinkText), the form rendered as an
// MCP App (AppCaps, AppMeta), progress sent while a person answers
// (KeepAlive) and the pages mounted beside an adapter's handler
// (WithPages). runtime/adapter, the exchange of one call, hands a question
// to a delivery; the gosdk and mcpgo adapters use the rest directly.
package deliver
