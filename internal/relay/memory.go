package relay

import (
	"context"
	"hash/maphash"
	"slices"
	"sync"
	"sync/atomic"
)

// memoryShards spreads topics over independently locked shards so publishes
// on different topics do not contend.
const memoryShards = 64

// Memory is a Broker for a single latchd node: mailboxes and subscriptions
// live in this process and are lost when it stops.
type Memory struct {
	cfg    BrokerConfig
	seed   maphash.Seed
	shards [memoryShards]memShard
	closed atomic.Bool
}

type memShard struct {
	mu     sync.Mutex
	topics map[string]*memTopic
}

// memTopic is one topic: its subscribers (usually one or two) and its mailbox
// in publish order, indexed by message id. A publish, an ack and the expiry
// check cost O(1) however full the mailbox is; only an actual expiry or a
// full mailbox walks it.
type memTopic struct {
	subs       []Subscriber
	msgs       []*memMessage
	byID       map[string]*memMessage
	nextExpiry int64 // the earliest ExpiresAt in msgs (unix ms); 0 when empty
}

type memMessage struct {
	*Message
	acked []string // client ids that acknowledged it (usually the one peer)
}

// NewMemory returns an in-process broker.
func NewMemory(cfg BrokerConfig) *Memory {
	cfg.defaults()
	b := &Memory{cfg: cfg, seed: maphash.MakeSeed()}
	for i := range b.shards {
		b.shards[i].topics = map[string]*memTopic{}
	}
	return b
}

func (b *Memory) shard(topic string) *memShard {
	return &b.shards[maphash.String(b.seed, topic)%memoryShards]
}

// Publish implements Broker.
func (b *Memory) Publish(_ context.Context, m *Message) (bool, error) {
	if b.closed.Load() {
		return false, ErrClosed
	}
	now := b.cfg.Now().UnixMilli()
	sh := b.shard(m.Topic)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	t := sh.topics[m.Topic]
	if t == nil {
		t = &memTopic{}
		sh.topics[m.Topic] = t
	}
	t.expire(now)
	if t.byID[m.ID] != nil {
		return false, nil
	}
	if len(t.msgs) >= b.cfg.MaxMessagesPerTopic && !t.evictDelivered() {
		return false, ErrMailboxFull
	}
	t.add(&memMessage{Message: m})
	for _, s := range t.subs {
		if s.ClientID() != m.Publisher {
			s.Deliver(m)
		}
	}
	return true, nil
}

// Subscribe implements Broker.
func (b *Memory) Subscribe(_ context.Context, topic string, s Subscriber) ([]*Message, error) {
	if b.closed.Load() {
		return nil, ErrClosed
	}
	now := b.cfg.Now().UnixMilli()
	sh := b.shard(topic)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	t := sh.topics[topic]
	if t == nil {
		t = &memTopic{}
		sh.topics[topic] = t
	}
	found := false
	for _, old := range t.subs {
		if old == s {
			found = true
			break
		}
	}
	if !found {
		t.subs = append(t.subs, s)
	}
	t.expire(now)
	backlog, _ := t.backlog(s.ClientID(), 0)
	return backlog, nil
}

// Unsubscribe implements Broker.
func (b *Memory) Unsubscribe(_ context.Context, topic string, s Subscriber) error {
	if b.closed.Load() {
		return ErrClosed
	}
	sh := b.shard(topic)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	t := sh.topics[topic]
	if t == nil {
		return nil
	}
	for i, old := range t.subs {
		if old == s {
			last := len(t.subs) - 1
			t.subs[i] = t.subs[last]
			t.subs[last] = nil
			t.subs = t.subs[:last]
			break
		}
	}
	if len(t.subs) == 0 && len(t.msgs) == 0 {
		delete(sh.topics, topic)
	}
	return nil
}

// Fetch implements Broker.
func (b *Memory) Fetch(_ context.Context, topic, client string, limit int) ([]*Message, bool, error) {
	if b.closed.Load() {
		return nil, false, ErrClosed
	}
	now := b.cfg.Now().UnixMilli()
	sh := b.shard(topic)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	t := sh.topics[topic]
	if t == nil {
		return nil, false, nil
	}
	t.expire(now)
	msgs, more := t.backlog(client, limit)
	return msgs, more, nil
}

