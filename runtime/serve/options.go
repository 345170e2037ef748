package serve

import (
	"net/http"
	"time"
)

// HTTP defaults of the adapters' HTTP handlers and servers
// (gosdk.NewHTTPHandler, mcpgo.NewHTTPHandler and their NewHTTPServer and
// ListenAndServe). They are sized for an MCP server whose requests are
// tool calls and elicitation answers, exposed to clients it does not
// trust.
const (
	// DefaultMaxBodyBytes bounds a request body: 256 KiB. An elicitation
	// answer is a flat object of primitives (a few KiB at most), and a
	// tool call's arguments are written by a model within one turn's
	// output (tens of thousands of tokens, 100-200 KB of JSON at most).
	// go-sdk's decoding costs 4-10 times a body (a 2026-07-28 request is
	// read twice, its parameters decoded more than once), so 100
	// concurrent bodies at this limit peak at 120-150 MB of server memory,
	// where go-sdk's own 4 MiB default reached 1.4-4 GB. Raise it for
	// tools that take documents.
	DefaultMaxBodyBytes = 256 << 10
	// DefaultSessionTimeout closes a 2025-era session that has seen no
	// request for 10 minutes. A client whose session ended gets 404 and,
	// as the protocol requires, initializes a new one.
	DefaultSessionTimeout = 10 * time.Minute
	// DefaultMaxSessions bounds the 2025-era sessions held at once; an
	// initialize beyond it is answered 503 with Retry-After.
	DefaultMaxSessions = 1000
	// DefaultMaxSessionsPerClient bounds the 2025-era sessions of one
	// client (principal, else remote address): a tenth of
	// DefaultMaxSessions. A client at it that opens another loses its own
	// oldest idle session.
	DefaultMaxSessionsPerClient = 100
	// DefaultSessionLifetime closes a 2025-era session that long after
	// it opened, once it is idle, however often it is pinged.
	DefaultSessionLifetime = time.Hour
	// DefaultHeaderTimeout is the time allowed to read a request's
	// headers.
	DefaultHeaderTimeout = 10 * time.Second
	// DefaultBodyTimeout is the time allowed to read a request's body,
	// from the end of its headers.
	DefaultBodyTimeout = 30 * time.Second
	// DefaultWriteTimeout is the time allowed for each write of a
	// response to reach the client. It bounds a slow reader, not a
	// response: a 2025-era tool call may keep its event stream open
	// while a person answers, and writes nothing meanwhile.
	DefaultWriteTimeout = 30 * time.Second
	// DefaultIdleTimeout closes a keep-alive connection idle that long.
	DefaultIdleTimeout = 120 * time.Second
	// DefaultMaxHeaderBytes bounds the request line and headers.
	DefaultMaxHeaderBytes = 64 << 10
	// DefaultMaxConns bounds the connections served at once
	// (ListenAndServe); further ones wait in the listen backlog.
	DefaultMaxConns = 1024
	// DefaultMaxConnsPerClient bounds the connections of one remote host:
	// an eighth of DefaultMaxConns. Behind a reverse proxy every client
	// is the proxy: set it to -1 there and bound clients in the proxy.
	DefaultMaxConnsPerClient = 128
)

