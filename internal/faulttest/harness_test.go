package faulttest_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/redis/go-redis/v9"

	"github.com/latchkit/latch/internal/app"
	"github.com/latchkit/latch/internal/faulttest"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/redistest"
	"github.com/latchkit/latch/internal/relay"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/store/storetest"
)

// The bounds the suite's nodes run with: short, so that each fault is
// over in a few seconds. answerWithin is the bound on every answer
// during a fault.
const (
	dbTimeout    = 400 * time.Millisecond
	redisTimeout = 250 * time.Millisecond
	answerWithin = 2 * time.Second
)

// env is what the nodes of a test share: a Postgres schema, a Redis key
// prefix and an RPC upstream, each reached through a fault proxy, and a
// project with analytics on.
type env struct {
	t        *testing.T
	pg       *faulttest.Proxy
	redis    *faulttest.Proxy
	upstream *faulttest.Proxy
	pgURL    string // through pg
	redisURL string // through redis
	prefix   string
	project  string
	db       *store.DB             // direct, for checks
	rdb      redis.UniversalClient // direct, for checks
	chain    *fakeChain
}

// newEnv skips the test unless both Postgres and Redis are configured.
func newEnv(t *testing.T) *env {
	t.Helper()
	base := os.Getenv("LATCH_TEST_POSTGRES")
	if base == "" {
		t.Skip("LATCH_TEST_POSTGRES is not set; the fault suite needs Postgres and Redis (eval \"$(bash scripts/services.sh)\" sets both)")
	}
	rdb, prefix := redistest.MustClient(t)
	e := &env{t: t, rdb: rdb, prefix: prefix, project: randomHex(16), chain: newFakeChain(t)}

	schemaURL, drop := storetest.FreshSchema(t, base)
	t.Cleanup(drop)
	db, err := store.Open(context.Background(), schemaURL, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	e.db = db
	p := &project.Project{ID: e.project, Name: "Fault suite", Origins: []string{"https://dapp.example"}, Features: project.DefaultFeatures(), Analytics: true}
	if err := project.NewService(db).Create(context.Background(), p); err != nil {
		t.Fatal(err)
	}

	u, _ := url.Parse(schemaURL)
	e.pg = faulttest.Start(t, u.Host)
	u.Host = e.pg.Addr()
	e.pgURL = u.String()
	ru, _ := url.Parse(redistest.URL(t))
	e.redis = faulttest.Start(t, ru.Host)
	ru.Host = e.redis.Addr()
	e.redisURL = ru.String()
	e.upstream = faulttest.Start(t, strings.TrimPrefix(e.chain.srv.URL, "http://"))
	return e
}

// node is one latchd on the env.
type node struct {
	m    *app.Main
	api  string
	skew atomic.Int64 // added to the project cache's clock
}

// start runs a latchd node on e with the suite's bounds; adjust changes
// its configuration first.
func (e *env) start(adjust func(*app.Config)) *node {
	e.t.Helper()
	_, loopback, _ := net.ParseCIDR("127.0.0.0/8")
	cfg := app.Config{
		Addr: "127.0.0.1:0", FrameAddr: "127.0.0.1:0", AdminAddr: "127.0.0.1:0", DataDir: e.t.TempDir(),
		DatabaseURL: e.pgURL, RedisURL: e.redisURL, AdminToken: strings.Repeat("a", 32),
		TrustedProxies:  []*net.IPNet{loopback},
		RPCUpstreams:    []string{"eip155:1=http://" + e.upstream.Addr()},
		ShutdownTimeout: 5 * time.Second,
		Dependencies: app.DependencyConfig{
			DatabaseConnectTimeout: dbTimeout, DatabaseStatementTimeout: dbTimeout, DatabasePoolTimeout: dbTimeout,
			RedisDialTimeout: redisTimeout, RedisReadTimeout: redisTimeout, RedisWriteTimeout: redisTimeout, RedisPoolTimeout: redisTimeout,
		},
	}
	if adjust != nil {
		adjust(&cfg)
	}
	m := app.NewMain(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	m.RedisPrefix = e.prefix
	n := &node{m: m}
	if err := m.Run(context.Background()); err != nil {
		e.t.Fatalf("Run: %v", err)
	}
	e.t.Cleanup(func() { m.Close() })
	m.Projects.SetClock(func() time.Time { return time.Now().Add(time.Duration(n.skew.Load())) })
	n.api = m.APIURL()
	return n
}

// expireProjects moves the node's project cache past every entry's
// lifetime (10 s), as if the outage had lasted that long.
func (n *node) expireProjects() { n.skew.Add(int64(11 * time.Second)) }

// answer is one HTTP answer and how long it took.
type answer struct {
	status int
	header http.Header
	body   []byte
	took   time.Duration
	err    error
}

// httpClient gives up after a little more than answerWithin, so that a
// request that hangs fails the test instead of holding it.
var httpClient = &http.Client{Timeout: answerWithin + 3*time.Second}

// call sends a request as the client at ip (X-Forwarded-For, trusted from
// loopback).
func call(method, u, ip, body string) answer {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, u, rd)
	if err != nil {
		return answer{err: err}
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if ip != "" {
		req.Header.Set("X-Forwarded-For", ip)
	}
	return do(req)
}

// do sends req and times its answer.
func do(req *http.Request) answer {
	start := time.Now()
	resp, err := httpClient.Do(req)
	if err != nil {
		return answer{err: err, took: time.Since(start)}
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return answer{status: resp.StatusCode, header: resp.Header, body: b, took: time.Since(start)}
}

func (a answer) String() string {
	if a.err != nil {
		return fmt.Sprintf("error %v after %v", a.err, a.took.Round(time.Millisecond))
	}
	return fmt.Sprintf("%d after %v: %s", a.status, a.took.Round(time.Millisecond), bytes.TrimSpace(a.body))
}

// bounded checks the rule for an answer during a fault: within
// answerWithin, and either one of ok or a 503 with Retry-After and code
// unavailable, never a 500.
func bounded(t *testing.T, what string, a answer, ok ...int) {
	t.Helper()
	if a.err != nil || a.took > answerWithin {
		t.Errorf("%s: %v, want an answer within %v", what, a, answerWithin)
		return
	}
	for _, s := range ok {
		if a.status == s {
			return
		}
	}
	if a.status == http.StatusServiceUnavailable && a.header.Get("Retry-After") != "" && bytes.Contains(a.body, []byte(`"unavailable"`)) {
		return
	}
	t.Errorf("%s: %v, want %v or 503 unavailable with Retry-After", what, a, ok)
}

// Requests of the routes the suite exercises.

func (n *node) rpc(e *env, ip string) answer {
	return call("POST", n.api+"/v1?chainId=eip155:1&projectId="+e.project, ip, `{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}`)
}

func (n *node) config(e *env, ip string) answer {
	return call("GET", n.api+"/appkit/v1/config?projectId="+e.project, ip, "")
}

// telemetry posts a batch of one track event with a fresh id, and returns
// the id with the answer.
func (n *node) telemetry(e *env, ip string) (string, answer) {
	id := newUUID()
	b, _ := json.Marshal([]map[string]any{{
		"eventId": id, "url": "https://dapp.example/", "domain": "dapp.example", "timestamp": time.Now().UnixMilli(),
		"props": map[string]any{"type": "track", "event": "MODAL_OPEN", "properties": map[string]any{}},
	}})
	return id, call("POST", n.api+"/batch?projectId="+e.project, ip, string(b))
}

// summary asks for the project's analytics: a route that only the database
// can answer.
func (n *node) summary(e *env) answer {
	req, _ := http.NewRequest("GET", n.api+"/v1/analytics/summary?projectId="+e.project, nil)
	req.Header.Set("Authorization", "Bearer "+strings.Repeat("a", 32))
	return do(req)
}

func (n *node) ready() answer { return call("GET", n.api+"/readyz", "", "") }

// metric reads one series of the node's /metrics ("" when absent).
func (n *node) metric(t *testing.T, series string) string {
	t.Helper()
	a := call("GET", n.m.AdminURL()+"/metrics", "", "")
	for _, line := range strings.Split(string(a.body), "\n") {
		if v, ok := strings.CutPrefix(line, series+" "); ok {
			return v
		}
	}
	return ""
}

// storedEvents counts the project's telemetry rows with the given ids.
func (e *env) storedEvents(ids []string) int {
	e.t.Helper()
	n := 0
	for _, id := range ids {
		var c int
		if err := e.db.QueryRow(context.Background(), `SELECT COUNT(*) FROM events WHERE project_id = ? AND event_id = ?`, e.project, id).Scan(&c); err != nil {
			e.t.Fatal(err)
		}
		n += c
	}
	return n
}

// waitFor polls cond (every 20 ms) until it holds, failing after limit.
func waitFor(t *testing.T, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v", what, limit)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// fakeChain is the RPC upstream: a JSON-RPC server of chain 1 whose head
// is block 0x10.
type fakeChain struct {
	srv   *httptest.Server
	calls atomic.Int64
}

func newFakeChain(t *testing.T) *fakeChain {
	c := &fakeChain{}
	c.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.calls.Add(1)
		body, _ := io.ReadAll(r.Body)
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		json.Unmarshal(body, &req)
		result := map[string]string{"eth_chainId": "0x1", "eth_blockNumber": "0x10"}[req.Method]
		w.Header().Set("Content-Type", "application/json")
		if result == "" {
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"no such method"}}`, req.ID)
			return
		}
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%q}`, req.ID, result)
	}))
	t.Cleanup(c.srv.Close)
	return c
}

