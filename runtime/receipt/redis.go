package receipt

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"
)

// DefaultRedisKey is the list a RedisSink appends to when given no key.
// Its braces are a Redis Cluster hash tag: the list and its head key
// (the key and ":head") live in one slot, as the atomic append needs.
const DefaultRedisKey = "{elicitgen:receipts}"

// RedisSink appends receipts to a Redis list that every instance of a
// server shares: one log, one chain. Each append checks the chain's head
// and pushes the receipt in one step (a Lua script), so two instances
// cannot fork the chain: the one that finds the head moved gets
// ErrConflict, and its Log re-signs after the new head. The receipts
// are as durable as the Redis's persistence makes them (appendonly yes
// with appendfsync always for a sync per write); Check refuses an
// eviction policy that may drop them. It is safe for concurrent use.
type RedisSink struct {
	client redis.Cmdable
	closer func() error
	list   string
	head   string
}

var _ BatchSink = (*RedisSink)(nil)

// NewRedisSink returns a sink on client (a *redis.Client,
// *redis.ClusterClient or any redis.Cmdable) appending to the list key;
// "" means DefaultRedisKey. Closing client is the caller's business.
func NewRedisSink(client redis.Cmdable, key string) *RedisSink {
	if key == "" {
		key = DefaultRedisKey
	}
	return &RedisSink{client: client, list: key, head: key + ":head"}
}

// OpenRedis returns a sink on a new client for url
// (redis://[[user]:password@]host[:port][/db], rediss:// for TLS),
// appending to the list key ("" for DefaultRedisKey), with context
// deadlines honoured and no retries (a retried append could find its own
// first attempt as a conflict). It does not connect; Close releases the
// client.
func OpenRedis(url, key string) (*RedisSink, error) {
	opt, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSink, err)
	}
	opt.ContextTimeoutEnabled = true
	opt.MaxRetries = -1
	c := redis.NewClient(opt)
	s := NewRedisSink(c, key)
	s.closer = c.Close
	return s, nil
}

// Close closes the client of a sink from OpenRedis; it does nothing for
// one from NewRedisSink.
func (s *RedisSink) Close() error {
	if s.closer == nil {
		return nil
	}
	return s.closer()
}

// Check verifies that Redis answers and that its maxmemory-policy cannot
// evict the receipts (an allkeys-* policy could: the receipt keys have
// no expiry, so volatile-* and noeviction keep them). Call it at start.
func (s *RedisSink) Check(ctx context.Context) error {
	if err := s.client.Ping(ctx).Err(); err != nil {
		return fmt.Errorf("%w: redis: %w", ErrSink, err)
	}
	cfg, err := s.client.ConfigGet(ctx, "maxmemory-policy").Result()
	if err != nil {
		return fmt.Errorf("%w: redis: reading maxmemory-policy: %w", ErrSink, err)
	}
	return evictionRisk(cfg["maxmemory-policy"])
}

// evictionRisk reports whether a maxmemory-policy may evict receipts.
func evictionRisk(policy string) error {
	if strings.HasPrefix(policy, "allkeys-") {
		return fmt.Errorf("%w: redis maxmemory-policy %s may evict receipts: use noeviction (or a volatile-* policy)", ErrSink, policy)
	}
	return nil
}

// appendScript pushes ARGV[3] onto the list KEYS[1] and sets the head
// KEYS[2] to ARGV[2], only when the head is ARGV[1] ("" for none).
var appendScript = redis.NewScript(`
local h = redis.call('GET', KEYS[2])
if not h then h = '' end
if h ~= ARGV[1] then return 0 end
redis.call('RPUSH', KEYS[1], ARGV[3])
redis.call('SET', KEYS[2], ARGV[2])
return 1
`)

// appendBatchScript pushes ARGV[3], ARGV[4], ... onto the list KEYS[1]
// in one RPUSH and sets the head KEYS[2] to ARGV[2], only when the head
// is ARGV[1] ("" for none).
var appendBatchScript = redis.NewScript(`
local h = redis.call('GET', KEYS[2])
if not h then h = '' end
if h ~= ARGV[1] then return 0 end
redis.call('RPUSH', KEYS[1], unpack(ARGV, 3))
redis.call('SET', KEYS[2], ARGV[2])
return 1
`)

// headString is a head as the head key holds it: "seq digest", "" for
// none.
func headString(h Head) string {
	if h == (Head{}) {
		return ""
	}
	return strconv.FormatUint(h.Seq, 10) + " " + h.Digest
}

// Head implements Sink.
func (s *RedisSink) Head(ctx context.Context) (Head, error) {
	v, err := s.client.Get(ctx, s.head).Result()
	if errors.Is(err, redis.Nil) {
		return Head{}, nil
	}
	if err != nil {
		return Head{}, fmt.Errorf("redis: %w", err)
	}
	seq, digest, ok := strings.Cut(v, " ")
	n, err := strconv.ParseUint(seq, 10, 64)
	if !ok || err != nil || n == 0 || !strings.HasPrefix(digest, "sha256:") {
		return Head{}, fmt.Errorf("redis: %s holds %q, not a receipt head", s.head, v)
	}
	return Head{Seq: n, Digest: digest}, nil
}

// Append implements Sink: the head check, the push and the new head in
// one script.
func (s *RedisSink) Append(ctx context.Context, prev Head, r *Receipt) error {
	ok, err := appendScript.Run(ctx, s.client, []string{s.list, s.head}, headString(prev), headString(r.Head()), r.Line).Int()
	if err != nil {
		return fmt.Errorf("redis: %w", err)
	}
	if ok != 1 {
		return ErrConflict
	}
	return nil
}

// AppendBatch implements BatchSink: the head check, the push of every
// receipt of rs and the new head in one script, one round trip.
func (s *RedisSink) AppendBatch(ctx context.Context, prev Head, rs []*Receipt) error {
	switch len(rs) {
	case 0:
		return nil
	case 1:
		return s.Append(ctx, prev, rs[0])
	}
	args := make([]any, 0, 2+len(rs))
	args = append(args, headString(prev), headString(rs[len(rs)-1].Head()))
	for _, r := range rs {
		args = append(args, r.Line)
	}
	ok, err := appendBatchScript.Run(ctx, s.client, []string{s.list, s.head}, args...).Int()
	if err != nil {
		return fmt.Errorf("redis: %w", err)
	}
	if ok != 1 {
		return ErrConflict
	}
	return nil
}

// exportPage is how many receipts Export reads at a time.
const exportPage = 1000

// Export writes the sink's receipts to w as a JSONL log, the file
// elicitgen verify reads, and returns the head it ended at: check the
// file with --head to know no receipt is missing from its end.
func (s *RedisSink) Export(ctx context.Context, w io.Writer) (Head, error) {
	// The head first: receipts appended meanwhile are after it, and the
	// export stops at it.
	h, err := s.Head(ctx)
	if err != nil {
		return Head{}, err
	}
	for start := int64(0); start < int64(h.Seq); start += exportPage {
		end := min(start+exportPage, int64(h.Seq)) - 1
		lines, err := s.client.LRange(ctx, s.list, start, end).Result()
		if err != nil {
			return Head{}, fmt.Errorf("redis: %w", err)
		}
		if int64(len(lines)) != end-start+1 {
			return Head{}, fmt.Errorf("redis: %s holds %d receipts, its head says %d", s.list, start+int64(len(lines)), h.Seq)
		}
		for _, ln := range lines {
			if _, err := io.WriteString(w, ln+"\n"); err != nil {
				return Head{}, err
			}
		}
	}
	return h, nil
}
