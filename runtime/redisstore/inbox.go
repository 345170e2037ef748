package redisstore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/elicitgen/elicitgen/runtime/page"
)

// The Index of approval pages (page.Index): a sorted set of page ids by
// closing time (Unix ms) for each principal and each group a policy
// names, and one of the group names, each expiring with its last entry.
// Each is written by its own script on its one key (fit for a Redis
// Cluster); the index is a list of candidates that the inbox checks
// against the pages, so the sets need not change together.

var _ page.Index = (*PageStore)(nil)

// fileScript files ARGV[1] in the sorted set KEYS[1] until ARGV[2] (Unix
// ms), dropping the entries past, on Redis's clock; the set expires with
// its last entry. An entry already past is not filed.
var fileScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local upto = tonumber(ARGV[2])
if upto <= now then return 0 end
local old = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not old or tonumber(old) < upto then redis.call('ZADD', KEYS[1], upto, ARGV[1]) end
local top = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
redis.call('PEXPIREAT', KEYS[1], top[2])
return 1`)

// inboxKey returns the key of the index set of a principal ('u') or a
// group ('g').
func (s *PageStore) inboxKey(kind byte, name string) string {
	sum := sha256.Sum256([]byte("elicitgen inbox\x00" + name))
	return s.key("inbox:" + string(kind) + ":" + hex.EncodeToString(sum[:16]))
}

func (s *PageStore) groupsKey() string { return s.key("inbox:groups") }

// File implements page.Index.
func (s *PageStore) File(ctx context.Context, id string, principals, groups []string, until time.Time) error {
	ctx, cancel := s.ctx(ctx)
	defer cancel()
	ms := until.UnixMilli()
	run := func(key, member string) error {
		if err := fileScript.Run(ctx, s.client, []string{key}, member, ms).Err(); err != nil {
			return failed(err)
		}
		return nil
	}
	for _, pr := range principals {
		if err := run(s.inboxKey('u', pr), id); err != nil {
			return err
		}
	}
	for _, g := range groups {
		if err := run(s.inboxKey('g', g), id); err != nil {
			return err
		}
		if err := run(s.groupsKey(), g); err != nil {
			return err
		}
	}
	return nil
}

// live returns the members of the sorted set key whose score is past now.
func (s *PageStore) live(ctx context.Context, key string) ([]string, error) {
	now := strconv.FormatInt(s.now().UnixMilli(), 10)
	v, err := s.client.ZRangeArgs(ctx, redis.ZRangeArgs{Key: key, Start: "(" + now, Stop: "+inf", ByScore: true}).Result()
	if err != nil {
		return nil, failed(err)
	}
	return v, nil
}

// Filed implements page.Index.
func (s *PageStore) Filed(ctx context.Context, principal string, groups []string) ([]string, error) {
	ctx, cancel := s.ctx(ctx)
	defer cancel()
	keys := []string{s.inboxKey('u', principal)}
	for _, g := range groups {
		keys = append(keys, s.inboxKey('g', g))
	}
	seen := map[string]bool{}
	var ids []string
	for _, key := range keys {
		v, err := s.live(ctx, key)
		if err != nil {
			return nil, err
		}
		for _, id := range v {
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
	}
	slices.Sort(ids)
	return ids, nil
}

// FiledGroups implements page.Index.
func (s *PageStore) FiledGroups(ctx context.Context) ([]string, error) {
	ctx, cancel := s.ctx(ctx)
	defer cancel()
	gs, err := s.live(ctx, s.groupsKey())
	if err != nil {
		return nil, err
	}
	slices.Sort(gs)
	return gs, nil
}
