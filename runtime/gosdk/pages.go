package gosdk

import (
	"context"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// IdentityPrincipal returns a Config.Principal that names the person of a
// tool call with identity, the Identity of the server's hosted pages
// (page.Config.Identity), applied to the headers of the HTTP request the
// call arrived on: one source for the principal the call is bound to and
// for the person a page admits. A call without HTTP headers (stdio), or
// whose headers name nobody, has no principal; its pages then refuse to
// be issued (Identity admits only the call's principal), so the question
// fails closed.
func IdentityPrincipal(identity func(*http.Request) (string, bool)) func(ctx context.Context, req *mcp.CallToolRequest) string {
	return func(ctx context.Context, req *mcp.CallToolRequest) string {
		return headerIdentity(ctx, identity, req.Extra)
	}
}

// IdentityPromptPrincipal is IdentityPrincipal for Config.PromptPrincipal.
func IdentityPromptPrincipal(identity func(*http.Request) (string, bool)) func(ctx context.Context, req *mcp.GetPromptRequest) string {
	return func(ctx context.Context, req *mcp.GetPromptRequest) string {
		return headerIdentity(ctx, identity, req.Extra)
	}
}

func headerIdentity(ctx context.Context, identity func(*http.Request) (string, bool), extra *mcp.RequestExtra) string {
	if identity == nil || extra == nil || extra.Header == nil {
		return ""
	}
	r, err := http.NewRequestWithContext(ctx, http.MethodPost, "/", http.NoBody)
	if err != nil {
		return ""
	}
	r.Header = extra.Header.Clone()
	who, ok := identity(r)
	if !ok {
		return ""
	}
	return who
}
