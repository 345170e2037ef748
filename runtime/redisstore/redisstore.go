// Package redisstore is an seal.ReplayStore in Redis, for deployments
// of several instances: every instance claims the request states it
// receives in one Redis, so that a state that carried answers into a tool
// handler on one instance is refused on all of them.
//
//	store, err := redisstore.Open("redis://127.0.0.1:6379/0")
//	...
//	if err := store.Start(ctx); err != nil { ... } // checks the server's settings
//	cfg := &gosdk.Config{Options: adapter.Options{Keys: keys, Replay: store}}
//
// A claim is one Lua script, atomic in Redis: SET key value NX PX ttl, so
// that it succeeds for the first claimer only, with the TTL reckoned on
// Redis's clock (TIME) from the state's expiry plus ClockSkew.
//
// A store that forgot fails closed. Start writes an epoch key (Redis's
// time in µs, no TTL); every claim reads it in the same script and reports
// it, and the runtime seals it into the states it issues
// (seal.ReplayStore). A claim compares the state's epoch with the key
// exactly: when the key is gone (a restart without persistence,
// FLUSHALL, FLUSHDB), the script writes a new epoch, and every state
// sealed under the old one is refused with seal.ErrStoreForgot (its
// claim may have been among the records lost, so the person is asked
// again), while the states issued under the new one are accepted at
// once, on every instance. Eviction can drop claim keys while the epoch
// survives, so Start refuses a maxmemory-policy other than noeviction
// unless AllowEviction says why the author accepts it. When Redis cannot be reached the claim fails and the request is
// refused; a claim whose reply does not arrive within Timeout counts as
// spent (seal.ErrClaimUnknown), since Redis may apply it later.
package redisstore

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/elicitgen/elicitgen/runtime/seal"
)

// DefaultPrefix starts the Redis keys of claimed states.
const DefaultPrefix = "elicitgen:state:"

// DefaultTimeout bounds one claim when the request's context has no
// earlier deadline. A client from Open has its dial, read and write
// timeouts set to it too, so that no claim waits longer.
const DefaultTimeout = 2 * time.Second

// ErrEvictionPolicy is matched (errors.Is) by the error of Start on a
// Redis whose maxmemory-policy may evict claim keys (allkeys-*,
// volatile-*: claim keys have TTLs), or whose policy cannot be read,
// when AllowEviction is empty.
var ErrEvictionPolicy = errors.New("redisstore: Redis may evict claims")

// Store claims state ids in Redis. It implements seal.ReplayStore and is
// safe for concurrent use. It has no budget per client (Claim.Client is
// not used): size Redis for the claims of a state's lifetime. Set its
// fields before first use.
type Store struct {
	client redis.Cmdable
	closer func() error
	// Prefix starts every key; DefaultPrefix when empty. Instances that
	// share a Redis and a key ring must use the same prefix.
	Prefix string
	// Timeout bounds one claim; DefaultTimeout when zero. A claim whose
	// reply has not arrived by then counts as spent.
	Timeout time.Duration
	// ClockSkew is how far the clocks of the instances and of Redis may
	// differ; seal.MaxClockSkew when zero. A claim from an instance whose
	// clock differs from Redis's by more is refused (fail closed); claim
	// keys live ClockSkew past their state's expiry on Redis's clock.
	ClockSkew time.Duration
	// AllowEviction, when not empty, lets Start accept a maxmemory-policy
	// that can evict claims (or one it cannot read, as on some managed
	// Redis services): it is the author's reason, logged with the policy
	// at start (for example "dedicated instance sized for 10x the claims,
	// volatile-lru only evicts under memory pressure").
	AllowEviction string
	// Logger receives what Start found (persistence off, an accepted
	// eviction policy); slog.Default() when nil.
	Logger *slog.Logger
	// Now is the instance's clock, compared with Redis's; nil means
	// time.Now. Expiry is decided on Redis's clock (TIME) and key TTLs,
	// which no Go clock moves: a test that simulates days uses the
	// in-memory stores (elicittest.Clock), or Redis under libfaketime; a
	// Now far from Redis's time fails every claim as skewed.
	Now func() time.Time
}

var _ seal.ReplayStore = (*Store)(nil)

// New returns a store on client (a *redis.Client, *redis.ClusterClient
// or any redis.Cmdable). Closing client is the caller's business; so are
// its timeouts: set ContextTimeoutEnabled (go-redis otherwise waits its
// own ReadTimeout whatever the claim's context says) and a ReadTimeout no
// longer than Timeout, as Open does.
func New(client redis.Cmdable) *Store {
	return &Store{client: client}
}

