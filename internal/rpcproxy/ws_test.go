package rpcproxy

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/latchkit/latch/data"
	"github.com/latchkit/latch/internal/network"
	"github.com/latchkit/latch/internal/ratelimit"
	"github.com/latchkit/latch/internal/solanadev"
)

const wsChain = "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1" // data/networks.json's Solana Devnet

// fakeWSUpstream answers Solana subscription requests: subscribe → a new id
// (signatureSubscribe followed at once by its one-shot notification),
// unsubscribe → true; it records every message it received.
type fakeWSUpstream struct {
	srv  *httptest.Server
	mu   sync.Mutex
	seen []string
}

func newFakeWSUpstream(t *testing.T) *fakeWSUpstream {
	f := &fakeWSUpstream{}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		next := 100
		for {
			_, data, err := c.Read(r.Context())
			if err != nil {
				return
			}
			f.mu.Lock()
			f.seen = append(f.seen, string(data))
			f.mu.Unlock()
			var m wsMessage
			json.Unmarshal(data, &m)
			reply := func(v string) { c.Write(r.Context(), websocket.MessageText, []byte(v)) }
			switch {
			case strings.HasSuffix(m.Method, "Unsubscribe"):
				reply(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":true}`)
			default:
				next++
				sub := itoa(next)
				reply(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":` + sub + `}`)
				if m.Method == "signatureSubscribe" {
					reply(`{"jsonrpc":"2.0","method":"signatureNotification","params":{"result":{"context":{"slot":5},"value":{"err":null}},"subscription":` + sub + `}}`)
				}
			}
		}
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func (f *fakeWSUpstream) url() string { return "ws" + strings.TrimPrefix(f.srv.URL, "http") }

func (f *fakeWSUpstream) received() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.seen...)
}

// wsProxy serves a proxy whose Solana Devnet network has the given WebSocket upstreams.
func wsProxy(t *testing.T, cfg Config, upstreams ...string) string {
	t.Helper()
	reg, err := network.Load(data.Networks)
	if err != nil {
		t.Fatal(err)
	}
	if len(upstreams) > 0 {
		if err := reg.SetWSUpstreams(wsChain, upstreams); err != nil {
			t.Fatal(err)
		}
	}
	cfg.Networks, cfg.Logger = reg, discardLogger()
	mux := http.NewServeMux()
	New(cfg).Register(mux, nil)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http")
}

func dialProxy(t *testing.T, url string) *websocket.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, res, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		body := ""
		if res != nil {
			b, _ := io.ReadAll(res.Body)
			body = string(b)
		}
		t.Fatalf("dial %s: %v %s", url, err, body)
	}
	t.Cleanup(func() { c.CloseNow() })
	return c
}

// exchange sends msg and returns the next message the proxy sends back.
func exchange(t *testing.T, c *websocket.Conn, msg string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Write(ctx, websocket.MessageText, []byte(msg)); err != nil {
		t.Fatal(err)
	}
	return readWS(t, c)
}

func readWS(t *testing.T, c *websocket.Conn) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, data, err := c.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestWS_RefusedBeforeTheUpgrade(t *testing.T) {
	url := wsProxy(t, Config{}) // no WebSocket upstream anywhere
	httpURL := "http" + strings.TrimPrefix(url, "ws")
	for name, c := range map[string]struct {
		path    string
		upgrade bool
		status  int
		want    string
	}{
		"PlainGET":     {"/v1?chainId=" + wsChain, false, http.StatusUpgradeRequired, "opens a WebSocket for subscriptions"},
		"BadChain":     {"/v1?chainId=nope", true, http.StatusBadRequest, `"code":-32602`},
		"NoWSUpstream": {"/ws?chainId=" + wsChain, true, http.StatusNotFound, "has no WebSocket subscriptions on this latchd"},
	} {
		t.Run(name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, httpURL+c.path, nil)
			if c.upgrade {
				req.Header.Set("Connection", "Upgrade")
				req.Header.Set("Upgrade", "websocket")
				req.Header.Set("Sec-WebSocket-Version", "13")
				req.Header.Set("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != c.status || !strings.Contains(string(b), c.want) {
				t.Fatalf("%d %s, want %d with %q", res.StatusCode, b, c.status, c.want)
			}
		})
	}
}

