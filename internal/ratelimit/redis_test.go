package ratelimit_test

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/ratelimit"
	"github.com/latchkit/latch/internal/redistest"
	"github.com/redis/go-redis/v9"
)

var _ ratelimit.Limiter = (*ratelimit.Redis)(nil)

// These tests set the limiter's clock (Redis.Now) instead of waiting in real
// time; TestRedis_ServerClock checks Redis's own clock (TIME).

func TestRedis_Allow(t *testing.T) {
	client, prefix := redistest.MustClient(t)
	const window = 300 * time.Millisecond

	t.Run("OK", func(t *testing.T) {
		l := ratelimit.NewRedis(client, prefix+"ok:", 3, window)
		c := newClock()
		l.Now = c.Now
		for i := 0; i < 3; i++ {
			d := mustAllow(t, l, "a")
			if !d.Allowed || d.Remaining != 2-i || d.RetryAfter != 0 {
				t.Fatalf("call %d: %+v, want allowed with %d remaining", i+1, d, 2-i)
			}
		}
		d := mustAllow(t, l, "a")
		if d.Allowed || d.Remaining != 0 {
			t.Fatalf("4th call: %+v, want denied", d)
		}
		if d.RetryAfter <= 0 || d.RetryAfter > window {
			t.Fatalf("RetryAfter %s, want in (0, %s]", d.RetryAfter, window)
		}
		if d := mustAllow(t, l, "b"); !d.Allowed || d.Remaining != 2 {
			t.Fatalf("other key: %+v, want its own budget", d)
		}
		// Denied calls are free: retrying does not push the next slot back.
		for i := 0; i < 5; i++ {
			mustAllow(t, l, "a")
		}
		c.Add(window + 20*time.Millisecond)
		if d := mustAllow(t, l, "a"); !d.Allowed || d.Remaining != 2 {
			t.Fatalf("after the window: %+v, want allowed with 2 remaining", d)
		}
	})

	t.Run("EarnsOnePerInterval", func(t *testing.T) {
		// GCRA with a limit of 2 per 300 ms: two at once, then one every 150 ms.
		l := ratelimit.NewRedis(client, prefix+"earn:", 2, window)
		c := newClock()
		l.Now = c.Now
		mustAllow(t, l, "k")
		mustAllow(t, l, "k")
		d := mustAllow(t, l, "k")
		if d.Allowed || d.RetryAfter != window/2 {
			t.Fatalf("3rd call: %+v, want denied for %s", d, window/2)
		}
		c.Add(d.RetryAfter)
		if d := mustAllow(t, l, "k"); !d.Allowed || d.Remaining != 0 {
			t.Fatalf("after RetryAfter: %+v, want allowed with 0 remaining", d)
		}
		if d := mustAllow(t, l, "k"); d.Allowed {
			t.Fatalf("only one was earned: %+v, want denied", d)
		}
	})

	t.Run("AllowN", func(t *testing.T) {
		l := ratelimit.NewRedis(client, prefix+"n:", 10, 10*time.Second)
		c := newClock()
		l.Now = c.Now
		ctx := context.Background()
		for i, tt := range []struct {
			after time.Duration
			n     int
			want  ratelimit.Decision
		}{
			{0, 4, ratelimit.Decision{Allowed: true, Remaining: 6}},
			{0, 7, ratelimit.Decision{RetryAfter: time.Second}},
			{0, 6, ratelimit.Decision{Allowed: true, Remaining: 0}},
			{0, 11, ratelimit.Decision{RetryAfter: 10 * time.Second}},
			{20 * time.Second, 10, ratelimit.Decision{Allowed: true, Remaining: 0}},
			{3 * time.Second, 3, ratelimit.Decision{Allowed: true, Remaining: 0}},
		} {
			c.Add(tt.after)
			d, err := l.AllowN(ctx, "k", tt.n)
			if err != nil || d != tt.want {
				t.Fatalf("step %d AllowN(%d): %+v %v, want %+v", i, tt.n, d, err, tt.want)
			}
		}
	})

	// Issue 15 finding 17: the sliding log kept one sorted-set member per
	// allowed event; GCRA keeps one number per key.
	t.Run("ConstantMemory", func(t *testing.T) {
		l := ratelimit.NewRedis(client, prefix+"mem:", 60_000, time.Minute)
		c := newClock()
		l.Now = c.Now
		ctx := context.Background()
		pipe := 0
		for i := 0; i < 10_000; i++ {
			c.Add(time.Microsecond)
			if d := mustAllow(t, l, "k"); d.Allowed {
				pipe++
			}
		}
		if pipe != 10_000 {
			t.Fatalf("allowed %d of 10000 under a limit of 60000", pipe)
		}
		keys, err := client.Keys(ctx, prefix+"mem:*").Result()
		if err != nil || len(keys) != 1 {
			t.Fatalf("keys %v %v, want one", keys, err)
		}
		typ, _ := client.Type(ctx, keys[0]).Result()
		size, err := client.MemoryUsage(ctx, keys[0]).Result()
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("after 10000 events: one %s key of %d bytes", typ, size)
		if typ != "string" || size > 128 {
			t.Fatalf("key %s of %d bytes after 10000 events, want one small string", typ, size)
		}
	})

	t.Run("LongKeyHashed", func(t *testing.T) {
		l := ratelimit.NewRedis(client, prefix+"long:", 1, window)
		long := strings.Repeat("x", 10_000)
		if d := mustAllow(t, l, long); !d.Allowed {
			t.Fatalf("first: %+v", d)
		}
		if d := mustAllow(t, l, long); d.Allowed {
			t.Fatalf("second: %+v, want denied", d)
		}
		if d := mustAllow(t, l, long+"y"); !d.Allowed {
			t.Fatalf("another long key shares the budget: %+v", d)
		}
		keys, err := client.Keys(context.Background(), prefix+"long:*").Result()
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range keys {
			if len(k) > 200 {
				t.Fatalf("Redis key of %d bytes, want long keys hashed", len(k))
			}
		}
	})

	t.Run("KeyExpires", func(t *testing.T) {
		l := ratelimit.NewRedis(client, prefix+"ttl:", 1, window)
		mustAllow(t, l, "k")
		ttl, err := client.PTTL(context.Background(), prefix+"ttl:k:k").Result()
		if err != nil {
			t.Fatal(err)
		}
		if ttl <= 0 || ttl > window {
			t.Fatalf("PTTL %s, want in (0, %s]", ttl, window)
		}
	})

	t.Run("ErrUnreachable", func(t *testing.T) {
		down := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1})
		defer down.Close()
		l := ratelimit.NewRedis(down, prefix+"err:", 1, window)
		if _, err := l.Allow(context.Background(), "k"); err == nil {
			t.Fatal("Allow with Redis down: no error")
		}
	})
}

