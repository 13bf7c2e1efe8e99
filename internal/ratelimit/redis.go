package ratelimit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// maxRedisKeyLen bounds the part of a Redis key that comes from the caller's
// key (a client id can be long); longer keys are replaced by their SHA-256.
const maxRedisKeyLen = 128

// gcraScript is the decision of gcra (gcra.go) in Lua, run atomically in
// Redis so that nodes calling at the same moment cannot both take the last
// event. The key holds one number, whatever the traffic.
//
// Times are microseconds from the Redis server's TIME, so every node sees the
// same clock whatever its own clock says. Microseconds since 1970 (~1.8e15)
// are exact in Lua's float64 numbers.
//
// KEYS[1] the key: its theoretical arrival time (µs), absent when its budget
// is full
// ARGV[1] limit, ARGV[2] window (µs), ARGV[3] n, ARGV[4] the time (µs) when
// Redis.Now is set, else empty, ARGV[5] the deadline (µs, on the same
// clock) after which the decision must not be made, else empty
//
// Returns {allowed (0/1), remaining, retryAfter (µs)}, or {-1, 0, 0} when
// the script ran after its deadline: a call sent into a stalled connection
// whose caller has long given up (and decided without Redis) charges
// nothing when it finally runs.
//
// TIME before a write needs effects replication, the default since Redis 5.
var gcraScript = redis.NewScript(`
local now = tonumber(ARGV[4])
if now == nil then
	local t = redis.call('TIME')
	now = tonumber(t[1]) * 1000000 + tonumber(t[2])
end
local deadline = tonumber(ARGV[5])
if deadline ~= nil and now > deadline then
	return {-1, 0, 0}
end
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local n = tonumber(ARGV[3])
local tat = tonumber(redis.call('GET', KEYS[1]) or 0)
if tat < now then
	tat = now
end
if n > limit then
	return {0, 0, tat - now}
end
local nxt = tat + math.floor(n * window / limit)
if nxt - window > now then
	return {0, 0, nxt - window - now}
end
-- The key lives until its budget is full again; denied calls write nothing.
redis.call('SET', KEYS[1], string.format('%.0f', nxt), 'PX', math.max(1, math.ceil((nxt - now) / 1000)))
return {1, math.floor((now + window - nxt) * limit / window), 0}
`)

// Redis is a Limiter whose GCRA state lives in Redis, one small string per
// key, so every node using the same Redis and prefix shares one budget.
//
// It gives the same guarantees as Memory, with the Redis server's clock
// (TIME) as the clock: nodes with skewed clocks still agree. The decision is
// one Lua script, atomic in Redis. Allow returns an error when Redis cannot
// be reached or fails; the caller decides whether to fail open or closed.
// A key expires when its budget is full again (at most Window after its last
// allowed event), so idle keys cost nothing.
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
	// Timeout, when positive, bounds each decision (the caller's deadline
	// may be earlier). Set it before first use.
	Timeout time.Duration
	// Offset, when set, tells how far the Redis server's clock is ahead of
	// this node's (Nodes.Offset), and whether that is known: a decision
	// then carries its deadline on Redis's clock, so that Redis makes none
	// once the caller has stopped waiting for it. Set it before first use.
	Offset func() (time.Duration, bool)
}

// ErrLate is the error of a decision Redis came to only after its deadline:
// it charged nothing.
var ErrLate = errors.New("ratelimit: redis: the decision came after its deadline")

// NewRedis returns a limiter allowing limit events per window per key,
// storing its state in client under keys starting with prefix. Limiters
// that share a client (or Redis) and a prefix share their budgets. It panics
// if limit or window is not positive, a programming error.
func NewRedis(client redis.UniversalClient, prefix string, limit int, window time.Duration) *Redis {
	if limit <= 0 || window <= 0 {
		panic(fmt.Sprintf("ratelimit: NewRedis(%d, %s): limit and window must be positive", limit, window))
	}
	return &Redis{client: client, prefix: prefix, limit: limit, window: window}
}

// Allow records an event for key if the key has budget for it.
func (l *Redis) Allow(ctx context.Context, key string) (Decision, error) {
	return l.AllowN(ctx, key, 1)
}

// AllowN records n events for key if the key has budget for all of them;
// n < 1 counts as 1.
func (l *Redis) AllowN(ctx context.Context, key string, n int) (Decision, error) {
	// Rounding the window up to whole microseconds errs towards refusing.
	windowUs := int64((l.window + time.Microsecond - 1) / time.Microsecond)
	if l.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, l.Timeout)
		defer cancel()
	}
	now, deadline := "", ""
	if l.Now != nil {
		t := l.Now()
		now = strconv.FormatInt(t.UnixMicro(), 10)
		if d, ok := ctx.Deadline(); ok {
			deadline = strconv.FormatInt(t.Add(time.Until(d)).UnixMicro(), 10)
		}
	} else if l.Offset != nil {
		if off, ok := l.Offset(); ok {
			if d, ok := ctx.Deadline(); ok {
				deadline = strconv.FormatInt(d.Add(off).UnixMicro(), 10)
			}
		}
	}
	res, err := gcraScript.Run(ctx, l.client, []string{l.redisKey(key)}, l.limit, windowUs, max(n, 1), now, deadline).Int64Slice()
	if err != nil {
		return Decision{}, fmt.Errorf("ratelimit: redis: %w", err)
	}
	if len(res) != 3 {
		return Decision{}, fmt.Errorf("ratelimit: redis: script returned %d values, want 3", len(res))
	}
	if res[0] == -1 {
		return Decision{}, ErrLate
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
