package mcpgo

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/elicitgen/elicitgen/runtime/adapter"
)

// observeCall fills call.Origin for Config.Observer: the request's
// context, the session id and the client's name and version (from the
// request's _meta on 2026-07-28, else from initialize). Without an
// Observer it does nothing.
func (c *Config) observeCall(ctx context.Context, req mcp.CallToolRequest, call *adapter.Call) {
	if c.Observer == nil {
		return
	}
	call.Origin = &adapter.Origin{Context: ctx, Method: "tools/call", Name: req.Params.Name}
	var info *mcp.Implementation
	if p := server.RequestProtocolInfoFromContext(ctx); p != nil && p.ClientInfo != nil {
		info = p.ClientInfo
	}
	session := server.ClientSessionFromContext(ctx)
	if s, ok := session.(server.SessionWithClientInfo); ok && info == nil && !server.IsModernRequest(ctx) {
		ci := s.GetClientInfo()
		info = &ci
	}
	if info != nil {
		call.Origin.ClientName, call.Origin.ClientVersion = info.Name, info.Version
	}
	if session != nil && !server.IsModernRequest(ctx) {
		call.Origin.Session = session.SessionID()
	}
}
