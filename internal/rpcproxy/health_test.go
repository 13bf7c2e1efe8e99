package rpcproxy

import (
	"context"
	"encoding/json"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/poll"
)

// headNode answers eth_blockNumber with *head and echoes other methods; a
// failing node answers every call with 500.
func headNode(t *testing.T, head *atomic.Uint64, failing *atomic.Bool) *fakeNode {
	return MustNode(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		if failing != nil && failing.Load() {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		answering(func(method string, params json.RawMessage) (string, string) {
			if method == "eth_blockNumber" {
				return `"0x` + uintHex(head.Load()) + `"`, ""
			}
			return echoMethod(method, params)
		})(w, r, body)
	})
}

func uintHex(n uint64) string {
	const digits = "0123456789abcdef"
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n >>= 4 {
		b = append([]byte{digits[n&15]}, b...)
	}
	return string(b)
}

const filterCall = `{"jsonrpc":"2.0","id":1,"method":"eth_getFilterChanges","params":["0x1"]}`

func TestProbe_LaggingUpstreamRanksLower(t *testing.T) {
	var headA, headB atomic.Uint64
	headA.Store(100) // 12 blocks behind: more than MaxLag (5)
	headB.Store(112)
	a, b := headNode(t, &headA, nil), headNode(t, &headB, nil)
	h := MustProxy(t, nil, a, b)

	// Filter calls stay on the first upstream; use a read that fails over freely.
	call := func() {
		t.Helper()
		if code, body := h.Post(t, `{"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":["0x0000000000000000000000000000000000000001","pending"]}`); code != http.StatusOK {
			t.Fatalf("%d %s", code, body)
		}
	}
	call()
	wantHits(t, a, 1) // configuration order before anything is known
	h.p.Probe(context.Background())
	wantHits(t, a, 2)
	wantHits(t, b, 1)
	for range 3 {
		call()
	}
	wantHits(t, a, 2)
	wantHits(t, b, 4)

	// A catches up: it is ranked on latency again (not penalised).
	headA.Store(112)
	h.p.Probe(context.Background())
	h.p.mu.Lock()
	got := h.p.heads[testChain]
	h.p.mu.Unlock()
	if got != 112 {
		t.Fatalf("network head %d, want 112", got)
	}
	for _, u := range h.p.poolFor(testChain, h.p.cfg.Networks.Upstreams(testChain)).ups {
		u.mu.Lock()
		head := u.head
		u.mu.Unlock()
		if head != 112 {
			t.Fatalf("upstream %s head %d, want 112", u.label, head)
		}
	}
}

func TestProbe_FailureCountsAgainstUpstream(t *testing.T) {
	var head atomic.Uint64
	head.Store(7)
	var failing atomic.Bool
	a, b := headNode(t, &head, &failing), headNode(t, &head, nil)
	h := MustProxy(t, nil, a, b)
	if code, _ := h.Post(t, `{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}`); code != http.StatusOK {
		t.Fatal(code)
	}
	wantHits(t, a, 1)
	failing.Store(true) // a fails its probes, though no client call has seen it
	h.p.Probe(context.Background())
	h.p.Probe(context.Background())
	wantHits(t, a, 3)
	h.Advance(2 * time.Second) // past the near-head cache
	if code, body := h.Post(t, `{"jsonrpc":"2.0","id":2,"method":"eth_blockNumber","params":[]}`); code != http.StatusOK {
		t.Fatalf("%d %s", code, body)
	}
	wantHits(t, a, 3) // the client call went straight to b
	if b.Hits() != 3 {
		t.Fatalf("b hits %d, want 3 (two probes and the call)", b.Hits())
	}
	if h.p.metrics.errors.Value(testChain, a.srv.URL, classHTTP5xx) != 2 {
		t.Fatalf("probe failures not counted in metrics")
	}
}

func TestProbe_OnlyNetworksInUse(t *testing.T) {
	var head atomic.Uint64
	head.Store(1)
	a := headNode(t, &head, nil)
	h := MustProxy(t, nil, a)
	h.p.Probe(context.Background())
	wantHits(t, a, 0) // never used: never contacted
	if code, _ := h.Post(t, filterCall); code != http.StatusOK {
		t.Fatal(code)
	}
	h.p.Probe(context.Background())
	wantHits(t, a, 2)
	h.Advance(6 * time.Minute) // idle past ProbeIdle
	h.p.Probe(context.Background())
	wantHits(t, a, 2)
}

// A probed head makes old blocks final for the cache without any client
// having asked for eth_blockNumber.
func TestProbe_HeadMakesBlocksFinal(t *testing.T) {
	var head atomic.Uint64
	head.Store(100)
	a := headNode(t, &head, nil)
	h := MustProxy(t, nil, a)
	block := `{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["0x10",false]}`
	h.Post(t, block)
	h.p.Probe(context.Background())
	h.Post(t, `{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["0x11",false]}`)
	wantHits(t, a, 3)
	h.Advance(10 * time.Minute)
	h.Post(t, `{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["0x11",false]}`) // final: cached for an hour
	wantHits(t, a, 3)
	h.Post(t, block) // cached before the head was known: near-head TTL, expired
	wantHits(t, a, 4)
}

func TestRunProbes_StopsWithContext(t *testing.T) {
	var head atomic.Uint64
	a := headNode(t, &head, nil)
	h := MustProxy(t, func(c *Config) { c.ProbeInterval = time.Millisecond }, a)
	h.Post(t, filterCall)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { h.p.RunProbes(ctx); close(done) }()
	poll.For(t, 5*time.Second, func() bool { return a.Hits() >= 3 })
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("RunProbes did not stop")
	}
	if a.Hits() < 3 {
		t.Fatalf("probes ran %d times", a.Hits()-1)
	}
}
