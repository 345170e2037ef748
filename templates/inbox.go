package templates

import "embed"

// Inbox holds inbox.html, the html/template of an approver's inbox page
// (package runtime/page), styled by page.css.
//
//go:embed inbox.html
var Inbox embed.FS
