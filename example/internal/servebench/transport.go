package servebench

import (
	"io"
	"net/http"
	"sync"
	"time"
)

// HandlerTransport is an http.RoundTripper that serves each request with
// h in this process, without a network: the measure of a handler's own
// cost. The response is returned once h writes its header (or returns);
// its body streams what h writes after, so that a 2025-era call, whose
// pushed question is answered on another request, works too.
func HandlerTransport(h http.Handler) http.RoundTripper {
	return handlerTransport{h}
}

type handlerTransport struct{ h http.Handler }

func (t handlerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	pr, pw := io.Pipe()
	w := &pipeWriter{header: http.Header{}, pw: pw, ready: make(chan struct{})}
	w.res = &http.Response{Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Header: w.header, Body: pr, Request: req}
	if req.Body == nil {
		req.Body = http.NoBody
	}
	req.RemoteAddr = "127.0.0.1:1"
	req.RequestURI = req.URL.RequestURI()
	if req.Host == "" {
		req.Host = req.URL.Host
	}
	go func() {
		defer func() {
			w.WriteHeader(http.StatusOK)
			_ = pw.Close()
		}()
		t.h.ServeHTTP(w, req)
	}()
	<-w.ready
	return w.res, nil
}

// pipeWriter is the http.ResponseWriter of HandlerTransport.
type pipeWriter struct {
	header http.Header
	pw     *io.PipeWriter
	res    *http.Response
	once   sync.Once
	ready  chan struct{}

	mu              sync.Mutex // guards readBy, writeBy
	readBy, writeBy time.Time  // see SetReadDeadline
}

func (w *pipeWriter) Header() http.Header { return w.header }

func (w *pipeWriter) WriteHeader(code int) {
	w.once.Do(func() {
		w.res.StatusCode = code
		w.res.Status = http.StatusText(code)
		w.res.Header = w.header.Clone()
		close(w.ready)
	})
}

func (w *pipeWriter) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.pw.Write(b)
}

// SetReadDeadline and SetWriteDeadline record a deadline, as
// net/http's response writer supports them (http.ResponseController):
// without them each call would build an ErrNotSupported error, a cost
// no server on a network pays. Nothing here blocks, so none is enforced.
func (w *pipeWriter) SetReadDeadline(t time.Time) error {
	w.mu.Lock()
	w.readBy = t
	w.mu.Unlock()
	return nil
}

// SetWriteDeadline: see SetReadDeadline.
func (w *pipeWriter) SetWriteDeadline(t time.Time) error {
	w.mu.Lock()
	w.writeBy = t
	w.mu.Unlock()
	return nil
}

// Flush implements http.Flusher: writes are unbuffered.
func (w *pipeWriter) Flush() { w.WriteHeader(http.StatusOK) }
