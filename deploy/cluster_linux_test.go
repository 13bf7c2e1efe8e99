package deploy_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/latchkit/latch/internal/poll"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/redistest"
	"github.com/latchkit/latch/internal/relay"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/store/storetest"
)

// Limits the cluster runs with, small enough to hit in a test.
const (
	clusterIPLimit      = 40 // --ip-rate-limit, per minute
	clusterProjectLimit = 20 // --rpc-project-rate-limit, per minute
)

// cluster is compose.yaml's topology on this machine: latchd serve nodes
// (processes of this test binary) on the machine's Postgres (a schema of
// their own) and Redis, behind a round-robin balancer.
type cluster struct {
	t        *testing.T
	environ  map[string]string // every node's settings
	db       *store.DB
	project  string
	lb       *balancer
	chain    *testChain
	relayURL string
}

// TestCluster runs two latchd nodes sharing Postgres and Redis behind a
// load balancer and checks what a scaled-out deployment depends on: a
// WalletConnect pair split across the nodes pairs and signs, rate limits
// hold for the cluster (not per node), one node indexes a chain at a time
// and another takes over when it dies, and killing a node loses no relay
// message.
func TestCluster(t *testing.T) {
	pg := os.Getenv("LATCH_TEST_POSTGRES")
	if pg == "" {
		t.Skip("LATCH_TEST_POSTGRES is not set; the cluster test needs Postgres and Redis (eval \"$(bash scripts/services.sh)\" sets both)")
	}
	redisURL := redistest.URL(t)
	c := newCluster(t, pg, redisURL)
	n1 := c.startNode("node1")
	n2 := c.startNode("node2")

	t.Run("PairAndSignAcrossNodes", func(t *testing.T) { c.pairAndSign(t, n1, n2) })
	t.Run("RateLimitsAreGlobal", c.rateLimits)

	var survivor, replacement *node
	t.Run("IndexerRunsOnce", func(t *testing.T) { survivor, replacement = c.indexerRunsOnce(t, n1, n2) })
	if survivor == nil || replacement == nil {
		t.FailNow()
	}
	// The wallet comes back on a third node: what was published while its
	// node died must reach it from the shared mailbox, not from the
	// publisher's node.
	n4 := c.startNode("node4")
	t.Run("KillLosesNoRelayMessage", func(t *testing.T) { c.killLosesNothing(t, survivor, replacement, n4) })
}

