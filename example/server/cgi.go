package main

import (
	"net"
	"net/http/cgi"
	"net/url"

	"github.com/elicitgen/elicitgen/example/app"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/serve"
)

// serveCGI serves the one request of a CGI invocation (--cgi): the shape
// of a function behind a gateway that starts a process per request and
// forwards only tools/call. Only 2026-07-28 requests can be served so:
// everything a call needs rides in the request (requestState) or in the
// shared stores (ELICIT_REPLAY_STORE's Redis for spent states and the
// pages' answers), and every instance needs the same ELICIT_STATE_KEYS.
// Pages need ELICIT_PAGE_BASE_URL (there is no listen address), and
// ELICIT_TRUSTED_USER_HEADER unless that URL is on a loopback host.
func serveCGI(opts app.Options, pages bool, pageStore page.Store, lim *serve.Options) error {
	if pages {
		base := getenvOr(PageBaseURLEnv, "")
		if base == "" {
			return errorf("--cgi --pages needs %s: a CGI process has no listen address", PageBaseURLEnv)
		}
		u, err := url.Parse(base)
		if err != nil {
			return errorf("%s: %v", PageBaseURLEnv, err)
		}
		ip := net.ParseIP(u.Hostname())
		loopback := u.Hostname() == "localhost" || ip != nil && ip.IsLoopback()
		p, _, err := newPages(opts.Keys, pageStore, nil, loopback, opts.Identity, false, opts.Receipts)
		if err != nil {
			return err
		}
		opts.Pages = p
		o := *lim
		o.Pages, o.PagesPath = p, PagesPath
		lim = &o
	}
	s := app.NewServer(opts)
	s.AddReceivingMiddleware(logRequests)
	return cgi.Serve(app.HTTPHandlerWith(s, lim))
}
