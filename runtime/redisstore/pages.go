package redisstore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/elicitgen/elicitgen/runtime/page"
)

// DefaultPagePrefix starts the Redis keys of hosted form pages.
const DefaultPagePrefix = "elicitgen:page:"

// PageStore is a page.Store in Redis, so that the instance that serves a
// page need not be the one that continues the call. A page is one hash
// (question, status, answer, closing time) and its call key one string,
// both expiring at the instant Put names. Put, Answer and Take are Lua
// scripts on the page's one key, atomic in Redis (and fit for a Redis
// Cluster): of two concurrent answers (or takes) one wins. Answer
// decides whether the page has closed on Redis's clock (TIME), so that
// an instance whose clock runs behind cannot keep a page open.
//
// The pages held are budgeted, in total (Limit) and per client
// (PerClient), in two sorted sets (page id by expiry) that share one
// hash slot: Put reserves the page's place in them first, and a store at
// its limit or a client at its budget refuses the new page
// (page.ErrPagesFull, page.ErrClientPagesFull) while the pages already
// open are answered as before. Size Redis (noeviction) for Limit pages
// of at most page.Config.MaxQuestion bytes plus an answer each.
//
// When Redis cannot be reached every operation fails, wrapped in
// page.ErrStore, and the page refuses: nothing is cached locally. It is
// safe for concurrent use. Set its fields before first use.
type PageStore struct {
	client redis.Cmdable
	// Prefix starts every key; DefaultPagePrefix when empty. Instances
	// that serve one another's pages use the same prefix.
	Prefix string
	// Timeout bounds one operation; DefaultTimeout when zero.
	Timeout time.Duration
	// Now is the clock of the inbox's lists and the waiting calls' marks;
	// nil means time.Now (elicittest.Clock in tests).
	Now func() time.Time
	// Limit is the number of pages held at most, across instances;
	// page.DefaultLimit when zero. Instances sharing a prefix should set
	// the same.
	Limit int
	// PerClient is the number of pages one client may hold; a tenth of
	// Limit when zero, no budget per client when negative.
	PerClient int
}

var _ page.Store = (*PageStore)(nil)

// NewPageStore returns a page store on client. Closing client is the
// caller's business.
func NewPageStore(client redis.Cmdable) *PageStore {
	return &PageStore{client: client}
}

// PageStore returns a page store on s's client: the same Redis the
// replay store uses, with the default budgets.
func (s *Store) PageStore() *PageStore {
	return &PageStore{client: s.client, Timeout: s.Timeout}
}

func (s *PageStore) key(id string) string {
	if s.Prefix != "" {
		return s.Prefix + id
	}
	return DefaultPagePrefix + id
}

func (s *PageStore) callKey(call string) string { return s.key("call:" + call) }

// budgetKeys returns the keys of the sorted sets of all pages and of
// client's pages (only the first when client is ""): one hash tag, so
// one slot of a Redis Cluster.
func (s *PageStore) budgetKeys(client string) []string {
	keys := []string{s.key("{budget}:all")}
	if client != "" {
		sum := sha256.Sum256([]byte(client))
		keys = append(keys, s.key("{budget}:client:"+hex.EncodeToString(sum[:16])))
	}
	return keys
}

func (s *PageStore) ctx(ctx context.Context) (context.Context, context.CancelFunc) {
	t := s.Timeout
	if t <= 0 {
		t = DefaultTimeout
	}
	return context.WithTimeout(ctx, t)
}

func failed(err error) error {
	return fmt.Errorf("%w: redis: %w", page.ErrStore, err)
}

// Hash fields of a page.
const (
	fieldQuestion = "q"
	fieldStatus   = "s"
	fieldAnswer   = "a"
	// fieldVersion is the question's version once revised; absent means
	// 1, so that a page never revised stores no version.
	fieldVersion = "v"
)

// budgetScript reserves a page's place: KEYS all pages, and the client's
// (absent for no client); ARGV id, expiry (Unix ms), limit, per-client
// budget (0: none). Expired entries are dropped first, on Redis's clock.
// Replies: 1 reserved (or already held), -1 the store is full, -2 the
// client is at its budget.
var budgetScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 1 end
if KEYS[2] then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
  local per = tonumber(ARGV[4])
  if per > 0 and redis.call('ZCARD', KEYS[2]) >= per then return -2 end
end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return -1 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
if KEYS[2] then
  redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
  local want = tonumber(ARGV[2]) - now
  if redis.call('PTTL', KEYS[2]) < want then
    redis.call('PEXPIRE', KEYS[2], want)
  end
