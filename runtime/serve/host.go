package serve

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// LoopbackHost reports whether host, a Host header or an address ("name",
// "name:port", "[::1]:port"), names the loopback interface: "localhost"
// or a loopback IP.
func LoopbackHost(host string) bool {
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

// Rebound reports whether r arrived on a loopback address with a Host
// header that is not a loopback name: a request a browser sends to a name
// an attacker re-pointed at 127.0.0.1 (DNS rebinding). The SDKs' MCP
// handlers refuse such requests; the adapters' HTTP handlers refuse them
// for every path they serve.
func Rebound(r *http.Request) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	return ok && local != nil && LoopbackHost(local.String()) && !LoopbackHost(r.Host)
}

// GuardHost wraps h with the Host and Origin rules of the adapters' MCP
// endpoint, for the hosted pages served beside it: a rebound request
// (Rebound) is answered 403, and so is a cross-origin request of an
// unsafe method (http.CrossOriginProtection: Sec-Fetch-Site, else Origin
// against Host). A page posts only to itself.
func GuardHost(h http.Handler) http.Handler {
	cop := http.NewCrossOriginProtection()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if Rebound(r) {
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
