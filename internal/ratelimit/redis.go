package ratelimit

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// maxRedisKeyLen bounds the part of a Redis key that comes from the caller's
// key (a client id can be long); longer keys are replaced by their SHA-256.
const maxRedisKeyLen = 128

// slidingLogScript is the whole decision, run atomically in Redis so that
// nodes calling at the same moment cannot both take the last slot.
//
// Times are microseconds from the Redis server's TIME, so every node sees the
// same clock whatever its own clock says. Microseconds since 1970 (~1.8e15)
// are exact in the sorted set's float64 scores.
//
// KEYS[1] the key's sorted set: one member per allowed event, scored by its time
// ARGV[1] limit, ARGV[2] window (µs), ARGV[3] window (ms, rounded up, for
// PEXPIRE), ARGV[4] a member unique to this call, ARGV[5] the time (µs) when
// Redis.Now is set, else empty
//
// Returns {allowed (0/1), remaining, retryAfter (µs)}.
//
// TIME before a write needs effects replication, the default since Redis 5.
var slidingLogScript = redis.NewScript(`
local now = tonumber(ARGV[5])
if now == nil then
	local t = redis.call('TIME')
	now = tonumber(t[1]) * 1000000 + tonumber(t[2])
end
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
-- An event at s counts while now < s + window: those at or before now - window have left.
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local n = redis.call('ZCARD', KEYS[1])
if n >= limit then
	local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
	return {0, 0, tonumber(oldest[2]) + window - now}
end
redis.call('ZADD', KEYS[1], now, ARGV[4])
-- The set lives as long as its newest event counts; denied calls add nothing.
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {1, limit - n - 1, 0}
`)

// Redis is a Limiter whose sliding logs live in Redis, one sorted set per
// key, so every node using the same Redis and prefix shares one budget.
//
// It gives the same guarantees as Memory, with the Redis server's clock
// (TIME) as the clock: nodes with skewed clocks still agree. The decision is
// one Lua script, atomic in Redis. Allow returns an error when Redis cannot
// be reached or fails; the caller decides whether to fail open or closed.
// Each key costs Redis at most Limit members and expires Window after its
// last allowed event, so idle keys cost nothing.
type Redis struct {
	client redis.UniversalClient
	prefix string
	limit  int
	window time.Duration

	// Now, when set, is the clock instead of the Redis server's TIME: tests
	// replace it so they need not wait in real time. Nodes sharing a budget
	// leave it nil, as only the server's clock is common to them. It must be
	// set before first use.
	Now func() time.Time
}

// NewRedis returns a limiter allowing at most limit events per window per
// key, storing its state in client under keys starting with prefix. Limiters
// that share a client (or Redis) and a prefix share their budgets. It panics
// if limit or window is not positive, a programming error.
func NewRedis(client redis.UniversalClient, prefix string, limit int, window time.Duration) *Redis {
	if limit <= 0 || window <= 0 {
		panic(fmt.Sprintf("ratelimit: NewRedis(%d, %s): limit and window must be positive", limit, window))
	}
	return &Redis{client: client, prefix: prefix, limit: limit, window: window}
}

// Allow records an event for key if the key is under its limit.
func (l *Redis) Allow(ctx context.Context, key string) (Decision, error) {
	var id [12]byte
	rand.Read(id[:]) // never fails (crypto/rand since Go 1.24)
	// Rounding the window up keeps exactness: a longer window only counts more.
	windowUs := int64((l.window + time.Microsecond - 1) / time.Microsecond)
	windowMs := int64((l.window + time.Millisecond - 1) / time.Millisecond)
	now := ""
	if l.Now != nil {
		now = strconv.FormatInt(l.Now().UnixMicro(), 10)
	}
	res, err := slidingLogScript.Run(ctx, l.client, []string{l.redisKey(key)},
		l.limit, windowUs, windowMs, hex.EncodeToString(id[:]), now).Int64Slice()
	if err != nil {
		return Decision{}, fmt.Errorf("ratelimit: redis: %w", err)
	}
	if len(res) != 3 {
		return Decision{}, fmt.Errorf("ratelimit: redis: script returned %d values, want 3", len(res))
	}
	if res[0] == 1 {
		return Decision{Allowed: true, Remaining: int(res[1])}, nil
	}
	return Decision{RetryAfter: time.Duration(res[2]) * time.Microsecond}, nil
}

func (l *Redis) redisKey(key string) string {
	if len(key) <= maxRedisKeyLen {
		return l.prefix + "k:" + key
	}
	// A distinct namespace, so a hashed key never meets a literal one.
	sum := sha256.Sum256([]byte(key))
	return l.prefix + "h:" + hex.EncodeToString(sum[:])
}
