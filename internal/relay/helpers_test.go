package relay_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/latchkit/latch/internal/metrics"
	"github.com/latchkit/latch/internal/poll"
	"github.com/latchkit/latch/internal/relay"
)

// TestMain runs the tests three times where sockets can be polled (Linux):
// with poll loops answering frames (the memory broker), with poll loops
// handing them to workers (a shared broker), and with every socket served by
// a goroutine (other systems).
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 && relay.Polls() {
		offloaded = true
		code = m.Run()
	}
	if code == 0 && relay.Polls() {
		offloaded, withoutPoll = false, true
		code = m.Run()
	}
	os.Exit(code)
}

// withoutPoll: test servers serve every socket with a goroutine; offloaded:
// polled sockets' messages are handled by workers.
var withoutPoll, offloaded bool

// testProject is the only project the test servers accept.
const testProject = "0123456789abcdef0123456789abcdef"

// fakeClock is an injectable clock that moves only when told.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Now()} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// testServer is a relay behind httptest.
type testServer struct {
	*relay.Server
	http    *httptest.Server
	url     string // ws://127.0.0.1:port
	metrics *metrics.Registry
	broker  relay.Broker
}

type serverOption func(*relay.Config)

func withClock(c *fakeClock) serverOption { return func(cfg *relay.Config) { cfg.Now = c.Now } }
func withLimits(l relay.Limits) serverOption {
	return func(cfg *relay.Config) { cfg.Limits = l }
}
func withBroker(b relay.Broker) serverOption { return func(cfg *relay.Config) { cfg.Broker = b } }