// relayClient is a WalletConnect relay socket: its calls' answers, and the
// messages delivered to it (acknowledged, as the JS client does).
type relayClient struct {
	t         *testing.T
	ws        *websocket.Conn
	n         atomic.Int64
	mu        sync.Mutex
	answers   map[string]chan map[string]any
	delivered chan string // message bodies
	closed    chan error
}

func (e *env) dialRelay(n *node) *relayClient {
	e.t.Helper()
	_, key, _ := ed25519.GenerateKey(rand.Reader)
	base := "ws" + strings.TrimPrefix(n.api, "http")
	q := url.Values{"auth": {relay.SignToken(key, "s", base, time.Now(), time.Hour)}, "projectId": {e.project}, "ua": {"wc-2/js-2.21.8/faulttest"}}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, base+"/?"+q.Encode(), nil)
	if err != nil {
		e.t.Fatal(err)
	}
	ws.SetReadLimit(1 << 20)
	c := &relayClient{t: e.t, ws: ws, answers: map[string]chan map[string]any{}, delivered: make(chan string, 4096), closed: make(chan error, 1)}
	e.t.Cleanup(func() { ws.CloseNow() })
	go c.read()
	return c
}

func (c *relayClient) read() {
	for {
		_, data, err := c.ws.Read(context.Background())
		if err != nil {
			c.closed <- err
			return
		}
		var f map[string]any
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber() // ids are 19-digit numbers
		if dec.Decode(&f) != nil {
			continue
		}
		if f["method"] == "irn_subscription" {
			ack, _ := json.Marshal(map[string]any{"id": f["id"], "jsonrpc": "2.0", "result": true})
			c.ws.Write(context.Background(), websocket.MessageText, ack)
			params, _ := f["params"].(map[string]any)
			data, _ := params["data"].(map[string]any)
			msg, _ := data["message"].(string)
			c.delivered <- msg
			continue
		}
		id := fmt.Sprint(f["id"])
		c.mu.Lock()
		ch := c.answers[id]
		delete(c.answers, id)
		c.mu.Unlock()
		if ch != nil {
			ch <- f
		}
	}
}

