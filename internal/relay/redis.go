package relay

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"net"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/latchkit/latch/internal/breaker"
)

// Redis is a Broker shared by every latchd node using the same Redis and key
// prefix: mailboxes live in Redis, and each published message is stored and
// announced on the topic's Pub/Sub channel in one script, so the nodes
// serving the topic's subscribers deliver it.
//
// Keys of a topic (one Redis Cluster hash slot, via the {topic} tag):
//
//	<prefix>{<topic>}:mb  sorted set of message ids by expiry (ms)
//	<prefix>{<topic>}:msg hash id → message (JSON)
//	<prefix>{<topic>}:ack sorted set of "<id>|<client id>" by expiry
//	<prefix>{<topic>}:dlv set of ids delivered (acknowledged by a subscriber: evictable)
//	<prefix>{<topic>}:mb:<publisher> sorted set of one publisher's ids by expiry (its share)
//
// A node subscribes to a topic's channel <prefix>ch:<topic> while it has a
// local subscriber, and waits for Redis to confirm before reading the
// mailbox, so no message falls between the two. When the Pub/Sub connection
// is re-established, the node re-reads the mailboxes of its topics (messages
// announced meanwhile are in them).
type Redis struct {
	cfg    BrokerConfig
	rdb    redis.UniversalClient
	prefix string
	node   string
	ps     *redis.PubSub
	seed   maphash.Seed
	shards [memoryShards]hubShard
	closed atomic.Bool
	done   chan struct{}
	log    func(msg string, args ...any)

	// unknown holds this node's publishes whose outcome was unknown
	// (ErrOutcomeUnknown), by topic and id, until their expiry: if Redis
	// stored one after all, its announcement (or the client publishing it
	// again) is what delivers it to this node's subscribers, which Publish
	// did not do.
	unknownMu sync.Mutex
	unknown   map[string]int64
}

// maxUnknown bounds Redis.unknown; past it, a late-stored message reaches
// this node's subscribers at their next subscribe, as the Broker allows.
const maxUnknown = 4096

func (b *Redis) rememberUnknown(m *Message) {
	now := b.cfg.Now().UnixMilli()
	b.unknownMu.Lock()
	defer b.unknownMu.Unlock()
	if len(b.unknown) >= maxUnknown {
		for k, exp := range b.unknown {
			if exp <= now {
				delete(b.unknown, k)
			}
		}
		if len(b.unknown) >= maxUnknown {
			return
		}
	}
	b.unknown[m.Topic+"\x00"+m.ID] = m.ExpiresAt
}

// settleUnknown reports whether m was a publish of unknown outcome, which
// it no longer is.
func (b *Redis) settleUnknown(m *Message) bool {
	b.unknownMu.Lock()
	defer b.unknownMu.Unlock()
	if len(b.unknown) == 0 {
		return false
	}
	k := m.Topic + "\x00" + m.ID
	_, ok := b.unknown[k]
	delete(b.unknown, k)
	return ok
}

type hubShard struct {
	mu     sync.Mutex
	topics map[string]*hubTopic
	// inflight counts SUBSCRIBE commands per channel whose confirmation has
	// not arrived; a confirmation nobody waits for follows a reconnection.
	inflight map[string]int
}

// hubTopic is a topic with local subscribers; ready is closed once Redis has
// confirmed this node's channel subscription.
type hubTopic struct {
	subs  []Subscriber
	ready chan struct{}
}

