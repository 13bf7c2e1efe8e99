package relay_test

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/latchkit/latch/internal/poll"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/latchkit/latch/internal/jsonrpc"
	"github.com/latchkit/latch/internal/relay"
)

// TestServer_Auth: a refused client gets HTTP 401 without useOnCloseEvent
// and close 3000 with the reason with it.
func TestServer_Auth(t *testing.T) {
	srv := newTestServer(t)
	good := newIdentity(t)
	token := func(key ed25519.PrivateKey, aud string, iat time.Time) string {
		return relay.SignToken(key, "sub", aud, iat, 24*time.Hour)
	}
	forged := func() string {
		// A token claiming good's did:key but signed by another key.
		other := newIdentity(t)
		tok := token(other.key, srv.url, time.Now())
		parts := strings.Split(tok, ".")
		payload, _ := json.Marshal(map[string]any{"iss": good.id, "sub": "s", "aud": srv.url, "iat": time.Now().Unix(), "exp": time.Now().Add(time.Hour).Unix()})
		parts[1] = base64.RawURLEncoding.EncodeToString(payload)
		return strings.Join(parts, ".")
	}
	cases := []struct {
		name, token, project, origin, reason string
	}{
		{"OK", token(good.key, srv.url, time.Now()), testProject, "", ""},
		{"OKWithTrailingSlashAud", token(good.key, srv.url+"/", time.Now()), testProject, "", ""},
		{"OKAllowedOrigin", token(good.key, srv.url, time.Now()), testProject, "https://dapp.example", ""},
		{"ErrMissingToken", "", testProject, "", "Unauthorized: missing auth token"},
		{"ErrForgedSignature", forged(), testProject, "", "Unauthorized: invalid auth token signature"},
		{"ErrWrongAudience", token(good.key, "wss://relay.walletconnect.org", time.Now()), testProject, "", "Unauthorized: auth token audience does not match this relay"},
		{"ErrWrongAudiencePort", token(good.key, "ws://127.0.0.1:1", time.Now()), testProject, "", "Unauthorized: auth token audience"},
		{"ErrExpired", token(good.key, srv.url, time.Now().Add(-25*time.Hour)), testProject, "", "Unauthorized: auth token expired"},
		{"ErrGarbageToken", "not.a.jwt", testProject, "", "Unauthorized: malformed auth token"},
		{"ErrNotDIDKey", relay.SignToken(good.key, "s", srv.url, time.Now(), time.Hour) + "x", testProject, "", "Unauthorized:"},
		{"ErrInvalidProject", token(good.key, srv.url, time.Now()), "ffffffffffffffffffffffffffffffff", "", "Unauthorized: invalid project id"},
		{"ErrOrigin", token(good.key, srv.url, time.Now()), testProject, "https://evil.example", "Unauthorized: origin not allowed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, onClose := range []bool{true, false} {
				q := url.Values{"projectId": {tc.project}, "ua": {"wc-2/js-2.21.8/test"}}
				if tc.token != "" {
					q.Set("auth", tc.token)
				}
				if onClose {
					q.Set("useOnCloseEvent", "true")
				}
				h := http.Header{}
				if tc.origin != "" {
					h.Set("Origin", tc.origin)
				}
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				ws, resp, err := websocket.Dial(ctx, srv.url+"/?"+q.Encode(), &websocket.DialOptions{HTTPHeader: h})
				cancel()
				if tc.reason == "" {
					if err != nil {
						t.Fatalf("dial: %v", err)
					}
					c := &client{t: t, ws: ws, answers: map[string]chan frame{}, delivered: make(chan frame, 8), closed: make(chan struct{})}
					go c.read()
					c.ok("irn_subscribe", map[string]any{"topic": newTopic(t)})
					ws.Close(websocket.StatusNormalClosure, "")
					continue
				}
				if !onClose {
					if err == nil || resp == nil || resp.StatusCode != http.StatusUnauthorized {
						t.Fatalf("without useOnCloseEvent: err %v, resp %v; want HTTP 401", err, resp)
					}
					continue
				}
				if err != nil {
					t.Fatalf("with useOnCloseEvent the upgrade must succeed: %v", err)
				}
				_, _, err = ws.Read(context.Background())
				var ce websocket.CloseError
				if !asCloseError(err, &ce) || ce.Code != 3000 || !strings.Contains(ce.Reason, tc.reason) {
					t.Fatalf("close %v, want 3000 with %q", err, tc.reason)
				}
			}
		})
	}
}

func asCloseError(err error, ce *websocket.CloseError) bool {
	return errors.As(err, ce)
}

