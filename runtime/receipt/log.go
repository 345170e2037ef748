package receipt

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"time"
)

// Head is the last receipt of a log: its sequence number and digest. The
// zero Head is an empty log's.
type Head struct {
	Seq    uint64
	Digest string
}

// Receipt is one signed receipt.
type Receipt struct {
	// Payload is what was signed.
	Payload Payload
	// KeyID is the signing key's id (the JWS "kid").
	KeyID string
	// JWS is the receipt in the JWS compact serialization
	// (protected.payload.signature).
	JWS string
	// Digest is Digest([]byte(JWS)): what the next receipt's Prev holds.
	Digest string
	// Line is the receipt as a log line, without its line break: the
	// flattened JWS JSON serialization,
	// {"protected":"...","payload":"...","signature":"..."}.
	Line []byte
}

// Head returns the head of a log whose last receipt is r.
func (r *Receipt) Head() Head { return Head{Seq: r.Payload.Seq, Digest: r.Digest} }

// flattened is a log line: RFC 7515's flattened JWS JSON serialization,
// its members in this order.
type flattened struct {
	Protected string `json:"protected"`
	Payload   string `json:"payload"`
	Signature string `json:"signature"`
}

// line returns the log line of a compact JWS, as encoding/json would
// write its flattened form (base64url needs no escaping).
func line(compact string) ([]byte, error) {
	parts := strings.Split(compact, ".")
	if len(parts) != 3 {
		return nil, fmt.Errorf("receipt: a compact JWS has 3 parts, not %d", len(parts))
	}
	b := make([]byte, 0, len(compact)+48)
	b = append(b, `{"protected":"`...)
	b = append(b, parts[0]...)
	b = append(b, `","payload":"`...)
	b = append(b, parts[1]...)
	b = append(b, `","signature":"`...)
	b = append(b, parts[2]...)
	return append(b, `"}`...), nil
}

// Sink stores a log's receipts, in order. Implementations are safe for
// concurrent use; FileSink and RedisSink are two.
type Sink interface {
	// Head returns the sink's last receipt (the zero Head when it holds
	// none).
	Head(ctx context.Context) (Head, error)
	// Append stores r durably after prev, the receipt r chains to, and
	// returns only once r is stored. When prev is no longer the sink's
	// last receipt (another writer appended), it stores nothing and
	// returns an error matching ErrConflict. Any other error means r may
	// not be stored.
	Append(ctx context.Context, prev Head, r *Receipt) error
}

// Syncer is a Sink whose Append writes a receipt without making it
// durable, and whose Sync makes durable every receipt written up to and
// including head. Log.Append calls Sync once after appending a batch of
// receipts, so that receipts appended at the same time share one sync
// (group commit). When Sync fails, the receipts it covered are not stored
// and the sink must fail every later Sync and Append.
type Syncer interface {
	Sink
	Sync(ctx context.Context, head Head) error
}

// BatchSink is a Sink that stores several receipts in one step: Log
// hands it every receipt appended while the one before was being
// written, as one batch. FileSink (one write and one sync per batch) and
// RedisSink (one script per batch) are BatchSinks.
type BatchSink interface {
	Sink
	// AppendBatch stores rs, in order, durably after prev, the receipt
	// rs[0] chains to, and returns only once all of them are stored. It
	// stores all or none: when prev is no longer the sink's last receipt
	// it stores none and returns an error matching ErrConflict; any
	// other error means none of rs may be taken as stored.
	AppendBatch(ctx context.Context, prev Head, rs []*Receipt) error
}

// conflictRetries is how many times Append re-reads a sink's head after
// ErrConflict before giving up. Between tries it waits a random pause of
// up to a millisecond per try so far (at most conflictPause), so that
// instances appending to one sink at once take turns instead of one
// starving.
const (
	conflictRetries = 64
	conflictPause   = 16 * time.Millisecond
)

// maxBatch bounds the receipts one batch writes.
const maxBatch = 256

// Log signs receipts and appends them to a sink, each chained to the one
// before it. It is safe for concurrent use.
//
// Appends are committed in groups: one caller at a time writes (the
// leader), and the receipts appended meanwhile wait, each on its own
// channel, to be written by the next leader as one batch (one write and
// one sync of a file, one script of Redis). A batch succeeds or fails
// as a whole: when its write fails, every append in it fails.
type Log struct {
	signer *Signer
	sink   Sink

	mu     sync.Mutex
	head   Head
	closed bool
	// busy: a leader is writing a batch; queue holds the appends that
	// wait for the next one.
	busy  bool
	queue []*pending
}

// pending is one append waiting in a Log's queue.
type pending struct {
	f    Fields
	r    *Receipt
	err  error
	lead bool          // set before wake is closed: write the next batch
	wake chan struct{} // closed once r or err is set, or lead
}

// NewLog returns a log that signs with signer and writes to sink, going
// on from the sink's last receipt.
func NewLog(ctx context.Context, signer *Signer, sink Sink) (*Log, error) {
	if signer == nil {
		return nil, fmt.Errorf("%w: no signer", ErrKey)
	}
	if sink == nil {
		return nil, fmt.Errorf("%w: no sink", ErrSink)
	}
	h, err := sink.Head(ctx)
	if err != nil {
		return nil, sinkError(err)
	}
	return &Log{signer: signer, sink: sink, head: h}, nil
}

// Head returns the last receipt the log wrote or found.
func (l *Log) Head() Head {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.head
}

