package deploy_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/latchkit/latch/internal/app"
)

// nodeEnv, set in a child's environment, makes this test binary run
// `latchd serve` (configured by its LATCH_* environment) instead of tests:
// the cluster's nodes are real processes that can be killed.
const nodeEnv = "LATCH_TEST_CLUSTER_NODE"

func TestMain(m *testing.M) {
	if os.Getenv(nodeEnv) != "" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := app.CLI(ctx, []string{"serve"}, os.Stdout, os.Stderr)
		stop()
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// node is a latchd serve process.
type node struct {
	t      *testing.T
	name   string
	cmd    *exec.Cmd
	log    *nodeLog
	api    string // API listener, http://127.0.0.1:port
	admin  string // admin listener
	exited chan struct{}
	err    error // of Wait, once exited is closed
	killed bool
}

// nodeLog keeps a node's output and finds its "latchd ready" line.
type nodeLog struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	line  []byte
	ready chan map[string]any
}

func (l *nodeLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf.Write(p)
	l.line = append(l.line, p...)
	for {
		i := bytes.IndexByte(l.line, '\n')
		if i < 0 {
			break
		}
		var rec map[string]any
		if json.Unmarshal(l.line[:i], &rec) == nil && rec["msg"] == "latchd ready" {
			select {
			case l.ready <- rec:
			default:
			}
		}
		l.line = l.line[i+1:]
	}
	return len(p), nil
}

func (l *nodeLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// startNode starts latchd serve with environ (LATCH_* entries) and waits
// until it serves. When the test ends the node is stopped with SIGTERM and
// must exit cleanly, with no data race reported.
func startNode(t *testing.T, name string, environ []string) *node {
	t.Helper()
	n := &node{t: t, name: name, log: &nodeLog{ready: make(chan map[string]any, 1)}, exited: make(chan struct{})}
	n.cmd = exec.Command(os.Args[0])
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "LATCH_") {
			n.cmd.Env = append(n.cmd.Env, e)
		}
	}
	n.cmd.Env = append(append(n.cmd.Env, environ...), nodeEnv+"="+name)
	n.cmd.Stdout, n.cmd.Stderr = n.log, n.log
	// A node outlives no test binary, however that ends.
	n.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := n.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { n.err = n.cmd.Wait(); close(n.exited) }()
	t.Cleanup(func() {
		n.stop()
		if t.Failed() {
			out := n.log.String()
			t.Logf("%s output (last 6000 bytes):\n%s", name, out[max(0, len(out)-6000):])
		}
	})
	select {
	case rec := <-n.log.ready:
		n.api, _ = rec["api"].(string)
		n.admin, _ = rec["admin"].(string)
	case <-n.exited:
		t.Fatalf("%s exited before serving (%v):\n%s", name, n.err, n.log.String())
	case <-time.After(2 * time.Minute):
		t.Fatalf("%s did not start:\n%s", name, n.log.String())
	}
	return n
}

// kill ends the node at once (SIGKILL): no graceful shutdown, no goodbye
// to its sockets, its Postgres sessions or Redis.
func (n *node) kill() {
	n.t.Helper()
	n.killed = true
	n.cmd.Process.Kill()
	<-n.exited
}

// stop shuts the node down (SIGTERM) and checks it exited cleanly.
func (n *node) stop() {
	if n.killed {
		return
	}
	n.killed = true
	n.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-n.exited:
	case <-time.After(30 * time.Second):
		n.cmd.Process.Kill()
		<-n.exited
		n.t.Errorf("%s did not stop within 30 s of SIGTERM", n.name)
		return
	}
	if n.err != nil {
		n.t.Errorf("%s exited with %v", n.name, n.err)
	}
	if strings.Contains(n.log.String(), "WARNING: DATA RACE") {
		n.t.Errorf("%s reported a data race", n.name)
	}
}

// balancer is the cluster's load balancer, as Caddy is in compose.yaml:
// round robin over the nodes whose /readyz answers 200 (checked every
// 100 ms), websockets passed through, X-Forwarded-For set to the client's
// address (not trusted from the client). Each answer names the node that
// served it in X-Test-Node.
type balancer struct {
	srv *httptest.Server

	mu       sync.Mutex
	backends []*backend
	next     int
}

type backend struct {
	name  string
	url   *url.URL
	proxy *httputil.ReverseProxy
	up    atomic.Bool
}

func newBalancer(t *testing.T) *balancer {
	b := &balancer{}
	b.srv = httptest.NewServer(b)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		b.checkHealth(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		b.srv.CloseClientConnections()
		b.srv.Close()
	})
	return b
}

// add puts a node behind the balancer once its first health check passes.
func (b *balancer) add(t *testing.T, n *node) {
	t.Helper()
	u, err := url.Parse(n.api)
	if err != nil {
		t.Fatal(err)
	}
	be := &backend{name: n.name, url: u}
	be.proxy = &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(u)
			pr.SetXForwarded()
			pr.Out.Host = pr.In.Host
		},
		ModifyResponse: func(r *http.Response) error {
			r.Header.Set("X-Test-Node", be.name)
			return nil
		},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			be.up.Store(false) // passive health check: out until /readyz answers again
			w.Header().Set("X-Test-Node", be.name)
			http.Error(w, "bad gateway: "+err.Error(), http.StatusBadGateway)
		},
		ErrorLog: nil,
	}
	be.up.Store(ready(u.String()))
	b.mu.Lock()
	b.backends = append(b.backends, be)
	b.mu.Unlock()
	if !be.up.Load() {
		t.Fatalf("%s is not ready", n.name)
	}
}

