package ratelimit

import (
	"container/list"
	"context"
	"fmt"
	"sync"
	"time"
)

// DefaultMaxKeys is the number of keys a Memory limiter tracks at most. With
// a limit of 60 a full limiter holds about 100k × 60 × 8 bytes ≈ 48 MB in the
// worst case; keys that only ever made one request cost a few hundred bytes.
const DefaultMaxKeys = 100_000

// Memory is a Limiter that keeps, per key, the timestamps of the allowed
// events of the last Window (a sliding log, at most Limit entries per key).
//
// Memory stays bounded: keys whose events have all left the window are swept
// on every call (least recently used first, so the sweep is amortised O(1)),
// and when MaxKeys keys are tracked the least recently used key is evicted.
// Eviction forgets that key's budget, which errs towards allowing: an attacker
// spraying keys can at worst reset other keys' budgets, never grow memory.
type Memory struct {
	// Now is the clock; tests replace it. It must be set before first use.
	Now func() time.Time
	// MaxKeys caps the number of tracked keys; set it before first use.
	MaxKeys int

	limit  int
	window time.Duration

	mu   sync.Mutex
	keys map[string]*list.Element // values are *keyLog
	lru  list.List                // front = most recently used
}

// keyLog is the sliding log of one key: a ring of at most limit timestamps
// (unix nanoseconds) of allowed events, oldest at start.
type keyLog struct {
	key      string
	hits     []int64
	start, n int
	lastSeen int64
}

// NewMemory returns an in-process limiter allowing at most limit events per
// window per key. It panics if limit or window is not positive, a
// programming error.
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

// Allow records an event for key if the key is under its limit. It never
// returns an error.
func (m *Memory) Allow(_ context.Context, key string) (Decision, error) {
	now := m.Now().UnixNano()
	// An event at t counts while now < t+window, so events at or before
	// cutoff have left the window.
	cutoff := now - int64(m.window)

	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweep(cutoff)

	var kl *keyLog
	if el, ok := m.keys[key]; ok {
		kl = el.Value.(*keyLog)
		m.lru.MoveToFront(el)
	} else {
		m.evictOverflow()
		kl = &keyLog{key: key}
		m.keys[key] = m.lru.PushFront(kl)
	}
	kl.lastSeen = now
	kl.expire(cutoff)

	if kl.n >= m.limit {
		oldest := kl.hits[kl.start]
		return Decision{RetryAfter: time.Duration(oldest + int64(m.window) - now)}, nil
	}
	kl.push(now, m.limit)
	return Decision{Allowed: true, Remaining: m.limit - kl.n}, nil
}

// Len returns the number of keys currently tracked.
func (m *Memory) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.keys)
}

// sweep drops keys not seen since cutoff. lastSeen is at least the key's
// newest event, so such keys have nothing left in their window; and since the
// list is ordered by lastSeen they all sit at the back.
func (m *Memory) sweep(cutoff int64) {
	for el := m.lru.Back(); el != nil; el = m.lru.Back() {
		kl := el.Value.(*keyLog)
		if kl.lastSeen > cutoff {
			return
		}
		m.lru.Remove(el)
		delete(m.keys, kl.key)
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
		delete(m.keys, el.Value.(*keyLog).key)
	}
}

// expire drops the events at or before cutoff.
func (kl *keyLog) expire(cutoff int64) {
	for kl.n > 0 && kl.hits[kl.start] <= cutoff {
		kl.start = (kl.start + 1) % len(kl.hits)
		kl.n--
	}
}

// push appends t; the ring grows on demand up to limit so that keys with few
// events stay small.
func (kl *keyLog) push(t int64, limit int) {
	if kl.n == len(kl.hits) {
		grown := make([]int64, min(max(2*len(kl.hits), 4), limit))
		for i := 0; i < kl.n; i++ {
			grown[i] = kl.hits[(kl.start+i)%len(kl.hits)]
		}
		kl.hits, kl.start = grown, 0
	}
	kl.hits[(kl.start+kl.n)%len(kl.hits)] = t
	kl.n++
}