// NewRedis returns a broker on rdb with keys under prefix (e.g.
// "latch:relay:"). logf receives failures that have no caller to return to
// (nil: dropped).
func NewRedis(ctx context.Context, rdb redis.UniversalClient, prefix string, cfg BrokerConfig, logf func(msg string, args ...any)) (*Redis, error) {
	cfg.defaults()
	if logf == nil {
		logf = func(string, ...any) {}
	}
	var id [8]byte
	rand.Read(id[:])
	b := &Redis{cfg: cfg, rdb: rdb, prefix: prefix, node: hex.EncodeToString(id[:]), seed: maphash.MakeSeed(), done: make(chan struct{}), log: logf, unknown: map[string]int64{}}
	for i := range b.shards {
		b.shards[i].topics = map[string]*hubTopic{}
		b.shards[i].inflight = map[string]int{}
	}
	// Load the scripts now, so a Redis that refuses them fails the start.
	for _, s := range []*redis.Script{publishScript, backlogScript, ackScript} {
		if err := s.Load(ctx, rdb).Err(); err != nil {
			return nil, fmt.Errorf("relay: load Redis script: %w", err)
		}
	}
	// Mailboxes are bounded by Redis's own memory limit (see Broker).
	if v, err := rdb.ConfigGet(ctx, "maxmemory").Result(); err == nil && v["maxmemory"] == "0" {
		logf("relay: Redis has no maxmemory: relay mailboxes are bounded only by per-topic counts and TTLs; set maxmemory (with noeviction) to bound them")
	}
	b.ps = rdb.Subscribe(ctx)
	// A stalled Pub/Sub connection is noticed (a ping unanswered for
	// StoreTimeout) and replaced within a few seconds; the confirmations of
	// the new one make the node re-read its topics' mailboxes (confirmed).
	go b.run(b.ps.ChannelWithSubscriptions(redis.WithChannelSize(4096),
		redis.WithChannelHealthCheckInterval(time.Second),
		redis.WithChannelPingTimeout(cfg.StoreTimeout),
		redis.WithChannelReconnectTimeout(2*cfg.StoreTimeout)))
	return b, nil
}

// publishError is the Broker error of a publish Redis did not answer:
// ErrUnavailable when the command cannot have reached Redis (its breaker
// was open, no connection could be had), else ErrOutcomeUnknown: Redis may
// have run it, or may run it when a stalled connection flows again.
func publishError(err error) error {
	var opErr *net.OpError
	if errors.Is(err, breaker.ErrOpen) || errors.Is(err, redis.ErrPoolTimeout) || errors.Is(err, redis.ErrClosed) ||
		errors.As(err, &opErr) && opErr.Op == "dial" {
		return fmt.Errorf("relay: publish to Redis: %w: %w", ErrUnavailable, err)
	}
	return fmt.Errorf("relay: publish to Redis: %w: %w", ErrOutcomeUnknown, err)
}

func (b *Redis) key(topic, kind string) string { return b.prefix + "{" + topic + "}:" + kind }
func (b *Redis) channel(topic string) string   { return b.prefix + "ch:" + topic }

func (b *Redis) shard(topic string) *hubShard {
	return &b.shards[maphash.String(b.seed, topic)%memoryShards]
}

// wireMessage is a message as stored in Redis and announced on a channel.
type wireMessage struct {
	ID          string `json:"i"`
	Message     string `json:"m"`
	PublishedAt int64  `json:"p"`
	ExpiresAt   int64  `json:"e"`
	Tag         uint32 `json:"t,omitempty"`
	Attestation string `json:"a,omitempty"`
	Publisher   string `json:"f"`
}

func encodeMessage(m *Message) string {
	b, _ := json.Marshal(wireMessage{m.ID, m.Message, m.PublishedAt, m.ExpiresAt, m.Tag, m.Attestation, m.Publisher})
	return string(b)
}

func decodeMessage(topic, s string) (*Message, error) {
	var w wireMessage
	if err := json.Unmarshal([]byte(s), &w); err != nil {
		return nil, err
	}
	return &Message{ID: w.ID, Topic: topic, Message: w.Message, PublishedAt: w.PublishedAt, ExpiresAt: w.ExpiresAt, Tag: w.Tag, Attestation: w.Attestation, Publisher: w.Publisher}, nil
}

