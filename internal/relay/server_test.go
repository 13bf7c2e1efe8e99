package relay_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/latchkit/latch/internal/jsonrpc"
	"github.com/latchkit/latch/internal/poll"
	"github.com/latchkit/latch/internal/relay"
)

func TestServer_PublishSubscribe(t *testing.T) {
	srv := newTestServer(t)
	dapp, wallet := newIdentity(t), newIdentity(t)
	a := dial(t, connectURL(srv.url, dapp, srv.url))
	b := dial(t, connectURL(srv.url, wallet, srv.url))
	topic := newTopic(t)

	t.Run("SubscriptionID", func(t *testing.T) {
		a.t = t
		var id string
		json.Unmarshal(a.ok("irn_subscribe", map[string]any{"topic": topic}), &id)
		if len(id) != 64 {
			t.Fatalf("subscription id %q, want 64 hex characters", id)
		}
	})
	b.t, a.t = t, t
	b.ok("irn_subscribe", map[string]any{"topic": topic})
	if r := b.ok("irn_publish", publishParams(topic, "aGVsbG8=", 300, 1108)); string(r) != "true" {
		t.Fatalf("publish result %s, want true", r)
	}
	f := a.next()
	d := f.Params.Data
	if d.Topic != topic || d.Message != "aGVsbG8=" || d.Tag != 1108 || d.PublishedAt == 0 {
		t.Fatalf("delivery %s", f.Raw)
	}
	var sid uint64
	if err := json.Unmarshal(f.ID, &sid); err != nil || sid == 0 || sid >= 1<<53 {
		t.Fatalf("irn_subscription id %s: want a number below 2^53", f.ID)
	}
	b.none(100 * time.Millisecond) // the publisher does not get its own message

	t.Run("IDsEchoedByteForByte", func(t *testing.T) {
		for _, id := range []string{`"1700000000000000123"`, `7`, `"abc"`, `12345678901234567890123`, `-1`, `1.5e3`} {
			f := a.callRaw(id, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"irn_subscribe","params":{"topic":%q}}`, id, topic))
			if !strings.HasPrefix(string(f.Raw), `{"id":`+id+`,`) {
				t.Errorf("id %s answered as %s", id, f.Raw)
			}
		}
	})
}

func TestServer_AckForms(t *testing.T) {
	for _, form := range []string{`%d`, `"%d"`, `"%dn"`} {
		t.Run(form, func(t *testing.T) {
			srv := newTestServer(t)
			pub, sub := newIdentity(t), newIdentity(t)
			topic := newTopic(t)
			p := dial(t, connectURL(srv.url, pub, srv.url))
			p.ok("irn_publish", publishParams(topic, "bWVzc2FnZQ==", 300, 0))

			s := dial(t, connectURL(srv.url, sub, srv.url))
			s.autoAck = false
			s.ok("irn_subscribe", map[string]any{"topic": topic})
			f := s.next()
			var id uint64
			json.Unmarshal(f.ID, &id)
			s.send(fmt.Sprintf(`{"id":`+form+`,"jsonrpc":"2.0","result":true}`, id))
			// Acknowledged: a new socket of the same client gets nothing.
			s.sync()
			s.ws.Close(websocket.StatusNormalClosure, "")
			s2 := dial(t, connectURL(srv.url, sub, srv.url))
			s2.ok("irn_subscribe", map[string]any{"topic": topic})
			s2.none(150 * time.Millisecond)
		})
	}
}

func TestServer_Mailbox(t *testing.T) {
	srv := newTestServer(t)
	dapp, wallet := newIdentity(t), newIdentity(t)
	topic := newTopic(t)
	a := dial(t, connectURL(srv.url, dapp, srv.url))
	a.ok("irn_subscribe", map[string]any{"topic": topic})
	a.ok("irn_publish", publishParams(topic, "Zmlyc3Q=", 300, 1100))
	a.ok("irn_publish", publishParams(topic, "c2Vjb25k", 300, 1100))

	t.Run("LateSubscriberGetsMailbox", func(t *testing.T) {
		b := dial(t, connectURL(srv.url, wallet, srv.url))
		b.autoAck = false
		b.ok("irn_subscribe", map[string]any{"topic": topic})
		if m := b.next().Params.Data.Message; m != "Zmlyc3Q=" {
			t.Fatalf("first %q", m)
		}
		if m := b.next().Params.Data.Message; m != "c2Vjb25k" {
			t.Fatalf("second %q", m)
		}
		b.ws.Close(websocket.StatusNormalClosure, "")
	})
	t.Run("UnackedRedeliveredOnReconnect", func(t *testing.T) {
		b := dial(t, connectURL(srv.url, wallet, srv.url))
		b.ok("irn_batchSubscribe", map[string]any{"topics": []string{topic}})
		got := []string{b.next().Params.Data.Message, b.next().Params.Data.Message}
		if got[0] != "Zmlyc3Q=" || got[1] != "c2Vjb25k" {
			t.Fatalf("redelivered %v", got)
		}
		// Those were acknowledged (autoAck): re-subscribing brings nothing.
		b.sync()
		b.ok("irn_subscribe", map[string]any{"topic": topic})
		b.none(150 * time.Millisecond)
	})
	t.Run("DuplicatePublishStoredOnce", func(t *testing.T) {
		c := dial(t, connectURL(srv.url, newIdentity(t), srv.url))
		dup := newTopic(t)
		c.ok("irn_publish", publishParams(dup, "c2FtZQ==", 300, 0))
		c.ok("irn_publish", publishParams(dup, "c2FtZQ==", 300, 0))
		d := dial(t, connectURL(srv.url, newIdentity(t), srv.url))
		d.ok("irn_subscribe", map[string]any{"topic": dup})
		d.next()
		d.none(150 * time.Millisecond)
		if n := srv.metricValue(t, `latch_relay_messages_published_total{result="duplicate"}`); n != 1 {
			t.Fatalf("duplicate publishes counted %v, want 1", n)
		}
	})
	t.Run("Unsubscribe", func(t *testing.T) {
		b := dial(t, connectURL(srv.url, wallet, srv.url))
		b.ok("irn_subscribe", map[string]any{"topic": topic})
		b.ok("irn_unsubscribe", map[string]any{"topic": topic, "id": "whatever"})
		a.ok("irn_publish", publishParams(topic, "dGhpcmQ=", 300, 0))
		b.none(150 * time.Millisecond)
		b.ok("irn_batchUnsubscribe", map[string]any{"subscriptions": []map[string]string{{"topic": topic, "id": "x"}}})
	})
}

// metricValue reads one series from the registry's text output.
func (s *testServer) metricValue(t *testing.T, series string) float64 {
	t.Helper()
	var b strings.Builder
	s.metrics.WriteText(&b)
	for _, line := range strings.Split(b.String(), "\n") {
		if v, ok := strings.CutPrefix(line, series+" "); ok {
			var f float64
			fmt.Sscan(v, &f)
			return f
		}
	}
	return 0
}

func TestServer_TTLExpiry(t *testing.T) {
	clock := newFakeClock()
	srv := newTestServer(t, withClock(clock))
	topic := newTopic(t)
	p := dial(t, connectURL(srv.url, newIdentity(t), srv.url))
	p.ok("irn_publish", publishParams(topic, "c2hvcnQ=", 300, 0))
	p.ok("irn_publish", publishParams(topic, "bG9uZw==", 3600, 0))
	clock.Advance(301 * time.Second)
	s := dial(t, connectURL(srv.url, newIdentity(t), srv.url))
	var res struct {
		Messages []struct{ Message string } `json:"messages"`
		HasMore  bool                       `json:"hasMore"`
	}
	json.Unmarshal(s.ok("irn_fetchMessages", map[string]any{"topic": topic}), &res)
	if len(res.Messages) != 1 || res.Messages[0].Message != "bG9uZw==" || res.HasMore {
		t.Fatalf("after 301 s: %+v, want only the 3600 s message", res)
	}
	clock.Advance(time.Hour)
	s2 := dial(t, connectURL(srv.url, newIdentity(t), srv.url))
	s2.ok("irn_subscribe", map[string]any{"topic": topic})
	s2.none(100 * time.Millisecond)
	if mem, ok := srv.broker.(*relay.Memory); ok {
		mem.Sweep()
		if _, n := mem.Stats(); n != 0 {
			t.Fatalf("%d messages kept after expiry", n)
		}
	}
}

func TestServer_FetchMessages(t *testing.T) {
	srv := newTestServer(t, withLimits(relay.Limits{PublishRate: -1}))
	topic := newTopic(t)
	p := dial(t, connectURL(srv.url, newIdentity(t), srv.url))
	msgs := make([]map[string]any, 0, 300)
	for i := 0; i < 600; i++ {
		msgs = append(msgs, publishParams(topic, fmt.Sprintf("bSVk%04d", i), 300, 0))
		if len(msgs) == 300 {
			p.ok("irn_batchPublish", map[string]any{"messages": msgs})
			msgs = msgs[:0]
		}
	}
	s := dial(t, connectURL(srv.url, newIdentity(t), srv.url))
	var res struct {
		Messages []struct {
			Topic, Message string
			PublishedAt    int64
		} `json:"messages"`
		HasMore bool `json:"hasMore"`
	}
	json.Unmarshal(s.ok("irn_batchFetchMessages", map[string]any{"topics": []string{topic}}), &res)
	if len(res.Messages) != relay.MaxFetch || !res.HasMore || res.Messages[0].Message != "bSVk0000" || res.Messages[0].Topic != topic {
		t.Fatalf("first fetch: %d messages, hasMore %v", len(res.Messages), res.HasMore)
	}
	s.sync() // fetched messages count as received once answered
	res.Messages = nil
	json.Unmarshal(s.ok("irn_fetchMessages", map[string]any{"topic": topic}), &res)
	if len(res.Messages) != 100 || res.HasMore || res.Messages[99].Message != "bSVk0599" {
		t.Fatalf("second fetch: %d messages, hasMore %v", len(res.Messages), res.HasMore)
	}
}

func TestServer_ComposeMethods(t *testing.T) {
	srv := newTestServer(t)
	dappID, walletID := newIdentity(t), newIdentity(t)
	pairing, session := newTopic(t), newTopic(t)
	dapp := dial(t, connectURL(srv.url, dappID, srv.url))
	wallet := dial(t, connectURL(srv.url, walletID, srv.url))

	// Params exactly as sign-client 2.21.8 sends them (publishCustom spreads the TVF fields).
	dapp.ok("wc_proposeSession", map[string]any{"pairingTopic": pairing, "sessionProposal": "cHJvcG9zYWw=", "ttl": 300, "correlationId": 1700000000000001})
	wallet.ok("irn_subscribe", map[string]any{"topic": pairing})
	if f := wallet.next(); f.Params.Data.Message != "cHJvcG9zYWw=" || f.Params.Data.Tag != 1100 || f.Params.Data.Topic != pairing {
		t.Fatalf("proposal delivery %s", f.Raw)
	}
	wallet.ok("wc_approveSession", map[string]any{
		"sessionTopic": session, "pairingTopic": pairing, "sessionProposalResponse": "cmVzcG9uc2U=",
		"sessionSettlementRequest": "c2V0dGxl", "ttl": 300, "correlationId": 1700000000000001,
	})
	// The dapp is subscribed to the pairing topic by wc_proposeSession.
	if f := dapp.next(); f.Params.Data.Message != "cmVzcG9uc2U=" || f.Params.Data.Tag != 1101 {
		t.Fatalf("proposal response delivery %s", f.Raw)
	}
	dapp.ok("irn_subscribe", map[string]any{"topic": session})
	if f := dapp.next(); f.Params.Data.Message != "c2V0dGxl" || f.Params.Data.Tag != 1102 || f.Params.Data.Topic != session {
		t.Fatalf("settlement delivery %s", f.Raw)
	}
	// The wallet is subscribed to the session topic by wc_approveSession.
	dapp.ok("irn_publish", publishParams(session, "cmVxdWVzdA==", 300, 1108))
	if f := wallet.next(); f.Params.Data.Message != "cmVxdWVzdA==" {
		t.Fatalf("session request delivery %s", f.Raw)
	}
	wallet.none(100 * time.Millisecond) // nothing of its own came back
	dapp.wantError("wc_approveSession", map[string]any{"sessionTopic": session, "pairingTopic": pairing, "sessionProposalResponse": "eA=="}, jsonrpc.CodeInvalidParams, "sessionSettlementRequest is required")
}

func TestServer_Limits(t *testing.T) {
	t.Run("MessageSize", func(t *testing.T) {
		srv := newTestServer(t, withLimits(relay.Limits{MaxMessageBytes: 1000}))
		c := dial(t, connectURL(srv.url, newIdentity(t), srv.url))
		c.wantError("irn_publish", publishParams(newTopic(t), strings.Repeat("A", 1001), 300, 0), jsonrpc.CodeInvalidParams, "Payload size exceeded: message is 1001 bytes, the limit is 1000")
		c.ok("irn_publish", publishParams(newTopic(t), strings.Repeat("A", 1000), 300, 0))
		// A frame beyond the limit plus its allowance closes the socket with 1009.
		c.send(`{"id":1,"jsonrpc":"2.0","method":"irn_publish","params":{"message":"` + strings.Repeat("A", 70<<10) + `"}}`)
		if err := c.waitClosed(5 * time.Second); websocket.CloseStatus(err) != websocket.StatusMessageTooBig {
			t.Fatalf("oversized frame: %v, want close 1009", err)
		}
	})
	t.Run("TopicsPerSocket", func(t *testing.T) {
		srv := newTestServer(t, withLimits(relay.Limits{MaxTopicsPerConn: 3}))
		c := dial(t, connectURL(srv.url, newIdentity(t), srv.url))
		c.ok("irn_batchSubscribe", map[string]any{"topics": []string{newTopic(t), newTopic(t)}})
		c.wantError("irn_batchSubscribe", map[string]any{"topics": []string{newTopic(t), newTopic(t)}}, jsonrpc.CodeRefused, "Subscriber limit exceeded: at most 3 topics per connection")
		c.ok("irn_subscribe", map[string]any{"topic": newTopic(t)}) // the refused batch took nothing
		c.wantError("irn_subscribe", map[string]any{"topic": newTopic(t)}, jsonrpc.CodeRefused, "Subscriber limit exceeded")
	})
	t.Run("PublishRate", func(t *testing.T) {
		clock := newFakeClock()
		srv := newTestServer(t, withClock(clock), withLimits(relay.Limits{PublishRate: 5}))
		c := dial(t, connectURL(srv.url, newIdentity(t), srv.url))
		topic := newTopic(t)
		for i := 0; i < 5; i++ {
			c.ok("irn_publish", publishParams(topic, fmt.Sprintf("bSVk%d", i), 300, 0))
		}
		c.wantError("irn_publish", publishParams(topic, "bW9yZQ==", 300, 0), jsonrpc.CodeTooManyRequests, "Too many requests: at most 5 messages")
		clock.Advance(time.Second)
		c.ok("irn_publish", publishParams(topic, "bW9yZQ==", 300, 0))
	})
	t.Run("ConnsPerIP", func(t *testing.T) {
		srv := newTestServer(t, withLimits(relay.Limits{MaxConnsPerIP: 2}))
		id := newIdentity(t)
		dial(t, connectURL(srv.url, id, srv.url))
		second := dial(t, connectURL(srv.url, id, srv.url))
		third, err := dialErr(connectURL(srv.url, id, srv.url))
		if err != nil {
			t.Fatal(err)
		}
		third.t = t
		if err := third.waitClosed(5 * time.Second); websocket.CloseStatus(err) != websocket.StatusTryAgainLater {
			t.Fatalf("third socket: %v, want close 1013", err)
		}
		// Without useOnCloseEvent: HTTP 429.
		u := strings.Replace(connectURL(srv.url, id, srv.url), "useOnCloseEvent=true", "", 1)
		if _, err := dialErr(u); err == nil || !strings.Contains(err.Error(), "HTTP 429") {
			t.Fatalf("without useOnCloseEvent: %v, want HTTP 429", err)
		}
		// A closed socket frees its place.
		second.ws.Close(websocket.StatusNormalClosure, "")
		second.waitClosed(5 * time.Second)
		poll.For(t, 5*time.Second, func() bool { return srv.Conns() == 1 })
		dial(t, connectURL(srv.url, id, srv.url)).ok("irn_subscribe", map[string]any{"topic": newTopic(t)})
	})
	t.Run("MailboxFull", func(t *testing.T) {
		srv := newTestServer(t, withLimits(relay.Limits{MaxMessagesPerTopic: 2}))
		topic := newTopic(t)
		c := dial(t, connectURL(srv.url, newIdentity(t), srv.url))
		c.ok("irn_publish", publishParams(topic, "b25l", 300, 0))
		c.ok("irn_publish", publishParams(topic, "dHdv", 300, 0))
		c.wantError("irn_publish", publishParams(topic, "dGhyZWU=", 300, 0), jsonrpc.CodeRefused, "Mailbox limit exceeded")
		// Once a peer has received one, there is room again.
		peer := dial(t, connectURL(srv.url, newIdentity(t), srv.url))
		peer.ok("irn_subscribe", map[string]any{"topic": topic})
		peer.next()
		peer.next()
		peer.sync() // its acks handled
		c.ok("irn_publish", publishParams(topic, "dGhyZWU=", 300, 0))
	})
	t.Run("TTL", func(t *testing.T) {
		srv := newTestServer(t)
		c := dial(t, connectURL(srv.url, newIdentity(t), srv.url))
		c.wantError("irn_publish", publishParams(newTopic(t), "eA==", 31*24*3600, 0), jsonrpc.CodeInvalidParams, "ttl must be at most 2592000 seconds")
		c.wantError("irn_publish", publishParams(newTopic(t), "eA==", 0, 0), jsonrpc.CodeInvalidParams, "ttl must be a whole number of seconds")
		c.wantError("irn_publish", map[string]any{"topic": newTopic(t), "message": "eA=="}, jsonrpc.CodeInvalidParams, "ttl is required")
	})
	t.Run("Batch", func(t *testing.T) {
		srv := newTestServer(t)
		c := dial(t, connectURL(srv.url, newIdentity(t), srv.url))
		topics := make([]string, 501)
		for i := range topics {
			topics[i] = newTopic(t)
		}
		c.wantError("irn_batchSubscribe", map[string]any{"topics": topics}, jsonrpc.CodeInvalidParams, "topics has 501 entries; at most 500")
		c.wantError("irn_batchSubscribe", map[string]any{"topics": []string{}}, jsonrpc.CodeInvalidParams, "topics must not be empty")
		c.ok("irn_batchSubscribe", map[string]any{"topics": topics[:500]})
	})
}

func TestServer_MalformedFrames(t *testing.T) {
	srv := newTestServer(t)
	c := dial(t, connectURL(srv.url, newIdentity(t), srv.url))
	topic := newTopic(t)
	cases := []struct {
		name, id, frame string
		code            int
		want            string
	}{
		{"NotJSON", "null", `hello`, jsonrpc.CodeParseError, "Parse error"},
		{"Truncated", "null", `{"id":1,"jsonrpc":"2.0","method":"irn_sub`, jsonrpc.CodeParseError, "Parse error"},
		{"Batch", "null", `[{"id":1,"jsonrpc":"2.0","method":"irn_subscribe"}]`, jsonrpc.CodeInvalidRequest, "batches are not supported"},
		{"ObjectID", "null", `{"id":{"a":1},"jsonrpc":"2.0","method":"irn_subscribe","params":{}}`, jsonrpc.CodeInvalidRequest, "id must be a string or a number"},
		{"NoVersion", "41", `{"id":41,"method":"irn_subscribe","params":{}}`, jsonrpc.CodeInvalidRequest, `jsonrpc must be "2.0"`},
		{"NoMethod", "42", `{"id":42,"jsonrpc":"2.0"}`, jsonrpc.CodeInvalidRequest, "no method"},
		{"UnknownMethod", "43", `{"id":43,"jsonrpc":"2.0","method":"eth_call","params":{}}`, jsonrpc.CodeMethodNotFound, `Method not found: "eth_call"`},
		{"ParamsArray", "44", `{"id":44,"jsonrpc":"2.0","method":"irn_subscribe","params":["x"]}`, jsonrpc.CodeInvalidParams, "params must be an object"},
		{"ParamsMissing", "45", `{"id":45,"jsonrpc":"2.0","method":"irn_publish"}`, jsonrpc.CodeInvalidParams, "params must be an object"},
		{"TopicNotHex", "46", `{"id":46,"jsonrpc":"2.0","method":"irn_subscribe","params":{"topic":"zz"}}`, jsonrpc.CodeInvalidParams, "topic must be 64 hexadecimal characters"},
		{"TopicNumber", "47", `{"id":47,"jsonrpc":"2.0","method":"irn_subscribe","params":{"topic":5}}`, jsonrpc.CodeInvalidParams, "topic must be a string"},
		{"TagNegative", "48", `{"id":48,"jsonrpc":"2.0","method":"irn_publish","params":{"topic":"` + topic + `","message":"eA==","ttl":300,"tag":-1}}`, jsonrpc.CodeInvalidParams, "tag must be an integer"},
		{"MessageEmpty", "49", `{"id":49,"jsonrpc":"2.0","method":"irn_publish","params":{"topic":"` + topic + `","message":"","ttl":300}}`, jsonrpc.CodeInvalidParams, "message is required"},
		{"BatchTopicBad", "50", `{"id":50,"jsonrpc":"2.0","method":"irn_batchSubscribe","params":{"topics":["` + topic + `","nope"]}}`, jsonrpc.CodeInvalidParams, "topics[1] must be 64 hexadecimal"},
		{"Subscription", "51", `{"id":51,"jsonrpc":"2.0","method":"irn_subscription","params":{}}`, jsonrpc.CodeMethodNotFound, "sent by the relay"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c.t = t
			f := c.callRaw(tc.id, tc.frame)
			if f.Error == nil || f.Error.Code != tc.code || !strings.Contains(f.Error.Message, tc.want) {
				t.Fatalf("answer %s, want error %d containing %q", f.Raw, tc.code, tc.want)
			}
		})
	}
	c.t = t
	// Binary garbage and invalid UTF-8 get a parse error too, and the socket lives on.
	c.ws.Write(context.Background(), websocket.MessageBinary, []byte{0xff, 0x00, 0x01})
	c.ok("irn_subscribe", map[string]any{"topic": topic})
}
