package adapter

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
)

// LimitHandler wraps h with the per-request bounds of o (resolved): the
// body limit (413 beyond it), the body read deadline (lifted once the
// body is read) and the per-write deadline.
func LimitHandler(h http.Handler, o runtime.HTTPOptions) http.Handler {
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
func NewHTTPServer(h http.Handler, o runtime.HTTPOptions) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: o.HeaderTimeout,
		IdleTimeout:       o.IdleTimeout,
		MaxHeaderBytes:    o.MaxHeaderBytes,
	}
}

// Serve serves srv on ln (wrapped by Listener under o) until ctx ends; it
// then shuts srv down, giving requests in flight 5 seconds before their
// connections are closed.
func Serve(ctx context.Context, srv *http.Server, ln net.Listener, o runtime.HTTPOptions) error {
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
// once (LimitListener) and, when o.WriteTimeout is set, a send buffer of
// SendBuffer bytes per TCP connection.
func Listener(ln net.Listener, o runtime.HTTPOptions) net.Listener {
	if o.WriteTimeout > 0 {
		ln = sendBufferListener{ln}
	}
	return LimitListener(ln, o.MaxConns)
}

type sendBufferListener struct{ net.Listener }

func (l sendBufferListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetWriteBuffer(SendBuffer)
	}
	return c, err
}

// LimitListener returns a listener that accepts at most n connections at
// once from ln: Accept waits while n are open. n <= 0 means no limit.
func LimitListener(ln net.Listener, n int) net.Listener {
	if n <= 0 {
		return ln
	}
	return &limitedListener{Listener: ln, sem: make(chan struct{}, n), done: make(chan struct{})}
}

type limitedListener struct {
	net.Listener
	sem       chan struct{}
	done      chan struct{}
	closeOnce sync.Once
}

// Accept waits for a free slot, then for a connection.
func (l *limitedListener) Accept() (net.Conn, error) {
	select {
	case l.sem <- struct{}{}:
	case <-l.done:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.sem
		return nil, err
	}
	return &limitedConn{Conn: c, release: func() { <-l.sem }}, nil
}

// Close closes the listener and wakes a waiting Accept.
func (l *limitedListener) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// limitedConn frees its slot once, on Close.
type limitedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
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
