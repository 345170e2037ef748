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
// including head. Log.Append calls Sync after Append, outside its lock,
// so that receipts appended at the same time share one sync (group
// commit). When Sync fails, the receipts it covered are not stored and
// the sink must fail every later Sync and Append. FileSink is a Syncer.
type Syncer interface {
	Sink
	Sync(ctx context.Context, head Head) error
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

// Log signs receipts and appends them to a sink, each chained to the one
// before it. It is safe for concurrent use: appends are serialized.
type Log struct {
	signer *Signer
	sink   Sink

	mu     sync.Mutex
	head   Head
	closed bool
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
// that could not store the receipt with one matching ErrSink.
func (l *Log) Append(ctx context.Context, f Fields) (*Receipt, error) {
	if err := f.check(); err != nil {
		return nil, err
	}
	f = f.normal()
	r, err := l.append(ctx, f)
	if err != nil {
		return nil, err
	}
	// Outside the lock, so that the receipts appended meanwhile share
	// one sync.
	if sy, ok := l.sink.(Syncer); ok {
		if err := sy.Sync(ctx, r.Head()); err != nil {
			return nil, sinkError(err)
		}
	}
	return r, nil
}

// append signs and appends the receipt of f under the log's lock.
func (l *Log) append(ctx context.Context, f Fields) (*Receipt, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil, fmt.Errorf("%w: %w", ErrSink, ErrClosed)
	}
	for try := range conflictRetries {
		if err := ctx.Err(); err != nil {
			return nil, sinkError(err)
		}
		r, err := l.sign(l.head, f)
		if err != nil {
			return nil, err
		}
		err = l.sink.Append(ctx, l.head, r)
		if err == nil {
			l.head = r.Head()
			return r, nil
		}
		if !errors.Is(err, ErrConflict) {
			return nil, sinkError(err)
		}
		h, herr := l.sink.Head(ctx)
		if herr != nil {
			return nil, sinkError(herr)
		}
		l.head = h
		pause := time.Duration(rand.Int64N(int64(min(time.Duration(try+1)*time.Millisecond, conflictPause)) + 1))
		select {
		case <-ctx.Done():
			return nil, sinkError(ctx.Err())
		case <-time.After(pause):
		}
	}
	return nil, sinkError(fmt.Errorf("%w %d times in a row", ErrConflict, conflictRetries))
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
