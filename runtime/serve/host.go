package serve

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// loopbackHost reports whether host, a Host header or an address ("name",
// "name:port", "[::1]:port"), names the loopback interface: "localhost"
// or a loopback IP.
func loopbackHost(host string) bool {
	h, _, err := net.SplitHostPort(host)
	if err != nil {
		h = strings.Trim(host, "[]")
	}
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(h)
	return err == nil && ip.IsLoopback()
}

// rebound reports whether r arrived on a loopback address with a Host
// header that is not a loopback name: a request a browser sends to a name
// an attacker re-pointed at 127.0.0.1 (DNS rebinding). The SDKs' MCP
// handlers refuse such requests, and GuardHost does for the pages.
func rebound(r *http.Request) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	return ok && local != nil && loopbackHost(local.String()) && !loopbackHost(r.Host)
}

// GuardHost wraps h, the hosted pages served beside an MCP endpoint, with
// the Host rule of the SDKs' MCP handlers: a request that arrives on a
// loopback address with a Host header that is not a loopback name (DNS
// rebinding) is answered 403. A cross-origin request of an unsafe method
// is answered 403 too (http.CrossOriginProtection: Sec-Fetch-Site, else
// Origin against Host): a page posts only to itself. The adapters' HTTP
// handlers apply it to Options.Pages (deliver.WithPages).
func GuardHost(h http.Handler) http.Handler {
	cop := http.NewCrossOriginProtection()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rebound(r) {
			http.Error(w, "Forbidden: invalid Host header", http.StatusForbidden)
			return
		}
		if err := cop.Check(r); err != nil {
			http.Error(w, "Forbidden: cross-origin request", http.StatusForbidden)
			return
		}
		h.ServeHTTP(w, r)
	})
}
