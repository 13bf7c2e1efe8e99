package rpcproxy

import (
	"bytes"
	"container/list"
	"context"
	"encoding/json"
	"sync"
	"time"
)

// Cache stores JSON-RPC results by key (network, method and canonical params)
// so that repeated reads skip the upstream.
//
// Every implementation guarantees:
//
//   - Integrity: Get returns exactly the bytes last given to Set for that key,
//     or a miss; never a value stored under another key and never a prefix.
//   - Expiry: Get never returns a value whose ttl, counted from its Set, has
//     passed. A ttl of 0 means no expiry.
//   - Bounded: an implementation may drop any entry before its ttl (memory
//     bounds, restarts). A miss is always safe: the proxy asks the upstream.
//   - Errors: a non-nil error means the cache could not answer (for instance
//     Redis is unreachable). The proxy logs it and treats it as a miss; a
//     cache failure never fails a request.
//   - Concurrency: safe for concurrent use; the last Set of a key wins.
//   - Scope: MemoryCache is per process. RedisCache shares entries across
//     the nodes using the same Redis and prefix; the proxy needs no change.
//
// The proxy only stores successful answers of side-effect-free methods; the
// cache does not need to know JSON-RPC.
type Cache interface {
	Get(ctx context.Context, key string) ([]byte, bool, error)
	Set(ctx context.Context, key string, value []byte, ttl time.Duration) error
}

// MemoryCache is an in-process LRU Cache bounded by entries and bytes.
type MemoryCache struct {
	mu         sync.Mutex
	now        func() time.Time
	maxEntries int
	maxBytes   int64
	bytes      int64
	lru        *list.List // front = most recently used
	items      map[string]*list.Element
}

type cacheItem struct {
	key     string
	value   []byte
	expires time.Time // zero = never
}

// NewMemoryCache returns a MemoryCache holding at most maxEntries values and
// maxBytes of keys and values. now is its clock (time.Now when nil).
func NewMemoryCache(maxEntries int, maxBytes int64, now func() time.Time) *MemoryCache {
	if now == nil {
		now = time.Now
	}
	return &MemoryCache{now: now, maxEntries: maxEntries, maxBytes: maxBytes, lru: list.New(), items: map[string]*list.Element{}}
}

// Get implements Cache. It never fails.
func (c *MemoryCache) Get(_ context.Context, key string) ([]byte, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[key]
	if !ok {
		return nil, false, nil
	}
	it := el.Value.(*cacheItem)
	if !it.expires.IsZero() && !c.now().Before(it.expires) {
		c.remove(el)
		return nil, false, nil
	}
	c.lru.MoveToFront(el)
	return it.value, true, nil
}

// Set implements Cache. A value larger than the byte bound is not stored.
func (c *MemoryCache) Set(_ context.Context, key string, value []byte, ttl time.Duration) error {
	size := int64(len(key) + len(value))
	if size > c.maxBytes {
		return nil
	}
	it := &cacheItem{key: key, value: bytes.Clone(value)}
	if ttl > 0 {
		it.expires = c.now().Add(ttl)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[key]; ok {
		c.remove(el)
	}
	c.items[key] = c.lru.PushFront(it)
	c.bytes += size
	for c.lru.Len() > c.maxEntries || c.bytes > c.maxBytes {
		c.remove(c.lru.Back())
	}
	return nil
}

// Len returns the number of stored values (for tests and metrics).
func (c *MemoryCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Len()
}

func (c *MemoryCache) remove(el *list.Element) {
	it := el.Value.(*cacheItem)
	c.lru.Remove(el)
	delete(c.items, it.key)
	c.bytes -= int64(len(it.key) + len(it.value))
}

// cacheKey is network + method + canonical params: the params are decoded and
// re-encoded so that whitespace and object key order do not matter. Absent
// params and [] are the same call.
func cacheKey(network, method string, params json.RawMessage) (string, bool) {
	canon := []byte("[]")
	if len(params) > 0 {
		var v any
		dec := json.NewDecoder(bytes.NewReader(params))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			return "", false
		}
		if b, err := json.Marshal(v); err == nil {
			canon = b
		}
	}
	return network + "\x00" + method + "\x00" + string(canon), true
}

// flightGroup coalesces identical concurrent reads: the first caller of a key
// leads and does the upstream call; later callers wait for its outcome.
type flightGroup struct {
	mu      sync.Mutex
	flights map[string]*flight
}

type flight struct {
	done chan struct{}
	res  entryResult
}

// join returns the flight of key and whether the caller leads it. A leader
// must call finish exactly once.
func (g *flightGroup) join(key string) (*flight, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if f, ok := g.flights[key]; ok {
		return f, false
	}
	if g.flights == nil {
		g.flights = map[string]*flight{}
	}
	f := &flight{done: make(chan struct{})}
	g.flights[key] = f
	return f, true
}

// finish publishes res to the waiters of key and forgets the flight, so the
// next caller starts a fresh one (or finds the answer in the cache).
func (g *flightGroup) finish(key string, f *flight, res entryResult) {
	g.mu.Lock()
	delete(g.flights, key)
	g.mu.Unlock()
	f.res = res
	close(f.done)
}
