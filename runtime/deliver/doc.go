// Package deliver is how a question reaches a person off the client's own
// form. Each way is one Delivery, in one file: URLPage (a form asked
// through URL mode on the server's hosted page), Link (the page's link in
// the tool result) and FlowLink (a URL flow's own link in the tool result,
// for a client without URL mode). Routes chooses among them for the
// questions of one call (ChooseRendering, from the client's declared
// capabilities and its known limits, ClientProfiles) and keeps the links
// the tool result carries (LinkText). The rest serves the SDK adapters:
// the form rendered as an MCP App (AppCaps, AppMeta), progress while a
// person answers (KeepAlive), the pages mounted beside an adapter's
// handler (WithPages), and a handler's URL-mode requirement (RequireURL,
// PageURL). runtime/adapter, the exchange of one call, hands a question to
// its delivery.
package deliver