end
return 1`)

// putScript stores a new page unless its key exists: KEYS page; ARGV
// question, expiry (Unix ms), closing time (Unix ms; "" when it closes
// with its key, as a task does: the key's expiry is on Redis's clock
// too, and the field's memory is saved).
var putScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
if ARGV[3] == '' then
  redis.call('HSET', KEYS[1], 'q', ARGV[1], 's', 'open')
else
  redis.call('HSET', KEYS[1], 'q', ARGV[1], 's', 'open', 'c', ARGV[3])
end
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
return 1`)

// answerScript records the answer of an open page: 1 done, 0 not open,
// -1 no page, -2 closed by Redis's clock (a page stored without a
// closing time closes with its key).
var answerScript = redis.NewScript(`
local s = redis.call('HGET', KEYS[1], 's')
if not s then return -1 end
if s ~= 'open' then return 0 end
local c = redis.call('HGET', KEYS[1], 'c')
if c then
  local t = redis.call('TIME')
  if tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) >= tonumber(c) then return -2 end
end
redis.call('HSET', KEYS[1], 's', 'answered', 'a', ARGV[1])
return 1`)

// takeScript marks an answered page taken and returns its answer, or a
// number: -1 no page, -2 open, -3 taken.
var takeScript = redis.NewScript(`
local s = redis.call('HGET', KEYS[1], 's')
if not s then return -1 end
if s == 'open' then return -2 end
if s ~= 'answered' then return -3 end
redis.call('HSET', KEYS[1], 's', 'taken')
return redis.call('HGET', KEYS[1], 'a')`)

// reviseScript replaces the question of an open page whose version is
// still the one read: KEYS page; ARGV version read, question. Replies: 1
// done, 0 not open, -1 no page, -2 closed by Redis's clock, -3 another
// revision came first. HSET keeps the key's expiry.
var reviseScript = redis.NewScript(`
local f = redis.call('HMGET', KEYS[1], 's', 'c', 'v')
if not f[1] then return -1 end
if f[1] ~= 'open' then return 0 end
if f[2] then
  local t = redis.call('TIME')
  if tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) >= tonumber(f[2]) then return -2 end
end
local v = tonumber(f[3] or '1')
if v ~= tonumber(ARGV[1]) then return -3 end
redis.call('HSET', KEYS[1], 'q', ARGV[2], 'v', v + 1)
return 1`)

// Put implements page.Store: it reserves the page's place in the
// budgets, then stores it. A reservation whose page is then not stored
// (a Redis failure between the two) holds its place until the page's
// expiry: the budget errs on the side of refusing.
func (s *PageStore) Put(ctx context.Context, r page.Record) error {
	ctx, cancel := s.ctx(ctx)
	defer cancel()
	limit, perClient := page.Budgets(s.Limit, s.PerClient)
	closes := ""
	if !r.Closes.IsZero() && r.Closes.Before(r.Until) {
		closes = strconv.FormatInt(r.Closes.UnixMilli(), 10)
	}
	n, err := budgetScript.Run(ctx, s.client, s.budgetKeys(r.Client), r.ID, r.Until.UnixMilli(), limit, perClient).Int()
	switch {
	case err != nil:
		return failed(err)
	case n == -1:
		return fmt.Errorf("%w (%d pages)", page.ErrPagesFull, limit)
	case n == -2:
		return fmt.Errorf("%w (%d pages)", page.ErrClientPagesFull, perClient)
	}
	n, err = putScript.Run(ctx, s.client, []string{s.key(r.ID)}, r.Question, r.Until.UnixMilli(), closes).Int()
	if err != nil {
		return failed(err)
	}
	if n == 0 {
		return page.ErrExists
	}
	// The call key is a hint for Find (Take checks the call again), so it
	// need not be written in the same script: a page and its call key may
	// then live in different slots of a Redis Cluster.
	if ttl := time.Until(r.Until); r.Call != "" && ttl > 0 {
		if err := s.client.Set(ctx, s.callKey(r.Call), r.ID, ttl).Err(); err != nil {
			return failed(err)
		}
	}
	return nil
}

