package mcpgo

import (
	"context"
	"net"
	"net/http"

	"github.com/mark3labs/mcp-go/server"

	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/deliver"
	"github.com/elicitgen/elicitgen/runtime/serve"
)

// NewHTTPHandler returns the handler that serves s over streamable HTTP
// for every protocol era at one URL (mcp-go's StreamableHTTPServer tells
// the eras apart itself), bounded by opts (nil: the serve.Default*
// values, see serve.Options), with more passed to
// server.NewStreamableHTTPServer after the handler's own:
//
//   - A body beyond opts.MaxBodyBytes is refused (413 when its
//     Content-Length says so; mcp-go answers a longer body without one
//     with a JSON-RPC parse error); it must arrive within
//     opts.BodyTimeout, and each write of a response within
//     opts.WriteTimeout.
//   - Every 2025-era initialize registers a session in mcp-go, held
//     until it is idle for opts.SessionTimeout (server.WithSessionIdleTTL)
//     or closed, and idle sessions older than opts.SessionLifetime are
//     closed (pings do not extend it). One client (opts.ClientKey; by
//     default the remote address's host, serve.RemoteClient) holds at most
//     opts.MaxSessionsPerClient and all at most opts.MaxSessions: a client
//     at its budget loses its own oldest idle session to a new one, and a
//     full table closes the oldest idle session of the client holding the
//     most; only when every session has a request in flight is an
//     initialize answered 503 with Retry-After. A closed session is ended
//     as by its DELETE, and its next request is answered 404 so that its
//     client initializes anew. A session id the handler never saw opened
//     (another instance's, with mcp-go's default stateless ids) is passed
//     on as it comes.
//   - A call's context ends with its HTTP request: a 2025-era client that
//     drops the request of a call while its form is open ends the ask.
//
// Mount it at your MCP path (ListenAndServe mounts it at /mcp) and serve
// it with an *http.Server from NewHTTPServer. With opts.Pages it also
// serves the hosted form pages under opts.PagesPath: mount it there too.
// The pages get the Host rule of mcp-go's handler (a request on a
// loopback address whose Host is not a loopback name is refused) and the
// same body and write bounds (deliver.WithPages).
func NewHTTPHandler(s *server.MCPServer, opts *serve.Options, more ...server.StreamableHTTPOption) http.Handler {
	o := opts.Resolved()
	var sopts []server.StreamableHTTPOption
	if o.SessionTimeout > 0 {
		sopts = append(sopts, server.WithSessionIdleTTL(o.SessionTimeout))
	}
	sopts = append(sopts, more...)
	var h http.Handler = server.NewStreamableHTTPServer(s, sopts...)
	h = clientKeyed(withSessionBudgets(h, o), o)
	// Answers are read with exact keys (adapter.ExactAnswersHTTP).
	inner := adapter.ExactAnswersHTTP(h, o.MaxBodyBytes)
	if o.Tasks != nil {
		inner = o.Tasks(inner) // tasks/* and task-creating calls, inside the limits
	}
	return deliver.WithPages(serve.LimitHandler(inner, o), o)
}

// clientKeyed records the client key of every request (serve.SetClient)
// for its session budget and the replay store's budget per client
// (NewAsker reads it).
func clientKeyed(h http.Handler, o serve.Options) http.Handler {
	key := o.ClientKey
	if key == nil {
		key = serve.RemoteClient
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		serve.SetClient(r, key(r))
		h.ServeHTTP(w, r)
	})
}

// NewHTTPServer returns an *http.Server for h (typically a mux holding
// NewHTTPHandler) with the connection bounds of opts (nil: the
// defaults): ReadHeaderTimeout, IdleTimeout and MaxHeaderBytes. It has no
// ReadTimeout or WriteTimeout, which would cut a 2025-era call waiting
// for a person; NewHTTPHandler bounds the body read and each write
// instead. Serve it on a listener from serve.Listener, which bounds
// the connections and their send buffers (ListenAndServe does).
func NewHTTPServer(h http.Handler, opts *serve.Options) *http.Server {
	return serve.NewHTTPServer(h, opts.Resolved())
}

// ListenAndServe serves s at http://addr/mcp for every protocol era
// (NewHTTPHandler, NewHTTPServer), at most opts.MaxConns connections at
// once, until ctx ends; it then shuts down gracefully (5 seconds for the
// requests in flight).
func ListenAndServe(ctx context.Context, addr string, s *server.MCPServer, opts *serve.Options) error {
	o := opts.Resolved()
	mux := http.NewServeMux()
	h := NewHTTPHandler(s, &o)
	mux.Handle("/mcp", h)
	if o.Pages != nil {
		mux.Handle(o.PagesPath, h)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	return serve.Serve(ctx, serve.NewHTTPServer(mux, o), ln, o)
}
