package ratelimit

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// Fallback is a Limiter that never fails open: it decides with its shared
// limiter (Redis) and, when that cannot decide (Redis is away), with a
// local Memory limiter allowing the limit divided by the number of live
// nodes (at least one event per window), so that the nodes together still
// allow about the shared limit while each decides alone. It never returns
// an error.
//
// A decision made locally is not charged to the shared budget as well: the
// shared limiter's call failed, and a Redis limiter with an Offset carries
// a deadline after which Redis charges nothing (the call may still be
// sitting in a stalled connection). When Redis answers again the shared
// budget takes over; what was spent locally during the outage is not
// carried over to it.
type Fallback struct {
	shared Limiter
	limit  int
	window time.Duration
	nodes  func() int
	// onLocal is called after each local decision, onShared after each
	// shared one (metrics); either may be nil.
	onLocal, onShared func()

	// Now is the local limiter's clock; tests replace it before first use.
	Now func() time.Time

	mu         sync.Mutex
	local      *Memory
	localNodes int
}

// NewFallback returns a limiter of limit events per window deciding with
// shared, and locally with limit/nodes() when shared fails.
func NewFallback(shared Limiter, limit int, window time.Duration, nodes func() int) *Fallback {
	return &Fallback{shared: shared, limit: limit, window: window, nodes: nodes, Now: time.Now}
}

// Allow is AllowN(ctx, key, 1).
func (f *Fallback) Allow(ctx context.Context, key string) (Decision, error) {
	return f.AllowN(ctx, key, 1)
}

// AllowN decides with the shared limiter, or locally when it cannot.
func (f *Fallback) AllowN(ctx context.Context, key string, n int) (Decision, error) {
	d, err := f.shared.AllowN(ctx, key, n)
	if err == nil {
		if f.onShared != nil {
			f.onShared()
		}
		return d, nil
	}
	d, _ = f.localLimiter().AllowN(ctx, key, n)
	if f.onLocal != nil {
		f.onLocal()
	}
	return d, nil
}

// localLimiter is the local limiter for the current node count, made anew
// when the count changed.
func (f *Fallback) localLimiter() *Memory {
	nodes := max(f.nodes(), 1)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.local == nil || f.localNodes != nodes {
		f.local = NewMemory(max(f.limit/nodes, 1), f.window)
		f.local.Now = f.Now
		f.localNodes = nodes
	}
	return f.local
}

// Shared makes the limiters of nodes sharing a Redis: each a Fallback over
// a Redis limiter, whose local budget is divided by Nodes' count.
type Shared struct {
	client  redis.UniversalClient
	prefix  string
	nodes   *Nodes
	timeout time.Duration

	// OnLocal, when set, is called with a limiter's name after each local
	// decision (a metric). Set it before making limiters.
	OnLocal func(name string)
	local   atomic.Bool
}

// NewShared returns the maker of shared limiters on client, with keys under
// prefix; each decision waits at most timeout for Redis.
func NewShared(client redis.UniversalClient, prefix string, nodes *Nodes, timeout time.Duration) *Shared {
	return &Shared{client: client, prefix: prefix, nodes: nodes, timeout: timeout}
}

// Limiter returns the limiter name (its keys kept apart from the others')
// of limit events per window.
func (s *Shared) Limiter(name string, limit int, window time.Duration) *Fallback {
	r := NewRedis(s.client, s.prefix+name+":", limit, window)
	r.Timeout = s.timeout
	r.Offset = s.nodes.Offset
	f := NewFallback(r, limit, window, s.nodes.Count)
	f.onLocal = func() {
		if !s.local.Load() {
			s.local.Store(true)
		}
		if s.OnLocal != nil {
			s.OnLocal(name)
		}
	}
	f.onShared = func() {
		if s.local.Load() {
			s.local.Store(false)
		}
	}
	return f
}

// Local reports whether the last decision of these limiters was made
// locally (Redis was away).
func (s *Shared) Local() bool { return s.local.Load() }

// Nodes is the node counter the local budgets are divided by.
func (s *Shared) Nodes() *Nodes { return s.nodes }
