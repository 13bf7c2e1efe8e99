package ratelimit_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/ratelimit"
)

var _ ratelimit.Limiter = (*ratelimit.Memory)(nil)

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)} }

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *clock) Add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

func mustAllow(t *testing.T, l ratelimit.Limiter, key string) ratelimit.Decision {
	t.Helper()
	d, err := l.Allow(context.Background(), key)
	if err != nil {
		t.Fatalf("Allow(%q): %v", key, err)
	}
	return d
}

func TestMemory_Allow(t *testing.T) {
	// Each step advances the clock by `after`, then calls Allow and checks the decision.
	type step struct {
		after     time.Duration
		key       string
		allowed   bool
		remaining int
		retry     time.Duration
	}
	tests := []struct {
		name   string
		limit  int
		window time.Duration
		steps  []step
	}{
		{
			// GCRA: 3 per minute is one event earned every 20 s, up to 3 saved.
			name: "OK", limit: 3, window: time.Minute,
			steps: []step{
				{0, "a", true, 2, 0},
				{time.Second, "a", true, 1, 0},
				{time.Second, "a", true, 0, 0},
				{time.Second, "a", false, 0, 17 * time.Second},
			},
		},
		{
			name: "EarnsOnePerInterval", limit: 2, window: 10 * time.Second,
			steps: []step{
				{0, "a", true, 1, 0},
				{0, "a", true, 0, 0},
				{0, "a", false, 0, 5 * time.Second},
				{4999 * time.Millisecond, "a", false, 0, time.Millisecond},
				{time.Millisecond, "a", true, 0, 0}, // t=5: one event earned
				{0, "a", false, 0, 5 * time.Second},
			},
		},
		{
			name: "DeniedDoesNotCount", limit: 1, window: 10 * time.Second,
			steps: []step{
				{0, "a", true, 0, 0},
				{5 * time.Second, "a", false, 0, 5 * time.Second},
				{4 * time.Second, "a", false, 0, time.Second},
				{time.Second, "a", true, 0, 0},
			},
		},
		{
			name: "KeysIndependent", limit: 1, window: time.Minute,
			steps: []step{
				{0, "a", true, 0, 0},
				{0, "b", true, 0, 0},
				{0, "a", false, 0, time.Minute},
				{0, "c", true, 0, 0},
			},
		},
		{
			name: "BurstAfterIdle", limit: 5, window: 5 * time.Second,
			steps: []step{
				{0, "a", true, 4, 0},
				{0, "a", true, 3, 0},
				{0, "a", true, 2, 0},
				{0, "a", true, 1, 0},
				{0, "a", true, 0, 0},
				{0, "a", false, 0, time.Second},
				{time.Second, "a", true, 0, 0},      // one earned
				{10 * time.Second, "a", true, 4, 0}, // idle: the whole budget is back, no more
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newClock()
			m := ratelimit.NewMemory(tt.limit, tt.window)
			m.Now = c.Now
			for i, s := range tt.steps {
				c.Add(s.after)
				d := mustAllow(t, m, s.key)
				want := ratelimit.Decision{Allowed: s.allowed, Remaining: s.remaining, RetryAfter: s.retry}
				if d != want {
					t.Fatalf("step %d: got %+v, want %+v", i, d, want)
				}
			}
		})
	}
}

func TestMemory_AllowN(t *testing.T) {
	c := newClock()
	m := ratelimit.NewMemory(10, 10*time.Second) // one event per second, 10 saved
	m.Now = c.Now
	ctx := context.Background()
	for i, tt := range []struct {
		after time.Duration
		n     int
		want  ratelimit.Decision
	}{
		{0, 4, ratelimit.Decision{Allowed: true, Remaining: 6}},
		{0, 7, ratelimit.Decision{RetryAfter: time.Second}}, // all or nothing
		{0, 6, ratelimit.Decision{Allowed: true, Remaining: 0}},
		{0, 11, ratelimit.Decision{RetryAfter: 10 * time.Second}}, // more than Limit: never
		{20 * time.Second, 11, ratelimit.Decision{}},
		{0, 10, ratelimit.Decision{Allowed: true, Remaining: 0}},
		{3 * time.Second, 3, ratelimit.Decision{Allowed: true, Remaining: 0}},
		{0, 0, ratelimit.Decision{RetryAfter: time.Second}}, // n < 1 counts as 1
	} {
		c.Add(tt.after)
		d, err := m.AllowN(ctx, "k", tt.n)
		if err != nil || d != tt.want {
			t.Fatalf("step %d AllowN(%d): %+v %v, want %+v", i, tt.n, d, err, tt.want)
		}
	}
}