// Append signs a receipt of f, chained to the log's last receipt, and
// returns it once the sink has stored it durably. On any error nothing
// may be taken as recorded: the decision f describes must not take
// effect. Invalid fields fail with an error matching ErrFields, a sink
// that could not store the receipt with one matching ErrSink. ctx is
// checked before the receipt is queued; once queued, the append waits
// for its batch's write, which the sink bounds (a Redis client's
// timeouts), so that one caller giving up never fails the receipts of
// others written with it.
func (l *Log) Append(ctx context.Context, f Fields) (*Receipt, error) {
	if err := f.check(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, sinkError(err)
	}
	p := &pending{f: f.normal(), wake: make(chan struct{})}
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return nil, fmt.Errorf("%w: %w", ErrSink, ErrClosed)
	}
	l.queue = append(l.queue, p)
	if l.busy {
		l.mu.Unlock()
		<-p.wake
		if !p.lead {
			return p.r, p.err
		}
		l.mu.Lock()
	}
	// This append leads: it writes every queued append (its own among
	// them) as one batch, then hands the lead to the first append queued
	// meanwhile. (Yielding first, for more appends to join, measured
	// dearer: a runtime.Gosched costs 10-15 µs of scheduler work per
	// receipt, and a 250 µs commit delay gave no fewer syncs per
	// approval over HTTP.)
	l.busy = true
	n := min(len(l.queue), maxBatch)
	batch := l.queue[:n:n]
	l.queue = append([]*pending(nil), l.queue[n:]...)
	l.mu.Unlock()

	defer l.handOff()
	l.write(context.WithoutCancel(ctx), batch)
	return p.r, p.err
}

// handOff ends a leader's turn: the first append queued meanwhile leads
// the next batch.
func (l *Log) handOff() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.queue) == 0 {
		l.busy = false
		return
	}
	next := l.queue[0]
	next.lead = true
	close(next.wake)
}

// errPanicked fails the appends of a batch whose write panicked.
var errPanicked = fmt.Errorf("%w: the sink panicked", ErrSink)

// write signs and stores the batch, chained to the log's head, and hands
// every append of it its receipt or the batch's error (one error for
// all: a batch is stored whole or not at all), waking those that wait.
func (l *Log) write(ctx context.Context, batch []*pending) {
	var rs []*Receipt
	err := errPanicked
	defer func() {
		for i, p := range batch {
			if err != nil {
				p.err = err
			} else {
				p.r = rs[i]
			}
			if !p.lead {
				// Its caller waits on wake (or leads, and ignores it); a
				// leader's wake was closed to make it lead.
				close(p.wake)
			}
		}
	}()
	rs, err = l.store(ctx, batch)
}

// store signs the receipts of batch after the log's head and writes
// them, retrying after a conflict with another writer of the sink.
func (l *Log) store(ctx context.Context, batch []*pending) ([]*Receipt, error) {
	l.mu.Lock()
	closed, head := l.closed, l.head
	l.mu.Unlock()
	if closed {
		return nil, fmt.Errorf("%w: %w", ErrSink, ErrClosed)
	}
	rs := make([]*Receipt, len(batch))
	for try := range conflictRetries {
		prev := head
		for i, p := range batch {
			r, err := l.sign(prev, p.f)
			if err != nil {
				return nil, err
			}
			rs[i], prev = r, r.Head()
		}
		err := l.put(ctx, head, rs)
		if err == nil {
			l.mu.Lock()
			l.head = prev
			l.mu.Unlock()
			return rs, nil
		}
		if !errors.Is(err, ErrConflict) {
			return nil, sinkError(err)
		}
		if head, err = l.sink.Head(ctx); err != nil {
			return nil, sinkError(err)
		}
		l.mu.Lock()
		l.head = head
		l.mu.Unlock()
		pause := time.Duration(rand.Int64N(int64(min(time.Duration(try+1)*time.Millisecond, conflictPause)) + 1))
		time.Sleep(pause)
	}
	return nil, sinkError(fmt.Errorf("%w %d times in a row", ErrConflict, conflictRetries))
}

// put stores rs after prev: in one step on a BatchSink; receipt by
// receipt then one Sync on another sink (a conflict after the first
// receipt cannot happen: the log is the sink's only writer between them,
// or the sink's own chain check refuses).
func (l *Log) put(ctx context.Context, prev Head, rs []*Receipt) error {
	if bs, ok := l.sink.(BatchSink); ok {
		return bs.AppendBatch(ctx, prev, rs)
	}
	h := prev
	for _, r := range rs {
		if err := l.sink.Append(ctx, h, r); err != nil {
			if h != prev && errors.Is(err, ErrConflict) {
				// Part of the batch is stored: its receipts are not the
				// ones this batch's callers get; fail them all.
				return fmt.Errorf("another writer appended in the middle of a batch: %w", err)
			}
			return err
		}
		h = r.Head()
	}
	if sy, ok := l.sink.(Syncer); ok {
		return sy.Sync(ctx, h)
	}
	return nil
}

// sign returns the receipt of f after head.
func (l *Log) sign(head Head, f Fields) (*Receipt, error) {
	p := Payload{V: Version, Seq: head.Seq + 1, Prev: head.Digest, Fields: f}
	body, err := p.marshal()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFields, err)
	}
	jws := l.signer.sign(body)
	ln, err := line(jws)
	if err != nil {
		return nil, err
	}
	return &Receipt{Payload: p, KeyID: l.signer.kid, JWS: jws, Digest: Digest([]byte(jws)), Line: ln}, nil
}

// Close stops the log: later appends fail. It closes the sink when the
// sink has a Close method.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	if c, ok := l.sink.(interface{ Close() error }); ok {
		return c.Close()
	}
	return nil
}

// sinkError wraps err so that it matches ErrSink (and still err).
func sinkError(err error) error {
	if errors.Is(err, ErrSink) {
		return err
	}
	return fmt.Errorf("%w: %w", ErrSink, err)
}
