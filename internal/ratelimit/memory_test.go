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
			name: "OK", limit: 3, window: time.Minute,
			steps: []step{
				{0, "a", true, 2, 0},
				{time.Second, "a", true, 1, 0},
				{time.Second, "a", true, 0, 0},
				{time.Second, "a", false, 0, 57 * time.Second},
			},
		},
		{
			name: "SlidesNotFixed", limit: 2, window: 10 * time.Second,
			steps: []step{
				{0, "a", true, 1, 0},
				{9 * time.Second, "a", true, 0, 0},
				// A fixed window would reset at 10 s; the sliding log does not.
				{2 * time.Second, "a", true, 0, 0},                // t=11: the t=0 event left
				{1 * time.Second, "a", false, 0, 7 * time.Second}, // t=12: events at 9, 11
				{6999 * time.Millisecond, "a", false, 0, time.Millisecond},
				{time.Millisecond, "a", true, 0, 0}, // t=19: the t=9 event left exactly now
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
			name: "RingWraps", limit: 5, window: 5 * time.Second,
			steps: []step{
				{0, "a", true, 4, 0},
				{time.Second, "a", true, 3, 0},
				{time.Second, "a", true, 2, 0},
				{time.Second, "a", true, 1, 0},
				{time.Second, "a", true, 0, 0},
				{time.Second, "a", true, 0, 0}, // t=5: t=0 left
				{time.Second, "a", true, 0, 0}, // t=6: t=1 left
				{0, "a", false, 0, time.Second},
				{10 * time.Second, "a", true, 4, 0}, // all left
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
