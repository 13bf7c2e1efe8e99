package relay

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"time"
)

// Message is one published message as the relay stores and delivers it.
// A *Message is immutable once published: brokers share it between
// subscribers and mailboxes.
type Message struct {
	// ID identifies the message within its topic: MessageID(Message). Two
	// publishes of the same message on a topic are the same message.
	ID          string
	Topic       string
	Message     string // the client's envelope (base64), opaque to the relay
	PublishedAt int64  // unix milliseconds
	ExpiresAt   int64  // unix milliseconds; the mailbox drops the message then
	Tag         uint32
	Attestation string
	// Publisher is the client id (did:key) of the publisher. It never receives
	// its own message, and it is never sent to subscribers.
	Publisher string
	// Owner is who the message's bytes are charged to until a subscriber
	// acknowledges it: the publisher's client address as the relay counts
	// connections (a client id costs nothing to rotate; an address does).
	// Empty: charged to no one. Never sent to subscribers.
	Owner string
}

// messageOverhead is what a stored message costs beyond its strings: the
// Message and its mailbox entry, index entry and bookkeeping.
const messageOverhead = 256

// Size is what the message costs a broker that keeps it in memory.
func (m *Message) Size() int64 {
	return int64(len(m.ID) + len(m.Topic) + len(m.Message) + len(m.Attestation) + len(m.Publisher) + len(m.Owner) + messageOverhead)
}

// MessageID is the id of a message body within a topic: hex SHA-256.
func MessageID(message string) string {
	sum := sha256.Sum256([]byte(message))
	return hex.EncodeToString(sum[:])
}

// Subscriber is one subscribed connection, as a broker sees it.
type Subscriber interface {
	// ClientID is the subscriber's client id (did:key). Mailbox acks are kept
	// per client id, so a client reconnecting on a new socket is the same
	// subscriber for redelivery.
	ClientID() string
	// Deliver hands a message to the subscriber. It must not block and must not
	// call back into the broker: brokers call it while holding locks.
	Deliver(m *Message)
}

// Broker errors. Callers map them to JSON-RPC errors.
var (
	// ErrMailboxFull: the publisher's share of the topic holds the maximum
	// number of unexpired messages and none of them has been delivered yet;
	// the publish is refused.
	ErrMailboxFull = errors.New("mailbox full")
	// ErrClosed: the broker was closed.
	ErrClosed = errors.New("broker closed")
	// ErrBrokerFull: storing the message would take the broker over its
	// total bytes or its number of mailboxes; the publish is refused.
	ErrBrokerFull = errors.New("broker full")
	// ErrOwnerQuota: storing the message would take its owner (Message.Owner)
	// over its bytes of unacknowledged messages; the publish is refused.
	ErrOwnerQuota = errors.New("owner over quota")
	// ErrUnavailable: a shared broker's store (Redis) is away and the
	// operation was not sent to it (its circuit breaker is open, or no
	// connection could be made): for a publish, the message was not stored
	// and will not be delivered.
	ErrUnavailable = errors.New("broker store unavailable")
	// ErrOutcomeUnknown: a publish was sent to a shared broker's store but
	// no answer came in time: the message may have been stored (and is then
	// delivered, now or when the store is back) or not. Publishing it again
	// is safe (see Idempotent publish).
	ErrOutcomeUnknown = errors.New("publish outcome unknown")
)

