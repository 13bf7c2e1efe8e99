package imageproxy

import (
	"container/list"
	"sync"
	"time"
)

// image is a fetched image.
type image struct {
	contentType string
	body        []byte
	expires     time.Time
}

// lru is a cache of images bounded by their total bytes; the least recently
// used go first. Safe for concurrent use.
type lru struct {
	mu       sync.Mutex
	maxBytes int64
	bytes    int64
	order    *list.List // front: most recently used; values *lruEntry
	entries  map[string]*list.Element
}

type lruEntry struct {
	key string
	img *image
}

func newLRU(maxBytes int64) *lru {
	return &lru{maxBytes: maxBytes, order: list.New(), entries: map[string]*list.Element{}}
}

// size counts an entry's body and key, and a little for the bookkeeping.
func (e *lruEntry) size() int64 { return int64(len(e.img.body)+len(e.key)) + 128 }

// get returns the unexpired image under key.
func (c *lru) get(key string, now time.Time) (*image, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.entries[key]
	if !ok {
		return nil, false
	}
	e := el.Value.(*lruEntry)
	if !now.Before(e.img.expires) {
		c.remove(el)
		return nil, false
	}
	c.order.MoveToFront(el)
	return e.img, true
}

// add stores img under key, evicting the least recently used entries until
// the cache is within its bytes. An image larger than the cache is not kept.
func (c *lru) add(key string, img *image) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[key]; ok {
		c.remove(el)
	}
	e := &lruEntry{key: key, img: img}
	if e.size() > c.maxBytes {
		return
	}
	c.entries[key] = c.order.PushFront(e)
	c.bytes += e.size()
	for c.bytes > c.maxBytes {
		c.remove(c.order.Back())
	}
}

func (c *lru) remove(el *list.Element) {
	e := el.Value.(*lruEntry)
	c.order.Remove(el)
	delete(c.entries, e.key)
	c.bytes -= e.size()
}

// len is the number of cached images.
func (c *lru) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}
