package servebench

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Load is one measurement: Clients concurrent users, each making
// approvals one after another, until Duration has passed or Approvals
// approvals have started, whichever comes first.
type Load struct {
	// URL is the server's MCP endpoint; it must be a loopback address.
	URL string
	// Version is the protocol version the clients speak.
	Version string
	// Clients is the number of concurrent users (at least 1).
	Clients int
	// Duration bounds the measurement's time; Approvals its count. At
	// least one must be set.
	Duration  time.Duration
	Approvals int64
	// HTTP is the clients' HTTP client; nil means NewHTTPClient(Clients).
	HTTP *http.Client
}

// Result is what a Load measured.
type Result struct {
	Approvals int64         // approvals that ended in a deploy
	Errors    int64         // approvals that failed
	FirstErr  error         // the first failure, if any
	Elapsed   time.Duration // from the first approval's start to the last one's end
	Latencies []time.Duration
}

// PerSecond returns the successful approvals per second.
func (r *Result) PerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Approvals) / r.Elapsed.Seconds()
}

// Quantile returns the latency below which the fraction q of approvals
// fell (0 without any).
func (r *Result) Quantile(q float64) time.Duration {
	if len(r.Latencies) == 0 {
		return 0
	}
	i := int(q * float64(len(r.Latencies)))
	return r.Latencies[min(i, len(r.Latencies)-1)]
}

// NewHTTPClient returns an HTTP client that keeps enough idle
// connections for clients concurrent users (two requests each at most,
// on 2025-11-25), so that no measured request dials.
func NewHTTPClient(clients int) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = 2*clients + 8
	t.MaxIdleConnsPerHost = 2*clients + 8
	t.Proxy = nil
	return &http.Client{Transport: t}
}

// CheckLoopback fails unless raw is an http URL whose host is a loopback
// address or localhost.
func CheckLoopback(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return err
	}
	if u.Scheme != "http" {
		return fmt.Errorf("servebench: %s: only http on loopback", raw)
	}
	host := u.Hostname()
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("servebench: %s is not a loopback address", raw)
	}
	return nil
}

// Run measures l: it opens every client's session first, then starts the
// clock, and closes the sessions after.
func Run(ctx context.Context, l Load) (*Result, error) {
	if l.Clients < 1 || (l.Duration <= 0 && l.Approvals <= 0) {
		return nil, errors.New("servebench: a load needs a client and a duration or a count")
	}
	p, err := OpenPool(ctx, l.HTTP, l.URL, l.Version, l.Clients)
	if err != nil {
		return nil, err
	}
	defer p.Close(ctx)
	return p.Run(ctx, l.Duration, l.Approvals), nil
}

// Pool is a set of clients of one server whose sessions are open, to be
// run again and again.
type Pool struct {
	hc      *http.Client
	clients []*Client
}

// OpenPool opens n clients of the server at url (a loopback URL)
// speaking version, over hc (nil: NewHTTPClient(n)). A client that
// cannot open its session fails it.
func OpenPool(ctx context.Context, hc *http.Client, url, version string, n int) (*Pool, error) {
	if err := CheckLoopback(url); err != nil {
		return nil, err
	}
	if hc == nil {
		hc = NewHTTPClient(n)
	}
	p := &Pool{hc: hc}
	for range n {
		c, err := NewClient(hc, url, version)
		if err == nil {
			err = c.Open(ctx)
		}
		if err != nil {
			p.Close(ctx)
			return nil, err
		}
		p.clients = append(p.clients, c)
	}
	return p, nil
}

// Close ends the pool's sessions and closes its idle connections.
func (p *Pool) Close(ctx context.Context) {
	for _, c := range p.clients {
		_ = c.Close(context.WithoutCancel(ctx))
	}
	p.hc.CloseIdleConnections()
}

// Run makes approvals with every client of the pool at once, each one
// after another, until d has passed or n approvals have started (a zero
// bound is no bound; one must be set). Approvals in flight at the
// deadline finish and count (a go-sdk server does not end a 2025-era
// call whose client hangs up); the elapsed time runs until the last one
// ends. A failed approval is counted and its client goes on.
func (p *Pool) Run(ctx context.Context, d time.Duration, n int64) *Result {
	var deadline time.Time
	if d > 0 {
		deadline = time.Now().Add(d)
	}
	var (
		started, failed atomic.Int64
		mu              sync.Mutex
		firstErr        error
		wg              sync.WaitGroup
		lat             = make([][]time.Duration, len(p.clients))
	)
	begin := time.Now()
	for i, c := range p.clients {
		wg.Go(func() {
			for ctx.Err() == nil && (n <= 0 || started.Add(1) <= n) {
				t := time.Now()
				if !deadline.IsZero() && !t.Before(deadline) {
					return
				}
				if err := c.Approve(ctx); err != nil {
					failed.Add(1)
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					continue
				}
				lat[i] = append(lat[i], time.Since(t))
			}
		})
	}
	wg.Wait()
	r := &Result{Errors: failed.Load(), FirstErr: firstErr, Elapsed: time.Since(begin)}
	for _, l := range lat {
		r.Latencies = append(r.Latencies, l...)
	}
	slices.Sort(r.Latencies)
	r.Approvals = int64(len(r.Latencies))
	return r
}