// call sends a request and returns its answer (result or error), failing
// the test if none comes within answerWithin or the socket closes.
func (c *relayClient) call(method string, params any) (result any, rpcErr map[string]any, took time.Duration) {
	c.t.Helper()
	id := fmt.Sprint(1700000000000000000 + c.n.Add(1))
	ch := make(chan map[string]any, 1)
	c.mu.Lock()
	c.answers[id] = ch
	c.mu.Unlock()
	req, _ := json.Marshal(map[string]any{"id": json.Number(id), "jsonrpc": "2.0", "method": method, "params": params})
	start := time.Now()
	if err := c.ws.Write(context.Background(), websocket.MessageText, req); err != nil {
		c.t.Fatalf("%s: write: %v", method, err)
	}
	select {
	case f := <-ch:
		took = time.Since(start)
		if e, ok := f["error"].(map[string]any); ok {
			return nil, e, took
		}
		return f["result"], nil, took
	case err := <-c.closed:
		c.t.Fatalf("%s: the socket closed: %v", method, err)
	case <-time.After(answerWithin + time.Second):
		c.t.Fatalf("%s: no answer within %v", method, answerWithin+time.Second)
	}
	return nil, nil, 0
}

// drain moves the messages delivered so far into got, decoded.
func (c *relayClient) drain(got map[string]bool) {
	for {
		select {
		case m := <-c.delivered:
			b, _ := base64.StdEncoding.DecodeString(m)
			got[string(b)] = true
		default:
			return
		}
	}
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func newUUID() string {
	h := randomHex(16)
	return h[:8] + "-" + h[8:12] + "-4" + h[13:16] + "-8" + h[17:20] + "-" + h[20:]
}
