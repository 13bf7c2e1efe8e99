package relay_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/jsonrpc"
	"github.com/latchkit/latch/internal/relay"
)

// owned is a message of about size bytes charged to owner.
func owned(clock *fakeClock, topic, body, owner string, size int) *relay.Message {
	m := message(clock, topic, body+strings.Repeat("x", size), "did:key:zPub", time.Hour)
	m.Owner = owner
	return m
}

// TestMemory_Bounds: the memory broker's bytes, mailboxes and per-owner
// bytes are bounded (issue 15, finding 2).
func TestMemory_Bounds(t *testing.T) {
	ctx := context.Background()
	t.Run("MaxBytes", func(t *testing.T) {
		clock := newFakeClock()
		b := relay.NewMemory(relay.BrokerConfig{MaxBytes: 10 << 10, MaxOwnerBytes: 1 << 30, Now: clock.Now})
		var err error
		n := 0
		for ; n < 100 && err == nil; n++ {
			_, err = b.Publish(ctx, owned(clock, newTopic(t), fmt.Sprint(n), "1.2.3.4", 1000))
		}
		if !errors.Is(err, relay.ErrBrokerFull) || n > 10 {
			t.Fatalf("publish %d: %v, want ErrBrokerFull within 10 KiB", n, err)
		}
		if b.Bytes() > 10<<10 {
			t.Fatalf("broker holds %d bytes", b.Bytes())
		}
	})
	t.Run("MaxTopics", func(t *testing.T) {
		clock := newFakeClock()
		b := relay.NewMemory(relay.BrokerConfig{MaxTopics: 3, Now: clock.Now})
		topics := []string{newTopic(t), newTopic(t), newTopic(t), newTopic(t)}
		for i, topic := range topics {
			_, err := b.Publish(ctx, owned(clock, topic, "m", "", 10))
			if want := i == 3; errors.Is(err, relay.ErrBrokerFull) != want {
				t.Fatalf("topic %d: %v", i, err)
			}
		}
		if _, err := b.Publish(ctx, owned(clock, topics[0], "again", "", 10)); err != nil {
			t.Fatalf("a topic holding messages: %v", err)
		}
		if n, _ := b.Stats(); n != 3 {
			t.Fatalf("%d topics kept, want 3 (a refused topic is not kept)", n)
		}
	})
	t.Run("OwnerQuota", func(t *testing.T) {
		clock := newFakeClock()
		b := relay.NewMemory(relay.BrokerConfig{MaxOwnerBytes: 5 << 10, Now: clock.Now})
		topic := newTopic(t)
		var first *relay.Message
		var err error
		for i := 0; err == nil; i++ {
			m := owned(clock, topic, fmt.Sprint(i), "10.0.0.1", 1000)
			if first == nil {
				first = m
			}
			_, err = b.Publish(ctx, m)
		}
		if !errors.Is(err, relay.ErrOwnerQuota) {
			t.Fatalf("got %v, want ErrOwnerQuota", err)
		}
		if _, err := b.Publish(ctx, owned(clock, topic, "other", "10.0.0.2", 1000)); err != nil {
			t.Fatalf("another owner: %v", err)
		}
		// Received by a subscriber, a message stops counting against its owner.
		b.Subscribe(ctx, topic, newRecorder("did:key:zPeer"))
		if err := b.Ack(ctx, "did:key:zPeer", first); err != nil {
			t.Fatal(err)
		}
		if _, err := b.Publish(ctx, owned(clock, topic, "after-ack", "10.0.0.1", 1000)); err != nil {
			t.Fatalf("after an ack: %v", err)
		}
		// Expired messages return their bytes.
		clock.Advance(2 * time.Hour)
		b.Sweep()
		if b.Bytes() != 0 {
			t.Fatalf("%d bytes after expiry", b.Bytes())
		}
		if _, err := b.Publish(ctx, owned(clock, topic, "after-expiry", "10.0.0.1", 4000)); err != nil {
			t.Fatalf("after expiry: %v", err)
		}
	})
	t.Run("PressureDropsDelivered", func(t *testing.T) {
		clock := newFakeClock()
		b := relay.NewMemory(relay.BrokerConfig{MaxBytes: 4 << 10, Now: clock.Now})
		topic := newTopic(t)
		m := owned(clock, topic, "big", "", 3000)
		if _, err := b.Publish(ctx, m); err != nil {
			t.Fatal(err)
		}
		b.Subscribe(ctx, topic, newRecorder("did:key:zPeer"))
		b.Ack(ctx, "did:key:zPeer", m)
		if b.Bytes() != 0 {
			t.Fatalf("a delivered message kept under pressure: %d bytes", b.Bytes())
		}
	})
}

// TestServer_BrokerFill: sockets publishing to fresh topics with the longest
// TTL are refused, with a JSON-RPC error, once their address holds its share
// of the broker (issue 15, finding 2).
func TestServer_BrokerFill(t *testing.T) {
	broker := relay.NewMemory(relay.BrokerConfig{MaxOwnerBytes: 4 << 20})
	srv := newTestServer(t, withBroker(broker), withLimits(relay.Limits{PublishRate: -1}))
	body := strings.Repeat("B", 400<<10)
	refused := 0
	for s := range 2 {
		c := dial(t, connectURL(srv.url, newIdentity(t), srv.url))
		for i := range 20 {
			f := c.call("irn_publish", publishParams(newTopic(t), fmt.Sprint(s, i, body), int(relay.DefaultMaxTTL/time.Second), 0))
			if f.Error != nil {
				if f.Error.Code != jsonrpc.CodeRefused || !strings.Contains(f.Error.Message, "Mailbox limit exceeded") {
					t.Fatalf("refusal %d %q", f.Error.Code, f.Error.Message)
				}
				refused++
			}
		}
	}
	if refused < 30 || broker.Bytes() > 4<<20 {
		t.Fatalf("%d of 40 publishes refused, broker holds %d bytes; want the address held to 4 MiB", refused, broker.Bytes())
	}
}

// TestServer_MailboxSquatting: a stranger who learned a topic fills it with
// junk; the rightful publisher is still heard (issue 15, finding 8).
func TestServer_MailboxSquatting(t *testing.T) {
	srv := newTestServer(t, withLimits(relay.Limits{MaxMessagesPerTopic: 20, PublishRate: -1}))
	topic := newTopic(t)
	stranger := dial(t, connectURL(srv.url, newIdentity(t), srv.url))
	for i := range 20 {
		stranger.ok("irn_publish", publishParams(topic, fmt.Sprint("junk", i), 300, 0))
	}
	stranger.wantError("irn_publish", publishParams(topic, "junk20", 300, 0), jsonrpc.CodeRefused, "Mailbox limit exceeded")
	dapp := dial(t, connectURL(srv.url, newIdentity(t), srv.url))
	dapp.ok("irn_publish", publishParams(topic, "proposal", 300, 1100))
	wallet := dial(t, connectURL(srv.url, newIdentity(t), srv.url))
	wallet.ok("irn_subscribe", map[string]any{"topic": topic})
	for range 21 {
		if f := wallet.next(); f.Params.Data.Message == "proposal" {
			return
		}
	}
	t.Fatal("the wallet did not receive the dapp's proposal")
}
