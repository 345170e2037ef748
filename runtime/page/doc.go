// Package page serves a form as a hosted HTML page, for the people whose
// MCP client cannot show it: a client without elicitation (the tool
// result carries the link), a client with URL mode only (the URL-mode
// request opens the page), or a form the client cannot fill in.
//
// A page is one question. Pages.Issue stores the question (its schema as
// asked, translated for the person, and its message) in a Store and
// returns a Link whose URL holds a sealed, single-use token bound to the
// call: the tool, the digest of its arguments, the principal and an
// expiry. The Pages value is an http.Handler: mount it on any mux under
// the prefix of Config.BaseURL. A GET shows the form, with inputs named
// after the schema's properties, so a plain HTML form post is the answer;
// a POST checks the answer with the validator the runtime uses for an MCP
// answer (runtime.Schema.CheckAnswer) and either shows the form again,
// each error beside its field, or records the answer once. The MCP side
// then takes it, once, with Pages.Take (or Pages.Find and Take when the
// same call comes again).
//
// The page trusts nobody's word for who is answering: Config.Identity
// names the person of an HTTP request (an identity-aware proxy's header,
// a session cookie), the same source the MCP side takes the principal
// from, and a page is shown, and its answer counted, only when that
// person is the call's principal. Without Identity, Config.LinkOnly must
// be set, and then anyone holding the link can answer, the model
// included.
//
// Hardening: answers only by POST with a CSRF token (a sealed token tied
// to the page, double-submitted in a SameSite=Strict cookie scoped to the
// page's path); a Content-Security-Policy without script and with
// frame-ancestors 'none'; X-Content-Type-Options, Referrer-Policy
// no-referrer and Cache-Control no-store on every response; limits on the
// body and on each value; html/template escaping; no redirect at all.
package page
