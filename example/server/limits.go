package main

import (
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// limits bound what one client can hold of the HTTP server.
type limits struct {
	// HeaderTimeout is the time allowed to read a request's headers
	// (http.Server.ReadHeaderTimeout).
	HeaderTimeout time.Duration
	// BodyTimeout is the time allowed to read a request's body, from the
	// end of its headers. Once the body is read, the deadline is lifted so
	// that a long response (a pushed question waiting for a person, an
	// event stream) is not cut.
	BodyTimeout time.Duration
	// IdleTimeout closes a keep-alive connection idle for that long.
	IdleTimeout time.Duration
	// MaxHeaderBytes bounds the request line and headers.
	MaxHeaderBytes int
	// MaxConns bounds the connections served at once; further ones wait
	// in the listen backlog until one closes.
	MaxConns int
}

func defaultLimits() limits {
	return limits{
		HeaderTimeout:  10 * time.Second,
		BodyTimeout:    30 * time.Second,
		IdleTimeout:    120 * time.Second,
		MaxHeaderBytes: 64 << 10,
		MaxConns:       1024,
	}
}

// newHTTPServer returns the server for h under lim. It sets no
// WriteTimeout: see the package comment.
func newHTTPServer(h http.Handler, lim limits) *http.Server {
	return &http.Server{
		Handler:           bodyDeadline(h, lim.BodyTimeout),
		ReadHeaderTimeout: lim.HeaderTimeout,
		IdleTimeout:       lim.IdleTimeout,
		MaxHeaderBytes:    lim.MaxHeaderBytes,
	}
}

// bodyDeadline gives every request d to deliver its body: it sets the
// connection's read deadline when the handler starts and lifts it once
// the body has been read to its end. (http.Server.ReadTimeout would do
// the first half, but its deadline stays, and when it passes during a
// long response net/http cancels the request.)
func bodyDeadline(h http.Handler, d time.Duration) http.Handler {
	if d <= 0 {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		if r.Body == nil || r.Body == http.NoBody {
			h.ServeHTTP(w, r)
			return
		}
		if err := rc.SetReadDeadline(time.Now().Add(d)); err != nil {
			h.ServeHTTP(w, r)
			return
		}
		r.Body = &liftOnEOF{ReadCloser: r.Body, lift: func() { _ = rc.SetReadDeadline(time.Time{}) }}
		h.ServeHTTP(w, r)
	})
}

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

// limitListener returns a listener that accepts at most n connections
// at once from ln: Accept waits while n are open. n <= 0 means no limit.
func limitListener(ln net.Listener, n int) net.Listener {
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
