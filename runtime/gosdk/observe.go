package gosdk

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
)

// origin returns the Origin of a request with method and name (nil
// without an Observer); observeCall completes it.
func (c *Config) origin(ctx context.Context, method, name string) *adapter.Origin {
	if c.Observer == nil {
		return nil
	}
	return &adapter.Origin{Context: ctx, Method: method, Name: name}
}

// observeCall completes call.Origin for Config.Observer: the session id
// and the client's name and version (from the request's _meta on
// 2026-07-28, else from initialize). Without an Observer it does nothing.
func (c *Config) observeCall(req mcp.Request, call *adapter.Call) {
	if call.Origin == nil {
		return
	}
	ss, _ := req.GetSession().(*mcp.ServerSession)
	if runtime.EraOf(call.Version).MultiRoundTrip() {
		// Read from the decoded _meta: go-sdk's ClientInfo() decodes it
		// again through JSON, at many times the cost of the whole round.
		if m := req.GetParams().GetMeta(); m != nil {
			switch ci := m[adapter.MetaKeyClientInfo].(type) {
			case map[string]any:
				call.Origin.ClientName, _ = ci["name"].(string)
				call.Origin.ClientVersion, _ = ci["version"].(string)
			case *mcp.Implementation:
				call.Origin.ClientName, call.Origin.ClientVersion = ci.Name, ci.Version
			}
		}
		return
	}
	if ss == nil {
		return
	}
	call.Origin.Session = ss.ID()
	if p := ss.InitializeParams(); p != nil && p.ClientInfo != nil {
		call.Origin.ClientName, call.Origin.ClientVersion = p.ClientInfo.Name, p.ClientInfo.Version
	}
}

// clientInfo returns the client's name and version: from the request's
// _meta on 2026-07-28, else from initialize.
func clientInfo(req mcp.Request, version string) (name, ver string) {
	if runtime.EraOf(version).MultiRoundTrip() {
		if m := req.GetParams().GetMeta(); m != nil {
			switch ci := m[adapter.MetaKeyClientInfo].(type) {
			case map[string]any:
				name, _ = ci["name"].(string)
				ver, _ = ci["version"].(string)
			case *mcp.Implementation:
				name, ver = ci.Name, ci.Version
			}
		}
		return name, ver
	}
	if ss, _ := req.GetSession().(*mcp.ServerSession); ss != nil {
		if p := ss.InitializeParams(); p != nil && p.ClientInfo != nil {
			return p.ClientInfo.Name, p.ClientInfo.Version
		}
	}
	return "", ""
}