// publishScript drops expired messages, refuses a duplicate (0), makes room
// in the publisher's full share by evicting its delivered message expiring
// first, or refuses (-1), then stores the message and announces it (1).
var publishScript = redis.NewScript(`
local z, h, a, d, p = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local id, now, exp, max = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[5])
local old = redis.call('ZRANGEBYSCORE', z, '-inf', now)
if #old > 0 then
  redis.call('ZREMRANGEBYSCORE', z, '-inf', now)
  redis.call('HDEL', h, unpack(old))
  redis.call('SREM', d, unpack(old))
end
redis.call('ZREMRANGEBYSCORE', a, '-inf', now)
redis.call('ZREMRANGEBYSCORE', p, '-inf', now)
if redis.call('ZSCORE', z, id) then return 0 end
if redis.call('ZCARD', p) >= max then
  local victim = nil
  for _, v in ipairs(redis.call('ZRANGE', p, 0, -1)) do
    if redis.call('SISMEMBER', d, v) == 1 then victim = v; break end
  end
  if not victim then return -1 end
  redis.call('ZREM', z, victim)
  redis.call('ZREM', p, victim)
  redis.call('HDEL', h, victim)
  redis.call('SREM', d, victim)
end
redis.call('ZADD', p, exp, id)
redis.call('PEXPIREAT', p, tonumber(redis.call('ZRANGE', p, -1, -1, 'WITHSCORES')[2]))
redis.call('ZADD', z, exp, id)
redis.call('HSET', h, id, ARGV[4])
-- The publisher counts as having received its message, so a backlog page
-- is never filled with messages its reader would skip.
redis.call('ZADD', a, exp, id .. '|' .. ARGV[8])
local last = tonumber(redis.call('ZRANGE', z, -1, -1, 'WITHSCORES')[2])
redis.call('PEXPIREAT', z, last)
redis.call('PEXPIREAT', h, last)
redis.call('PEXPIREAT', a, math.max(last, tonumber(redis.call('ZRANGE', a, -1, -1, 'WITHSCORES')[2])))
redis.call('PUBLISH', ARGV[6], ARGV[7])
return 1
`)

// backlogScript returns the unexpired messages client has not acknowledged,
// in expiry order, at most ARGV[3] of them and about ARGV[4] bytes (at
// least one; 0: no limit), followed by "1" when more remain, else "0".
var backlogScript = redis.NewScript(`
local z, h, a = KEYS[1], KEYS[2], KEYS[3]
local limit, maxBytes = tonumber(ARGV[3]), tonumber(ARGV[4])
local ids = redis.call('ZRANGEBYSCORE', z, '(' .. ARGV[1], '+inf')
local out, size = {}, 0
for _, id in ipairs(ids) do
  if not redis.call('ZSCORE', a, id .. '|' .. ARGV[2]) then
    local v = redis.call('HGET', h, id)
    if v then
      size = size + #v
      if #out > 0 and ((limit > 0 and #out >= limit) or (maxBytes > 0 and size > maxBytes)) then
        out[#out + 1] = '1'
        return out
      end
      out[#out + 1] = v
    end
  end
end
out[#out + 1] = '0'
return out
`)

// ackScript records that a client received a message, and that it is
// delivered when ARGV[4] is "1" (the client subscribes to the topic).
var ackScript = redis.NewScript(`
local a, d = KEYS[1], KEYS[2]
redis.call('ZADD', a, tonumber(ARGV[2]), ARGV[1])
local last = tonumber(redis.call('ZRANGE', a, -1, -1, 'WITHSCORES')[2])
redis.call('PEXPIREAT', a, last)
if ARGV[4] == '1' then
  redis.call('SADD', d, ARGV[3])
  redis.call('PEXPIREAT', d, last)
end
return 1
`)

// Publish implements Broker.
func (b *Redis) Publish(ctx context.Context, m *Message) (bool, error) {
	if b.closed.Load() {
		return false, ErrClosed
	}
	enc := encodeMessage(m)
	keys := []string{b.key(m.Topic, "mb"), b.key(m.Topic, "msg"), b.key(m.Topic, "ack"), b.key(m.Topic, "dlv"), b.key(m.Topic, "mb:"+m.Publisher)}
	ctx, cancel := context.WithTimeout(ctx, b.cfg.StoreTimeout)
	defer cancel()
	res, err := publishScript.Run(ctx, b.rdb, keys, m.ID, b.cfg.Now().UnixMilli(), m.ExpiresAt, enc,
		b.cfg.MaxMessagesPerTopic, b.channel(m.Topic), b.node+"\n"+enc, m.Publisher).Int()
	if err != nil {
		err = publishError(err)
		if errors.Is(err, ErrOutcomeUnknown) {
			b.rememberUnknown(m)
		}
		return false, err
	}
	switch res {
	case 0:
		if b.settleUnknown(m) {
			// Stored by the earlier publish whose answer was lost, and not
			// yet announced back to this node: its subscribers get it now.
			b.deliverLocal(m)
		}
		return false, nil
	case -1:
		return false, ErrMailboxFull
	}
	// This node's subscribers get it now; the announcement is for the others.
	b.deliverLocal(m)
	return true, nil
}