// Ack implements Broker.
func (b *Memory) Ack(_ context.Context, client string, m *Message) error {
	if b.closed.Load() {
		return ErrClosed
	}
	sh := b.shard(m.Topic)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	t := sh.topics[m.Topic]
	if t == nil {
		return nil
	}
	if old := t.byID[m.ID]; old != nil && client != old.Publisher && !slices.Contains(old.acked, client) {
		old.acked = append(old.acked, client)
	}
	return nil
}

// Sweep drops expired messages and empty topics from every shard. Expired
// messages are already invisible; Sweep returns their memory. The relay
// server calls it periodically.
func (b *Memory) Sweep() {
	now := b.cfg.Now().UnixMilli()
	for i := range b.shards {
		sh := &b.shards[i]
		sh.mu.Lock()
		for topic, t := range sh.topics {
			t.expire(now)
			if len(t.subs) == 0 && len(t.msgs) == 0 {
				delete(sh.topics, topic)
			}
		}
		sh.mu.Unlock()
	}
}

// Stats counts topics and stored messages, for metrics and tests.
func (b *Memory) Stats() (topics, messages int) {
	for i := range b.shards {
		sh := &b.shards[i]
		sh.mu.Lock()
		topics += len(sh.topics)
		for _, t := range sh.topics {
			messages += len(t.msgs)
		}
		sh.mu.Unlock()
	}
	return topics, messages
}

// Close implements Broker.
func (b *Memory) Close() error {
	b.closed.Store(true)
	return nil
}

// add appends m to the mailbox.
func (t *memTopic) add(m *memMessage) {
	if t.byID == nil {
		t.byID = map[string]*memMessage{}
	}
	t.byID[m.ID] = m
	t.msgs = append(t.msgs, m)
	if t.nextExpiry == 0 || m.ExpiresAt < t.nextExpiry {
		t.nextExpiry = m.ExpiresAt
	}
}

// expire drops messages whose time is up (in place, keeping order). It walks
// the mailbox only when the earliest expiry has passed.
func (t *memTopic) expire(now int64) {
	if len(t.msgs) == 0 || now < t.nextExpiry {
		return
	}
	kept := t.msgs[:0]
	t.nextExpiry = 0
	for _, m := range t.msgs {
		if m.ExpiresAt > now {
			kept = append(kept, m)
			if t.nextExpiry == 0 || m.ExpiresAt < t.nextExpiry {
				t.nextExpiry = m.ExpiresAt
			}
		} else {
			delete(t.byID, m.ID)
		}
	}
	for i := len(kept); i < len(t.msgs); i++ {
		t.msgs[i] = nil
	}
	t.msgs = kept
	if len(t.msgs) == 0 {
		t.msgs, t.byID = nil, nil
	}
}

// evictDelivered drops the acknowledged message that expires first, to make
// room in a full mailbox; it reports false when every message still awaits
// its first acknowledgement.
func (t *memTopic) evictDelivered() bool {
	victim := -1
	for i, m := range t.msgs {
		if len(m.acked) > 0 && (victim < 0 || m.ExpiresAt < t.msgs[victim].ExpiresAt) {
			victim = i
		}
	}
	if victim < 0 {
		return false
	}
	delete(t.byID, t.msgs[victim].ID)
	copy(t.msgs[victim:], t.msgs[victim+1:])
	t.msgs[len(t.msgs)-1] = nil
	t.msgs = t.msgs[:len(t.msgs)-1]
	return true
}

// backlog lists the messages client has neither published nor acknowledged,
// at most limit of them (0: all), and whether more remain.
func (t *memTopic) backlog(client string, limit int) ([]*Message, bool) {
	var out []*Message
	for _, m := range t.msgs {
		if m.Publisher == client {
			continue
		}
		if slices.Contains(m.acked, client) {
			continue
		}
		if limit > 0 && len(out) == limit {
			return out, true
		}
		out = append(out, m.Message)
	}
	return out, false
}
