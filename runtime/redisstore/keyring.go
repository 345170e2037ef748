package redisstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/elicitgen/elicitgen/runtime/seal"
)

// keyRingKey is the key, under the store's prefix, of the record of the
// deployment's key ring (seal.KeyRecord).
const keyRingKey = "keyring"

// swapScript sets KEYS[1] to ARGV[2] when it holds ARGV[1] ("": absent),
// and returns 1; else 0.
var swapScript = redis.NewScript(`
local cur = redis.call('GET', KEYS[1])
if (cur or '') ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
return 1`)

// CheckKeyRing compares ring with the record of the key ring the
// deployment used before, which every instance sharing this Redis and
// prefix reads, and records ring (seal.KeyRing.Rotate, at the instance's
// clock, with longest the longest a question can stay open). When ring
// drops a key that may still seal open questions it fails with an error
// matching seal.ErrKeyStillNeeded (a *seal.KeyStillNeededError) and
// records nothing, unless allow: then it records ring and returns the
// record with that error, for the caller to report. Without a record
// (a new deployment, or a Redis that lost its data) ring is recorded as
// it is. Instances starting at once read and write the record with a
// compare-and-set, retried. It returns the record in force.
func (s *Store) CheckKeyRing(ctx context.Context, ring *seal.KeyRing, longest time.Duration, allow bool) (*seal.KeyRecord, error) {
	key := s.prefix() + keyRingKey
	for range 5 {
		rctx, cancel := context.WithTimeout(ctx, s.timeout())
		cur, err := s.client.Get(rctx, key).Result()
		cancel()
		var prev *seal.KeyRecord
		switch {
		case errors.Is(err, redis.Nil):
			cur = ""
		case err != nil:
			return nil, fmt.Errorf("%w: key ring record: %w", seal.ErrReplayStore, err)
		default:
			prev = &seal.KeyRecord{}
			if err := json.Unmarshal([]byte(cur), prev); err != nil {
				return nil, fmt.Errorf("redisstore: the key ring record %s does not decode: %w", key, err)
			}
		}
		next, rerr := ring.Rotate(prev, s.now(), longest)
		if rerr != nil && !allow {
			return prev, rerr
		}
		enc, err := json.Marshal(next)
		if err != nil {
			return nil, err
		}
		if string(enc) == cur {
			return next, rerr
		}
		rctx, cancel = context.WithTimeout(ctx, s.timeout())
		n, err := swapScript.Run(rctx, s.client, []string{key}, cur, enc).Int()
		cancel()
		if err != nil {
			return nil, fmt.Errorf("%w: key ring record: %w", seal.ErrReplayStore, err)
		}
		if n == 1 {
			return next, rerr
		}
	}
	return nil, fmt.Errorf("%w: key ring record: changed by other instances while this one started; start it again", seal.ErrReplayStore)
}

// timeout returns Timeout, DefaultTimeout when zero.
func (s *Store) timeout() time.Duration {
	if s.Timeout > 0 {
		return s.Timeout
	}
	return DefaultTimeout
}
