package rpcproxy

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// rawNode is a TCP server that answers each HTTP request with answer(n, req)
// (n counts requests over all connections) and closes the connection after
// the answer when closeAfter says so — without "Connection: close", like a
// node whose keep-alive timeout fired.
type rawNode struct {
	ln       net.Listener
	requests atomic.Int32
	conns    atomic.Int32
	mu       sync.Mutex
	agents   []string
}

func startRawNode(t *testing.T, answer func(n int, r *http.Request) string, closeAfter func(n int) bool) *rawNode {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	n := &rawNode{ln: ln}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			n.conns.Add(1)
			go func() {
				defer c.Close()
				br := bufio.NewReader(c)
				for {
					r, err := http.ReadRequest(br)
					if err != nil {
						return
					}
					io.Copy(io.Discard, r.Body)
					i := int(n.requests.Add(1))
					n.mu.Lock()
					n.agents = append(n.agents, r.Header.Get("User-Agent"))
					n.mu.Unlock()
					if _, err := io.WriteString(c, answer(i, r)); err != nil || closeAfter(i) {
						return
					}
				}
			}()
		}
	}()
	return n
}

func (n *rawNode) url() string { return "http://" + n.ln.Addr().String() }

func okAnswer(body string) string {
	return fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
}

func TestH1_KeptAliveConnectionClosedByNodeIsRedialled(t *testing.T) {
	node := startRawNode(t, func(int, *http.Request) string {
		return okAnswer(`{"jsonrpc":"2.0","id":0,"result":"0x1"}`)
	}, func(n int) bool { return n == 1 }) // the first connection dies after one answer
	c := newH1Client(4)
	req, ok := newH1Request(node.url())
	if !ok {
		t.Fatal("plain http not served")
	}
	req.body, req.maxBody = []byte(`{"jsonrpc":"2.0","id":0,"method":"eth_chainId"}`), 1<<20
	for i := range 3 {
		res, err := c.do(context.Background(), req)
		if err != nil || res.status != 200 || string(res.body) != `{"jsonrpc":"2.0","id":0,"result":"0x1"}` {
			t.Fatalf("call %d: %v %d %s", i, err, res.status, res.body)
		}
	}
	// The second call found the pooled connection dead and dialled again;
	// the third reused that one.
	if got := node.conns.Load(); got != 2 {
		t.Fatalf("connections %d, want 2", got)
	}
	if got := node.requests.Load(); got != 3 {
		t.Fatalf("requests reaching the node %d, want 3", got)
	}
}

func TestH1_ChunkedAndCloseAnswers(t *testing.T) {
	node := startRawNode(t, func(n int, _ *http.Request) string {
		if n == 1 {
			return "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"a\":\r\n3\r\n12}\r\n0\r\n\r\n"
		}
		return "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 2\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
	}, func(int) bool { return false })
	c := newH1Client(4)
	req, _ := newH1Request(node.url() + "/rpc?key=k")
	req.maxBody = 1 << 20
	res, err := c.do(context.Background(), req)
	if err != nil || string(res.body) != `{"a":12}` {
		t.Fatalf("chunked: %v %q", err, res.body)
	}
	res, err = c.do(context.Background(), req)
	if err != nil || res.status != 503 || res.retryAfter != "2" {
		t.Fatalf("503: %v %+v", err, res)
	}
	if len(c.idle[node.ln.Addr().String()]) != 0 {
		t.Fatal("a connection the node closed was pooled")
	}
}

func TestH1_TooLargeAndCancelled(t *testing.T) {
	release := make(chan struct{})
	node := startRawNode(t, func(n int, _ *http.Request) string {
		if n == 2 {
			<-release
		}
		return okAnswer(strings.Repeat("x", 100))
	}, func(int) bool { return false })
	defer close(release)
	c := newH1Client(4)
	req, _ := newH1Request(node.url())
	req.maxBody = 10
	if _, err := c.do(context.Background(), req); err != errTooLarge {
		t.Fatalf("err %v, want errTooLarge", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req.maxBody = 1 << 20
	start := time.Now()
	if _, err := c.do(ctx, req); err != context.DeadlineExceeded {
		t.Fatalf("err %v, want deadline exceeded", err)
	}
	if time.Since(start) > 2*time.Second {
		t.Fatal("cancellation did not interrupt the read")
	}
}

// Reads from a plain-http upstream take the fast path; transactions go
// through net/http (never re-sent on a fresh connection).
func TestProxy_FastPathForReadsOnly(t *testing.T) {
	node := startRawNode(t, func(_ int, r *http.Request) string {
		return okAnswer(`{"jsonrpc":"2.0","id":0,"result":"0xabc"}`)
	}, func(int) bool { return false })
	reg := MustProxy(t, nil).p.cfg.Networks
	if err := reg.SetUpstreams(testChain, []string{node.url()}); err != nil {
		t.Fatal(err)
	}
	h := MustProxy(t, func(c *Config) { c.Networks = reg })
	h.Post(t, `{"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":["0x0000000000000000000000000000000000000001","pending"]}`)
	h.Post(t, `{"jsonrpc":"2.0","id":2,"method":"eth_sendRawTransaction","params":["0x01"]}`)
	node.mu.Lock()
	defer node.mu.Unlock()
	if len(node.agents) != 2 || node.agents[0] != "latchd" || !strings.HasPrefix(node.agents[1], "Go-http-client") {
		t.Fatalf("user agents %q: want the fast path for the read, net/http for the transaction", node.agents)
	}
}

func TestNewH1Request(t *testing.T) {
	for raw, want := range map[string]string{
		"http://127.0.0.1:8545":            "POST / HTTP/1.1\r\nHost: 127.0.0.1:8545\r\n",
		"http://node.lan/rpc/v1?key=a%20b": "POST /rpc/v1?key=a%20b HTTP/1.1\r\nHost: node.lan\r\n",
		"http://u:p@node.lan:80/x":         "POST /x HTTP/1.1\r\nHost: node.lan:80\r\n",
	} {
		req, ok := newH1Request(raw)
		if !ok || !strings.HasPrefix(string(req.head), want) {
			t.Errorf("%s: %q", raw, req.head)
		}
	}
	if req, _ := newH1Request("http://u:p@node.lan/x"); !strings.Contains(string(req.head), "Authorization: Basic dTpw\r\n") {
		t.Errorf("basic auth missing: %q", req.head)
	}
	if req, _ := newH1Request("http://node.lan"); req.addr != "node.lan:80" {
		t.Errorf("addr %q", req.addr)
	}
	for _, raw := range []string{"https://node.example", "ws://x", "::", "http://node.lan/?key=a b"} {
		if _, ok := newH1Request(raw); ok {
			t.Errorf("%s served by the fast path", raw)
		}
	}
}
