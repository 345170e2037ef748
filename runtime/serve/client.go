package serve

import (
	"net"
	"net/http"
)

// ClientHeader is the request header under which the adapters' HTTP
// handlers pass the client key of a request (Options.ClientKey) on to
// their tool handlers, where the replay store's budget per client counts
// it (adapter.Call.Client). Its name holds a space, so no client can send
// it: net/http refuses such a header name, and SetClient overwrites it
// anyway.
const ClientHeader = "Elicitgen client"

// SetClient records key as the client of r (ClientHeader), replacing
// whatever r held there.
func SetClient(r *http.Request, key string) {
	if r.Header == nil {
		r.Header = http.Header{}
	}
	r.Header[ClientHeader] = []string{key}
}

// ClientFrom returns the client key SetClient recorded in h (an SDK's
// copy of a request's header), or "" when there is none (stdio, or a
// handler not served through the adapters' NewHTTPHandler).
func ClientFrom(h http.Header) string {
	if v := h[ClientHeader]; len(v) == 1 {
		return v[0]
	}
	return ""
}

// RemoteClient names the client of r by the host of its remote address
// ("addr:" and the host): the default client key where a request carries
// no authenticated user.
func RemoteClient(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	return "addr:" + host
}
