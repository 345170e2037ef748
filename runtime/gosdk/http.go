package gosdk

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"sync"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/deliver"
	"github.com/elicitgen/elicitgen/runtime/internal/sessions"
	"github.com/elicitgen/elicitgen/runtime/serve"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ErrClientGone is the cause of a request context that ended because its
// client is gone: a 2025-era client dropped the HTTP request of its call
// (the answer could never reach it) or ended its session (DELETE). An
// ask waiting for that client returns the context's error.
var ErrClientGone = errors.New("gosdk: the client is gone: its HTTP request or session ended")

// NewHTTPHandler returns the handler that serves s over streamable HTTP
// for every protocol era at one URL, bounded by opts (nil: the
// serve.Default* values, see serve.Options):
//
//   - a request of the 2026-07-28 era goes to go-sdk's stateless handler
//     (its questions ride in input_required results), any other to the
//     stateful one (2025-06-18 and 2025-11-25 clients initialize a
//     session and are asked by a pushed elicitation/create). go-sdk
//     serves 2026-07-28 only statelessly and can push only on a session,
//     so one URL needs both. A request's era is its MCP-Protocol-Version
//     header; without one, a request with an Mcp-Session-Id is stateful,
//     and a POST's body decides: _meta naming a 2026-07-28 or later
//     protocolVersion is stateless, anything else (initialize, a batch)
//     stateful.
//   - Sessions idle for opts.SessionTimeout are closed, and so are idle
//     sessions older than opts.SessionLifetime (pings do not extend it).
//     One client (opts.ClientKey) holds at most opts.MaxSessionsPerClient
//     and all at most opts.MaxSessions: a client at its budget loses its
//     own oldest idle session to a new one, and a full table sheds the
//     oldest idle session of the client holding the most; only when every
//     session has a call in flight is an initialize answered 503 with
//     Retry-After.
//   - A body beyond opts.MaxBodyBytes is answered 413; it must arrive
//     within opts.BodyTimeout, and each write of a response within
//     opts.WriteTimeout.
//   - A call whose client is gone ends: when a 2025-era client drops the
//     HTTP request of a call, or ends its session, the call's context is
//     cancelled (cause ErrClientGone), so an ask waiting in
//     elicitation/create returns instead of holding the session. For
//     this, NewHTTPHandler adds a receiving middleware to s. A 2026-07-28
//     call's context ends with its HTTP request.
//
// Mount it at your MCP path (ListenAndServe mounts it at /mcp) and serve
// it with an *http.Server from NewHTTPServer. With opts.Pages it also
// serves the hosted form pages under opts.PagesPath (requests there never
// reach the MCP handler): mount it there too, and they get the same Host
// rule and body and write bounds (deliver.WithPages). Like go-sdk's
// handlers, it rejects requests whose Host header is not a loopback name
// when they arrive on a loopback address (DNS-rebinding protection).
func NewHTTPHandler(s *mcp.Server, opts *serve.Options) http.Handler {
	o := opts.Resolved()
	h := &eraRouter{server: s, opts: o, calls: map[string]*liveCall{}, sessions: newSessionTable(o)}
	s.AddReceivingMiddleware(h.bind)
	get := func(*http.Request) *mcp.Server { return s }
	limit := o.MaxBodyBytes
	if limit == 0 {
		limit = -1 // go-sdk: no limit
	}
	h.stateful = mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{
		SessionTimeout:      o.SessionTimeout,
		MaxRequestBodyBytes: limit,
	})
	h.stateless = mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{
		Stateless:                    true,
		MaxRequestBodyBytes:          limit,
		PropagateRequestCancellation: true,
	})
	// go-sdk decodes 2026-07-28 answers case-insensitively: their keys
	// are read exactly first.
	inner := adapter.ExactAnswersHTTP(h, o.MaxBodyBytes)
	if o.Tasks != nil {
		inner = o.Tasks(inner) // tasks/* and task-creating calls, inside the limits
	}
	return deliver.WithPages(serve.LimitHandler(inner, o), o)
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
// requests in flight). Put TLS and authentication in front of it, or
// build your own server from NewHTTPHandler.
func ListenAndServe(ctx context.Context, addr string, s *mcp.Server, opts *serve.Options) error {
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

// callKey is the request header under which the router names the HTTP
// request a JSON-RPC call arrived on. It holds a space, so no client can
// send it: net/http refuses such a header name.
const callKey = "Elicitgen call"

// eraRouter is NewHTTPHandler's handler.
type eraRouter struct {
	server              *mcp.Server
	opts                serve.Options
	stateful, stateless http.Handler

	sessions *sessionTable

	mu      sync.Mutex
	calls   map[string]*liveCall // callKey value -> the HTTP request it names
	opening int                  // sessions being created
}

// liveCall is one 2025-era POST in flight.
type liveCall struct {
	ctx     context.Context // ends with the request, or on the session's DELETE
	cancel  context.CancelCauseFunc
	session string
}

func (h *eraRouter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	client := h.clientKey(r)
	serve.SetClient(r, client) // for the replay store's budget per client (newExchange)
	if h.modern(r) {
		h.stateless.ServeHTTP(w, r)
		return
	}
	sid := r.Header.Get("Mcp-Session-Id")
	switch {
	case r.Method == http.MethodDelete && sid != "":
		h.endSession(sid)
	case r.Method == http.MethodPost && sid == "":
		if !h.openSession(client) {
			w.Header().Set("Retry-After", "30")
			http.Error(w, "too many sessions: try again later", http.StatusServiceUnavailable)
			return
		}
		var once sync.Once
		opened := func(sid string) { once.Do(func() { h.sessions.opened(sid, client); h.sessionOpened() }) }
		rec := &sessions.Recorder{ResponseWriter: w, OnID: opened} // counted before the client can send again
		defer func() { opened(rec.ID) }()
		w = rec
	case sid != "" && h.sessions.expired(sid) && !h.busy(sid):
		// Past its lifetime: closed, so that the client initializes anew.
		h.endSession(sid)
		go sessionByID(h.server, sid).Close()
		http.Error(w, "session expired", http.StatusNotFound)
		return
	}
	if r.Method == http.MethodPost {
		key, done := h.track(r, sid)
		defer done()
		r.Header[callKey] = []string{key}
	}
	h.stateful.ServeHTTP(w, r)
}

// modern reports whether r belongs to the 2026-07-28 era (see
// NewHTTPHandler). When it reads the body, it puts it back.
func (h *eraRouter) modern(r *http.Request) bool {
	if v := r.Header.Get("MCP-Protocol-Version"); v != "" {
		return runtime.EraOf(v).MultiRoundTrip()
	}
	if r.Header.Get("Mcp-Session-Id") != "" || r.Method != http.MethodPost || r.Body == nil || r.Body == http.NoBody {
		return false
	}
	body, err := serve.PeekBody(r, h.opts.MaxBodyBytes)
	if err != nil {
		return false
	}
	var msg struct {
		Method string `json:"method"`
		Params struct {
			Meta struct {
				Version string `json:"io.modelcontextprotocol/protocolVersion"`
			} `json:"_meta"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &msg) != nil || msg.Method == "initialize" || msg.Params.Meta.Version == "" {
		return false
	}
	return runtime.EraOf(msg.Params.Meta.Version).MultiRoundTrip()
}

// openSession reports whether a new session of client may be created
// (making room by the session budgets, see sessions.go), and counts it as
// being created if so.
func (h *eraRouter) openSession(client string) bool {
	if h.opts.MaxSessions <= 0 && h.opts.MaxSessionsPerClient <= 0 && h.opts.SessionLifetime <= 0 {
		return true
	}
	h.mu.Lock()
	opening := h.opening
	h.mu.Unlock()
	if !h.sessions.admit(h.server, client, h.busy, opening) {
		return false
	}
	h.mu.Lock()
	h.opening++
	h.mu.Unlock()
	return true
}

// busy reports whether session sid has a call in flight.
func (h *eraRouter) busy(sid string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, c := range h.calls {
		if c.session == sid {
			return true
		}
	}
	return false
}

func (h *eraRouter) clientKey(r *http.Request) string {
	if h.opts.ClientKey != nil {
		return h.opts.ClientKey(r)
	}
	return ClientOf(r)
}

func (h *eraRouter) sessionOpened() {
	h.mu.Lock()
	h.opening--
	h.mu.Unlock()
}

// track registers the POST r of session sid and returns its key and the
// function that forgets it.
func (h *eraRouter) track(r *http.Request, sid string) (string, func()) {
	key := rand.Text()
	ctx, cancel := context.WithCancelCause(r.Context())
	h.mu.Lock()
	h.calls[key] = &liveCall{ctx: ctx, cancel: cancel, session: sid}
	h.mu.Unlock()
	return key, func() {
		h.mu.Lock()
		delete(h.calls, key)
		h.mu.Unlock()
		cancel(ErrClientGone)
	}
}

// endSession ends the calls in flight of session sid, so that closing
// the session (which waits for them) does not wait for a client that
// ended it.
func (h *eraRouter) endSession(sid string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, c := range h.calls {
		if c.session == sid {
			c.cancel(ErrClientGone)
		}
	}
}

// bind is the receiving middleware that ties a call's context to the
// HTTP request it arrived on (see NewHTTPHandler).
func (h *eraRouter) bind(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		extra := req.GetExtra()
		if extra == nil || len(extra.Header[callKey]) != 1 {
			return next(ctx, method, req)
		}
		h.mu.Lock()
		c := h.calls[extra.Header[callKey][0]]
		h.mu.Unlock()
		if c == nil {
			return next(ctx, method, req)
		}
		ctx, cancel := context.WithCancelCause(ctx)
		defer cancel(nil)
		stop := context.AfterFunc(c.ctx, func() { cancel(ErrClientGone) })
		defer stop()
		return next(ctx, method, req)
	}
}
