package app_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/latchkit/latch/internal/app"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/redistest"
	"github.com/latchkit/latch/internal/relay"
)

const relayProject = "5e1a7e5e1a7e5e1a7e5e1a7e5e1a7e00"

// runRelayMain starts latchd (no dev chains) with one project whose only
// allowed origin is https://dapp.example.
func runRelayMain(t *testing.T, cfg app.Config, redisPrefix string) *app.Main {
	t.Helper()
	cfg.Addr, cfg.FrameAddr, cfg.AdminAddr, cfg.DataDir = "127.0.0.1:0", "127.0.0.1:0", "127.0.0.1:0", t.TempDir()
	cfg.ShutdownTimeout = 5 * time.Second
	m := app.NewMain(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if redisPrefix != "" {
		m.RedisPrefix = redisPrefix
	}
	if err := m.Run(context.Background()); err != nil {
		t.Fatalf("Run: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	p := &project.Project{ID: relayProject, Name: "Relay test", Origins: []string{"https://dapp.example"}, Features: project.DefaultFeatures()}
	if err := m.Projects.Create(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	return m
}

// wsClient is a minimal relay client: JSON-RPC calls and the deliveries
// that arrive meanwhile (acknowledged as the JS client does).
type wsClient struct {
	t          *testing.T
	ws         *websocket.Conn
	n          atomic.Int64
	deliveries chan map[string]any
	answers    chan map[string]any
	done       chan error
}

func relayURL(m *app.Main) string { return "ws" + strings.TrimPrefix(m.APIURL(), "http") }

func relayQuery(key ed25519.PrivateKey, aud, projectID string, onClose bool) string {
	q := url.Values{"auth": {relay.SignToken(key, "s", aud, time.Now(), 24*time.Hour)}, "projectId": {projectID}, "ua": {"wc-2/js-2.21.8/test"}}
	if onClose {
		q.Set("useOnCloseEvent", "true")
	}
	return q.Encode()
}

func newKey(t *testing.T) ed25519.PrivateKey {
	_, k, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func dialRelay(t *testing.T, rawURL string, header http.Header) (*wsClient, *http.Response, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ws, resp, err := websocket.Dial(ctx, rawURL, &websocket.DialOptions{HTTPHeader: header})
	if err != nil {
		return nil, resp, err
	}
	c := &wsClient{t: t, ws: ws, deliveries: make(chan map[string]any, 64), answers: make(chan map[string]any, 64), done: make(chan error, 1)}
	t.Cleanup(func() { ws.CloseNow() })
	go func() {
		for {
			_, data, err := ws.Read(context.Background())
			if err != nil {
				c.done <- err
				return
			}
			var f map[string]any
			if err := json.Unmarshal(data, &f); err != nil {
				c.done <- fmt.Errorf("invalid JSON %q", data)
				return
			}
			if f["method"] == "irn_subscription" {
				ack, _ := json.Marshal(map[string]any{"id": f["id"], "jsonrpc": "2.0", "result": true})
				ws.Write(context.Background(), websocket.MessageText, ack)
				c.deliveries <- f
				continue
			}
			c.answers <- f
		}
	}()
	return c, resp, nil
}

func (c *wsClient) call(method string, params any) map[string]any {
	c.t.Helper()
	id := fmt.Sprintf("%d", 1700000000000000000+c.n.Add(1))
	req, _ := json.Marshal(map[string]any{"id": id, "jsonrpc": "2.0", "method": method, "params": params})
	if err := c.ws.Write(context.Background(), websocket.MessageText, req); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
	select {
	case f := <-c.answers:
		if f["id"] != id {
			c.t.Fatalf("%s: answer %v for another id", method, f)
		}
		if f["error"] != nil {
			c.t.Fatalf("%s: %v", method, f["error"])
		}
		return f
	case err := <-c.done:
		c.t.Fatalf("%s: socket closed: %v", method, err)
	case <-time.After(5 * time.Second):
		c.t.Fatalf("%s: no answer", method)
	}
	return nil
}

func (c *wsClient) next() map[string]any {
	c.t.Helper()
	select {
	case f := <-c.deliveries:
		return f["params"].(map[string]any)["data"].(map[string]any)
	case <-time.After(5 * time.Second):
		c.t.Fatal("no delivery")
	}
	return nil
}

func topic() string {
	var b [32]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// closeStatus waits for the server to close the socket.
func (c *wsClient) closeStatus() (websocket.CloseError, error) {
	c.t.Helper()
	select {
	case err := <-c.done:
		var ce websocket.CloseError
		if errors.As(err, &ce) {
			return ce, nil
		}
		return ce, err
	case <-time.After(5 * time.Second):
		c.t.Fatal("socket not closed")
	}
	return websocket.CloseError{}, nil
}

func TestMain_Relay(t *testing.T) {
	m := runRelayMain(t, app.Config{}, "")
	base := relayURL(m)
	t.Run("PairThroughAPIListener", func(t *testing.T) {
		// "/" is where WalletConnect clients connect; "/relay" is the alias,
		// and any other path works for an upgrade with the relay query.
		for _, path := range []string{"/", "/relay", "/some/path"} {
			dapp, _, err := dialRelay(t, base+path+"?"+relayQuery(newKey(t), base, relayProject, true), nil)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			wallet, _, err := dialRelay(t, base+"/?"+relayQuery(newKey(t), base, relayProject, true), nil)
			if err != nil {
				t.Fatal(err)
			}
			pairing := topic()
			dapp.call("wc_proposeSession", map[string]any{"pairingTopic": pairing, "sessionProposal": "cHJvcG9zYWw=", "ttl": 300})
			wallet.call("irn_subscribe", map[string]any{"topic": pairing})
			if d := wallet.next(); d["message"] != "cHJvcG9zYWw=" || d["tag"] != float64(1100) {
				t.Fatalf("%s: delivery %v", path, d)
			}
		}
	})
	t.Run("OKAllowedOrigin", func(t *testing.T) {
		c, _, err := dialRelay(t, base+"/?"+relayQuery(newKey(t), base, relayProject, true), http.Header{"Origin": {"https://dapp.example"}})
		if err != nil {
			t.Fatal(err)
		}
		c.call("irn_subscribe", map[string]any{"topic": topic()})
	})
	refusals := []struct {
		name, query, origin, reason string
	}{
		{"ErrUnknownProject", relayQuery(newKey(t), base, "ffffffffffffffffffffffffffffffff", true), "", "Unauthorized: invalid project id"},
		{"ErrMalformedProject", relayQuery(newKey(t), base, "nope", true), "", "Unauthorized: invalid project id"},
		{"ErrNoProject", relayQuery(newKey(t), base, "", true), "", "Unauthorized: project id is required"},
		{"ErrOrigin", relayQuery(newKey(t), base, relayProject, true), "https://evil.example", "Unauthorized: origin not allowed"},
		{"ErrAudience", relayQuery(newKey(t), "wss://relay.walletconnect.org", relayProject, true), "", "Unauthorized: auth token audience"},
	}
	for _, tc := range refusals {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{}
			if tc.origin != "" {
				h.Set("Origin", tc.origin)
			}
			c, _, err := dialRelay(t, base+"/?"+tc.query, h)
			if err != nil {
				t.Fatalf("with useOnCloseEvent the upgrade must succeed: %v", err)
			}
			ce, err := c.closeStatus()
			if err != nil || ce.Code != 3000 || !strings.HasPrefix(ce.Reason, tc.reason) {
				t.Fatalf("close %v %v, want 3000 %q", ce, err, tc.reason)
			}
			_, resp, err := dialRelay(t, base+"/?"+strings.Replace(tc.query, "useOnCloseEvent=true", "", 1), h)
			if err == nil || resp == nil || resp.StatusCode != http.StatusUnauthorized {
				t.Fatalf("without useOnCloseEvent: %v %v, want 401", resp, err)
			}
		})
	}
	t.Run("Metrics", func(t *testing.T) {
		resp, err := http.Get(m.AdminURL() + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		for _, want := range []string{"latch_relay_connections ", `latch_relay_connections_total{result="accepted"}`, `latch_relay_connections_total{result="unauthorized"}`, "latch_relay_messages_published_total", "latch_relay_messages_delivered_total"} {
			if !strings.Contains(string(body), want) {
				t.Errorf("/metrics lacks %s", want)
			}
		}
	})
	t.Run("CloseClosesSockets", func(t *testing.T) {
		m := runRelayMain(t, app.Config{}, "")
		base := relayURL(m)
		c, _, err := dialRelay(t, base+"/?"+relayQuery(newKey(t), base, relayProject, true), nil)
		if err != nil {
			t.Fatal(err)
		}
		c.call("irn_subscribe", map[string]any{"topic": topic()})
		start := time.Now()
		m.Close()
		if d := time.Since(start); d > 4*time.Second {
			t.Fatalf("Close took %v with a relay socket open", d)
		}
		if ce, err := c.closeStatus(); err != nil || ce.Code != websocket.StatusGoingAway {
			t.Fatalf("socket closed with %v %v, want 1001", ce, err)
		}
	})
}

// TestMain_RelayPublicURL: with --relay-url, tokens must name that URL even
// though the request's Host is the listener's address.
func TestMain_RelayPublicURL(t *testing.T) {
	m := runRelayMain(t, app.Config{RelayURL: "wss://relay.example.com"}, "")
	base := relayURL(m)
	c, _, err := dialRelay(t, base+"/?"+relayQuery(newKey(t), "wss://relay.example.com", relayProject, true), nil)
	if err != nil {
		t.Fatal(err)
	}
	c.call("irn_subscribe", map[string]any{"topic": topic()})
	c2, _, err := dialRelay(t, base+"/?"+relayQuery(newKey(t), base, relayProject, true), nil)
	if err != nil {
		t.Fatal(err)
	}
	if ce, _ := c2.closeStatus(); ce.Code != 3000 {
		t.Fatalf("token for the listener address with --relay-url set: close %v, want 3000", ce)
	}
}

// TestMain_RelayRedisTwoNodes: two latchd nodes on one Redis act as one
// relay: the dapp on one, the wallet on the other.
func TestMain_RelayRedisTwoNodes(t *testing.T) {
	redisURL := redistest.URL(t)
	prefix := redistest.Prefix(t)
	a := runRelayMain(t, app.Config{RedisURL: redisURL}, prefix)
	b := runRelayMain(t, app.Config{RedisURL: redisURL}, prefix)
	dapp, _, err := dialRelay(t, relayURL(a)+"/?"+relayQuery(newKey(t), relayURL(a), relayProject, true), nil)
	if err != nil {
		t.Fatal(err)
	}
	wallet, _, err := dialRelay(t, relayURL(b)+"/?"+relayQuery(newKey(t), relayURL(b), relayProject, true), nil)
	if err != nil {
		t.Fatal(err)
	}
	pairing, session := topic(), topic()
	dapp.call("wc_proposeSession", map[string]any{"pairingTopic": pairing, "sessionProposal": "cHJvcG9zYWw=", "ttl": 300})
	wallet.call("irn_subscribe", map[string]any{"topic": pairing})
	if d := wallet.next(); d["message"] != "cHJvcG9zYWw=" {
		t.Fatalf("proposal from the other node's mailbox: %v", d)
	}
	wallet.call("wc_approveSession", map[string]any{"sessionTopic": session, "pairingTopic": pairing,
		"sessionProposalResponse": "cmVzcG9uc2U=", "sessionSettlementRequest": "c2V0dGxl", "ttl": 300})
	if d := dapp.next(); d["message"] != "cmVzcG9uc2U=" || d["tag"] != float64(1101) {
		t.Fatalf("live fan-out across nodes: %v", d)
	}
	dapp.call("irn_subscribe", map[string]any{"topic": session})
	if d := dapp.next(); d["message"] != "c2V0dGxl" {
		t.Fatalf("settlement: %v", d)
	}
	keys, err := a.Redis.Keys(context.Background(), prefix+"relay:*").Result()
	if err != nil || len(keys) == 0 {
		t.Fatalf("no relay keys under %srelay: (%v)", prefix, err)
	}
}

// TestCLI_RelayFlags: the relay's hardening flags are listed by latchd help
// with their environment variables, and refused when they cannot work.
func TestCLI_RelayFlags(t *testing.T) {
	var help strings.Builder
	app.CLI(context.Background(), []string{"help"}, &help, io.Discard)
	for _, name := range relayFlagNames {
		if !strings.Contains(help.String(), "--"+name+" ") || !strings.Contains(help.String(), app.EnvName(name)) {
			t.Errorf("latchd help does not list --%s [%s]", name, app.EnvName(name))
		}
	}
	for _, tc := range relayFlagErrors {
		var stderr strings.Builder
		code := app.CLI(context.Background(), append([]string{"serve"}, tc.args...), io.Discard, &stderr)
		if code != 1 || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("latchd serve %v: exit %d, %q; want 1 and %q", tc.args, code, stderr.String(), tc.want)
		}
	}
}

var relayFlagNames = []string{"relay-max-socket-buffer", "relay-broker-max-bytes", "relay-broker-max-topics", "relay-max-client-bytes", "relay-fragment-timeout", "relay-max-unfinished-bytes", "relay-token-max-lifetime"}

var relayFlagErrors = []struct {
	args []string
	want string
}{
	{[]string{"--relay-max-socket-buffer", "1000"}, "--relay-max-socket-buffer must be at least --relay-max-message-bytes + 65536"},
	{[]string{"--relay-max-message-bytes", "2000000"}, "--relay-max-socket-buffer must be at least"},
	{[]string{"--relay-broker-max-bytes", "0"}, "must be positive"},
	{[]string{"--relay-broker-max-topics", "-1"}, "must be positive"},
	{[]string{"--relay-max-client-bytes", "0"}, "must be positive"},
	{[]string{"--relay-fragment-timeout", "500ms"}, "--relay-fragment-timeout must be at least 1s"},
	{[]string{"--relay-token-max-lifetime", "8760h"}, "--relay-token-max-lifetime must be between 1m and 168h"},
	{[]string{"--relay-max-unfinished-bytes", "1000"}, "--relay-max-unfinished-bytes must be at least --relay-max-message-bytes + 65536"},
	{[]string{"--relay-broker-max-bytes", "1000000", "--relay-max-client-bytes", "2000000"}, "--relay-max-client-bytes must not be more than --relay-broker-max-bytes"},
}

// callErr sends method(params) and returns the answer's error (nil when it
// succeeded).
func (c *wsClient) callErr(method string, params any) map[string]any {
	c.t.Helper()
	id := fmt.Sprintf("%d", 1700000000000000000+c.n.Add(1))
	req, _ := json.Marshal(map[string]any{"id": id, "jsonrpc": "2.0", "method": method, "params": params})
	if err := c.ws.Write(context.Background(), websocket.MessageText, req); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
	select {
	case f := <-c.answers:
		e, _ := f["error"].(map[string]any)
		return e
	case err := <-c.done:
		c.t.Fatalf("%s: socket closed: %v", method, err)
	case <-time.After(5 * time.Second):
		c.t.Fatalf("%s: no answer", method)
	}
	return nil
}

// TestMain_RelayClientBytes: --relay-max-client-bytes reaches the broker:
// an address's undelivered messages are refused past it.
func TestMain_RelayClientBytes(t *testing.T) {
	m := runRelayMain(t, app.Config{RelayMaxClientBytes: 600 << 10}, "")
	c, _, err := dialRelay(t, relayURL(m)+"/?"+relayQuery(newKey(t), relayURL(m), relayProject, true), nil)
	if err != nil {
		t.Fatal(err)
	}
	body := strings.Repeat("M", 400<<10)
	if e := c.callErr("irn_publish", map[string]any{"topic": topic(), "message": "1" + body, "ttl": 300}); e != nil {
		t.Fatalf("first publish: %v", e)
	}
	e := c.callErr("irn_publish", map[string]any{"topic": topic(), "message": "2" + body, "ttl": 300})
	if e == nil || e["code"] != float64(-32000) || !strings.Contains(fmt.Sprint(e["message"]), "Mailbox limit exceeded") {
		t.Fatalf("second publish over 600 KiB: %v, want -32000 Mailbox limit exceeded", e)
	}
}

// TestCLI_ServeRequiresRelayURL: latchd serve refuses to start without
// --relay-url, the audience its clients' tokens must name.
func TestCLI_ServeRequiresRelayURL(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // were it to start, it would stop at once
	var stderr strings.Builder
	code := app.CLI(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--frame-addr", "127.0.0.1:0", "--admin-addr", "", "--data-dir", t.TempDir()}, io.Discard, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "--relay-url is required") {
		t.Fatalf("latchd serve without --relay-url: exit %d, %q", code, stderr.String())
	}
}

// TestMain_RelayAudienceIsListener: without --relay-url (latchd dev), a
// token must name the API listener, whatever Host header the request has.
func TestMain_RelayAudienceIsListener(t *testing.T) {
	m := runRelayMain(t, app.Config{}, "")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, resp, err := websocket.Dial(ctx, relayURL(m)+"/?"+relayQuery(newKey(t), "ws://evil.example", relayProject, false),
		&websocket.DialOptions{Host: "evil.example"})
	if err == nil || resp == nil || resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("token for the request's Host: %v, want 401", err)
	}
	c, _, err := dialRelay(t, relayURL(m)+"/?"+relayQuery(newKey(t), relayURL(m), relayProject, true), nil)
	if err != nil {
		t.Fatal(err)
	}
	c.call("irn_subscribe", map[string]any{"topic": topic()})
}

// TestMain_RelayTokenLifetime: --relay-token-max-lifetime reaches the relay:
// a token signed for 24 h is refused when the limit is 1 h.
func TestMain_RelayTokenLifetime(t *testing.T) {
	m := runRelayMain(t, app.Config{RelayTokenLifetime: time.Hour}, "")
	_, resp, err := dialRelay(t, relayURL(m)+"/?"+relayQuery(newKey(t), relayURL(m), relayProject, false), nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("a 24 h token under a 1 h limit: %v, %v; want 401", resp, err)
	}
}
