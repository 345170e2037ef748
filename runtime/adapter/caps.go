package adapter

import (
	"encoding/json"
	"fmt"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/deliver"
)

// MetaKeyClientCapabilities is the _meta key under which a 2026-07-28
// request carries the client's capabilities.
const MetaKeyClientCapabilities = "io.modelcontextprotocol/clientCapabilities"

// MetaKeyProtocolVersion is the _meta key under which a 2026-07-28
// request carries its protocol version.
const MetaKeyProtocolVersion = "io.modelcontextprotocol/protocolVersion"

// ClientCaps are the elicitation modes a client declared for one request.
type ClientCaps struct {
	// Form: the client renders form-mode requests.
	Form bool
	// URL: the client opens URL-mode requests (2025-11-25 and later).
	URL bool
	// App: the client also renders a form request with the MCP App its
	// _meta.ui.resourceUri names (SEP-3118; see deliver.AppCaps). Only with Form.
	App bool
}

// Allows reports whether the client declared mode m.
func (c ClientCaps) Allows(m runtime.Mode) bool {
	if m == runtime.ModeURL {
		return c.URL
	}
	return c.Form
}

// ParseClientCaps reads the elicitation modes from a client capabilities
// object (the JSON of ClientCapabilities: from initialize on 2025-era
// connections, from _meta["io.modelcontextprotocol/clientCapabilities"]
// on 2026-07-28 requests), following the rules of version:
//
//   - no "elicitation" member (or null): nothing;
//   - 2025-06-18: any "elicitation" object means form mode (URL mode does
//     not exist in that version);
//   - 2025-11-25 and later: "form" and "url" members name the modes; an
//     object with neither ({}) means form only.
//
// Unknown members are ignored. capabilities may be JSON ([]byte,
// json.RawMessage, string), a decoded JSON object (map[string]any), nil,
// or any value that marshals to the capabilities object (an SDK type).
func ParseClientCaps(version string, capabilities any) (ClientCaps, error) {
	var raw []byte
	switch c := capabilities.(type) {
	case nil:
		return ClientCaps{}, nil
	case map[string]any:
		return capsFromMap(version, c), nil
	case []byte:
		raw = c
	case json.RawMessage:
		raw = c
	case string:
		raw = []byte(c)
	default:
		b, err := json.Marshal(c)
		if err != nil {
			return ClientCaps{}, fmt.Errorf("elicit: client capabilities: %w", err)
		}
		raw = b
	}
	if len(raw) == 0 || string(raw) == "null" {
		return ClientCaps{}, nil
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return ClientCaps{}, fmt.Errorf("elicit: client capabilities: %w", err)
	}
	return capsFromMap(version, m), nil
}

func capsFromMap(version string, m map[string]any) ClientCaps {
	e, ok := m["elicitation"].(map[string]any)
	if !ok {
		return ClientCaps{}
	}
	if !runtime.EraOf(version).ModeMembers() {
		return ClientCaps{Form: true}
	}
	caps := ClientCaps{Form: e["form"] != nil, URL: e["url"] != nil}
	if !caps.Form && !caps.URL {
		caps.Form = true
	}
	ext, _ := m["extensions"].(map[string]any)
	caps.App = caps.Form && deliver.AppCaps(ext)
	return caps
}