// Subscribe implements Broker.
func (b *Redis) Subscribe(ctx context.Context, topic string, s Subscriber) ([]*Message, error) {
	if b.closed.Load() {
		return nil, ErrClosed
	}
	ctx, cancel := context.WithTimeout(ctx, b.cfg.StoreTimeout)
	defer cancel()
	ready, err := b.addLocal(ctx, topic, s)
	if err != nil {
		return nil, err
	}
	select {
	case <-ready:
	case <-ctx.Done():
		b.removeLocal(topic, s)
		return nil, fmt.Errorf("relay: Redis did not confirm the channel subscription: %w: %w", ErrUnavailable, ctx.Err())
	}
	msgs, _, err := b.backlogPage(ctx, topic, s.ClientID(), 0, b.cfg.MaxBacklogBytes)
	if err != nil {
		b.removeLocal(topic, s)
		return nil, err
	}
	return msgs, nil
}

// addLocal registers s and, for the topic's first local subscriber,
// subscribes this node to the topic's channel. Channel commands for a topic
// are sent under its shard lock, so SUBSCRIBE and UNSUBSCRIBE cannot
// overtake each other.
func (b *Redis) addLocal(ctx context.Context, topic string, s Subscriber) (chan struct{}, error) {
	sh := b.shard(topic)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	t := sh.topics[topic]
	if t == nil {
		t = &hubTopic{ready: make(chan struct{})}
		if err := b.ps.Subscribe(ctx, b.channel(topic)); err != nil {
			b.ps.Unsubscribe(context.WithoutCancel(ctx), b.channel(topic))
			return nil, fmt.Errorf("relay: subscribe to Redis channel: %w", err)
		}
		sh.inflight[topic]++
		sh.topics[topic] = t
	}
	if !slices.Contains(t.subs, s) {
		t.subs = append(t.subs, s)
	}
	return t.ready, nil
}

func (b *Redis) removeLocal(topic string, s Subscriber) {
	sh := b.shard(topic)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	t := sh.topics[topic]
	if t == nil {
		return
	}
	if i := slices.Index(t.subs, s); i >= 0 {
		t.subs = slices.Delete(t.subs, i, i+1)
	}
	if len(t.subs) == 0 {
		delete(sh.topics, topic)
		if !b.closed.Load() {
			if err := b.ps.Unsubscribe(context.Background(), b.channel(topic)); err != nil {
				b.log("relay: unsubscribe from Redis channel", "err", err)
			}
		}
	}
}

// Unsubscribe implements Broker.
func (b *Redis) Unsubscribe(_ context.Context, topic string, s Subscriber) error {
	if b.closed.Load() {
		return ErrClosed
	}
	b.removeLocal(topic, s)
	return nil
}

// Fetch implements Broker.
func (b *Redis) Fetch(ctx context.Context, topic, client string, limit int) ([]*Message, bool, error) {
	if b.closed.Load() {
		return nil, false, ErrClosed
	}
	// Paged in Redis by count and bytes, so a full mailbox is not read into
	// memory for one answer.
	return b.backlogPage(ctx, topic, client, limit, MaxFetchBytes)
}

// backlogPage reads up to limit messages and about maxBytes (0: no limit)
// of the backlog, oldest first, and whether more remain.
func (b *Redis) backlogPage(ctx context.Context, topic, client string, limit, maxBytes int) ([]*Message, bool, error) {
	keys := []string{b.key(topic, "mb"), b.key(topic, "msg"), b.key(topic, "ack")}
	vals, err := backlogScript.Run(ctx, b.rdb, keys, b.cfg.Now().UnixMilli(), client, limit, maxBytes).StringSlice()
	if err == nil && len(vals) == 0 {
		err = errors.New("empty answer")
	}
	if err != nil {
		return nil, false, fmt.Errorf("relay: read mailbox from Redis: %w", err)
	}
	more := vals[len(vals)-1] == "1"
	vals = vals[:len(vals)-1]
	msgs := make([]*Message, 0, len(vals))
	for _, v := range vals {
		m, err := decodeMessage(topic, v)
		if err != nil {
			b.log("relay: undecodable message in Redis mailbox", "err", err)
			continue
		}
		if m.Publisher != client {
			msgs = append(msgs, m)
		}
	}
	slices.SortStableFunc(msgs, func(x, y *Message) int { return int(x.PublishedAt - y.PublishedAt) })
	return msgs, more, nil
}

