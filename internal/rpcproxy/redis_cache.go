package rpcproxy

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

const (
	// maxRedisCacheKeyLen bounds the cache key kept as is in a Redis key;
	// longer ones (eth_call data can be kilobytes) are replaced by their SHA-256.
	maxRedisCacheKeyLen = 256
	// RedisCacheMaxTTL caps how long RedisCache keeps an entry, including
	// those the proxy stores for ever (ttl 0), so a shared Redis does not fill
	// up with old blocks. Dropping early is allowed: a miss asks the upstream.
	RedisCacheMaxTTL = 24 * time.Hour
)

// RedisCache is a Cache in Redis, shared by every node using the same Redis
// and prefix. Each entry is one string key with a PX expiry, so Redis itself
// never serves it after its ttl. Get and Set return Redis's errors; the proxy
// treats them as misses.
type RedisCache struct {
	client redis.UniversalClient
	prefix string
}

// NewRedisCache returns a Cache storing values in client under keys starting
// with prefix.
func NewRedisCache(client redis.UniversalClient, prefix string) *RedisCache {
	return &RedisCache{client: client, prefix: prefix}
}

// Get implements Cache.
func (c *RedisCache) Get(ctx context.Context, key string) ([]byte, bool, error) {
	v, err := c.client.Get(ctx, c.redisKey(key)).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("rpc cache: redis get: %w", err)
	}
	return v, true, nil
}

// Set implements Cache. A ttl of 0 or above RedisCacheMaxTTL is stored for
// RedisCacheMaxTTL.
func (c *RedisCache) Set(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	if ttl <= 0 || ttl > RedisCacheMaxTTL {
		ttl = RedisCacheMaxTTL
	}
	// Redis keeps a key while its millisecond clock is at or before the
	// expiry instant, and that clock reads up to 1 ms behind the moment of the
	// SET; so a value stored for ttl-1 ms (rounded down) is gone before ttl.
	px := ttl.Truncate(time.Millisecond) - time.Millisecond
	if px <= 0 {
		return nil // would expire before it could be read; a miss is safe
	}
	if err := c.client.Set(ctx, c.redisKey(key), value, px).Err(); err != nil {
		return fmt.Errorf("rpc cache: redis set: %w", err)
	}
	return nil
}

func (c *RedisCache) redisKey(key string) string {
	if len(key) <= maxRedisCacheKeyLen {
		return c.prefix + "k:" + key
	}
	// A distinct namespace, so a hashed key never meets a literal one.
	sum := sha256.Sum256([]byte(key))
	return c.prefix + "h:" + hex.EncodeToString(sum[:])
}
