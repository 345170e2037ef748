package serve

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"syscall"
	"time"
)

// LimitHandler wraps h with the per-request bounds of o (resolved): the
// body limit (413 beyond it), the body read deadline (lifted once the
// body is read) and the per-write deadline.
func LimitHandler(h http.Handler, o Options) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		if o.WriteTimeout > 0 {
			dw := &deadlineWriter{ResponseWriter: w, rc: rc, d: o.WriteTimeout}
			dw.arm()
			defer dw.arm() // net/http flushes the rest after the handler returns
			w = dw
		}
		if r.Body != nil && r.Body != http.NoBody {
			if o.MaxBodyBytes > 0 {
				if r.ContentLength > o.MaxBodyBytes {
					http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
					return
				}
				r.Body = http.MaxBytesReader(w, r.Body, o.MaxBodyBytes)
			}
			if o.BodyTimeout > 0 && rc.SetReadDeadline(time.Now().Add(o.BodyTimeout)) == nil {
				r.Body = &liftOnEOF{ReadCloser: r.Body, lift: func() { _ = rc.SetReadDeadline(time.Time{}) }}
			}
		}
		h.ServeHTTP(w, r)
	})
}

// deadlineWriter gives each write of a response d to reach the client:
// a reader too slow for that has its connection closed, while a stream
// that writes nothing for a long time is left open.
type deadlineWriter struct {
	http.ResponseWriter
	rc *http.ResponseController
	d  time.Duration
}

func (w *deadlineWriter) arm() { _ = w.rc.SetWriteDeadline(time.Now().Add(w.d)) }

// WriteHeader implements http.ResponseWriter.
func (w *deadlineWriter) WriteHeader(code int) {
	w.arm()
	w.ResponseWriter.WriteHeader(code)
}

// Write implements http.ResponseWriter.
func (w *deadlineWriter) Write(p []byte) (int, error) {
	w.arm()
	return w.ResponseWriter.Write(p)
}

// FlushError flushes buffered data to the client (http.ResponseController).
func (w *deadlineWriter) FlushError() error {
	w.arm()
	return w.rc.Flush()
}

// Flush implements http.Flusher.
func (w *deadlineWriter) Flush() { _ = w.FlushError() }

// Unwrap returns the wrapped writer (http.ResponseController).
func (w *deadlineWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// liftOnEOF calls lift once, when the body has been read to its end.
type liftOnEOF struct {
	io.ReadCloser
	once sync.Once
	lift func()
}

func (b *liftOnEOF) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if errors.Is(err, io.EOF) {
		b.once.Do(b.lift)
	}
	return n, err
}

// NewHTTPServer returns an *http.Server for h with the connection bounds
// of o (resolved): ReadHeaderTimeout, IdleTimeout and MaxHeaderBytes. It
// sets no ReadTimeout or WriteTimeout: those would cut a long response
// (LimitHandler bounds the body read and each write instead).
func NewHTTPServer(h http.Handler, o Options) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: o.HeaderTimeout,
		IdleTimeout:       o.IdleTimeout,
		MaxHeaderBytes:    o.MaxHeaderBytes,
		ConnState:         connState,
	}
}

// Serve serves srv on ln (wrapped by Listener under o) until ctx ends; it
// then shuts srv down, giving requests in flight 5 seconds before their
// connections are closed.
func Serve(ctx context.Context, srv *http.Server, ln net.Listener, o Options) error {
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(Listener(ln, o)) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		_ = srv.Close()
		if !errors.Is(err, context.DeadlineExceeded) {
			return err
		}
	}
	return nil
}

// SendBuffer is the kernel send buffer Listener gives each TCP
// connection. Without a bound, the kernel grows it to megabytes and a
// whole response fits in it: a client that reads a byte at a time then
// holds its connection with no write ever blocking, so no write deadline
// can cut it. 256 KiB still moves 2.5 MB/s per connection at 100 ms of
// round trip, far more than MCP messages need.
const SendBuffer = 256 << 10

// Listener returns ln bounded by o: at most o.MaxConns connections at
// once and o.MaxConnsPerClient of one remote host, idle keep-alive
// connections closed early when slots run short
// (LimitListenerPerClient), and, when o.WriteTimeout is set, a send buffer of
// SendBuffer bytes per TCP connection.
func Listener(ln net.Listener, o Options) net.Listener {
	if o.WriteTimeout > 0 {
		ln = sendBufferListener{ln}
	}
	return LimitListenerPerClient(ln, o.MaxConns, o.MaxConnsPerClient)
}

type sendBufferListener struct{ net.Listener }

func (l sendBufferListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetWriteBuffer(SendBuffer)
		if rc, err := tc.SyscallConn(); err == nil {
			return &queuedConn{TCPConn: tc, raw: rc}, nil
		}
	}
	return c, err
}

// MaxQueuedBytes bounds, in bytes, what a connection may have written
// that its client has not acknowledged (the kernel's send queue, where
// the system reports it). Small pipelined responses to a client that
// never reads all fit the send buffer, so no write blocks and no write
// deadline fires; a write finding this much still queued closes the
// connection instead.
const MaxQueuedBytes = SendBuffer / 2

// queuedConn closes a connection whose client does not read: see
// MaxQueuedBytes.
type queuedConn struct {
	*net.TCPConn
	raw syscall.RawConn
}

// ErrNotReading is the error of a write to a connection whose client has
// left MaxQueuedBytes unread.
var ErrNotReading = errors.New("elicit: the client is not reading its responses: connection closed")

func (c *queuedConn) Write(p []byte) (int, error) {
	if n, ok := sendQueue(c.raw); ok && n > MaxQueuedBytes {
		c.TCPConn.Close()
		return 0, ErrNotReading
	}
	return c.TCPConn.Write(p)
}