func TestVerifyToken(t *testing.T) {
	id := newIdentity(t)
	now := time.Now()
	aud := func(s string) bool { return s == "wss://relay.example" }
	tok := relay.SignToken(id.key, "sub", "wss://relay.example", now, time.Hour)
	c, err := relay.VerifyToken(tok, now, aud)
	if err != nil {
		t.Fatal(err)
	}
	if c.ClientID != id.id || !strings.HasPrefix(c.ClientID, "did:key:z6Mk") {
		t.Fatalf("client id %q, want %q (did:key:z6Mk…)", c.ClientID, id.id)
	}
	if _, err := relay.VerifyToken(tok, now.Add(2*time.Hour), aud); err == nil || !strings.Contains(err.Error(), "expired") {
		t.Fatalf("expired token: %v", err)
	}
	// A token made by @walletconnect/relay-auth 1.1.0 (seed = 32 zero bytes
	// … 31, aud ws://localhost:8080, iat 1700000000, ttl 86400).
	seed := make([]byte, 32)
	for i := range seed {
		seed[i] = byte(i)
	}
	key := ed25519.NewKeyFromSeed(seed)
	js := relay.SignToken(key, "c2Vzc2lvbg", "ws://localhost:8080", time.Unix(1700000000, 0), 24*time.Hour)
	if _, err := relay.VerifyToken(js, time.Unix(1700000100, 0), func(a string) bool { return a == "ws://localhost:8080" }); err != nil {
		t.Fatal(err)
	}
	pub, err := relay.ParseDIDKey(relay.DIDKey(key.Public().(ed25519.PublicKey)))
	if err != nil || !pub.Equal(key.Public()) {
		t.Fatalf("did:key round trip: %v", err)
	}
	for _, bad := range []string{"did:key:z", "did:key:zzzz", "did:web:example.com", "did:key:z0OIl"} {
		if _, err := relay.ParseDIDKey(bad); err == nil {
			t.Errorf("ParseDIDKey(%q) accepted", bad)
		}
	}
}

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