// Subscriptions reach the upstream and its answers and notifications come
// back; anything else is answered by latchd and never reaches the upstream.
func TestWS_ForwardsSubscriptionsOnly(t *testing.T) {
	up := newFakeWSUpstream(t)
	c := dialProxy(t, wsProxy(t, Config{}, up.url())+"/v1?chainId="+wsChain+"&projectId=p1")

	if got := exchange(t, c, `{"jsonrpc":"2.0","id":1,"method":"slotSubscribe"}`); got != `{"jsonrpc":"2.0","id":1,"result":101}` {
		t.Fatalf("slotSubscribe: %s", got)
	}
	if got := exchange(t, c, `{"jsonrpc":"2.0","id":"s","method":"signatureSubscribe","params":["abc"]}`); got != `{"jsonrpc":"2.0","id":"s","result":102}` {
		t.Fatalf("signatureSubscribe: %s", got)
	}
	if got := readWS(t, c); !strings.Contains(got, `"method":"signatureNotification"`) || !strings.Contains(got, `"subscription":102`) {
		t.Fatalf("notification: %s", got)
	}
	for msg, want := range map[string]string{
		`{"jsonrpc":"2.0","id":2,"method":"getBalance","params":["x"]}`:           `{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"getBalance is not allowed on the WebSocket; it takes subscriptions only (send other requests with POST)"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"eth_subscribe","params":["newHeads"]}`: `"code":-32601`, // an eip155 method on a solana network
		`[{"jsonrpc":"2.0","id":4,"method":"slotSubscribe"}]`:                     `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Batches are not taken on the WebSocket; send one request per message"}}`,
		`{"jsonrpc":"2.0","id":5,"method":`:                                       `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`,
		`{"jsonrpc":"2.0","method":"slotSubscribe"}`:                              `"code":-32600,"message":"A request needs an id and a method"`,
	} {
		if got := exchange(t, c, msg); !strings.Contains(got, want) {
			t.Errorf("%s → %s, want %s", msg, got, want)
		}
	}
	if got := exchange(t, c, `{"jsonrpc":"2.0","id":6,"method":"slotUnsubscribe","params":[101]}`); got != `{"jsonrpc":"2.0","id":6,"result":true}` {
		t.Fatalf("slotUnsubscribe: %s", got)
	}
	seen := up.received()
	if len(seen) != 3 || !strings.Contains(seen[0], "slotSubscribe") || !strings.Contains(seen[1], "signatureSubscribe") || !strings.Contains(seen[2], "slotUnsubscribe") {
		t.Fatalf("the upstream received %q", seen)
	}
}

// A socket holds at most WSMaxSubscriptions live subscriptions: one that a
// one-shot notification ended or an unsubscribe dropped frees its place.
func TestWS_SubscriptionLimit(t *testing.T) {
	up := newFakeWSUpstream(t)
	c := dialProxy(t, wsProxy(t, Config{WSMaxSubscriptions: 2}, up.url())+"/v1?chainId="+wsChain)
	exchange(t, c, `{"jsonrpc":"2.0","id":1,"method":"slotSubscribe"}`)
	exchange(t, c, `{"jsonrpc":"2.0","id":2,"method":"rootSubscribe"}`)
	if got := exchange(t, c, `{"jsonrpc":"2.0","id":3,"method":"slotSubscribe"}`); got != `{"jsonrpc":"2.0","id":3,"error":{"code":-32005,"message":"This connection already holds 2 subscriptions; unsubscribe first"}}` {
		t.Fatalf("third subscription: %s", got)
	}
	exchange(t, c, `{"jsonrpc":"2.0","id":4,"method":"rootUnsubscribe","params":[102]}`)
	// A signature subscription ends with its notification: after it, two more fit again.
	exchange(t, c, `{"jsonrpc":"2.0","id":5,"method":"signatureSubscribe","params":["sig"]}`)
	readWS(t, c) // its notification
	if got := exchange(t, c, `{"jsonrpc":"2.0","id":6,"method":"slotSubscribe"}`); !strings.Contains(got, `"result":`) {
		t.Fatalf("after the one-shot ended: %s", got)
	}
	if got := exchange(t, c, `{"jsonrpc":"2.0","id":7,"method":"slotSubscribe"}`); !strings.Contains(got, `"code":-32005`) {
		t.Fatalf("over the limit again: %s", got)
	}
}

