package mcpgo

import (
	"context"
	"net/http"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// IdentityPrincipal returns a Config.Principal that names the person of a
// tool call with identity, the Identity of the server's hosted pages
// (page.Config.Identity), applied to the headers of the HTTP request the
// call arrived on: one source for the principal the call is bound to and
// for the person a page admits. A call without HTTP headers (stdio), or
// whose headers name nobody, has no principal; its pages then refuse to
// be issued, so the question fails closed.
func IdentityPrincipal(identity func(*http.Request) (string, bool)) func(ctx context.Context, req mcp.CallToolRequest) string {
	return func(ctx context.Context, req mcp.CallToolRequest) string {
		if identity == nil || req.Header == nil {
			return ""
		}
		r, err := http.NewRequestWithContext(ctx, http.MethodPost, "/", http.NoBody)
		if err != nil {
			return ""
		}
		r.Header = req.Header.Clone()
		who, ok := identity(r)
		if !ok {
			return ""
		}
		return who
	}
}

// clientInfo returns the client's name and version: from the request's
// _meta on 2026-07-28, else from initialize.
func clientInfo(ctx context.Context) (name, version string) {
	if p := server.RequestProtocolInfoFromContext(ctx); p != nil && p.ClientInfo != nil {
		return p.ClientInfo.Name, p.ClientInfo.Version
	}
	if s, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo); ok && !server.IsModernRequest(ctx) {
		ci := s.GetClientInfo()
		return ci.Name, ci.Version
	}
	return "", ""
}