// Ack implements Broker.
func (b *Redis) Ack(ctx context.Context, client string, m *Message) error {
	if b.closed.Load() {
		return ErrClosed
	}
	if client == m.Publisher {
		return nil
	}
	// The acking client's socket is on this node: it subscribes to the
	// topic if one of this node's subscribers of the topic is that client.
	delivered := "0"
	if b.subscribedHere(m.Topic, client) {
		delivered = "1"
	}
	keys := []string{b.key(m.Topic, "ack"), b.key(m.Topic, "dlv")}
	if err := ackScript.Run(ctx, b.rdb, keys, m.ID+"|"+client, m.ExpiresAt, m.ID, delivered).Err(); err != nil {
		return fmt.Errorf("relay: record ack in Redis: %w", err)
	}
	return nil
}

// subscribedHere reports whether one of this node's subscribers of topic
// has the client id client.
func (b *Redis) subscribedHere(topic, client string) bool {
	sh := b.shard(topic)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if t := sh.topics[topic]; t != nil {
		for _, s := range t.subs {
			if s.ClientID() == client {
				return true
			}
		}
	}
	return false
}

// Close implements Broker: it leaves every channel and stops the reader.
func (b *Redis) Close() error {
	if b.closed.Swap(true) {
		return nil
	}
	err := b.ps.Close()
	<-b.done
	return err
}

// run reads this node's Pub/Sub connection: announcements to deliver and
// subscription confirmations.
func (b *Redis) run(ch <-chan any) {
	defer close(b.done)
	for msg := range ch {
		switch v := msg.(type) {
		case *redis.Subscription:
			if v.Kind == "subscribe" {
				b.confirmed(strings.TrimPrefix(v.Channel, b.prefix+"ch:"))
			}
		case *redis.Message:
			b.announced(v)
		}
	}
}

// confirmed handles Redis's confirmation of a channel subscription: the
// first one opens the topic to its waiting subscribers; a later one follows
// a reconnection, after which the topic's mailbox is read again for every
// local subscriber, since announcements in between were lost.
func (b *Redis) confirmed(topic string) {
	sh := b.shard(topic)
	sh.mu.Lock()
	expected := sh.inflight[topic] > 0
	if expected {
		if sh.inflight[topic]--; sh.inflight[topic] == 0 {
			delete(sh.inflight, topic)
		}
	}
	t := sh.topics[topic]
	var resync []Subscriber
	if t != nil {
		select {
		case <-t.ready:
			if !expected {
				resync = slices.Clone(t.subs)
			}
		default:
			// An earlier SUBSCRIBE of a since-abandoned entry may still be
			// unconfirmed; only the last one opens the topic.
			if sh.inflight[topic] == 0 {
				close(t.ready)
			}
		}
	}
	sh.mu.Unlock()
	if len(resync) == 0 {
		return
	}
	go func() {
		for _, s := range resync {
			ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
			msgs, _, err := b.backlogPage(ctx, topic, s.ClientID(), 0, b.cfg.MaxBacklogBytes)
			cancel()
			if err != nil {
				b.log("relay: re-read mailbox after Redis reconnect", "err", err)
				return
			}
			for _, m := range msgs {
				s.Deliver(m)
			}
		}
	}()
}

// announced delivers a message another node published.
func (b *Redis) announced(msg *redis.Message) {
	node, enc, ok := strings.Cut(msg.Payload, "\n")
	if !ok {
		return
	}
	topic, ok := strings.CutPrefix(msg.Channel, b.prefix+"ch:")
	if !ok {
		return
	}
	m, err := decodeMessage(topic, enc)
	if err != nil {
		b.log("relay: undecodable announcement", "err", err)
		return
	}
	// This node's own publishes were delivered here by Publish, but for
	// those whose answer Redis did not give in time.
	if node == b.node && !b.settleUnknown(m) {
		return
	}
	if m.ExpiresAt <= b.cfg.Now().UnixMilli() {
		return
	}
	b.deliverLocal(m)
}

// deliverLocal hands m to this node's subscribers of its topic, except the
// publisher's client.
func (b *Redis) deliverLocal(m *Message) {
	sh := b.shard(m.Topic)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if t := sh.topics[m.Topic]; t != nil {
		for _, s := range t.subs {
			if s.ClientID() != m.Publisher {
				s.Deliver(m)
			}
		}
	}
}