// Get implements page.Store.
func (s *PageStore) Get(ctx context.Context, id string) (page.Entry, error) {
	ctx, cancel := s.ctx(ctx)
	defer cancel()
	m, err := s.client.HGetAll(ctx, s.key(id)).Result()
	if err != nil {
		return page.Entry{}, failed(err)
	}
	q, ok := m[fieldQuestion]
	if !ok {
		return page.Entry{}, page.ErrNotFound
	}
	e := page.Entry{Question: []byte(q), Version: 1}
	if v, ok := m[fieldVersion]; ok {
		if e.Version, err = strconv.ParseUint(v, 10, 64); err != nil || e.Version == 0 {
			return page.Entry{}, failed(errors.New("page has no valid version"))
		}
	}
	switch m[fieldStatus] {
	case "open":
		e.Status = page.StatusOpen
	case "answered":
		e.Status = page.StatusAnswered
	case "taken":
		e.Status = page.StatusTaken
	default:
		return page.Entry{}, failed(errors.New("page has no valid status"))
	}
	if a, ok := m[fieldAnswer]; ok {
		e.Answer = []byte(a)
	}
	return e, nil
}

// Answer implements page.Store.
func (s *PageStore) Answer(ctx context.Context, id string, answer []byte) error {
	ctx, cancel := s.ctx(ctx)
	defer cancel()
	n, err := answerScript.Run(ctx, s.client, []string{s.key(id)}, answer).Int()
	switch {
	case err != nil:
		return failed(err)
	case n == -1:
		return page.ErrNotFound
	case n == 0:
		return page.ErrAnswered
	case n == -2:
		return page.ErrExpired
	}
	return nil
}

// Take implements page.Store.
func (s *PageStore) Take(ctx context.Context, id string) ([]byte, error) {
	ctx, cancel := s.ctx(ctx)
	defer cancel()
	v, err := takeScript.Run(ctx, s.client, []string{s.key(id)}).Result()
	if err != nil {
		return nil, failed(err)
	}
	switch v := v.(type) {
	case string:
		return []byte(v), nil
	case int64:
		switch v {
		case -1:
			return nil, page.ErrNotFound
		case -2:
			return nil, page.ErrNotAnswered
		case -3:
			return nil, page.ErrTaken
		}
	}
	return nil, failed(fmt.Errorf("unexpected reply %v", v))
}

// Revise implements page.Store.
func (s *PageStore) Revise(ctx context.Context, id string, version uint64, question []byte) error {
	ctx, cancel := s.ctx(ctx)
	defer cancel()
	n, err := reviseScript.Run(ctx, s.client, []string{s.key(id)}, strconv.FormatUint(version, 10), question).Int()
	switch {
	case err != nil:
		return failed(err)
	case n == -1:
		return page.ErrNotFound
	case n == 0:
		return page.ErrAnswered
	case n == -2:
		return page.ErrExpired
	case n == -3:
		return page.ErrConflict
	}
	return nil
}

// Find implements page.Store.
func (s *PageStore) Find(ctx context.Context, call string) (string, error) {
	ctx, cancel := s.ctx(ctx)
	defer cancel()
	id, err := s.client.Get(ctx, s.callKey(call)).Result()
	if errors.Is(err, redis.Nil) {
		return "", page.ErrNotFound
	}
	if err != nil {
		return "", failed(err)
	}
	return id, nil
}

var _ page.WaitMarker = (*PageStore)(nil)

// waitKey is the key of the mark of a call waiting for page id.
func (s *PageStore) waitKey(id string) string { return s.key("wait:" + id) }

// now reads the store's clock (Now, else time.Now): the instant the
// lists of the inbox and the marks of waiting calls are reckoned from.
// Page expiry itself is decided on Redis's clock.
func (s *PageStore) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// MarkWaiting implements page.WaitMarker: a key that expires at until
// (set with its time to live from now), deleted for a zero or past until.
func (s *PageStore) MarkWaiting(ctx context.Context, id string, until time.Time) error {
	ctx, cancel := s.ctx(ctx)
	defer cancel()
	var err error
	if ttl := until.Sub(s.now()); until.IsZero() || ttl <= 0 {
		err = s.client.Del(ctx, s.waitKey(id)).Err()
	} else {
		err = s.client.Set(ctx, s.waitKey(id), "1", ttl).Err()
	}
	if err != nil {
		return failed(err)
	}
	return nil
}

// Waiting implements page.WaitMarker.
func (s *PageStore) Waiting(ctx context.Context, id string) (bool, error) {
	ctx, cancel := s.ctx(ctx)
	defer cancel()
	n, err := s.client.Exists(ctx, s.waitKey(id)).Result()
	if err != nil {
		return false, failed(err)
	}
	return n == 1, nil
}