// Over any interval of length d, GCRA allows at most Limit + d×Limit/Window
// events, whatever the arrivals.
func TestMemory_RateBound(t *testing.T) {
	c := newClock()
	const limit, window = 10, 10 * time.Second
	m := ratelimit.NewMemory(limit, window)
	m.Now = c.Now
	var allowed []time.Time
	for i := 0; i < 5000; i++ {
		c.Add(time.Duration(i*7919%997) * time.Millisecond / 50) // irregular steps of 0–20 ms
		if d := mustAllow(t, m, "k"); d.Allowed {
			allowed = append(allowed, c.Now())
		}
	}
	for i := range allowed {
		for j := i; j < len(allowed); j++ {
			d := allowed[j].Sub(allowed[i])
			if bound := limit + int(d*limit/window); j-i+1 > bound {
				t.Fatalf("%d events in %s, bound %d", j-i+1, d, bound)
			}
		}
	}
	if len(allowed) < 10 {
		t.Fatalf("only %d allowed", len(allowed))
	}
}

// A key costs the same after 10,000 events as after one: the hot path
// allocates nothing for a known key.
func TestMemory_ConstantPerKey(t *testing.T) {
	c := newClock()
	m := ratelimit.NewMemory(60_000, time.Minute)
	m.Now = c.Now
	ctx := context.Background()
	allocs := testing.AllocsPerRun(10_000, func() {
		c.Add(time.Microsecond)
		m.Allow(ctx, "k")
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per event of a known key, want 0", allocs)
	}
	if m.Len() != 1 {
		t.Fatalf("Len %d", m.Len())
	}
}

func TestMemory_Sweep(t *testing.T) {
	c := newClock()
	m := ratelimit.NewMemory(2, time.Minute)
	m.Now = c.Now
	for i := 0; i < 1000; i++ {
		mustAllow(t, m, fmt.Sprintf("k%d", i))
	}
	if got := m.Len(); got != 1000 {
		t.Fatalf("Len = %d, want 1000", got)
	}
	c.Add(30 * time.Second)
	mustAllow(t, m, "fresh")
	if got := m.Len(); got != 1001 {
		t.Fatalf("Len inside the window = %d, want 1001", got)
	}
	c.Add(30 * time.Second)
	mustAllow(t, m, "other")
	if got := m.Len(); got != 2 {
		t.Fatalf("Len after the window = %d, want 2 (expired keys swept)", got)
	}
}

func TestMemory_MaxKeys(t *testing.T) {
	c := newClock()
	m := ratelimit.NewMemory(1, time.Hour)
	m.Now = c.Now
	m.MaxKeys = 100
	mustAllow(t, m, "victim")
	for i := 0; i < 10_000; i++ {
		c.Add(time.Millisecond)
		mustAllow(t, m, fmt.Sprintf("spray%d", i))
		if m.Len() > 100 {
			t.Fatalf("Len = %d after %d keys, want <= 100", m.Len(), i+1)
		}
	}
	// The least recently used key was evicted, so its budget is forgotten.
	if d := mustAllow(t, m, "victim"); !d.Allowed {
		t.Fatalf("evicted key denied: %+v", d)
	}
	// A recent key is still tracked.
	if d := mustAllow(t, m, "spray9999"); d.Allowed {
		t.Fatalf("recent key allowed twice: %+v", d)
	}
}

func TestNewMemory_Invalid(t *testing.T) {
	for _, tt := range []struct {
		limit  int
		window time.Duration
	}{{0, time.Second}, {1, 0}, {-1, time.Second}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("NewMemory(%d, %s) did not panic", tt.limit, tt.window)
				}
			}()
			ratelimit.NewMemory(tt.limit, tt.window)
		}()
	}
}

// TestMemory_Concurrent checks, under -race, that concurrent callers never
// get more than Limit events through for one key.
func TestMemory_Concurrent(t *testing.T) {
	c := newClock()
	m := ratelimit.NewMemory(50, time.Minute)
	m.Now = c.Now
	var allowed atomic.Int64
	var wg sync.WaitGroup
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				if d, _ := m.Allow(context.Background(), "shared"); d.Allowed {
					allowed.Add(1)
				}
				m.Allow(context.Background(), fmt.Sprintf("g%d-%d", g, i%100))
			}
		}()
	}
	wg.Wait()
	if got := allowed.Load(); got != 50 {
		t.Fatalf("allowed %d events for one key, want exactly 50", got)
	}
}

func BenchmarkMemory_Allow(b *testing.B) {
	m := ratelimit.NewMemory(60, 10*time.Second)
	keys := make([]string, 1024)
	for i := range keys {
		keys[i] = fmt.Sprintf("203.0.113.%d", i)
	}
	ctx := context.Background()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			m.Allow(ctx, keys[i%len(keys)])
			i++
		}
	})
}