func TestServer_PingAndReaping(t *testing.T) {
	t.Run("Pings", func(t *testing.T) {
		clock := newFakeClock()
		var m maintenance
		srv := newTestServer(t, withClock(clock), m.option(), func(cfg *relay.Config) { cfg.PingInterval = 30 * time.Second })
		pinged := make(chan struct{}, 4)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		ws, _, err := websocket.Dial(ctx, connectURL(srv.url, newIdentity(t), srv.url), &websocket.DialOptions{
			OnPingReceived: func(context.Context, []byte) bool { pinged <- struct{}{}; return true },
		})
		if err != nil {
			t.Fatal(err)
		}
		defer ws.CloseNow()
		answers := make(chan []byte, 4)
		go func() { // handles control frames
			for {
				_, data, err := ws.Read(context.Background())
				if err != nil {
					return
				}
				answers <- data
			}
		}()
		poll.For(t, 5*time.Second, func() bool { return srv.Conns() == 1 })
		m.wait(t, 3)
		// A ping sent by those rounds comes before the answer to a request
		// sent after them, and the reader reports it first.
		ws.Write(ctx, websocket.MessageText, []byte(`{"id":1,"jsonrpc":"2.0","method":"irn_fetchMessages","params":{"topic":"`+newTopic(t)+`"}}`))
		select {
		case <-answers:
		case <-ctx.Done():
			t.Fatal("no answer")
		}
		select {
		case <-pinged:
			t.Fatal("pinged before 30 s")
		default:
		}
		clock.Advance(30 * time.Second)
		select {
		case <-pinged:
		case <-time.After(3 * time.Second):
			t.Fatal("no ping 30 s after connecting")
		}
	})
	t.Run("DeadSocketReaped", func(t *testing.T) {
		clock := newFakeClock()
		var m maintenance
		srv := newTestServer(t, withClock(clock), m.option(), func(cfg *relay.Config) { cfg.PongTimeout = 300 * time.Millisecond })
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		ws, _, err := websocket.Dial(ctx, connectURL(srv.url, newIdentity(t), srv.url), &websocket.DialOptions{
			OnPingReceived: func(context.Context, []byte) bool { return false }, // never answers
		})
		if err != nil {
			t.Fatal(err)
		}
		defer ws.CloseNow()
		readErr := make(chan error, 1)
		go func() { _, _, err := ws.Read(context.Background()); readErr <- err }()
		poll.For(t, 5*time.Second, func() bool { return srv.Conns() == 1 }) // its clock started before the jump
		clock.Advance(31 * time.Second)
		select {
		case <-readErr:
		case <-time.After(5 * time.Second):
			t.Fatal("a socket that does not answer pings was not closed")
		}
		poll.For(t, 5*time.Second, func() bool { return srv.Conns() == 0 })
	})
	t.Run("StuckWriteReaped", func(t *testing.T) {
		// A subscriber that stops reading: deliveries fill the socket buffers,
		// the writer blocks, and the socket is closed WriteTimeout later. Its
		// messages stay in the mailbox.
		clock := newFakeClock()
		var m maintenance
		srv := newTestServer(t, withClock(clock), m.option(), withLimits(relay.Limits{PublishRate: -1, MaxMessageBytes: 1 << 20}))
		topic := newTopic(t)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		// A small receive buffer (no autotuning) so a few MiB fill the pipe.
		dialer := &net.Dialer{Control: func(_, _ string, rc syscall.RawConn) error {
			return rc.Control(func(fd uintptr) { syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
		}}
		stalled, _, err := websocket.Dial(ctx, connectURL(srv.url, newIdentity(t), srv.url), &websocket.DialOptions{
			HTTPClient: &http.Client{Transport: &http.Transport{DialContext: dialer.DialContext}},
		})
		if err != nil {
			t.Fatal(err)
		}
		defer stalled.CloseNow()
		stalled.Write(ctx, websocket.MessageText, []byte(`{"id":1,"jsonrpc":"2.0","method":"irn_subscribe","params":{"topic":"`+topic+`"}}`))
		if _, _, err := stalled.Read(ctx); err != nil { // the answer; then it never reads again
			t.Fatal(err)
		}
		p := dial(t, connectURL(srv.url, newIdentity(t), srv.url))
		big := strings.Repeat("A", 1<<20)
		for i := 0; i < 8; i++ { // 8 MiB: more than the server's send buffer (4 MiB at most) holds
			p.ok("irn_publish", publishParams(topic, fmt.Sprintf("%d%s", i, big[:len(big)-8]), 300, 0))
		}
		poll.For(t, 5*time.Second, func() bool { return srv.WritesWaiting() == 1 })
		m.wait(t, 3) // rounds that see the stuck write, WriteTimeout not yet passed
		if srv.Conns() != 2 || srv.WritesWaiting() != 1 {
			t.Fatalf("%d sockets before the timeout", srv.Conns())
		}
		clock.Advance(relay.WriteTimeout + time.Second)
		poll.For(t, 5*time.Second, func() bool { return srv.Conns() == 1 })
	})
	t.Run("IdleReaped", func(t *testing.T) {
		clock := newFakeClock()
		var m maintenance
		srv := newTestServer(t, withClock(clock), m.option())
		idle := dial(t, connectURL(srv.url, newIdentity(t), srv.url))
		busy := dial(t, connectURL(srv.url, newIdentity(t), srv.url))
		busy.ok("irn_subscribe", map[string]any{"topic": newTopic(t)})
		poll.For(t, 5*time.Second, func() bool { return srv.Conns() == 2 })
		clock.Advance(relay.IdleTimeout + time.Second)
		if err := idle.waitClosed(5 * time.Second); websocket.CloseStatus(err) != websocket.StatusNormalClosure {
			t.Fatalf("idle socket: %v, want close 1000", err)
		}
		busy.ok("irn_subscribe", map[string]any{"topic": newTopic(t)}) // a subscribed socket stays
	})
}

func TestServer_Close(t *testing.T) {
	srv := newTestServer(t)
	clients := make([]*client, 20)
	for i := range clients {
		clients[i] = dial(t, connectURL(srv.url, newIdentity(t), srv.url))
		clients[i].ok("irn_subscribe", map[string]any{"topic": newTopic(t)})
	}
	start := time.Now()
	srv.Close()
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("Close took %v", d)
	}
	for _, c := range clients {
		if err := c.waitClosed(time.Second); websocket.CloseStatus(err) != websocket.StatusGoingAway {
			t.Fatalf("socket closed with %v, want 1001", err)
		}
	}
	if srv.Conns() != 0 {
		t.Fatalf("%d sockets left", srv.Conns())
	}
	if _, err := dialErr(connectURL(srv.url, newIdentity(t), srv.url)); err == nil {
		t.Fatal("a closed relay accepted a socket")
	}
}

// TestServer_HijackedDeadlines: the API server's read/write timeouts must not
// reach hijacked relay sockets, and a wrapping ResponseWriter with Unwrap
// (the observe middleware's) must let the upgrade through.
func TestServer_HijackedDeadlines(t *testing.T) {
	srv := newTestServer(t)
	hs := &http.Server{
		Handler:      http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { srv.ServeHTTP(&unwrapper{w}, r) }),
		ReadTimeout:  200 * time.Millisecond,
		WriteTimeout: 200 * time.Millisecond,
	}
	ln := mustListen(t)
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	base := "ws://" + ln.Addr().String()
	c := dial(t, connectURL(base, newIdentity(t), srv.url)) // the audience is the relay's configured URL
	topic := newTopic(t)
	c.ok("irn_subscribe", map[string]any{"topic": topic})
	// A connection opened now that sends nothing is closed by the server
	// once its ReadTimeout passes; the relay socket's deadlines, had they
	// stayed, were set before and have passed by then too.
	canary, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer canary.Close()
	canary.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := canary.Read(make([]byte, 1)); err != io.EOF {
		t.Fatalf("idle connection: %v, want EOF after the server's ReadTimeout", err)
	}
	c.ok("irn_subscribe", map[string]any{"topic": topic})
}

type unwrapper struct{ http.ResponseWriter }

func (u *unwrapper) Unwrap() http.ResponseWriter { return u.ResponseWriter }

func TestServer_UpgradeRequired(t *testing.T) {
	srv := newTestServer(t)
	resp, err := http.Get(srv.http.URL + "/?projectId=" + testProject)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUpgradeRequired {
		t.Fatalf("plain GET: %d, want 426", resp.StatusCode)
	}
}

func mustListen(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln
}
