package relay_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/redistest"
	"github.com/latchkit/latch/internal/relay"
)

// newBrokerFunc makes a broker with the given mailbox size on an injected
// clock; node picks a broker instance sharing state with the others of the
// same test (the memory broker has only one node).
type newBrokerFunc func(t *testing.T, mailbox int, clock *fakeClock) (node func(i int) relay.Broker, nodes int)

func TestMemoryBroker(t *testing.T) {
	testBroker(t, func(t *testing.T, mailbox int, clock *fakeClock) (func(int) relay.Broker, int) {
		b := relay.NewMemory(relay.BrokerConfig{MaxMessagesPerTopic: mailbox, Now: clock.Now})
		t.Cleanup(func() { b.Close() })
		return func(int) relay.Broker { return b }, 1
	})
}

func TestRedisBroker(t *testing.T) {
	testBroker(t, func(t *testing.T, mailbox int, clock *fakeClock) (func(int) relay.Broker, int) {
		rdb, prefix := redistest.MustClient(t)
		nodes := make([]relay.Broker, 2)
		for i := range nodes {
			b, err := relay.NewRedis(context.Background(), rdb, prefix+"relay:", relay.BrokerConfig{MaxMessagesPerTopic: mailbox, Now: clock.Now}, t.Logf)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { b.Close() })
			nodes[i] = b
		}
		return func(i int) relay.Broker { return nodes[i%2] }, 2
	})
}

// recorder is a Subscriber that remembers what it was given.
type recorder struct {
	client string
	mu     sync.Mutex
	got    []*relay.Message
	signal chan struct{}
}

func newRecorder(client string) *recorder {
	return &recorder{client: client, signal: make(chan struct{}, 1024)}
}

func (r *recorder) ClientID() string { return r.client }

func (r *recorder) Deliver(m *relay.Message) {
	r.mu.Lock()
	r.got = append(r.got, m)
	r.mu.Unlock()
	r.signal <- struct{}{}
}

func (r *recorder) messages() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]string, len(r.got))
	for i, m := range r.got {
		out[i] = m.Message
	}
	return out
}

// wait waits until n messages have been delivered in total.
func (r *recorder) wait(t *testing.T, n int) []string {
	t.Helper()
	deadline := time.After(3 * time.Second)
	for {
		if got := r.messages(); len(got) >= n {
			return got
		}
		select {
		case <-r.signal:
		case <-deadline:
			t.Fatalf("%s: %d deliveries, want %d", r.client, len(r.messages()), n)
		}
	}
}

// settle returns once every message published on topic so far has been
// handed to the subscribers on probe's node, probe being subscribed to
// topic there and having had `had` deliveries. It publishes a marker from
// every node and waits for probe to get them all: per topic and publisher
// node, brokers deliver in publish order, and a node hands a message to all
// its subscribers of the topic at once. It returns the markers' bodies.
func settle(t *testing.T, node func(int) relay.Broker, n int, clock *fakeClock, topic string, probe *recorder, had int) []string {
	t.Helper()
	var markers []string
	for i := range n {
		body := fmt.Sprintf("marker%d", i)
		if _, err := node(i).Publish(context.Background(), message(clock, topic, body, "did:key:zMarker", time.Minute)); err != nil {
			t.Fatal(err)
		}
		markers = append(markers, body)
	}
	probe.wait(t, had+n)
	return markers
}

func message(clock *fakeClock, topic, body, publisher string, ttl time.Duration) *relay.Message {
	now := clock.Now()
	return &relay.Message{ID: relay.MessageID(body), Topic: topic, Message: body, PublishedAt: now.UnixMilli(),
		ExpiresAt: now.Add(ttl).UnixMilli(), Tag: 1108, Attestation: "att", Publisher: publisher}
}

func bodies(msgs []*relay.Message) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = m.Message
	}
	return out
}

func equal(a, b []string) bool { return fmt.Sprint(a) == fmt.Sprint(b) }