// Broker keeps each topic's mailbox and fans published messages out to the
// topic's subscribers, on this node and, for a shared broker, on every node
// using the same backing store.
//
// Every implementation guarantees:
//
//   - Mailbox: Publish stores the message under its topic until ExpiresAt,
//     whether or not anyone is subscribed. Each publisher (client id) has its
//     own share of a topic: at most MaxMessagesPerTopic of its unexpired
//     messages. When its share is full, its own delivered message that
//     expires first makes room; when none is delivered, Publish returns
//     ErrMailboxFull and stores nothing, so an undelivered message is never
//     dropped before its time. An expired message is never returned or
//     delivered again.
//   - Anti-squatting: a topic is known to whoever saw its pairing URI, so
//     nothing a stranger does there may refuse or evict the rightful
//     publisher's messages. Other publishers' messages never count against a
//     publisher's share, and a message is delivered (evictable, and no
//     longer charged to its owner) only once a client other than its
//     publisher that is subscribed to the topic acknowledges it: an ack
//     from a fetch without a subscription only marks it received by that
//     client. So acking someone's messages makes them evictable by their own
//     publisher's later messages only. A stranger filling a topic under
//     many client ids is bounded by the per-owner and total bytes below.
//   - Idempotent publish: a message whose ID is already in the topic's
//     mailbox is stored once; Publish reports stored=false and does not fan
//     it out again (subscribers that missed it get it on re-subscribe).
//   - Fan-out: a stored message is delivered (Subscriber.Deliver) to every
//     subscriber of the topic whose client id differs from the publisher's,
//     on every node sharing the broker. Delivery is at least once: a
//     subscriber may see a message twice (live and from the mailbox), and the
//     client de-duplicates. Per topic and publisher node, messages are
//     delivered in publish order.
//   - No gap on subscribe: Subscribe registers the subscriber and returns the
//     unexpired mailbox messages its client has not acknowledged and did not
//     publish, oldest first. Every message published after Subscribe returns
//     is delivered live, so nothing falls between the backlog and the live
//     stream. Subscribing an already subscribed subscriber again is allowed
//     and returns the backlog again (that is how unacknowledged messages are
//     redelivered). A broker that copies the backlog out of its store (Redis)
//     returns at most MaxBacklogBytes of it, oldest first; the rest stays in
//     the mailbox for the next subscribe or fetch.
//   - Acknowledgement: after Ack(client, m), m is not returned to that client
//     by Subscribe or Fetch again. Other clients are unaffected.
//   - Unsubscribe: once it returns, no further message of the topic is
//     delivered to that subscriber by the broker (deliveries already handed
//     over may still be in the subscriber's own queue).
//   - Bounded memory: a broker that keeps messages in this process (Memory)
//     holds at most MaxBytes of them (Message.Size) in at most MaxTopics
//     mailboxes, and at most MaxOwnerBytes of unacknowledged messages per
//     owner (Message.Owner); a publish over a limit stores nothing and
//     returns ErrBrokerFull or ErrOwnerQuota (making room for its bytes may
//     first evict delivered messages of the topic). A message stops
//     counting against its owner once delivered; while the broker holds
//     more than half its MaxBytes, a delivered message is dropped at once (the spec keeps a message
//     "until ack or TTL"). Redis keeps messages in Redis, whose memory is
//     bounded by its own maxmemory (with noeviction, a full Redis refuses
//     the publish: a storage error); there, per-owner bytes are not counted
//     (a key per owner would not share the topic's cluster slot), and
//     NewRedis warns when Redis has no maxmemory.
//   - Errors: a publish is acknowledged (nil error) only once the message
//     is stored. A non-nil error means the operation did not happen, with
//     one exception: ErrOutcomeUnknown, which a shared broker returns when
//     its store took a publish but did not answer in time (the message may
//     be delivered later; the client may publish it again). A store known
//     to be away is ErrUnavailable: nothing was sent, nothing will be
//     delivered. Every wait on a store is bounded (BrokerConfig.
//     StoreTimeout), so a stalled store answers errors, not silence: the
//     relay's sockets stay open through an outage, and a shared broker
//     re-reads its subscribers' mailboxes when its store is back, so
//     messages stored meanwhile (by other nodes) reach them. Nothing fails
//     silently.
//
// Implementations are safe for concurrent use. Ordering across topics is not
// guaranteed.
type Broker interface {
	// Publish stores m (its ID, ExpiresAt and Publisher set) and fans it out.
	Publish(ctx context.Context, m *Message) (stored bool, err error)
	// Subscribe registers s for topic and returns its backlog.
	Subscribe(ctx context.Context, topic string, s Subscriber) ([]*Message, error)
	// Unsubscribe removes s from topic; unknown pairs are ignored.
	Unsubscribe(ctx context.Context, topic string, s Subscriber) error
	// Fetch returns up to limit backlog messages of topic for client (as
	// Subscribe would), oldest first, and whether more remain.
	Fetch(ctx context.Context, topic, client string, limit int) ([]*Message, bool, error)
	// Ack records that client received m; m becomes delivered when client
	// is subscribed to m.Topic (see Anti-squatting).
	Ack(ctx context.Context, client string, m *Message) error
	// Close releases the broker's resources; later calls return ErrClosed.
	Close() error
}

