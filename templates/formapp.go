package templates

import _ "embed"

// FormApp is formapp.html: the MCP App that renders any form of an
// elicitation/create request a host forwards to it (SEP-3118,
// app-rendered form elicitation), served by the adapters' form app
// resource.
//
//go:embed formapp.html
var FormApp string