func newCluster(t *testing.T, pg, redisURL string) *cluster {
	ctx := context.Background()
	schemaURL, drop := storetest.FreshSchema(t, pg)
	t.Cleanup(drop)
	db, err := store.Open(ctx, schemaURL, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	c := &cluster{t: t, db: db, project: randomHex(16), lb: newBalancer(t), chain: newTestChain(t, 20)}
	p := &project.Project{ID: c.project, Name: "Cluster test", Origins: []string{"https://dapp.example"}, Features: project.DefaultFeatures()}
	if err := project.NewService(db).Create(ctx, p); err != nil {
		t.Fatal(err)
	}
	c.relayURL = "ws://" + c.lb.srv.Listener.Addr().String()

	// compose.yaml's node settings, with what differs on this machine.
	args, environ := nodeSettings(t, loadCompose(t).Services["latchd-1"])
	if len(args) > 0 {
		t.Fatalf("the cluster test passes settings as LATCH_* variables; compose.yaml's node has arguments %q", args)
	}
	c.environ = map[string]string{}
	for _, e := range environ {
		k, v, _ := strings.Cut(e, "=")
		c.environ[k] = v
	}
	for k, v := range map[string]string{
		"LATCH_ADDR": "127.0.0.1:0", "LATCH_FRAME_ADDR": "127.0.0.1:0", "LATCH_ADMIN_ADDR": "127.0.0.1:0",
		"LATCH_DATA_DIR":     t.TempDir(),
		"LATCH_DATABASE_URL": schemaURL,
		"LATCH_REDIS_URL":    redisURL,
		"LATCH_RELAY_URL":    c.relayURL,
		"LATCH_FRAME_URL":    "http://127.0.0.1:1",
		// The balancer reaches the nodes from 127.0.0.1; clients come from
		// other loopback addresses.
		"LATCH_TRUSTED_PROXIES":        "127.0.0.1/32",
		"LATCH_LOG_LEVEL":              "info",
		"LATCH_SHUTDOWN_TIMEOUT":       "5s",
		"LATCH_IP_RATE_LIMIT":          fmt.Sprint(clusterIPLimit),
		"LATCH_RPC_PROJECT_RATE_LIMIT": fmt.Sprint(clusterProjectLimit),
		"LATCH_RPC_PROBE_INTERVAL":     "0",
		"LATCH_INDEX_NETWORK":          fmt.Sprintf("eip155:%d=0", testChainID),
		"LATCH_INDEX_POLL_INTERVAL":    "100ms",
		"LATCH_INDEX_CONFIRMATIONS":    "0",
	} {
		c.environ[k] = v
	}
	return c
}

// startNode starts a node with the cluster's settings and puts it behind
// the balancer. Its RPC upstream is the test chain under its own name.
func (c *cluster) startNode(name string) *node {
	c.t.Helper()
	var environ []string
	for k, v := range c.environ {
		environ = append(environ, k+"="+v)
	}
	environ = append(environ, fmt.Sprintf("LATCH_RPC_UPSTREAM=eip155:%d=%s/%s", testChainID, c.chain.srv.URL, name))
	n := startNode(c.t, name, environ)
	c.lb.add(c.t, n)
	return n
}

// pairAndSign: the dapp's socket is on one node, the wallet's on the other;
// the WalletConnect messages of a pairing and a signature request cross
// between them both ways. (Real clients encrypt each message; the relay
// carries them as opaque strings either way.)
func (c *cluster) pairAndSign(t *testing.T, dappNode, walletNode *node) {
	ip := clientIP(t)
	dapp := c.dialOn(t, ip, dappNode.name)
	wallet := c.dialOn(t, ip, walletNode.name)
	pairing, session := randomHex(32), randomHex(32)

	dapp.ok("wc_proposeSession", map[string]any{"pairingTopic": pairing, "sessionProposal": b64(`{"method":"wc_sessionPropose"}`), "ttl": 300})
	wallet.ok("irn_subscribe", map[string]any{"topic": pairing})
	if d := wallet.next(); d.Message != b64(`{"method":"wc_sessionPropose"}`) || d.Tag != 1100 {
		t.Fatalf("proposal: %+v", d)
	}
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	account := crypto.PubkeyToAddress(key.PublicKey)
	wallet.ok("wc_approveSession", map[string]any{"sessionTopic": session, "pairingTopic": pairing,
		"sessionProposalResponse": b64(`{"result":{"relay":{"protocol":"irn"}}}`), "sessionSettlementRequest": b64(`{"accounts":["eip155:1:` + account.Hex() + `"]}`), "ttl": 300})
	if d := dapp.next(); d.Tag != 1101 {
		t.Fatalf("proposal response: %+v", d)
	}
	dapp.ok("irn_subscribe", map[string]any{"topic": session})
	if d := dapp.next(); d.Tag != 1102 || !strings.Contains(unb64(t, d.Message), account.Hex()) {
		t.Fatalf("settlement: %+v", d)
	}

	// The dapp asks for a personal_sign; the wallet signs; the dapp
	// recovers the signer from the answer.
	text := "Sign in to dapp.example, nonce " + randomHex(8)
	req, _ := json.Marshal(map[string]any{"id": 1, "method": "personal_sign", "params": []string{hexutil.Encode([]byte(text)), account.Hex()}})
	dapp.ok("irn_publish", map[string]any{"topic": session, "message": b64(string(req)), "ttl": 300, "tag": 1108})
	wallet.ok("irn_subscribe", map[string]any{"topic": session})
	d := wallet.next()
	var got struct {
		Method string   `json:"method"`
		Params []string `json:"params"`
	}
	if d.Tag != 1108 || json.Unmarshal([]byte(unb64(t, d.Message)), &got) != nil || got.Method != "personal_sign" {
		t.Fatalf("session request: %+v", d)
	}
	msg, _ := hexutil.Decode(got.Params[0])
	sig, err := crypto.Sign(accounts.TextHash(msg), key)
	if err != nil {
		t.Fatal(err)
	}
	sig[64] += 27
	res, _ := json.Marshal(map[string]any{"id": 1, "result": hexutil.Encode(sig)})
	wallet.ok("irn_publish", map[string]any{"topic": session, "message": b64(string(res)), "ttl": 300, "tag": 1109})
	d = dapp.next()
	var answer struct {
		Result string `json:"result"`
	}
	if d.Tag != 1109 || json.Unmarshal([]byte(unb64(t, d.Message)), &answer) != nil {
		t.Fatalf("session response: %+v", d)
	}
	signature, err := hexutil.Decode(answer.Result)
	if err != nil || len(signature) != 65 {
		t.Fatalf("signature %q", answer.Result)
	}
	signature[64] -= 27
	pub, err := crypto.SigToPub(accounts.TextHash([]byte(text)), signature)
	if err != nil || crypto.PubkeyToAddress(*pub) != account {
		t.Fatalf("signature recovers %v (%v), want %s", pub, err, account)
	}
}

// rateLimits: a client's requests alternate between the nodes; the cluster
// still admits exactly the configured number per minute, per IP and per
// project (per-node counting would admit twice that).
func (c *cluster) rateLimits(t *testing.T) {
	count := func(ip net.IP, n int, req func() *http.Request) (allowed int, limited int, byNode map[string]int) {
		client := httpClient(ip)
		byNode = map[string]int{}
		for range n {
			resp, err := client.Do(req())
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			byNode[resp.Header.Get("X-Test-Node")]++
			switch resp.StatusCode {
			case http.StatusTooManyRequests:
				limited++
			case http.StatusBadGateway, http.StatusServiceUnavailable:
				t.Fatalf("balancer answered %d", resp.StatusCode)
			default:
				allowed++
			}
		}
		return allowed, limited, byNode
	}
	t.Run("PerIP", func(t *testing.T) {
		allowed, limited, byNode := count(clientIP(t), clusterIPLimit+20, func() *http.Request {
			r, _ := http.NewRequest("GET", c.lb.srv.URL+"/getWallets", nil) // 401 without a project: still counted
			return r
		})
		if allowed != clusterIPLimit || limited != 20 {
			t.Fatalf("%d allowed and %d refused of %d requests spread over %v; want %d and 20", allowed, limited, clusterIPLimit+20, byNode, clusterIPLimit)
		}
		if len(byNode) != 2 {
			t.Fatalf("requests reached %v, want both nodes", byNode)
		}
	})
	t.Run("PerProject", func(t *testing.T) {
		allowed, limited, byNode := count(clientIP(t), clusterProjectLimit+10, func() *http.Request {
			r, _ := http.NewRequest("POST", fmt.Sprintf("%s/v1?chainId=eip155:%d&projectId=%s", c.lb.srv.URL, testChainID, c.project),
				strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}`))
			r.Header.Set("Content-Type", "application/json")
			return r
		})
		if allowed != clusterProjectLimit || limited != 10 {
			t.Fatalf("%d allowed and %d refused of %d RPC requests spread over %v; want %d and 10", allowed, limited, clusterProjectLimit+10, byNode, clusterProjectLimit)
		}
	})
}

// indexerRunsOnce: of the two nodes following the chain, one reads its
// blocks; when that node is killed the other takes over where it stopped,
// and a node started later does not index while another does. It returns
// the node left indexing and the one started later.
func (c *cluster) indexerRunsOnce(t *testing.T, a, b *node) (survivor, later *node) {
	head := c.chain.mine(0)
	c.waitIndexed(t, head)
	leader, follower := a, b
	if len(c.chain.read(a.name)) == 0 {
		leader, follower = b, a
	}
	if len(c.chain.read(leader.name)) == 0 {
		t.Fatal("neither node read the chain's blocks")
	}
	head = c.chain.mine(10)
	c.waitIndexed(t, head)
	c.waitPolls(t, leader)
	if got := c.chain.read(follower.name); len(got) > 0 {
		t.Fatalf("%s indexes beside %s: it read blocks %v", follower.name, leader.name, got)
	}
	if got := c.chain.read(leader.name); !slices.Equal(got, seq(0, head)) {
		t.Fatalf("%s read blocks %v, want 0-%d once each", leader.name, got, head)
	}

	// The leader dies: its Postgres session, and so its lease, ends with it.
	leader.kill()
	killed := time.Now()
	from := head + 1
	head = c.chain.mine(10)
	c.waitIndexed(t, head)
	t.Logf("%s took over from %s within %v", follower.name, leader.name, time.Since(killed).Round(100*time.Millisecond))
	if got := c.chain.read(follower.name); !slices.Equal(got, seq(from, head)) {
		t.Fatalf("after the takeover %s read blocks %v, want %d-%d once each", follower.name, got, from, head)
	}

	// A node joining while the survivor indexes waits for the lease.
	later = c.startNode("node3")
	head = c.chain.mine(5)
	c.waitIndexed(t, head)
	c.waitPolls(t, follower)
	if got := c.chain.read("node3"); len(got) > 0 {
		t.Fatalf("node3 indexes beside %s: it read blocks %v", follower.name, got)
	}
	return follower, later
}

// waitPolls waits until the indexing node has asked for the chain's head
// ten more times (a second at --index-poll-interval 100ms): time enough for
// any other node following the chain to have read the new blocks too.
func (c *cluster) waitPolls(t *testing.T, indexing *node) {
	t.Helper()
	from := c.chain.headsAsked(indexing.name)
	poll.For(t, 30*time.Second, func() bool { return c.chain.headsAsked(indexing.name) >= from+10 })
}

// waitIndexed waits until the cluster's database holds every block to head.
func (c *cluster) waitIndexed(t *testing.T, head uint64) {
	t.Helper()
	var next int64
	poll.For(t, 30*time.Second, func() bool {
		err := c.db.QueryRow(context.Background(), `SELECT next_block FROM indexer_chains WHERE chain_id = ?`, int64(testChainID)).Scan(&next)
		return err == nil && uint64(next) > head
	})
}

// killLosesNothing: the dapp publishes a stream of messages to the wallet
// on another node; that node is killed in the middle of the stream; the
// wallet reconnects through the balancer, to a third node, and receives
// every message, those published while it was gone included.
func (c *cluster) killLosesNothing(t *testing.T, dappNode, walletNode, third *node) {
	ip := clientIP(t)
	dapp := c.dialOn(t, ip, dappNode.name)
	wallet := c.dialOn(t, ip, walletNode.name)
	topic := randomHex(32)
	wallet.ok("irn_subscribe", map[string]any{"topic": topic})

	const total = 40
	received := map[string]int{}
	drain := func(w *relayClient) {
		for {
			select {
			case d := <-w.deliveries:
				received[d.Message]++
			default:
				return
			}
		}
	}
	// The node dies while the stream goes on: some messages are on their way
	// to the wallet, some published while it is dying, some once it is dead.
	killed := make(chan struct{})
	for i := range total {
		if i == total/2 {
			go func() { walletNode.kill(); close(killed) }()
		}
		dapp.ok("irn_publish", map[string]any{"topic": topic, "message": fmt.Sprintf("bXNn%03d", i), "ttl": 300, "tag": 1108})
	}
	<-killed
	drain(wallet)
	if err := wallet.waitClosed(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	drain(wallet)
	before := len(received)

	// The wallet reconnects as a WalletConnect client does: a new socket
	// through the same URL, subscribing to its topics again.
	var again *relayClient
	var nodes []string
	poll.For(t, 10*time.Second, func() bool {
		rc, err := c.dial(t, ip)
		if err != nil {
			return false
		}
		if nodes = append(nodes, rc.node); rc.node != third.name {
			rc.ws.Close(websocket.StatusNormalClosure, "")
			return false
		}
		again = rc
		return true
	})
	if slices.Contains(nodes, walletNode.name) {
		t.Fatalf("the balancer sent a socket to the dead %s (reconnections went to %v)", walletNode.name, nodes)
	}
	again.ok("irn_subscribe", map[string]any{"topic": topic})
	deadline := time.After(15 * time.Second)
	for len(received) < total {
		select {
		case d := <-again.deliveries:
			received[d.Message]++
		case <-deadline:
			var missing []string
			for i := range total {
				if m := fmt.Sprintf("bXNn%03d", i); received[m] == 0 {
					missing = append(missing, m)
				}
			}
			t.Fatalf("%d of %d messages received; missing %v", len(received), total, missing)
		}
	}
	dups := 0
	for _, n := range received {
		dups += n - 1
	}
	t.Logf("%d messages received before the kill, the other %d after reconnecting (%d delivered twice: at least once, as WalletConnect expects)", before, total-before, dups)
}

// relayClient is a WalletConnect relay socket: JSON-RPC calls and the
// messages delivered meanwhile (acknowledged on receipt, as the WalletConnect
// client does).
type relayClient struct {
	t          *testing.T
	ws         *websocket.Conn
	node       string // which node the balancer sent it to
	n          atomic.Int64
	answers    chan map[string]any
	deliveries chan delivery
	done       chan error
}

type delivery struct {
	Topic   string `json:"topic"`
	Message string `json:"message"`
	Tag     int    `json:"tag"`
}

// dial opens a relay socket through the balancer from ip.
func (c *cluster) dial(t *testing.T, ip net.IP) (*relayClient, error) {
	_, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	q := url.Values{"auth": {relay.SignToken(key, "s", c.relayURL, time.Now(), 24*time.Hour)}, "projectId": {c.project}, "ua": {"wc-2/go/cluster-test"}}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ws, resp, err := websocket.Dial(ctx, c.relayURL+"/?"+q.Encode(), &websocket.DialOptions{HTTPClient: httpClient(ip)})
	if err != nil {
		return nil, err
	}
	ws.SetReadLimit(1 << 20)
	rc := &relayClient{t: t, ws: ws, node: resp.Header.Get("X-Test-Node"), answers: make(chan map[string]any, 16), deliveries: make(chan delivery, 256), done: make(chan error, 1)}
	t.Cleanup(func() { ws.CloseNow() })
	go rc.read()
	return rc, nil
}

// dialOn dials until the balancer places the socket on the named node
// (round robin: within as many tries as there are nodes).
func (c *cluster) dialOn(t *testing.T, ip net.IP, name string) *relayClient {
	t.Helper()
	for range 4 {
		rc, err := c.dial(t, ip)
		if err != nil {
			t.Fatal(err)
		}
		if rc.node == name {
			return rc
		}
		rc.ws.Close(websocket.StatusNormalClosure, "")
	}
	t.Fatalf("the balancer never placed a socket on %s", name)
	return nil
}

func (rc *relayClient) read() {
	for {
		_, data, err := rc.ws.Read(context.Background())
		if err != nil {
			rc.done <- err
			return
		}
		var f struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Data delivery `json:"data"`
			} `json:"params"`
		}
		if err := json.Unmarshal(data, &f); err != nil {
			rc.done <- fmt.Errorf("invalid JSON %q", data)
			return
		}
		if f.Method == "irn_subscription" {
			ack, _ := json.Marshal(map[string]any{"id": f.ID, "jsonrpc": "2.0", "result": true})
			rc.ws.Write(context.Background(), websocket.MessageText, ack)
			rc.deliveries <- f.Params.Data
			continue
		}
		var answer map[string]any
		json.Unmarshal(data, &answer)
		rc.answers <- answer
	}
}

// ok calls method and fails the test unless it succeeds.
func (rc *relayClient) ok(method string, params any) {
	rc.t.Helper()
	id := fmt.Sprint(1700000000000000000 + rc.n.Add(1))
	req, _ := json.Marshal(map[string]any{"id": id, "jsonrpc": "2.0", "method": method, "params": params})
	if err := rc.ws.Write(context.Background(), websocket.MessageText, req); err != nil {
		rc.t.Fatalf("%s: %v", method, err)
	}
	select {
	case a := <-rc.answers:
		if a["id"] != id || a["error"] != nil {
			rc.t.Fatalf("%s: answer %v", method, a)
		}
	case err := <-rc.done:
		rc.t.Fatalf("%s: socket closed: %v", method, err)
	case <-time.After(5 * time.Second):
		rc.t.Fatalf("%s: no answer", method)
	}
}

func (rc *relayClient) next() delivery {
	rc.t.Helper()
	select {
	case d := <-rc.deliveries:
		return d
	case <-time.After(5 * time.Second):
		rc.t.Fatal("no delivery")
	}
	return delivery{}
}

// waitClosed waits until the socket is gone.
func (rc *relayClient) waitClosed(d time.Duration) error {
	select {
	case <-rc.done:
		return nil
	case <-time.After(d):
		return errors.New("the wallet's socket is still open after its node was killed")
	}
}

// clientIP is a loopback address of the test's own (127.x.y.z), so that
// per-IP limits it meets are its own, whatever else runs on this machine.
func clientIP(t *testing.T) net.IP {
	var b [3]byte
	rand.Read(b[:])
	return net.IPv4(127, 1+b[0]%254, b[1], 1+b[2]%254)
}

// httpClient connects from ip.
func httpClient(ip net.IP) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: ip}, Timeout: 5 * time.Second}
	return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DialContext: d.DialContext}}
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func unb64(t *testing.T, s string) string {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatalf("message %q: %v", s, err)
	}
	return string(b)
}

func seq(from, to uint64) []uint64 {
	var out []uint64
	for n := from; n <= to; n++ {
		out = append(out, n)
	}
	return out
}