// Options bound what one client can hold of an HTTP MCP server. The
// zero value of a field means its default (the Default* constants); a
// negative value means no limit.
type Options struct {
	// MaxBodyBytes bounds a request body; a larger one is answered 413.
	MaxBodyBytes int64
	// SessionTimeout closes a 2025-era session idle that long (no
	// request in flight).
	SessionTimeout time.Duration
	// MaxSessions bounds the 2025-era sessions held at once. A full
	// table closes the oldest idle session of the client holding the
	// most, rather than refusing a newcomer.
	MaxSessions int
	// MaxSessionsPerClient bounds the 2025-era sessions of one client
	// (ClientKey).
	MaxSessionsPerClient int
	// SessionLifetime bounds a 2025-era session's life; pings do not
	// extend it.
	SessionLifetime time.Duration
	// ClientKey names the client of a request for its budgets; nil means
	// the adapter's default (the authenticated user where there is one,
	// else the remote address's host).
	ClientKey func(*http.Request) string
	// HeaderTimeout is http.Server.ReadHeaderTimeout.
	HeaderTimeout time.Duration
	// BodyTimeout is the time allowed to read a request's body; the
	// deadline is lifted once the body is read, so a long response is
	// not cut.
	BodyTimeout time.Duration
	// WriteTimeout is the time allowed for each write of a response (not
	// for the whole response).
	WriteTimeout time.Duration
	// IdleTimeout is http.Server.IdleTimeout.
	IdleTimeout time.Duration
	// MaxHeaderBytes is http.Server.MaxHeaderBytes.
	MaxHeaderBytes int
	// MaxConns bounds the connections ListenAndServe serves at once;
	// when they are all taken, the oldest idle keep-alive connection of
	// the host holding the most is closed early.
	MaxConns int
	// MaxConnsPerClient bounds the connections of one remote host.
	MaxConnsPerClient int
	// Pages, when set, is served by the adapters' HTTP handlers for
	// every request whose path starts with PagesPath: the hosted form
	// pages (a *page.Pages from runtime/page, the same value as the
	// adapter Config's Pages). Mount the handler on your mux at PagesPath
	// too (ListenAndServe does). The pages keep their own limits
	// (page.Config.MaxBody).
	Pages http.Handler
	// PagesPath is the path of the pages' BaseURL, ending in "/"
	// ("/elicit/").
	PagesPath string
	// Tasks, when set, wraps the adapters' MCP handler inside these
	// limits: the front of the MCP Tasks extension (a tasks.Server's
	// Front, from runtime/tasks), which answers tasks/* and turns the
	// asking tool calls of clients that declare the extension into
	// tasks.
	Tasks func(http.Handler) http.Handler
}

// Resolved returns o with every zero field set to its default (a nil o
// gives all the defaults) and every negative one set to 0, meaning no
// limit.
func (o *Options) Resolved() Options {
	var r Options
	if o != nil {
		r = *o
	}
	r.MaxBodyBytes = pick(r.MaxBodyBytes, DefaultMaxBodyBytes)
	r.SessionTimeout = pick(r.SessionTimeout, DefaultSessionTimeout)
	r.MaxSessions = pick(r.MaxSessions, DefaultMaxSessions)
	r.MaxSessionsPerClient = pick(r.MaxSessionsPerClient, DefaultMaxSessionsPerClient)
	r.SessionLifetime = pick(r.SessionLifetime, DefaultSessionLifetime)
	r.HeaderTimeout = pick(r.HeaderTimeout, DefaultHeaderTimeout)
	r.BodyTimeout = pick(r.BodyTimeout, DefaultBodyTimeout)
	r.WriteTimeout = pick(r.WriteTimeout, DefaultWriteTimeout)
	r.IdleTimeout = pick(r.IdleTimeout, DefaultIdleTimeout)
	r.MaxHeaderBytes = pick(r.MaxHeaderBytes, DefaultMaxHeaderBytes)
	r.MaxConns = pick(r.MaxConns, DefaultMaxConns)
	r.MaxConnsPerClient = pick(r.MaxConnsPerClient, DefaultMaxConnsPerClient)
	return r
}

func pick[T int | int64 | time.Duration](v, def T) T {
	switch {
	case v == 0:
		return def
	case v < 0:
		return 0
	}
	return v
}

// Bounds of a stdio line (the adapters' ServeStdio; adapter.LineFilter).
const (
	// DefaultMaxLineBytes bounds one line of a stdio transport: 4 MiB. A
	// stdio client is a local process, trusted more than an HTTP one, but
	// one line never holds more than that in memory.
	DefaultMaxLineBytes = 4 << 20
	// MaxLineDepth bounds the nesting of a line's JSON: MCP messages are
	// shallow, and some decoders recurse once per level.
	MaxLineDepth = 256
)
