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
	cfg       BrokerConfig
	seed      maphash.Seed
	shards    [memoryShards]memShard
	closed    atomic.Bool
	bytes     atomic.Int64 // Message.Size of every stored message
	mailboxes atomic.Int64 // topics holding messages

	// owners is each owner's bytes of unacknowledged messages. Taken under
	// a shard's lock, never the other way round.
	ownerMu sync.Mutex
	owners  map[string]int64
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
	shares     map[string]int // publisher → its messages in msgs (see Broker: Mailbox)
	nextExpiry int64          // the earliest ExpiresAt in msgs (unix ms); 0 when empty
}

type memMessage struct {
	*Message
	firstAck  string   // the client id that acknowledged it first (usually the only one)
	acked     []string // the client ids that acknowledged it after firstAck
	delivered bool     // acknowledged by a subscriber of the topic: evictable
	charged   bool     // its size counts against its owner (until delivered)
}

// ackedBy reports whether client acknowledged m.
func (m *memMessage) ackedBy(client string) bool {
	return client != "" && m.firstAck == client || slices.Contains(m.acked, client)
}

// addAck records client's acknowledgement; the usual single one costs no
// allocation.
func (m *memMessage) addAck(client string) {
	if m.firstAck == "" {
		m.firstAck = client
		return
	}
	m.acked = append(m.acked, client)
}

// NewMemory returns an in-process broker.
func NewMemory(cfg BrokerConfig) *Memory {
	cfg.defaults()
	b := &Memory{cfg: cfg, seed: maphash.MakeSeed(), owners: map[string]int64{}}
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
	b.expire(t, now)
	if t.byID[m.ID] != nil {
		return false, nil
	}
	if t.shares[m.Publisher] >= b.cfg.MaxMessagesPerTopic && !b.evictDelivered(t, m.Publisher) {
		b.dropIfEmpty(sh, m.Topic, t)
		return false, ErrMailboxFull
	}
	if err := b.reserve(t, m); err != nil {
		b.dropIfEmpty(sh, m.Topic, t)
		return false, err
	}
	b.add(t, &memMessage{Message: m, charged: m.Owner != ""})
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
	b.expire(t, now)
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
	b.expire(t, now)
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
	old := t.byID[m.ID]
	if old == nil || client == old.Publisher || old.ackedBy(client) {
		return nil
	}
	old.addAck(client)
	if old.delivered || !t.subscribed(client) {
		// Only a subscriber's ack makes a message delivered (a fetch by
		// anyone who knows the topic does not).
		return nil
	}
	old.delivered = true
	b.uncharge(old)
	if b.bytes.Load() > b.cfg.MaxBytes/2 {
		// Under memory pressure a delivered message is kept no longer.
		b.remove(t, slices.Index(t.msgs, old))
		b.dropIfEmpty(sh, m.Topic, t)
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
			b.expire(t, now)
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

// Bytes is the size (Message.Size) of every stored message.
func (b *Memory) Bytes() int64 { return b.bytes.Load() }

// Close implements Broker.
func (b *Memory) Close() error {
	b.closed.Store(true)
	return nil
}

// reserve checks that m fits the broker's and its owner's bounds, and
// charges its size to both; it may first evict delivered messages of t.
func (b *Memory) reserve(t *memTopic, m *Message) error {
	size := m.Size()
	if len(t.msgs) == 0 && b.mailboxes.Load() >= int64(b.cfg.MaxTopics) {
		return ErrBrokerFull
	}
	for b.bytes.Load()+size > b.cfg.MaxBytes {
		if !b.evictDelivered(t, "") {
			return ErrBrokerFull
		}
	}
	if m.Owner != "" {
		b.ownerMu.Lock()
		used := b.owners[m.Owner]
		if used+size > b.cfg.MaxOwnerBytes {
			b.ownerMu.Unlock()
			return ErrOwnerQuota
		}
		b.owners[m.Owner] = used + size
		b.ownerMu.Unlock()
	}
	b.bytes.Add(size)
	return nil
}

// uncharge stops counting m against its owner.
func (b *Memory) uncharge(m *memMessage) {
	if !m.charged {
		return
	}
	m.charged = false
	size := m.Size()
	b.ownerMu.Lock()
	if n := b.owners[m.Owner] - size; n > 0 {
		b.owners[m.Owner] = n
	} else {
		delete(b.owners, m.Owner)
	}
	b.ownerMu.Unlock()
}

// released returns a dropped message's bytes.
func (b *Memory) released(m *memMessage) {
	b.uncharge(m)
	b.bytes.Add(-m.Size())
}

// dropIfEmpty deletes a topic left with no subscriber and no message.
func (b *Memory) dropIfEmpty(sh *memShard, topic string, t *memTopic) {
	if len(t.subs) == 0 && len(t.msgs) == 0 {
		delete(sh.topics, topic)
	}
}

// add appends m to the mailbox.
func (b *Memory) add(t *memTopic, m *memMessage) {
	if t.byID == nil {
		t.byID = map[string]*memMessage{}
	}
	if len(t.msgs) == 0 {
		b.mailboxes.Add(1)
	}
	if t.shares == nil {
		t.shares = map[string]int{}
	}
	t.shares[m.Publisher]++
	t.byID[m.ID] = m
	t.msgs = append(t.msgs, m)
	if t.nextExpiry == 0 || m.ExpiresAt < t.nextExpiry {
		t.nextExpiry = m.ExpiresAt
	}
}

// expire drops messages whose time is up (in place, keeping order). It walks
// the mailbox only when the earliest expiry has passed.
func (b *Memory) expire(t *memTopic, now int64) {
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
			t.dropped(m)
			b.released(m)
		}
	}
	for i := len(kept); i < len(t.msgs); i++ {
		t.msgs[i] = nil
	}
	t.msgs = kept
	if len(t.msgs) == 0 {
		t.msgs, t.byID, t.shares = nil, nil, nil
		b.mailboxes.Add(-1)
	}
}

