package redisstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/elicitgen/elicitgen/runtime/tasks"
)

// DefaultTaskPrefix starts the Redis keys of tasks.
const DefaultTaskPrefix = "elicitgen:task:"

// TaskStore is a tasks.Store in Redis, so that a task created on one
// instance is read, answered and completed on any other. A task is one
// hash (version, record) whose TTL Redis keeps from the task's life, so
// that its expiry is decided on Redis's clock, not an instance's. Create
// and each update are Lua scripts on that one key, atomic in Redis (and
// fit for a Redis Cluster): an update is stored only if the version it
// read is still the stored one, and is retried otherwise. When Redis
// cannot be reached every operation fails and the task is not changed. It
// is safe for concurrent use.
type TaskStore struct {
	client redis.Cmdable
	// Prefix starts every key; DefaultTaskPrefix when empty. Instances
	// that serve one another's tasks use the same prefix.
	Prefix string
	// Timeout bounds one operation; DefaultTimeout when zero.
	Timeout time.Duration
}

var _ tasks.Store = (*TaskStore)(nil)

// NewTaskStore returns a task store on client. Closing client is the
// caller's business.
func NewTaskStore(client redis.Cmdable) *TaskStore { return &TaskStore{client: client} }

// TaskStore returns a task store on s's client: the same Redis the replay
// store uses.
func (s *Store) TaskStore() *TaskStore {
	return &TaskStore{client: s.client, Timeout: s.Timeout}
}

func (s *TaskStore) key(id string) string {
	if s.Prefix != "" {
		return s.Prefix + id
	}
	return DefaultTaskPrefix + id
}

func (s *TaskStore) ctx(ctx context.Context) (context.Context, context.CancelFunc) {
	t := s.Timeout
	if t <= 0 {
		t = DefaultTimeout
	}
	return context.WithTimeout(ctx, t)
}

// createTaskScript stores a new task unless its key exists: KEYS task;
// ARGV record, life in ms (0: none).
var createTaskScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', '1', 'r', ARGV[1])
if ARGV[2] ~= '0' then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1`)

// updateTaskScript replaces a task's record if its version is still the
// one read: KEYS task; ARGV version read, new version, record. It returns
// -1 when the task is gone, 0 when another update came first, 1 when
// stored. HSET keeps the key's TTL.
var updateTaskScript = redis.NewScript(`
local v = redis.call('HGET', KEYS[1], 'v')
if not v then return -1 end
if v ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'r', ARGV[3])
return 1`)

// maxUpdateTries bounds the retries of one Update under contention.
const maxUpdateTries = 32

// Create implements tasks.Store. The record is in Redis when it returns.
func (s *TaskStore) Create(ctx context.Context, r tasks.Record) error {
	ctx, cancel := s.ctx(ctx)
	defer cancel()
	r.Version = 1
	b, err := json.Marshal(&r)
	if err != nil {
		return err
	}
	var life int64
	if !r.Expires.IsZero() {
		life = max(r.Expires.Sub(r.Created).Milliseconds(), 1)
	}
	n, err := createTaskScript.Run(ctx, s.client, []string{s.key(r.ID)}, b, strconv.FormatInt(life, 10)).Int()
	if err != nil {
		return fmt.Errorf("redisstore: storing task: %w", err)
	}
	if n == 0 {
		return tasks.ErrExists
	}
	return nil
}

// Get implements tasks.Store.
func (s *TaskStore) Get(ctx context.Context, id string) (tasks.Record, error) {
	ctx, cancel := s.ctx(ctx)
	defer cancel()
	r, _, err := s.get(ctx, id)
	return r, err
}

func (s *TaskStore) get(ctx context.Context, id string) (tasks.Record, string, error) {
	vals, err := s.client.HMGet(ctx, s.key(id), "v", "r").Result()
	if err != nil {
		return tasks.Record{}, "", fmt.Errorf("redisstore: reading task: %w", err)
	}
	v, ok1 := vals[0].(string)
	raw, ok2 := vals[1].(string)
	if !ok1 || !ok2 {
		return tasks.Record{}, "", tasks.ErrNotFound
	}
	var r tasks.Record
	if err := json.Unmarshal([]byte(raw), &r); err != nil {
		return tasks.Record{}, "", fmt.Errorf("redisstore: task %s does not decode: %w", id, err)
	}
	if r.ID != id {
		return tasks.Record{}, "", fmt.Errorf("redisstore: task %s holds the record of %q", id, r.ID)
	}
	return r, v, nil
}

// Update implements tasks.Store.
func (s *TaskStore) Update(ctx context.Context, id string, fn func(*tasks.Record) error) (tasks.Record, error) {
	ctx, cancel := s.ctx(ctx)
	defer cancel()
	for range maxUpdateTries {
		r, v, err := s.get(ctx, id)
		if err != nil {
			return tasks.Record{}, err
		}
		if err := fn(&r); err != nil {
			return tasks.Record{}, err
		}
		old, _ := strconv.ParseUint(v, 10, 64)
		r.ID, r.Version = id, old+1
		b, err := json.Marshal(&r)
		if err != nil {
			return tasks.Record{}, err
		}
		n, err := updateTaskScript.Run(ctx, s.client, []string{s.key(id)}, v, strconv.FormatUint(r.Version, 10), b).Int()
		switch {
		case err != nil:
			return tasks.Record{}, fmt.Errorf("redisstore: updating task: %w", err)
		case n == -1:
			return tasks.Record{}, tasks.ErrNotFound
		case n == 1:
			return r, nil
		}
		if err := ctx.Err(); err != nil {
			return tasks.Record{}, err
		}
	}
	return tasks.Record{}, errors.New("redisstore: updating task: too many concurrent updates")
}