func TestWS_ConnectionsPerIPAndRateLimit(t *testing.T) {
	up := newFakeWSUpstream(t)
	url := wsProxy(t, Config{WSMaxConnsPerIP: 1, IPLimiter: ratelimit.NewMemory(2, time.Minute)}, up.url()) + "/ws?chainId=" + wsChain
	c := dialProxy(t, url)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, res, err := websocket.Dial(ctx, url, nil)
	if err == nil || res == nil || res.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("second socket from one address: %v %+v", err, res)
	}
	exchange(t, c, `{"jsonrpc":"2.0","id":1,"method":"slotSubscribe"}`)
	exchange(t, c, `{"jsonrpc":"2.0","id":2,"method":"slotUnsubscribe","params":[101]}`)
	if got := exchange(t, c, `{"jsonrpc":"2.0","id":3,"method":"slotSubscribe"}`); got != `{"jsonrpc":"2.0","id":3,"error":{"code":-32005,"message":"Rate limit exceeded"}}` {
		t.Fatalf("third message within the limit of 2: %s", got)
	}
	if n := len(up.received()); n != 2 {
		t.Fatalf("the upstream received %d messages, want 2", n)
	}
	// The socket's place is freed when it closes.
	c.Close(websocket.StatusNormalClosure, "")
	time.Sleep(100 * time.Millisecond)
	dialProxy(t, url)
}

// Against the Solana dev network: a signature subscription through the proxy
// is told of a transaction sent with POST /v1.
func TestWS_SolanaDevSignatureNotification(t *testing.T) {
	n := solanadev.StartForTest(t, "")
	reg, err := network.Load(data.Networks)
	if err != nil {
		t.Fatal(err)
	}
	dev := n.Info.CAIPNetworkID
	ref, _ := json.Marshal(dev[len("solana:"):])
	if err := reg.Add(&network.Network{CAIPNetworkID: dev, ChainNamespace: "solana", ID: ref, Name: "Latch Solana Dev", Dev: true}); err != nil {
		t.Fatal(err)
	}
	if err := reg.SetUpstreams(dev, []string{n.Info.RPCURL}); err != nil {
		t.Fatal(err)
	}
	if err := reg.SetWSUpstreams(dev, []string{n.Info.WSURL}); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	New(Config{Networks: reg, Logger: discardLogger()}).Register(mux, nil)
	srv := httptest.NewServer(mux)
	defer srv.Close()

	res, err := http.Post(srv.URL+"/v1?chainId="+dev, "application/json", strings.NewReader(solanaCall("requestAirdrop", n.Info.Accounts[4], 1_000_000)))
	if err != nil {
		t.Fatal(err)
	}
	var airdrop struct {
		Result string `json:"result"`
	}
	json.NewDecoder(res.Body).Decode(&airdrop)
	res.Body.Close()
	if airdrop.Result == "" {
		t.Fatal("requestAirdrop gave no signature")
	}
	c := dialProxy(t, "ws"+strings.TrimPrefix(srv.URL, "http")+"/v1?chainId="+dev)
	if got := exchange(t, c, `{"jsonrpc":"2.0","id":1,"method":"signatureSubscribe","params":["`+airdrop.Result+`",{"commitment":"confirmed"}]}`); !strings.Contains(got, `"id":1,"result":`) {
		t.Fatalf("signatureSubscribe: %s", got)
	}
	if got := readWS(t, c); !strings.Contains(got, `"method":"signatureNotification"`) || !strings.Contains(got, `"err":null`) {
		t.Fatalf("notification: %s", got)
	}
	if got := exchange(t, c, solanaCall("getBalance", n.Info.Accounts[4])); !strings.Contains(got, `"code":-32601`) {
		t.Fatalf("getBalance on the socket: %s", got)
	}
}
