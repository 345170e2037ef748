package deliver

import (
	"net/http"
	"strings"

	"github.com/elicitgen/elicitgen/runtime/serve"
)

// WithPages returns h serving also the hosted form pages of opts
// (serve.Options.Pages) at every path under opts.PagesPath; h itself when
// opts has no pages. The pages get the Host and Origin rules of the MCP
// endpoint (serve.GuardHost) and its body, header and write bounds
// (serve.LimitHandler under opts, resolved). The SDK adapters'
// NewHTTPHandler call it.
func WithPages(h http.Handler, opts serve.Options) http.Handler {
	if opts.Pages == nil {
		return h
	}
	prefix := opts.PagesPath
	if prefix == "" || !strings.HasPrefix(prefix, "/") || !strings.HasSuffix(prefix, "/") {
		panic("elicit: serve.Options.PagesPath must start and end with \"/\" (the path of page.Config.BaseURL)")
	}
	pages := serve.LimitHandler(serve.GuardHost(opts.Pages), opts)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, prefix) {
			pages.ServeHTTP(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
}
