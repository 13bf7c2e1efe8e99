package relay_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/latchkit/latch/internal/redistest"
	"github.com/latchkit/latch/internal/relay"
)

// TestServer_TwoNodesOnRedis: a dapp on one node and its wallet on another,
// sharing a Redis broker, exchange a message each way and a message waiting
// in the mailbox reaches a wallet that subscribes later.
func TestServer_TwoNodesOnRedis(t *testing.T) {
	rdb, prefix := redistest.MustClient(t)
	nodes := make([]*testServer, 2)
	for i := range nodes {
		b, err := relay.NewRedis(context.Background(), rdb, prefix+"relay:", relay.BrokerConfig{}, t.Logf)
		if err != nil {
			t.Fatal(err)
		}
		nodes[i] = newTestServer(t, withBroker(b))
	}
	topic := newTopic(t)
	dapp := dial(t, connectURL(nodes[0].url, newIdentity(t), nodes[0].url))
	dapp.ok("irn_subscribe", map[string]any{"topic": topic})
	dapp.ok("irn_publish", publishParams(topic, "cHJvcG9zYWw=", 300, 1100)) // before the wallet is there
	wallet := dial(t, connectURL(nodes[1].url, newIdentity(t), nodes[1].url))
	wallet.ok("irn_subscribe", map[string]any{"topic": topic})
	if f := wallet.next(); f.Params.Data.Message != "cHJvcG9zYWw=" {
		t.Fatalf("mailbox delivery %s", f.Raw)
	}
	wallet.ok("irn_publish", publishParams(topic, "YXBwcm92YWw=", 300, 1101))
	if f := dapp.next(); f.Params.Data.Message != "YXBwcm92YWw=" {
		t.Fatalf("delivery across nodes %s", f.Raw)
	}
	for i := range 50 { // a burst, in order
		dapp.ok("irn_publish", publishParams(topic, fmt.Sprintf("bXNn%03d", i), 300, 1108))
	}
	for i := range 50 {
		if f := wallet.next(); f.Params.Data.Message != fmt.Sprintf("bXNn%03d", i) {
			t.Fatalf("message %d: %s", i, f.Raw)
		}
	}
}