// dropped forgets a message leaving the mailbox.
func (t *memTopic) dropped(m *memMessage) {
	delete(t.byID, m.ID)
	if n := t.shares[m.Publisher] - 1; n > 0 {
		t.shares[m.Publisher] = n
	} else {
		delete(t.shares, m.Publisher)
	}
}

// subscribed reports whether client has a subscriber on the topic.
func (t *memTopic) subscribed(client string) bool {
	for _, s := range t.subs {
		if s.ClientID() == client {
			return true
		}
	}
	return false
}

// evictDelivered drops the delivered message of publisher (any, when
// empty) that expires first, to make room; it reports false when there is
// none.
func (b *Memory) evictDelivered(t *memTopic, publisher string) bool {
	victim := -1
	for i, m := range t.msgs {
		if m.delivered && (publisher == "" || m.Publisher == publisher) && (victim < 0 || m.ExpiresAt < t.msgs[victim].ExpiresAt) {
			victim = i
		}
	}
	if victim < 0 {
		return false
	}
	b.remove(t, victim)
	return true
}

// remove drops the i-th message of the mailbox (i < 0: nothing).
func (b *Memory) remove(t *memTopic, i int) {
	if i < 0 {
		return
	}
	m := t.msgs[i]
	t.dropped(m)
	b.released(m)
	copy(t.msgs[i:], t.msgs[i+1:])
	t.msgs[len(t.msgs)-1] = nil
	t.msgs = t.msgs[:len(t.msgs)-1]
	if len(t.msgs) == 0 {
		t.msgs, t.byID, t.shares = nil, nil, nil
		b.mailboxes.Add(-1)
	}
}

// backlog lists the messages client has neither published nor acknowledged,
// at most limit of them (0: all), and whether more remain.
func (t *memTopic) backlog(client string, limit int) ([]*Message, bool) {
	var out []*Message
	for _, m := range t.msgs {
		if m.Publisher == client {
			continue
		}
		if m.ackedBy(client) {
			continue
		}
		if limit > 0 && len(out) == limit {
			return out, true
		}
		out = append(out, m.Message)
	}
	return out, false
}