// LimitListener returns a listener that accepts at most n connections at
// once from ln: Accept waits while n are open. n <= 0 means no limit.
func LimitListener(ln net.Listener, n int) net.Listener {
	return LimitListenerPerClient(ln, n, 0)
}

// LimitListenerPerClient is LimitListener with a budget per client too:
// one remote host holds at most perClient connections (<= 0: no budget);
// beyond it, its own oldest idle keep-alive connection is closed, or the
// new connection when none is idle. When all n slots are taken, the
// oldest idle keep-alive connection of the host holding the most is
// closed early, so that idle connections never lock newcomers out; a
// server from NewHTTPServer reports which connections are idle.
func LimitListenerPerClient(ln net.Listener, n, perClient int) net.Listener {
	if n <= 0 && perClient <= 0 {
		return ln
	}
	l := &limitedListener{Listener: ln, done: make(chan struct{}), perClient: perClient, conns: map[*limitedConn]struct{}{}}
	if n > 0 {
		l.sem = make(chan struct{}, n)
	}
	return l
}

type limitedListener struct {
	net.Listener
	sem       chan struct{} // nil: no total
	done      chan struct{}
	closeOnce sync.Once
	perClient int

	mu    sync.Mutex
	conns map[*limitedConn]struct{}
}

// Accept waits for a free slot (closing an idle connection early when
// none is free), then for a connection.
func (l *limitedListener) Accept() (net.Conn, error) {
	for {
		if l.sem != nil {
			select {
			case l.sem <- struct{}{}:
			default:
				l.shed("")
				select {
				case l.sem <- struct{}{}:
				case <-l.done:
					return nil, net.ErrClosed
				}
			}
		}
		c, err := l.Listener.Accept()
		if err != nil {
			if l.sem != nil {
				<-l.sem
			}
			return nil, err
		}
		host, _, _ := net.SplitHostPort(c.RemoteAddr().String())
		lc := &limitedConn{Conn: c, host: host}
		lc.release = func() {
			l.mu.Lock()
			delete(l.conns, lc)
			l.mu.Unlock()
			if l.sem != nil {
				<-l.sem
			}
		}
		if l.perClient > 0 && l.count(host) >= l.perClient && !l.shed(host) {
			lc.Close() // at its budget with nothing idle: refused
			continue
		}
		l.mu.Lock()
		l.conns[lc] = struct{}{}
		l.mu.Unlock()
		return lc, nil
	}
}

func (l *limitedListener) count(host string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for c := range l.conns {
		if c.host == host {
			n++
		}
	}
	return n
}

// shed closes the oldest idle connection of host ("": of the host holding
// the most connections that has an idle one) and reports whether it
// closed one.
func (l *limitedListener) shed(host string) bool {
	l.mu.Lock()
	if host == "" {
		count := map[string]int{}
		for c := range l.conns {
			count[c.host]++
		}
		best := -1
		for c := range l.conns {
			if c.idleSince() != (time.Time{}) && count[c.host] > best {
				host, best = c.host, count[c.host]
			}
		}
	}
	var victim *limitedConn
	for c := range l.conns {
		if since := c.idleSince(); c.host == host && since != (time.Time{}) && (victim == nil || since.Before(victim.idleSince())) {
			victim = c
		}
	}
	l.mu.Unlock()
	if victim == nil {
		return false
	}
	victim.Close()
	return true
}

// Close closes the listener and wakes a waiting Accept.
func (l *limitedListener) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// limitedConn frees its slot once, on Close.
type limitedConn struct {
	net.Conn
	host    string
	once    sync.Once
	release func()

	mu   sync.Mutex
	idle time.Time // since when the server has it idle; zero when busy
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

func (c *limitedConn) idleSince() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.idle
}

// connState is the http.Server.ConnState of NewHTTPServer: it tells a
// limitedConn whether the server has it idle (a keep-alive connection
// between requests).
func connState(c net.Conn, s http.ConnState) {
	lc, ok := c.(*limitedConn)
	if !ok {
		return
	}
	lc.mu.Lock()
	defer lc.mu.Unlock()
	if s == http.StateIdle {
		lc.idle = time.Now()
	} else {
		lc.idle = time.Time{}
	}
}

// PeekBody reads r's body, at most limit bytes (<= 0: no limit), into one
// buffer sized by Content-Length when the request states it, and puts it
// back so the next handler reads the same bytes (and the same error, if
// the read failed).
func PeekBody(r *http.Request, limit int64) ([]byte, error) {
	var body []byte
	var err error
	if n := r.ContentLength; n >= 0 && (limit <= 0 || n <= limit) {
		body = make([]byte, n)
		_, err = io.ReadFull(r.Body, body)
		if err == nil {
			// Nothing may follow the stated length; a MaxBytesReader or
			// net/http reports any excess here.
			var one [1]byte
			if m, e := r.Body.Read(one[:]); m > 0 {
				err = errors.New("request body longer than its Content-Length")
			} else if e != nil && !errors.Is(e, io.EOF) {
				err = e
			}
		}
	} else {
		var buf bytes.Buffer
		src := r.Body
		if limit > 0 {
			src = io.NopCloser(io.LimitReader(r.Body, limit+1))
		}
		_, err = buf.ReadFrom(src)
		body = buf.Bytes()
		if err == nil && limit > 0 && int64(len(body)) > limit {
			body, err = body[:limit], &http.MaxBytesError{Limit: limit}
		}
	}
	r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), errReader{err}))
	return body, err
}

// errReader returns err (io.EOF when nil) on every read: the tail of a
// body whose head has been read.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) {
	if e.err == nil {
		return 0, io.EOF
	}
	return 0, e.err
}