// Without Now the limiter runs on Redis's clock (TIME): a window of real
// time refuses, and RetryAfter counts down in real time.
func TestRedis_ServerClock(t *testing.T) {
	client, prefix := redistest.MustClient(t)
	l := ratelimit.NewRedis(client, prefix, 1, time.Hour)
	if d := mustAllow(t, l, "k"); !d.Allowed {
		t.Fatalf("first: %+v", d)
	}
	d := mustAllow(t, l, "k")
	if d.Allowed || d.RetryAfter <= time.Hour-time.Minute || d.RetryAfter > time.Hour {
		t.Fatalf("second: %+v, want denied for about an hour", d)
	}
}

// TestRedis_SharedBudget is the multi-node guarantee: two limiters (two
// nodes) on one Redis and prefix admit Limit events in total.
func TestRedis_SharedBudget(t *testing.T) {
	client, prefix := redistest.MustClient(t)
	other, _ := redistest.MustClient(t) // a second connection pool, as on another node
	a := ratelimit.NewRedis(client, prefix, 4, time.Minute)
	b := ratelimit.NewRedis(other, prefix, 4, time.Minute)
	for i, l := range []ratelimit.Limiter{a, b, a, b} {
		if d := mustAllow(t, l, "ip"); !d.Allowed || d.Remaining != 3-i {
			t.Fatalf("call %d: %+v, want allowed with %d remaining", i+1, d, 3-i)
		}
	}
	for _, l := range []ratelimit.Limiter{a, b} {
		if d := mustAllow(t, l, "ip"); d.Allowed || d.RetryAfter <= 0 {
			t.Fatalf("over the shared budget: %+v, want denied with RetryAfter", d)
		}
	}
}

func TestRedis_Concurrent(t *testing.T) {
	client, prefix := redistest.MustClient(t)
	const limit = 50
	l := ratelimit.NewRedis(client, prefix, limit, time.Minute)
	var allowed atomic.Int64
	var wg sync.WaitGroup
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				d, err := l.Allow(context.Background(), "k")
				if err != nil {
					t.Error(err)
					return
				}
				if d.Allowed {
					allowed.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	if n := allowed.Load(); n != limit {
		t.Fatalf("allowed %d of 160 concurrent calls, want exactly %d", n, limit)
	}
}

func TestNewRedis_Invalid(t *testing.T) {
	for _, tc := range []struct {
		limit  int
		window time.Duration
	}{{0, time.Second}, {1, 0}, {-1, time.Second}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("NewRedis(%d, %s) did not panic", tc.limit, tc.window)
				}
			}()
			ratelimit.NewRedis(nil, "p:", tc.limit, tc.window)
		}()
	}
}
