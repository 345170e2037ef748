// Package redisstore is an adapter.ReplayStore in Redis, for deployments
// of several instances: every instance claims the request states it
// receives in one Redis, so that a state that carried answers into a tool
// handler on one instance is refused on all of them.
//
//	store, err := redisstore.Open("redis://127.0.0.1:6379/0")
//	...
//	cfg := &gosdk.Config{Keys: keys, Replay: store}
//
// A claim is one SET key value NX PX ttl: atomic in Redis, it succeeds
// for the first claimer only, and the key expires with the state (plus
// seal.MaxClockSkew). When Redis cannot be reached the claim fails and
// the request is refused (fail closed); nothing is retried or cached
// locally.
package redisstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/elicitgen/elicitgen/runtime/adapter"
)

// DefaultPrefix starts the Redis keys of claimed states.
const DefaultPrefix = "elicitgen:state:"

// DefaultTimeout bounds one claim when the request's context has no
// earlier deadline.
const DefaultTimeout = 2 * time.Second

// Store claims state ids in Redis. It implements adapter.ReplayStore and
// is safe for concurrent use.
type Store struct {
	client redis.Cmdable
	closer func() error
	// Prefix starts every key; DefaultPrefix when empty. Instances that
	// share a Redis and a key ring must use the same prefix.
	Prefix string
	// Timeout bounds one claim; DefaultTimeout when zero.
	Timeout time.Duration
	// Now is the clock that turns a claim's until into a TTL; nil means
	// time.Now.
	Now func() time.Time
}

var _ adapter.ReplayStore = (*Store)(nil)

// New returns a store on client (a *redis.Client, *redis.ClusterClient
// or any redis.Cmdable). Closing client is the caller's business.
func New(client redis.Cmdable) *Store {
	return &Store{client: client}
}

// Open returns a store on a new client for url, of the form
// redis://[[user]:password@]host[:port][/db] (rediss:// for TLS; see
// redis.ParseURL). It does not connect: the first claim does. Close
// releases the client.
func Open(url string) (*Store, error) {
	opt, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("redisstore: %w", err)
	}
	c := redis.NewClient(opt)
	return &Store{client: c, closer: c.Close}, nil
}

// Close closes the client of a store from Open; it does nothing for one
// from New.
func (s *Store) Close() error {
	if s.closer == nil {
		return nil
	}
	return s.closer()
}

// Ping checks that Redis answers, for a readiness check at start-up.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.client.Ping(ctx).Err(); err != nil {
		return fmt.Errorf("%w: redis: %w", adapter.ErrReplayStore, err)
	}
	return nil
}

// Claim implements adapter.ReplayStore with SET NX PX. Any Redis error is
// returned wrapped in adapter.ErrReplayStore.
func (s *Store) Claim(ctx context.Context, id string, until time.Time) (bool, error) {
	if id == "" {
		return false, fmt.Errorf("%w: empty state id", adapter.ErrReplayStore)
	}
	now := time.Now
	if s.Now != nil {
		now = s.Now
	}
	ttl := until.Sub(now())
	if ttl <= 0 {
		// The state no longer opens anywhere: nothing to remember.
		return true, nil
	}
	ttl = max(ttl, time.Millisecond)
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	prefix := s.Prefix
	if prefix == "" {
		prefix = DefaultPrefix
	}
	ok, err := s.client.SetNX(ctx, prefix+id, "1", ttl).Result()
	if err != nil && !errors.Is(err, redis.Nil) {
		return false, fmt.Errorf("%w: redis: %w", adapter.ErrReplayStore, err)
	}
	return ok, nil
}
