package gosdk

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/runtime"
)

// language returns the language preference of req: Config.Locale's, else
// the request's SEP-2792 acceptLanguage.
func (c *Config) language(ctx context.Context, req mcp.Request) string {
	if c.Locale != nil {
		if l := c.Locale(ctx, req); l != "" {
			return l
		}
	}
	return AcceptLanguage(req)
}

// AcceptLanguage returns the user's language preference that req carries
// in params._meta["io.modelcontextprotocol/acceptLanguage"], an
// Accept-Language value such as "ja-JP, en;q=0.5", as SEP-2792
// (https://github.com/modelcontextprotocol/modelcontextprotocol/pull/2792)
// proposes; "" when there is none. It is the default of Config.Locale.
func AcceptLanguage(req mcp.Request) string {
	if req == nil {
		return ""
	}
	p := req.GetParams()
	if p == nil {
		return ""
	}
	s, _ := p.GetMeta()[runtime.MetaKeyAcceptLanguage].(string)
	return s
}
