package faulttest

import (
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/latchkit/latch/internal/redistest"
)

// Redis returns a client of LATCH_TEST_REDIS (the test is skipped without
// it) whose connections go through a fault proxy, configured as latchd
// configures its own: bound as every timeout, callers' deadlines honoured,
// no retries. Both are closed when the test ends.
func Redis(tb testing.TB, bound time.Duration) (*redis.Client, *Proxy) {
	tb.Helper()
	opts, err := redis.ParseURL(redistest.URL(tb))
	if err != nil {
		tb.Fatalf("LATCH_TEST_REDIS: %v", err)
	}
	p := Start(tb, opts.Addr)
	opts.Addr = p.Addr()
	opts.ReadTimeout, opts.WriteTimeout, opts.DialTimeout, opts.PoolTimeout = bound, bound, bound, bound
	opts.MaxRetries, opts.ContextTimeoutEnabled = -1, true
	c := redis.NewClient(opts)
	tb.Cleanup(func() { c.Close() })
	return c, p
}