// BrokerConfig is what every broker needs.
type BrokerConfig struct {
	// MaxMessagesPerTopic bounds each topic's mailbox (default 1000).
	MaxMessagesPerTopic int
	// MaxBytes bounds the bytes of messages an in-memory broker holds
	// (default DefaultBrokerMaxBytes), MaxTopics its mailboxes holding
	// messages (default DefaultBrokerMaxTopics), and MaxOwnerBytes the
	// unacknowledged bytes of one owner (default DefaultMaxOwnerBytes).
	MaxBytes      int64
	MaxTopics     int
	MaxOwnerBytes int64
	// MaxBacklogBytes bounds the backlog a broker that copies it out of its
	// store returns from one Subscribe (default DefaultMaxBacklogBytes).
	MaxBacklogBytes int
	// StoreTimeout bounds each wait of a shared broker on its store, such
	// as Redis confirming a channel subscription (default
	// DefaultStoreTimeout); the caller's deadline may be earlier.
	StoreTimeout time.Duration
	// Now is the clock used for expiry (default time.Now); tests inject one.
	Now func() time.Time
}

func (c *BrokerConfig) defaults() {
	if c.MaxMessagesPerTopic <= 0 {
		c.MaxMessagesPerTopic = DefaultMaxMessagesPerTopic
	}
	if c.MaxBytes <= 0 {
		c.MaxBytes = DefaultBrokerMaxBytes
	}
	if c.MaxTopics <= 0 {
		c.MaxTopics = DefaultBrokerMaxTopics
	}
	if c.MaxOwnerBytes <= 0 {
		c.MaxOwnerBytes = DefaultMaxOwnerBytes
	}
	if c.MaxBacklogBytes <= 0 {
		c.MaxBacklogBytes = DefaultMaxBacklogBytes
	}
	if c.StoreTimeout <= 0 {
		c.StoreTimeout = DefaultStoreTimeout
	}
	if c.Now == nil {
		c.Now = time.Now
	}
}

// Defaults of BrokerConfig's memory bounds.
const (
	// DefaultBrokerMaxBytes: WalletConnect messages are 1–4 KiB, so 256 MiB
	// holds some 100,000 undelivered ones, far beyond a node's usual
	// sessions, while keeping the relay's worst case a fraction of a
	// small VM's memory.
	DefaultBrokerMaxBytes = 256 << 20
	// DefaultBrokerMaxTopics bounds mailboxes (each costs a few hundred
	// bytes beyond its messages).
	DefaultBrokerMaxTopics = 200_000
	// DefaultMaxOwnerBytes: one address's unacknowledged messages. A dapp
	// or wallet rarely has more than a few KiB waiting for its peer; 32 MiB
	// still takes 64 maximal (512 KiB) messages, and a crowd behind one
	// NAT, yet one address cannot fill the broker.
	DefaultMaxOwnerBytes = 32 << 20
	// DefaultMaxBacklogBytes: a WalletConnect backlog is a few KiB; 4 MiB
	// still carries several maximal messages per subscribe, while a
	// mailbox stuffed under many client ids is not read into memory whole.
	DefaultMaxBacklogBytes = 4 << 20
	// DefaultStoreTimeout: Redis answers in well under a millisecond; a
	// second without an answer is an outage, not load.
	DefaultStoreTimeout = time.Second
)