func (b *balancer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b.mu.Lock()
	var be *backend
	for range len(b.backends) {
		c := b.backends[b.next%len(b.backends)]
		b.next++
		if c.up.Load() {
			be = c
			break
		}
	}
	b.mu.Unlock()
	if be == nil {
		http.Error(w, "no node is up", http.StatusServiceUnavailable)
		return
	}
	be.proxy.ServeHTTP(w, r)
}

func (b *balancer) checkHealth(ctx context.Context) {
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		b.mu.Lock()
		backends := append([]*backend(nil), b.backends...)
		b.mu.Unlock()
		for _, be := range backends {
			be.up.Store(ready(be.url.String()))
		}
	}
}

func ready(base string) bool {
	c := http.Client{Timeout: time.Second}
	resp, err := c.Get(base + "/readyz")
	if err != nil {
		return false
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// testChain is the EVM upstream of the indexed network: a JSON-RPC server
// whose chain of empty blocks grows when the test mines. Each node reaches
// it under a path of its own (/<node name>), so the test sees which node
// reads blocks to index them (eth_getBlockReceipts, which only the indexer
// asks for).
type testChain struct {
	srv *httptest.Server

	mu       sync.Mutex
	head     uint64
	receipts map[string][]uint64 // node → blocks whose receipts it read
	heads    map[string]int      // node → times it asked for the latest block
}

const testChainID = 11155111 // eip155:11155111, a network latchd knows

func newTestChain(t *testing.T, head uint64) *testChain {
	c := &testChain{head: head, receipts: map[string][]uint64{}, heads: map[string]int{}}
	c.srv = httptest.NewServer(http.HandlerFunc(c.serve))
	t.Cleanup(c.srv.Close)
	return c
}

func (c *testChain) mine(n uint64) uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.head += n
	return c.head
}

// read returns the blocks whose receipts node read.
func (c *testChain) read(node string) []uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]uint64(nil), c.receipts[node]...)
}

// headsAsked is how often node has asked for the latest block: an indexer
// following the chain asks every poll interval.
func (c *testChain) headsAsked(node string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.heads[node]
}

type rpcCall struct {
	ID     json.RawMessage   `json:"id"`
	Method string            `json:"method"`
	Params []json.RawMessage `json:"params"`
}

func (c *testChain) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	node := strings.Trim(r.URL.Path, "/")
	var calls []rpcCall
	batch := len(body) > 0 && body[0] == '['
	if batch {
		json.Unmarshal(body, &calls)
	} else {
		var call rpcCall
		json.Unmarshal(body, &call)
		calls = []rpcCall{call}
	}
	answers := make([]map[string]any, len(calls))
	for i, call := range calls {
		answers[i] = map[string]any{"jsonrpc": "2.0", "id": call.ID}
		result, err := c.answer(node, call)
		if err != nil {
			answers[i]["error"] = map[string]any{"code": -32601, "message": err.Error()}
		} else {
			answers[i]["result"] = result
		}
	}
	w.Header().Set("Content-Type", "application/json")
	if batch {
		json.NewEncoder(w).Encode(answers)
	} else {
		json.NewEncoder(w).Encode(answers[0])
	}
}

func (c *testChain) answer(node string, call rpcCall) (any, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	block := func() (uint64, bool) {
		var tag string
		if len(call.Params) == 0 || json.Unmarshal(call.Params[0], &tag) != nil {
			return 0, false
		}
		if tag == "latest" {
			c.heads[node]++
			return c.head, true
		}
		n, err := hexutil.DecodeUint64(tag)
		return n, err == nil && n <= c.head
	}
	switch call.Method {
	case "eth_chainId":
		return hexutil.EncodeUint64(testChainID), nil
	case "eth_blockNumber":
		return hexutil.EncodeUint64(c.head), nil
	case "eth_getBlockByNumber":
		n, ok := block()
		if !ok {
			return nil, nil
		}
		parent := ""
		if n > 0 {
			parent = blockHash(n - 1)
		} else {
			parent = "0x" + strings.Repeat("0", 64)
		}
		return map[string]any{"number": hexutil.EncodeUint64(n), "hash": blockHash(n), "parentHash": parent,
			"timestamp": hexutil.EncodeUint64(1_700_000_000 + 12*n), "transactions": []any{}}, nil
	case "eth_getBlockReceipts":
		n, ok := block()
		if !ok {
			return nil, nil
		}
		c.receipts[node] = append(c.receipts[node], n)
		return []any{}, nil
	}
	return nil, fmt.Errorf("the method %s does not exist/is not available", call.Method)
}

func blockHash(n uint64) string {
	return crypto.Keccak256Hash([]byte(fmt.Sprintf("latch test chain block %d", n))).Hex()
}
