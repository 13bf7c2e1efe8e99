package relay_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/breaker"
	"github.com/latchkit/latch/internal/faulttest"
	"github.com/latchkit/latch/internal/redistest"
	"github.com/latchkit/latch/internal/relay"
)

// The Redis broker through a Redis that stalls: a publish that may have
// reached Redis is ErrOutcomeUnknown, one that cannot have (the breaker is
// open) is ErrUnavailable; every answer is bounded. Once Redis is back, a
// publish of unknown outcome that Redis stored late reaches this node's
// subscriber, and none refused as unavailable is in the mailbox.
func TestRedisBroker_Outage(t *testing.T) {
	direct, prefix := redistest.MustClient(t)
	const bound = 200 * time.Millisecond
	client, proxy := faulttest.Redis(t, bound)
	client.AddHook(breaker.RedisHook(breaker.New(breaker.Config{Name: "redis", Failures: 2, OpenFor: 300 * time.Millisecond})))
	ctx := context.Background()
	b, err := relay.NewRedis(ctx, client, prefix+"relay:", relay.BrokerConfig{StoreTimeout: bound}, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	topic := fmt.Sprintf("%064x", time.Now().UnixNano())
	wallet := newRecorder("did:key:zWallet")
	if _, err := b.Subscribe(ctx, topic, wallet); err != nil {
		t.Fatal(err)
	}
	msg := func(body string) *relay.Message {
		now := time.Now()
		return &relay.Message{ID: relay.MessageID(body), Topic: topic, Message: body, PublishedAt: now.UnixMilli(),
			ExpiresAt: now.Add(time.Minute).UnixMilli(), Publisher: "did:key:zDapp"}
	}

	proxy.Stall()
	var unknown, unavailable []string
	for i := 0; len(unavailable) == 0 && i < 20; i++ {
		body := fmt.Sprintf("during the stall %d", i)
		start := time.Now()
		_, err := b.Publish(ctx, msg(body))
		if took := time.Since(start); took > 2*bound {
			t.Fatalf("publish %d answered after %v", i, took)
		}
		switch {
		case errors.Is(err, relay.ErrOutcomeUnknown):
			unknown = append(unknown, body)
		case errors.Is(err, relay.ErrUnavailable):
			unavailable = append(unavailable, body)
		default:
			t.Fatalf("publish %d during the stall: %v, want ErrOutcomeUnknown or ErrUnavailable", i, err)
		}
	}
	if len(unknown) == 0 || len(unavailable) == 0 {
		t.Fatalf("%d unknown and %d unavailable, want both (the breaker opens after 2 failures)", len(unknown), len(unavailable))
	}
	// The stall outlasts the publishes' deadlines, as outages do.
	time.Sleep(100 * time.Millisecond)
	proxy.Restore()
	proxy.WaitDrained()

	// Refused as unavailable: never sent, so not in the mailbox; of
	// unknown outcome: maybe (a publish whose connection stalled in its
	// handshake never left).
	rb, err := relay.NewRedis(ctx, direct, prefix+"relay:", relay.BrokerConfig{}, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	defer rb.Close()
	stored, _, err := rb.Fetch(ctx, topic, "did:key:zSomeoneElse", 100)
	if err != nil {
		t.Fatal(err)
	}
	isUnknown := map[string]bool{}
	for _, body := range unknown {
		isUnknown[body] = true
	}
	for _, m := range stored {
		if !isUnknown[m.Message] {
			t.Errorf("%q is in the mailbox but was refused as unavailable", m.Message)
		}
	}
	if len(stored) == 0 {
		t.Fatal("no publish of unknown outcome was stored late: the test did not exercise a late store")
	}
	// Stored late, and announced: delivered to this node's subscriber,
	// which Publish could not do.
	got := wallet.wait(t, len(stored))
	for _, m := range stored {
		found := false
		for _, body := range got {
			found = found || body == m.Message
		}
		if !found {
			t.Errorf("%q stored late but not delivered (got %q)", m.Message, got)
		}
	}
}
