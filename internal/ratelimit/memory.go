package ratelimit

import (
	"container/list"
	"context"
	"fmt"
	"sync"
	"time"
)

// DefaultMaxKeys is the number of keys a Memory limiter tracks at most. Each
// key costs one timestamp plus its name and list element, about 150 bytes.
const DefaultMaxKeys = 100_000

// Memory is a Limiter that keeps, per key, the GCRA state (see Limiter):
// one timestamp, whatever the key's traffic.
//
// Memory stays bounded: keys whose budget is full again are swept on every
// call (least recently used first, so the sweep is amortised O(1)), and when
// MaxKeys keys are tracked the least recently used key is evicted. Eviction
// forgets that key's spending, which errs towards allowing: an attacker
// spraying keys can at worst reset other keys' budgets, never grow memory.
type Memory struct {
	// Now is the clock; tests replace it. It must be set before first use.
	Now func() time.Time
	// MaxKeys caps the number of tracked keys; set it before first use.
	MaxKeys int

	limit  int
	window time.Duration

	mu   sync.Mutex
	keys map[string]*list.Element // values are *keyState
	lru  list.List                // front = most recently used
}

// keyState is the GCRA state of one key.
type keyState struct {
	key      string
	tat      int64 // theoretical arrival time, unix nanoseconds (see gcra)
	lastSeen int64
}

// NewMemory returns an in-process limiter allowing limit events per window
// per key. It panics if limit or window is not positive, a programming error.
func NewMemory(limit int, window time.Duration) *Memory {
	if limit <= 0 || window <= 0 {
		panic(fmt.Sprintf("ratelimit: NewMemory(%d, %s): limit and window must be positive", limit, window))
	}
	return &Memory{
		Now:     time.Now,
		MaxKeys: DefaultMaxKeys,
		limit:   limit,
		window:  window,
		keys:    make(map[string]*list.Element),
	}
}

// Allow records an event for key if the key has budget for it. It never
// returns an error.
func (m *Memory) Allow(ctx context.Context, key string) (Decision, error) {
	return m.AllowN(ctx, key, 1)
}

// AllowN records n events for key if the key has budget for all of them.
// It never returns an error; n < 1 counts as 1.
func (m *Memory) AllowN(_ context.Context, key string, n int) (Decision, error) {
	n = max(n, 1)
	now := m.Now().UnixNano()
	m.mu.Lock()
	defer m.mu.Unlock()
	// A key last allowed at or before cutoff has its full budget back.
	m.sweep(now - int64(m.window))
	var ks *keyState
	if el, ok := m.keys[key]; ok {
		ks = el.Value.(*keyState)
		m.lru.MoveToFront(el)
	} else {
		m.evictOverflow()
		ks = &keyState{key: key}
		m.keys[key] = m.lru.PushFront(ks)
	}
	ks.lastSeen = now
	tat, ok, remaining, retry := gcra(ks.tat, now, int64(m.window), m.limit, n)
	ks.tat = tat
	if !ok {
		return Decision{RetryAfter: time.Duration(retry)}, nil
	}
	return Decision{Allowed: true, Remaining: remaining}, nil
}

// Len returns the number of keys currently tracked.
func (m *Memory) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.keys)
}

// sweep drops keys not seen since cutoff. An allowed spend leaves tat at
// most Window after it, so such keys have their full budget back and are
// the same as absent ones; since the list is ordered by lastSeen they all
// sit at the back.
func (m *Memory) sweep(cutoff int64) {
	for el := m.lru.Back(); el != nil; el = m.lru.Back() {
		ks := el.Value.(*keyState)
		if ks.lastSeen > cutoff {
			return
		}
		m.lru.Remove(el)
		delete(m.keys, ks.key)
	}
}

// evictOverflow makes room for one more key.
func (m *Memory) evictOverflow() {
	max := m.MaxKeys
	if max <= 0 {
		max = DefaultMaxKeys
	}
	for len(m.keys) >= max {
		el := m.lru.Back()
		m.lru.Remove(el)
		delete(m.keys, el.Value.(*keyState).key)
	}
}
