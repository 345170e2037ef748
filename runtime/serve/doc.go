// Package serve holds the limits an MCP server keeps when it serves
// clients it does not trust: the HTTP handlers' and servers' Options with
// their defaults, the listener that caps connections per client and
// bounds what a client that does not read may queue, and the stdio line
// bounds.
//
// The adapters' HTTP entry points (gosdk.NewHTTPHandler,
// gosdk.ListenAndServe and their mcpgo twins) take an *Options; this
// package's functions are for a server that mounts the handler in its
// own mux and runs its own http.Server:
//
//	opts := &serve.Options{MaxBodyBytes: 128 << 10}
//	srv := gosdk.NewHTTPServer(mux, opts)
//	log.Fatal(srv.Serve(serve.Listener(ln, opts.Resolved())))
package serve
