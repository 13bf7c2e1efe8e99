// Package redistest gives tests a Redis client from LATCH_TEST_REDIS and a
// key prefix of their own, so tests can share one Redis and run in parallel.
package redistest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// URL returns LATCH_TEST_REDIS, skipping the test when it is unset.
func URL(tb testing.TB) string {
	tb.Helper()
	u := os.Getenv("LATCH_TEST_REDIS")
	if u == "" {
		tb.Skip("LATCH_TEST_REDIS is not set; Redis tests skipped (eval \"$(bash scripts/services.sh)\" sets it)")
	}
	return u
}

// Prefix returns a fresh random key prefix and deletes every key under it
// from the Redis at URL(tb) when the test ends.
func Prefix(tb testing.TB) string {
	tb.Helper()
	var b [8]byte
	rand.Read(b[:])
	prefix := "latchtest:" + hex.EncodeToString(b[:]) + ":"
	u := URL(tb)
	tb.Cleanup(func() {
		opts, err := redis.ParseURL(u)
		if err != nil {
			tb.Errorf("redistest: %v", err)
			return
		}
		c := redis.NewClient(opts)
		defer c.Close()
		if err := DeletePrefix(context.Background(), c, prefix); err != nil {
			tb.Errorf("redistest: clean up %s*: %v", prefix, err)
		}
	})
	return prefix
}

// MustClient connects to LATCH_TEST_REDIS (skipping the test when unset) and
// returns the client and a fresh key prefix, both cleaned up when the test ends.
func MustClient(tb testing.TB) (redis.UniversalClient, string) {
	tb.Helper()
	opts, err := redis.ParseURL(URL(tb))
	if err != nil {
		tb.Fatalf("LATCH_TEST_REDIS: %v", err)
	}
	c := redis.NewClient(opts)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Ping(ctx).Err(); err != nil {
		c.Close()
		tb.Fatalf("ping LATCH_TEST_REDIS: %v", err)
	}
	prefix := Prefix(tb) // registered first, so its clean-up runs after Close
	tb.Cleanup(func() { c.Close() })
	return c, prefix
}

// DeletePrefix deletes every key starting with prefix.
func DeletePrefix(ctx context.Context, c redis.UniversalClient, prefix string) error {
	iter := c.Scan(ctx, 0, prefix+"*", 1000).Iterator()
	var keys []string
	for iter.Next(ctx) {
		keys = append(keys, iter.Val())
	}
	if err := iter.Err(); err != nil || len(keys) == 0 {
		return err
	}
	return c.Del(ctx, keys...).Err()
}