// Open returns a store on a new client for url, of the form
// redis://[[user]:password@]host[:port][/db] (rediss:// for TLS; see
// redis.ParseURL), with go-redis's dial, read and write timeouts set to
// DefaultTimeout, context deadlines honoured and no retries (a retried
// claim could find its own first attempt). It does not connect: Start
// (or the first claim) does. Close releases the client.
func Open(url string) (*Store, error) {
	opt, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("redisstore: %w", err)
	}
	opt.ContextTimeoutEnabled = true
	opt.DialTimeout, opt.ReadTimeout, opt.WriteTimeout = DefaultTimeout, DefaultTimeout, DefaultTimeout
	opt.MaxRetries = -1
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
		return fmt.Errorf("%w: redis: %w", seal.ErrReplayStore, err)
	}
	return nil
}

// Start checks the Redis server before the store is used and writes the
// epoch key if there is none. It fails when Redis does not answer, and
// with ErrEvictionPolicy when maxmemory-policy is not noeviction (or
// cannot be read) and AllowEviction is empty; an accepted policy is
// logged with the reason. A server without persistence (no RDB saves,
// no AOF) is logged: a restart then loses every claim, which the epoch
// detects (the approvals in flight are asked again).
func (s *Store) Start(ctx context.Context) error {
	if err := s.Ping(ctx); err != nil {
		return err
	}
	log := s.Logger
	if log == nil {
		log = slog.Default()
	}
	policy, err := s.config(ctx, "maxmemory-policy")
	switch {
	case err == nil && policy == "noeviction":
	case s.AllowEviction == "" && err != nil:
		return fmt.Errorf("%w: CONFIG GET maxmemory-policy failed (%v), so the store cannot tell whether Redis evicts claim keys; use maxmemory-policy noeviction, or set AllowEviction to the reason this Redis never evicts them", ErrEvictionPolicy, err)
	case s.AllowEviction == "":
		return fmt.Errorf("%w: maxmemory-policy is %s, which can drop claim keys (they have TTLs) and let a spent approval be used again; set maxmemory-policy noeviction, or set AllowEviction to the reason this Redis never evicts them", ErrEvictionPolicy, policy)
	default:
		log.Warn("redisstore: running on a Redis that may evict claims, as allowed", "maxmemory-policy", policy, "policy_error", errString(err), "reason", s.AllowEviction)
	}
	save, serr := s.config(ctx, "save")
	aof, aerr := s.config(ctx, "appendonly")
	if serr == nil && aerr == nil && save == "" && aof == "no" {
		log.Info("redisstore: Redis has no persistence (save \"\", appendonly no): a restart loses every claim; states issued before it are then refused and their approvals asked again")
	}
	now, err := s.client.Time(ctx).Result()
	if err != nil {
		return fmt.Errorf("%w: redis: %w", seal.ErrReplayStore, err)
	}
	if err := s.client.SetNX(ctx, s.prefix()+"epoch", now.UnixMicro(), 0).Err(); err != nil {
		return fmt.Errorf("%w: redis: %w", seal.ErrReplayStore, err)
	}
	return nil
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// config returns the value of a Redis configuration parameter.
func (s *Store) config(ctx context.Context, name string) (string, error) {
	m, err := s.client.ConfigGet(ctx, name).Result()
	if err != nil {
		return "", err
	}
	v, ok := m[name]
	if !ok {
		return "", fmt.Errorf("no %s in CONFIG GET's reply", name)
	}
	return v, nil
}

func (s *Store) prefix() string {
	if s.Prefix == "" {
		return DefaultPrefix
	}
	return s.Prefix
}

// claimScript claims KEYS[2] under the epoch KEYS[1], or, without
// KEYS[2], only reads the epoch. ARGV: the state's epoch (decimal), its
// until (ms, instance clock), the instance's now (ms), the clock skew
// allowed (ms), the state's expiry (ms; 0: unknown) and how long to hold
// an expired claim (ms). Expiry is decided on Redis's clock: a claim
// past the state's expiry is recorded for the hold and reported expired
// (a third element, 1). A missing epoch key is written with Redis's time in
// microseconds, as Start writes it: a new value at every loss (no two
// scripts run in one microsecond), exact in Lua's doubles. The epoch is
// compared as the decimal string it is stored as (an earlier release
// wrote milliseconds, which still work). Replies are {code, epoch}: 1 claimed,
// 0 already claimed, 2 epoch read, -1 the epoch was gone (now
// rewritten), -2 the state is of another epoch; or {-3, redis now}:
// clocks too far apart.
var claimScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local untilms, local_now, skew = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
if math.abs(now - local_now) > skew then
  return {-3, now}
end
local epoch = redis.call('GET', KEYS[1])
if not epoch then
  epoch = string.format('%.0f', tonumber(t[1]) * 1000000 + tonumber(t[2]))
  redis.call('SET', KEYS[1], epoch)
  if not KEYS[2] then
    return {2, tonumber(epoch)}
  end
  return {-1, tonumber(epoch)}
end
if not KEYS[2] then
  return {2, tonumber(epoch)}
end
if epoch ~= ARGV[1] then
  return {-2, tonumber(epoch)}
end
local expms = tonumber(ARGV[5])
local expired = 0
local ttl = untilms - now + skew
if expms > 0 and now > expms then
  expired = 1
  ttl = math.max(ttl, tonumber(ARGV[6]))
end
if ttl <= 0 then
  return {1, tonumber(epoch), expired}
end
if redis.call('SET', KEYS[2], '1', 'NX', 'PX', ttl) then
  return {1, tonumber(epoch), expired}
end
return {0, tonumber(epoch), expired}
`)

// now reads the instance's clock (Now, time.Now without one).
func (s *Store) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Claim implements seal.ReplayStore (Client is not used; Issued sets how
// long an expired claim is held). It decides expiry on Redis's clock. A
// Redis that answers with an error, or cannot be reached, fails the
// claim with an error matching seal.ErrReplayStore; a reply that does
// not arrive in time, with seal.ErrClaimUnknown (the state counts as
// spent); a lost epoch key or a state of another epoch, with
// seal.ErrStoreForgot.
func (s *Store) Claim(ctx context.Context, c seal.Claim) (seal.Claimed, error) {
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	skew := s.ClockSkew
	if skew <= 0 {
		skew = seal.MaxClockSkew
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	p := s.prefix()
	keys := []string{p + "epoch"}
	if c.ID != "" {
		keys = append(keys, p+c.ID)
	}
	var expires int64
	if !c.Expires.IsZero() {
		expires = c.Expires.UnixMilli()
	}
	res, err := claimScript.Run(ctx, s.client, keys,
		strconv.FormatUint(c.Epoch, 10), c.Until.UnixMilli(), s.now().UnixMilli(), skew.Milliseconds(),
		expires, seal.ExpiredHold(c).Milliseconds()).Int64Slice()
	if err != nil {
		return seal.Claimed{}, claimError(err)
	}
	if len(res) != 2 && len(res) != 3 {
		return seal.Claimed{}, fmt.Errorf("%w: redis: unexpected reply %v to the claim (is the epoch key a number?)", seal.ErrReplayStore, res)
	}
	if res[0] == -3 {
		diff := s.now().Sub(time.UnixMilli(res[1])).Round(time.Millisecond)
		return seal.Claimed{}, fmt.Errorf("%w: this instance's clock differs from Redis's by %s, more than the %s allowed: fix the clock (NTP)", seal.ErrReplayStore, diff, skew)
	}
	if res[1] <= 0 {
		return seal.Claimed{}, fmt.Errorf("%w: redis: the epoch key holds %d, not a positive number", seal.ErrReplayStore, res[1])
	}
	out := seal.Claimed{Epoch: uint64(res[1]), Expired: len(res) == 3 && res[2] == 1}
	switch res[0] {
	case 1:
		out.First = true
		return out, nil
	case 0, 2:
		return out, nil
	case -1, -2:
		return out, seal.ErrStoreForgot
	}
	return seal.Claimed{}, fmt.Errorf("%w: redis: unexpected reply %v to the claim", seal.ErrReplayStore, res)
}

// claimError classifies a failed claim: Redis answered with an error, or
// the connection could not be made (the claim was not applied), or the
// reply did not arrive (it may have been).
func claimError(err error) error {
	var rerr redis.Error
	var operr *net.OpError
	switch {
	case errors.As(err, &rerr):
		return fmt.Errorf("%w: redis: %w", seal.ErrReplayStore, err)
	case errors.As(err, &operr) && operr.Op == "dial":
		return fmt.Errorf("%w: redis: %w", seal.ErrReplayStore, err)
	}
	return fmt.Errorf("%w (%s)", seal.ErrClaimUnknown, strconv.Quote(err.Error()))
}
