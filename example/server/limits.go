package main

import (
	"flag"
	"net"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/example/app"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/seal"
	"github.com/elicitgen/elicitgen/runtime/serve"
)

// httpFlags defines the flags that bound what one client can hold of the
// HTTP server, defaulting to the library's production values
// (serve.Options); a negative value means no limit.
func httpFlags(fs *flag.FlagSet) *serve.Options {
	o := (*serve.Options)(nil).Resolved()
	fs.DurationVar(&o.HeaderTimeout, "header-timeout", o.HeaderTimeout, "time allowed to read a request's headers")
	fs.DurationVar(&o.BodyTimeout, "body-timeout", o.BodyTimeout, "time allowed to read a request's body")
	fs.DurationVar(&o.WriteTimeout, "write-timeout", o.WriteTimeout, "time allowed for each write of a response to reach the client")
	fs.DurationVar(&o.IdleTimeout, "idle-timeout", o.IdleTimeout, "time an idle keep-alive connection stays open")
	fs.DurationVar(&o.SessionTimeout, "session-timeout", o.SessionTimeout, "time an idle 2025-era session stays open")
	fs.IntVar(&o.MaxSessions, "max-sessions", o.MaxSessions, "2025-era sessions held at once")
	fs.IntVar(&o.MaxSessionsPerClient, "max-sessions-per-client", o.MaxSessionsPerClient, "2025-era sessions one client (remote address) holds at once")
	fs.DurationVar(&o.SessionLifetime, "session-lifetime", o.SessionLifetime, "longest life of a 2025-era session, pings or not")
	fs.Int64Var(&o.MaxBodyBytes, "max-body-bytes", o.MaxBodyBytes, "largest request body accepted")
	fs.IntVar(&o.MaxHeaderBytes, "max-header-bytes", o.MaxHeaderBytes, "largest request header block accepted")
	fs.IntVar(&o.MaxConns, "max-conns", o.MaxConns, "connections served at once")
	fs.IntVar(&o.MaxConnsPerClient, "max-conns-per-client", o.MaxConnsPerClient, "connections one remote host holds at once")
	return &o
}

// replayLimits bound the in-memory replay store (ELICIT_REPLAY_STORE
// empty or memory): its total of unexpired claims and the claims of one
// client (the person where there is one, else the remote address).
type replayLimits struct{ limit, perClient int }

// replayFlags defines the flags of the in-memory replay store's bounds,
// defaulting to the library's (seal.DefaultReplayLimit,
// seal.DefaultReplayPerClient); a negative per-client value means no
// budget per client.
func replayFlags(fs *flag.FlagSet) *replayLimits {
	r := &replayLimits{limit: seal.DefaultReplayLimit, perClient: seal.DefaultReplayPerClient}
	fs.IntVar(&r.limit, "replay-limit", r.limit, "unexpired replay claims the in-memory store holds")
	fs.IntVar(&r.perClient, "replay-per-client", r.perClient, "unexpired replay claims of one client (person, else remote address) in the in-memory store")
	return r
}

// store returns the in-memory replay store of r.
func (r *replayLimits) store() *seal.MemoryReplayStore {
	m := seal.NewMemoryReplayStore(r.limit)
	m.SetPerClient(r.perClient)
	return m
}

// newHTTPServer returns the HTTP server of s under o: the example's
// handler (every era at /mcp) and the library's server settings.
func newHTTPServer(s *mcp.Server, o *serve.Options) *http.Server {
	return gosdk.NewHTTPServer(app.HTTPHandlerWith(s, o), o)
}

// limitListener returns a listener that accepts at most n connections
// at once from ln.
func limitListener(ln net.Listener, n int) net.Listener { return serve.LimitListener(ln, n) }