func sorted(s []string) []string { return slices.Sorted(slices.Values(s)) }

// testBroker is the suite every Broker passes: the guarantees in the Broker
// doc comment, each against the last node when there are several (so a
// shared broker proves its fan-out and mailbox cross nodes).
func testBroker(t *testing.T, newBroker newBrokerFunc) {
	ctx := context.Background()
	const dapp, wallet, other = "did:key:zDapp", "did:key:zWallet", "did:key:zOther"

	t.Run("MailboxThenSubscribe", func(t *testing.T) {
		clock := newFakeClock()
		node, n := newBroker(t, 10, clock)
		topic := newTopic(t)
		for _, body := range []string{"m1", "m2"} {
			stored, err := node(0).Publish(ctx, message(clock, topic, body, dapp, 5*time.Minute))
			if err != nil || !stored {
				t.Fatalf("publish %s: %v %v", body, stored, err)
			}
			clock.Advance(time.Millisecond)
		}
		got, err := node(n-1).Subscribe(ctx, topic, newRecorder(wallet))
		if err != nil || !equal(bodies(got), []string{"m1", "m2"}) {
			t.Fatalf("backlog %v, %v; want [m1 m2] oldest first", bodies(got), err)
		}
		if m := got[0]; m.Topic != topic || m.Tag != 1108 || m.Attestation != "att" || m.Publisher != dapp || m.ID != relay.MessageID("m1") {
			t.Fatalf("stored message lost fields: %+v", m)
		}
		// The publisher's own messages are not its backlog.
		if mine, _ := node(0).Subscribe(ctx, topic, newRecorder(dapp)); len(mine) != 0 {
			t.Fatalf("publisher's backlog %v", bodies(mine))
		}
	})

	t.Run("FanOutExceptPublisher", func(t *testing.T) {
		clock := newFakeClock()
		node, n := newBroker(t, 10, clock)
		topic := newTopic(t)
		pub, sub, third := newRecorder(dapp), newRecorder(wallet), newRecorder(other)
		for i, r := range []*recorder{pub, sub, third} {
			if _, err := node(i).Subscribe(ctx, topic, r); err != nil {
				t.Fatal(err)
			}
		}
		for i, body := range []string{"a", "b", "c"} {
			if _, err := node(i%n).Publish(ctx, message(clock, topic, body, dapp, time.Minute)); err != nil {
				t.Fatal(err)
			}
		}
		// Order is promised per publisher node only: a node hands its own
		// subscribers a message before the other nodes' announcements arrive.
		if got := sorted(sub.wait(t, 3)); !equal(got, []string{"a", "b", "c"}) {
			t.Fatalf("subscriber got %v", got)
		}
		third.wait(t, 3)
		// The publisher got none of its own: only the markers.
		if markers := settle(t, node, n, clock, topic, pub, 0); !equal(sorted(pub.messages()), markers) {
			t.Fatalf("publisher got %v", pub.messages())
		}
	})

	t.Run("OrderPerPublisherNode", func(t *testing.T) {
		clock := newFakeClock()
		node, n := newBroker(t, 100, clock)
		topic := newTopic(t)
		sub := newRecorder(wallet)
		if _, err := node(n-1).Subscribe(ctx, topic, sub); err != nil {
			t.Fatal(err)
		}
		var want []string
		for i := range 50 {
			body := fmt.Sprintf("m%02d", i)
			want = append(want, body)
			if _, err := node(0).Publish(ctx, message(clock, topic, body, dapp, time.Minute)); err != nil {
				t.Fatal(err)
			}
		}
		if got := sub.wait(t, len(want)); !equal(got, want) {
			t.Fatalf("delivered out of publish order: %v", got)
		}
	})

	t.Run("IdempotentPublish", func(t *testing.T) {
		clock := newFakeClock()
		node, n := newBroker(t, 10, clock)
		topic := newTopic(t)
		sub := newRecorder(wallet)
		node(n-1).Subscribe(ctx, topic, sub)
		m := message(clock, topic, "once", dapp, time.Minute)
		if stored, err := node(0).Publish(ctx, m); !stored || err != nil {
			t.Fatalf("first: %v %v", stored, err)
		}
		again := *m
		again.PublishedAt++
		if stored, err := node(n-1).Publish(ctx, &again); stored || err != nil {
			t.Fatalf("duplicate: stored=%v err=%v, want false, nil", stored, err)
		}
		sub.wait(t, 1)
		if backlog, _ := node(0).Subscribe(ctx, topic, newRecorder(other)); len(backlog) != 1 {
			t.Fatalf("mailbox holds %d copies", len(backlog))
		}
		// Delivered once: the duplicate was not fanned out.
		markers := settle(t, node, n, clock, topic, sub, 1)
		if got := sorted(sub.messages()); !equal(got, sorted(append(markers, "once"))) {
			t.Fatalf("subscriber got %v", got)
		}
	})

	t.Run("AckPerClient", func(t *testing.T) {
		clock := newFakeClock()
		node, n := newBroker(t, 10, clock)
		topic := newTopic(t)
		m := message(clock, topic, "hello", dapp, time.Minute)
		node(0).Publish(ctx, m)
		w := newRecorder(wallet)
		backlog, _ := node(n-1).Subscribe(ctx, topic, w)
		if err := node(n-1).Ack(ctx, wallet, backlog[0]); err != nil {
			t.Fatal(err)
		}
		if again, _ := node(0).Subscribe(ctx, topic, newRecorder(wallet)); len(again) != 0 {
			t.Fatalf("acknowledged message returned again: %v", bodies(again))
		}
		if msgs, more, _ := node(0).Fetch(ctx, topic, wallet, 10); len(msgs) != 0 || more {
			t.Fatalf("fetch after ack: %v", bodies(msgs))
		}
		if theirs, _ := node(n-1).Subscribe(ctx, topic, newRecorder(other)); len(theirs) != 1 {
			t.Fatalf("another client's backlog %v, want the message", bodies(theirs))
		}
		// Re-subscribing without an ack returns the backlog again (redelivery).
		o := newRecorder(other)
		first, _ := node(0).Subscribe(ctx, topic, o)
		second, _ := node(0).Subscribe(ctx, topic, o)
		if len(first) != 1 || len(second) != 1 {
			t.Fatalf("unacknowledged backlog %d then %d, want 1 and 1", len(first), len(second))
		}
	})

	t.Run("Expiry", func(t *testing.T) {
		clock := newFakeClock()
		node, n := newBroker(t, 10, clock)
		topic := newTopic(t)
		node(0).Publish(ctx, message(clock, topic, "short", dapp, 300*time.Second))
		node(0).Publish(ctx, message(clock, topic, "long", dapp, time.Hour))
		clock.Advance(301 * time.Second)
		if got, _ := node(n-1).Subscribe(ctx, topic, newRecorder(wallet)); !equal(bodies(got), []string{"long"}) {
			t.Fatalf("after 301 s: %v, want [long]", bodies(got))
		}
		clock.Advance(time.Hour)
		if got, more, _ := node(0).Fetch(ctx, topic, other, 10); len(got) != 0 || more {
			t.Fatalf("after expiry: %v", bodies(got))
		}
		// An expired message can be published again.
		if stored, err := node(0).Publish(ctx, message(clock, topic, "short", dapp, time.Minute)); !stored || err != nil {
			t.Fatalf("republish after expiry: %v %v", stored, err)
		}
	})

	t.Run("MailboxFull", func(t *testing.T) {
		clock := newFakeClock()
		node, n := newBroker(t, 2, clock)
		topic := newTopic(t)
		first := message(clock, topic, "one", dapp, time.Hour)
		node(0).Publish(ctx, first)
		clock.Advance(time.Millisecond)
		node(0).Publish(ctx, message(clock, topic, "two", dapp, 2*time.Hour))
		clock.Advance(time.Millisecond)
		if stored, err := node(n-1).Publish(ctx, message(clock, topic, "three", dapp, time.Hour)); stored || !errors.Is(err, relay.ErrMailboxFull) {
			t.Fatalf("third into a full mailbox: %v %v, want ErrMailboxFull", stored, err)
		}
		// The publisher's own ack does not make a message delivered.
		node(0).Ack(ctx, dapp, first)
		if _, err := node(0).Publish(ctx, message(clock, topic, "three", dapp, time.Hour)); !errors.Is(err, relay.ErrMailboxFull) {
			t.Fatalf("after the publisher's ack: %v, want ErrMailboxFull", err)
		}
		// Delivered: acknowledged by a subscriber of the topic.
		if _, err := node(n-1).Subscribe(ctx, topic, newRecorder(wallet)); err != nil {
			t.Fatal(err)
		}
		node(n-1).Ack(ctx, wallet, first)
		if stored, err := node(0).Publish(ctx, message(clock, topic, "three", dapp, time.Hour)); !stored || err != nil {
			t.Fatalf("after a delivery: %v %v", stored, err)
		}
		if got, _, _ := node(0).Fetch(ctx, topic, other, 10); !equal(bodies(got), []string{"two", "three"}) {
			t.Fatalf("mailbox %v, want the delivered message evicted", bodies(got))
		}
	})

	t.Run("Squatting", func(t *testing.T) {
		// A stranger who learned the topic fills it and acknowledges the
		// dapp's messages by fetching them: the dapp is still heard, and its
		// undelivered messages stay.
		clock := newFakeClock()
		node, n := newBroker(t, 3, clock)
		topic := newTopic(t)
		for i := range 3 {
			if _, err := node(0).Publish(ctx, message(clock, topic, fmt.Sprint("junk", i), other, time.Hour)); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := node(0).Publish(ctx, message(clock, topic, "junk3", other, time.Hour)); !errors.Is(err, relay.ErrMailboxFull) {
			t.Fatalf("the stranger's fourth: %v, want ErrMailboxFull", err)
		}
		var mine []*relay.Message
		for i := range 3 {
			m := message(clock, topic, fmt.Sprint("dapp", i), dapp, time.Hour)
			if stored, err := node(n-1).Publish(ctx, m); !stored || err != nil {
				t.Fatalf("the dapp's publish %d into a topic the stranger filled: %v %v", i, stored, err)
			}
			mine = append(mine, m)
		}
		fetched, _, err := node(0).Fetch(ctx, topic, other, 10)
		if err != nil || len(fetched) != 3 {
			t.Fatalf("stranger's fetch: %v %v", bodies(fetched), err)
		}
		for _, m := range fetched {
			node(0).Ack(ctx, other, m)
		}
		if _, err := node(n-1).Publish(ctx, message(clock, topic, "dapp3", dapp, time.Hour)); !errors.Is(err, relay.ErrMailboxFull) {
			t.Fatalf("after a stranger's acks: %v, want ErrMailboxFull (its acks deliver nothing)", err)
		}
		got, _, _ := node(0).Fetch(ctx, topic, wallet, 10)
		if !equal(sorted(bodies(got)), []string{"dapp0", "dapp1", "dapp2", "junk0", "junk1", "junk2"}) {
			t.Fatalf("the wallet's mailbox %v", bodies(got))
		}
		// The wallet, subscribed, receives one: it makes room for the dapp.
		if _, err := node(n-1).Subscribe(ctx, topic, newRecorder(wallet)); err != nil {
			t.Fatal(err)
		}
		node(n-1).Ack(ctx, wallet, mine[0])
		if stored, err := node(n-1).Publish(ctx, message(clock, topic, "dapp3", dapp, time.Hour)); !stored || err != nil {
			t.Fatalf("after the wallet received one: %v %v", stored, err)
		}
	})

	t.Run("Unsubscribe", func(t *testing.T) {
		clock := newFakeClock()
		node, n := newBroker(t, 10, clock)
		topic := newTopic(t)
		sub := newRecorder(wallet)
		node(n-1).Subscribe(ctx, topic, sub)
		node(0).Publish(ctx, message(clock, topic, "before", dapp, time.Minute))
		sub.wait(t, 1)
		if err := node(n-1).Unsubscribe(ctx, topic, sub); err != nil {
			t.Fatal(err)
		}
		probe := newRecorder(other)
		if _, err := node(n-1).Subscribe(ctx, topic, probe); err != nil {
			t.Fatal(err)
		}
		node(0).Publish(ctx, message(clock, topic, "after", dapp, time.Minute))
		settle(t, node, n, clock, topic, probe, 1)
		if got := sub.messages(); !equal(got, []string{"before"}) {
			t.Fatalf("%s: deliveries %v after unsubscribing, want [before]", sub.client, got)
		}
		if err := node(n-1).Unsubscribe(ctx, newTopic(t), sub); err != nil {
			t.Fatalf("unsubscribe from an unknown topic: %v", err)
		}
	})

	t.Run("FetchLimit", func(t *testing.T) {
		clock := newFakeClock()
		node, n := newBroker(t, 10, clock)
		topic := newTopic(t)
		for i := 0; i < 5; i++ {
			node(0).Publish(ctx, message(clock, topic, fmt.Sprint(i), dapp, time.Minute))
			clock.Advance(time.Millisecond)
		}
		got, more, err := node(n-1).Fetch(ctx, topic, wallet, 2)
		if err != nil || !more || !equal(bodies(got), []string{"0", "1"}) {
			t.Fatalf("fetch 2 of 5: %v more=%v %v", bodies(got), more, err)
		}
		got, more, _ = node(n-1).Fetch(ctx, topic, wallet, 5)
		if more || len(got) != 5 {
			t.Fatalf("fetch 5 of 5: %d more=%v", len(got), more)
		}
	})

	t.Run("Closed", func(t *testing.T) {
		clock := newFakeClock()
		node, _ := newBroker(t, 10, clock)
		b := node(0)
		b.Close()
		if _, err := b.Publish(ctx, message(clock, newTopic(t), "x", dapp, time.Minute)); !errors.Is(err, relay.ErrClosed) {
			t.Fatalf("publish after close: %v", err)
		}
		if _, err := b.Subscribe(ctx, newTopic(t), newRecorder(wallet)); !errors.Is(err, relay.ErrClosed) {
			t.Fatalf("subscribe after close: %v", err)
		}
	})
}

// TestRedisBroker_BacklogBounded: a subscribe does not read a stuffed
// mailbox into memory whole (issue 15, finding 1).
func TestRedisBroker_BacklogBounded(t *testing.T) {
	ctx := context.Background()
	clock := newFakeClock()
	rdb, prefix := redistest.MustClient(t)
	b, err := relay.NewRedis(ctx, rdb, prefix+"relay:", relay.BrokerConfig{MaxBacklogBytes: 1 << 20, Now: clock.Now}, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	topic := newTopic(t)
	body := strings.Repeat("S", 300<<10)
	for i := range 10 { // 3 MiB under ten client ids
		if _, err := b.Publish(ctx, message(clock, topic, fmt.Sprint(i, body), fmt.Sprint("did:key:zStuffer", i), time.Hour)); err != nil {
			t.Fatal(err)
		}
		clock.Advance(time.Millisecond)
	}
	got, err := b.Subscribe(ctx, topic, newRecorder("did:key:zWallet"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 || len(got) > 4 || !strings.HasPrefix(got[0].Message, "0S") {
		t.Fatalf("backlog of %d messages, want the oldest, about 1 MiB", len(got))
	}
}