func newTestServer(t testing.TB, opts ...serverOption) *testServer {
	t.Helper()
	reg := metrics.NewRegistry()
	cfg := relay.Config{
		Authorize: func(_ context.Context, projectID, origin string) error {
			if projectID != testProject {
				return &relay.AuthError{Reason: "invalid project id"}
			}
			if origin != "" && origin != "https://dapp.example" {
				return &relay.AuthError{Reason: "origin not allowed"}
			}
			return nil
		},
		Metrics: reg,
		Logger:  slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	if withoutPoll {
		relay.WithoutPoll(&cfg)
	}
	if offloaded {
		relay.Offloaded(&cfg)
	}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.Broker == nil {
		cfg.Broker = relay.NewMemory(relay.BrokerConfig{MaxMessagesPerTopic: cfg.Limits.MaxMessagesPerTopic, Now: cfg.Now})
	}
	var listenerURL string // set before the server takes connections
	if cfg.PublicURL == "" {
		cfg.ListenerURL = func() string { return listenerURL }
	}
	s, err := relay.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewUnstartedServer(s)
	listenerURL = "ws://" + hs.Listener.Addr().String()
	hs.Start()
	t.Cleanup(func() {
		s.Close()
		hs.Close()
		cfg.Broker.Close()
	})
	return &testServer{Server: s, http: hs, url: "ws" + strings.TrimPrefix(hs.URL, "http"), metrics: reg, broker: cfg.Broker}
}

// maintenance runs a test server's maintenance loop (pings, reaping) every
// few milliseconds and counts its rounds, so that tests wait for rounds
// instead of sleeping through one-second ticks.
type maintenance struct{ rounds atomic.Int64 }

func (m *maintenance) option() serverOption {
	return func(cfg *relay.Config) { relay.Maintenance(cfg, 5*time.Millisecond, func() { m.rounds.Add(1) }) }
}

// wait returns once n more rounds have run.
func (m *maintenance) wait(t testing.TB, n int64) {
	t.Helper()
	target := m.rounds.Load() + n
	poll.For(t, 5*time.Second, func() bool { return m.rounds.Load() >= target })
}

// identity is a client key pair, like @walletconnect/core's persisted seed.
type identity struct {
	key ed25519.PrivateKey
	id  string
}

func newIdentity(t testing.TB) identity {
	t.Helper()
	_, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return identity{key: key, id: relay.DIDKey(key.Public().(ed25519.PublicKey))}
}

// connectURL is what formatRelayRpcUrl builds: the relay URL with auth,
// projectId, ua and useOnCloseEvent.
func connectURL(relayURL string, who identity, aud string) string {
	token := relay.SignToken(who.key, "sub", aud, time.Now(), 24*time.Hour)
	q := url.Values{"auth": {token}, "projectId": {testProject}, "ua": {"wc-2/go-test"}, "useOnCloseEvent": {"true"}}
	return relayURL + "/?" + q.Encode()
}

// client is a test relay client: it records deliveries and matches answers.
type client struct {
	t      testing.TB
	ws     *websocket.Conn
	nextID atomic.Int64

	mu        sync.Mutex
	answers   map[string]chan frame
	delivered chan frame
	closed    chan struct{}
	closeErr  error
	autoAck   bool
}

// frame is any JSON-RPC object received.
type frame struct {
	Raw    json.RawMessage
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		ID   string `json:"id"`
		Data struct {
			Topic       string `json:"topic"`
			Message     string `json:"message"`
			PublishedAt int64  `json:"publishedAt"`
			Tag         uint32 `json:"tag"`
			Attestation string `json:"attestation"`
		} `json:"data"`
	} `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Data    string `json:"data"`
	} `json:"error"`
}

func dial(t testing.TB, rawURL string) *client {
	t.Helper()
	c, err := dialErr(rawURL)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	c.t = t
	t.Cleanup(func() { c.ws.CloseNow() })
	return c
}

func dialErr(rawURL string) (*client, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ws, resp, err := websocket.Dial(ctx, rawURL, nil)
	if err != nil {
		if resp != nil {
			return nil, fmt.Errorf("%w (HTTP %d)", err, resp.StatusCode)
		}
		return nil, err
	}
	ws.SetReadLimit(-1)
	c := &client{ws: ws, answers: map[string]chan frame{}, delivered: make(chan frame, 4096), closed: make(chan struct{}), autoAck: true}
	go c.read()
	return c, nil
}

func (c *client) read() {
	defer close(c.closed)
	for {
		_, data, err := c.ws.Read(context.Background())
		if err != nil {
			c.closeErr = err
			return
		}
		var f frame
		if err := json.Unmarshal(data, &f); err != nil {
			c.closeErr = fmt.Errorf("relay sent invalid JSON %q: %w", data, err)
			return
		}
		f.Raw = data
		if f.Method == "irn_subscription" {
			if c.autoAck {
				c.send(fmt.Sprintf(`{"id":%s,"jsonrpc":"2.0","result":true}`, f.ID))
			}
			c.delivered <- f
			continue
		}
		c.mu.Lock()
		ch := c.answers[string(f.ID)]
		delete(c.answers, string(f.ID))
		c.mu.Unlock()
		if ch != nil {
			ch <- f
		}
	}
}

func (c *client) send(s string) {
	c.ws.Write(context.Background(), websocket.MessageText, []byte(s))
}

// callRaw sends a request frame and waits for the answer with the given id
// (as written in the frame).
func (c *client) callRaw(id, request string) frame {
	c.t.Helper()
	ch := make(chan frame, 1)
	c.mu.Lock()
	c.answers[id] = ch
	c.mu.Unlock()
	c.send(request)
	select {
	case f := <-ch:
		return f
	case <-c.closed:
		c.t.Fatalf("socket closed waiting for answer to %s: %v", request, c.closeErr)
	case <-time.After(5 * time.Second):
		c.t.Fatalf("no answer to %s", request)
	}
	return frame{}
}

// call sends method(params) with a fresh id and returns the answer.
func (c *client) call(method string, params any) frame {
	c.t.Helper()
	p, _ := json.Marshal(params)
	id := fmt.Sprintf(`"%d"`, 1700000000000000000+c.nextID.Add(1))
	return c.callRaw(id, fmt.Sprintf(`{"id":%s,"jsonrpc":"2.0","method":%q,"params":%s}`, id, method, p))
}

// ok calls and fails the test on an error answer.
func (c *client) ok(method string, params any) json.RawMessage {
	c.t.Helper()
	f := c.call(method, params)
	if f.Error != nil {
		c.t.Fatalf("%s: error %d %s", method, f.Error.Code, f.Error.Message)
	}
	return f.Result
}

// wantError calls and checks the error code and that the message contains want.
func (c *client) wantError(method string, params any, code int, want string) {
	c.t.Helper()
	f := c.call(method, params)
	if f.Error == nil {
		c.t.Fatalf("%s: result %s, want error %d", method, f.Result, code)
	}
	if f.Error.Code != code || !strings.Contains(f.Error.Message, want) {
		c.t.Fatalf("%s: error %d %q, want %d containing %q", method, f.Error.Code, f.Error.Message, code, want)
	}
}

// sync returns once the relay has handled every frame this socket sent
// before (acks included) and run what follows their answers: a socket's
// frames are handled one after the other, so the answer to one more request
// comes after all of that.
func (c *client) sync() {
	c.t.Helper()
	c.ok("irn_unsubscribe", map[string]any{"topic": newTopic(c.t), "id": "sync"})
}

// next waits for the next irn_subscription.
func (c *client) next() frame {
	c.t.Helper()
	select {
	case f := <-c.delivered:
		return f
	case <-time.After(5 * time.Second):
		c.t.Fatal("no irn_subscription within 5 s")
	}
	return frame{}
}

// none checks that no irn_subscription arrives within d.
func (c *client) none(d time.Duration) {
	c.t.Helper()
	select {
	case f := <-c.delivered:
		c.t.Fatalf("unexpected delivery %s", f.Raw)
	case <-time.After(d):
	}
}

// waitClosed waits for the server to close the socket and returns the close error.
func (c *client) waitClosed(d time.Duration) error {
	c.t.Helper()
	select {
	case <-c.closed:
		return c.closeErr
	case <-time.After(d):
		c.t.Fatalf("socket still open after %v", d)
	}
	return nil
}

func newTopic(t testing.TB) string {
	t.Helper()
	var b [32]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func publishParams(topic, message string, ttl int, tag int) map[string]any {
	return map[string]any{"topic": topic, "message": message, "ttl": ttl, "tag": tag, "prompt": false}
}
