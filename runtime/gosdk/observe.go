package gosdk

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/runtime/adapter"
)

// observeCall completes call.Origin for Config.Observer: the session id
// and the client's name and version (from initialize, or the request's
// _meta on 2026-07-28). Without an Observer it does nothing.
func (c *Config) observeCall(req mcp.Request, call *adapter.Call) {
	if c.Observer == nil {
		return
	}
	var info *mcp.Implementation
	switch r := req.(type) {
	case *mcp.CallToolRequest:
		info = r.ClientInfo()
	case *mcp.GetPromptRequest:
		info = r.ClientInfo()
	}
	if info != nil {
		call.Origin.ClientName, call.Origin.ClientVersion = info.Name, info.Version
	}
	if ss, ok := req.GetSession().(*mcp.ServerSession); ok && ss != nil {
		call.Origin.Session = ss.ID()
	}
}
