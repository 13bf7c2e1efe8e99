package rpcproxy

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/jsonrpc"
	"github.com/latchkit/latch/internal/poll"
)

func discardLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }

func TestProxy_ServeHTTP(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		node := MustNode(t, answering(echoMethod))
		h := MustProxy(t, nil, node)
		code, body := h.Post(t, `{"jsonrpc":"2.0","id":7,"method":"eth_gasPrice","params":[]}`)
		if code != http.StatusOK {
			t.Fatalf("status %d: %s", code, body)
		}
		if body != `{"jsonrpc":"2.0","id":7,"result":"eth_gasPrice"}` {
			t.Fatalf("body = %s", body)
		}
		wantHits(t, node, 1)
	})

	t.Run("TextPlain", func(t *testing.T) {
		node := MustNode(t, answering(echoMethod))
		h := MustProxy(t, nil, node)
		r := httptest.NewRequest(http.MethodPost, "/v1?chainId=eip155:1", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"eth_gasPrice"}`))
		r.Header.Set("Content-Type", "text/plain;charset=UTF-8")
		code, body := h.Do(t, r)
		if code != http.StatusOK {
			t.Fatalf("status %d: %s", code, body)
		}
		wantResult(t, MustReply(t, body), `"eth_gasPrice"`)
	})

	t.Run("ErrContentType", func(t *testing.T) {
		h := MustProxy(t, nil, MustNode(t, answering(echoMethod)))
		r := httptest.NewRequest(http.MethodPost, "/v1?chainId=eip155:1", strings.NewReader(`{}`))
		r.Header.Set("Content-Type", "application/xml")
		if code, _ := h.Do(t, r); code != http.StatusUnsupportedMediaType {
			t.Fatalf("status %d", code)
		}
	})

	t.Run("ErrBodyTooLarge", func(t *testing.T) {
		node := MustNode(t, answering(echoMethod))
		h := MustProxy(t, func(c *Config) { c.MaxBody = 100 }, node)
		code, body := h.Post(t, `{"jsonrpc":"2.0","id":1,"method":"eth_call","params":["`+strings.Repeat("a", 200)+`"]}`)
		if code != http.StatusRequestEntityTooLarge {
			t.Fatalf("status %d: %s", code, body)
		}
		wantCode(t, MustReply(t, body), jsonrpc.CodeInvalidRequest)
		wantHits(t, node, 0)
	})

	t.Run("ErrChainID", func(t *testing.T) {
		node := MustNode(t, answering(echoMethod))
		h := MustProxy(t, nil, node)
		for chain, status := range map[string]int{
			"":                http.StatusBadRequest,
			"eip155":          http.StatusBadRequest,
			"eip155:01":       http.StatusBadRequest,
			"foo:1":           http.StatusBadRequest,
			"eip155:99999999": http.StatusNotFound, // unknown network
			"eip155:10":       http.StatusNotFound, // known, no upstream
		} {
			r := httptest.NewRequest(http.MethodPost, "/v1?chainId="+chain, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}`))
			code, body := h.Do(t, r)
			if code != status {
				t.Fatalf("%q: status %d, want %d: %s", chain, code, status, body)
			}
			wantCode(t, MustReply(t, body), jsonrpc.CodeInvalidParams)
		}
		wantHits(t, node, 0)
	})

	t.Run("ErrMethod", func(t *testing.T) {
		h := MustProxy(t, nil, MustNode(t, answering(echoMethod)))
		code, _ := h.Do(t, httptest.NewRequest(http.MethodGet, "/v1?chainId=eip155:1", nil))
		if code != http.StatusMethodNotAllowed {
			t.Fatalf("status %d", code)
		}
	})

	t.Run("ErrParse", func(t *testing.T) {
		node := MustNode(t, answering(echoMethod))
		h := MustProxy(t, nil, node)
		for _, b := range []string{`{"jsonrpc":`, ``, `nope`} {
			code, body := h.Post(t, b)
			if code != http.StatusBadRequest {
				t.Fatalf("%q: status %d", b, code)
			}
			r := MustReply(t, body)
			wantCode(t, r, jsonrpc.CodeParseError)
			if string(r.ID) != "null" {
				t.Fatalf("id = %s", r.ID)
			}
		}
		wantHits(t, node, 0)
	})

	t.Run("ErrBatch", func(t *testing.T) {
		node := MustNode(t, answering(echoMethod))
		h := MustProxy(t, func(c *Config) { c.MaxBatch = 3 }, node)
		code, body := h.Post(t, `[]`)
		if code != http.StatusBadRequest {
			t.Fatalf("empty: status %d", code)
		}
		wantCode(t, MustReply(t, body), jsonrpc.CodeInvalidRequest)
		e := `{"jsonrpc":"2.0","id":1,"method":"eth_gasPrice"}`
		code, body = h.Post(t, "["+strings.Repeat(e+",", 3)+e+"]")
		if code != http.StatusBadRequest || !strings.Contains(body, "at most 3") {
			t.Fatalf("oversized: status %d %s", code, body)
		}
		wantHits(t, node, 0)
	})
}

func TestProxy_Batch(t *testing.T) {
	t.Run("OrderIDsNotifications", func(t *testing.T) {
		node := MustNode(t, answering(func(method string, params json.RawMessage) (string, string) {
			if method == "eth_call" {
				return "", `{"code":3,"message":"execution reverted","data":"0x08c379a0"}`
			}
			return `"` + method + `"`, ""
		}))
		h := MustProxy(t, nil, node)
		big := "123456789012345678901234567890"
		code, body := h.Post(t, `[
			{"jsonrpc":"2.0","id":"abc","method":"eth_gasPrice"},
			{"jsonrpc":"2.0","id":`+big+`,"method":"eth_blockNumber"},
			{"jsonrpc":"2.0","method":"eth_syncing"},
			1,
			{"jsonrpc":"2.0","id":1.50,"method":"admin_peers"},
			{"jsonrpc":"1.0","id":9,"method":"eth_gasPrice"},
			{"jsonrpc":"2.0","id":null,"method":"eth_call","params":[{"to":"0x01"},"latest"]},
			{"jsonrpc":"2.0","id":"abc","method":"net_version"}
		]`)
		if code != http.StatusOK {
			t.Fatalf("status %d %s", code, body)
		}
		// ids byte for byte, in request order, notification left out.
		for _, want := range []string{`"id":"abc","result":"eth_gasPrice"`, `"id":` + big + `,"result":"eth_blockNumber"`, `"id":1.50,"error"`} {
			if !strings.Contains(body, want) {
				t.Fatalf("body lacks %s: %s", want, body)
			}
		}
		rs := MustReplies(t, body)
		if len(rs) != 7 {
			t.Fatalf("got %d replies: %s", len(rs), body)
		}
		wantResult(t, rs[0], `"eth_gasPrice"`)
		wantResult(t, rs[1], `"eth_blockNumber"`)
		wantCode(t, rs[2], jsonrpc.CodeInvalidRequest) // 1
		if string(rs[2].ID) != "null" {
			t.Fatalf("invalid entry id = %s", rs[2].ID)
		}
		wantCode(t, rs[3], jsonrpc.CodeMethodNotFound)
		wantCode(t, rs[4], jsonrpc.CodeInvalidRequest) // jsonrpc 1.0
		if string(rs[4].ID) != "9" {
			t.Fatalf("id = %s", rs[4].ID)
		}
		wantCode(t, rs[5], 3) // revert passed through
		if string(rs[5].ID) != "null" || string(rs[5].Error.Data) != `"0x08c379a0"` {
			t.Fatalf("revert = %s", body)
		}
		wantResult(t, rs[6], `"net_version"`)
		if string(rs[6].ID) != `"abc"` {
			t.Fatalf("duplicate id = %s", rs[6].ID)
		}
		// One upstream call, refused and invalid entries never forwarded.
		wantHits(t, node, 1)
		var sent []map[string]any
		_ = json.Unmarshal(node.last, &sent)
		if len(sent) != 5 {
			t.Fatalf("upstream got %d entries: %s", len(sent), node.last)
		}
		if strings.Contains(string(node.last), "admin_peers") {
			t.Fatal("refused method forwarded")
		}
	})

	t.Run("OnlyNotifications", func(t *testing.T) {
		node := MustNode(t, answering(echoMethod))
		h := MustProxy(t, nil, node)
		code, body := h.Post(t, `[{"jsonrpc":"2.0","method":"eth_gasPrice"},{"jsonrpc":"2.0","method":"eth_syncing"}]`)
		if code != http.StatusNoContent || body != "" {
			t.Fatalf("status %d %q", code, body)
		}
	})

	t.Run("PartialAnswer", func(t *testing.T) {
		node := MustNode(t, func(w http.ResponseWriter, _ *http.Request, _ []byte) {
			// Answers 0 twice, 2, an unknown id and leaves 1 out.
			_, _ = fmt.Fprint(w, `[{"jsonrpc":"2.0","id":0,"result":"0xa"},{"jsonrpc":"2.0","id":0,"result":"0xdup"},{"jsonrpc":"2.0","id":2,"result":null},{"jsonrpc":"2.0","id":77,"result":"0x"}]`)
		})
		h := MustProxy(t, nil, node)
		_, body := h.Post(t, `[{"jsonrpc":"2.0","id":"a","method":"eth_getBalance","params":["0x1","latest"]},{"jsonrpc":"2.0","id":"b","method":"eth_gasPrice"},{"jsonrpc":"2.0","id":"c","method":"eth_getTransactionReceipt","params":["0xabc"]}]`)
		rs := MustReplies(t, body)
		if len(rs) != 3 {
			t.Fatalf("replies %s", body)
		}
		wantResult(t, rs[0], `"0xa"`)
		wantCode(t, rs[1], jsonrpc.CodeInternal)
		wantResult(t, rs[2], `null`)
		if string(rs[1].ID) != `"b"` {
			t.Fatalf("id %s", rs[1].ID)
		}
		wantHits(t, node, 1) // not retried
	})
}

func TestProxy_MethodPolicy(t *testing.T) {
	node := MustNode(t, answering(echoMethod))
	h := MustProxy(t, nil, node)
	for _, m := range []string{"admin_nodeInfo", "debug_traceTransaction", "personal_sign", "miner_start", "txpool_content",
		"engine_newPayloadV3", "eth_sendTransaction", "eth_sign", "eth_signTypedData_v4", "eth_accounts", "eth_subscribe", "wallet_switchEthereumChain", "foo"} {
		_, body := h.Post(t, `{"jsonrpc":"2.0","id":1,"method":"`+m+`","params":[]}`)
		r := MustReply(t, body)
		wantCode(t, r, jsonrpc.CodeMethodNotFound)
		if r.Error.Message != "method "+m+" is not allowed through the latchd RPC proxy" {
			t.Fatalf("message %q", r.Error.Message)
		}
	}
	_, body := h.Post(t, `{"jsonrpc":"2.0","id":1,"method":"eth_`+strings.Repeat("x", 200)+`"}`)
	wantCode(t, MustReply(t, body), jsonrpc.CodeInvalidRequest)
	wantHits(t, node, 0)
	for _, m := range []string{"eth_call", "eth_estimateGas", "eth_getLogs", "eth_feeHistory", "net_version", "web3_clientVersion", "eth_sendRawTransaction", "eth_getFilterChanges"} {
		_, body := h.Post(t, `{"jsonrpc":"2.0","id":1,"method":"`+m+`","params":[]}`)
		wantResult(t, MustReply(t, body), `"`+m+`"`)
	}
}

func TestProxy_Cache(t *testing.T) {
	t.Run("ChainIDOnce", func(t *testing.T) {
		node := MustNode(t, answering(func(string, json.RawMessage) (string, string) { return `"0x1"`, "" }))
		h := MustProxy(t, nil, node)
		for i := range 3 {
			_, body := h.Post(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"eth_chainId"}`, i))
			if body != fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":"0x1"}`, i) {
				t.Fatalf("body %s", body)
			}
			h.Advance(24 * time.Hour)
		}
		wantHits(t, node, 1)
	})

	t.Run("NearHeadTTL", func(t *testing.T) {
		var mu sync.Mutex
		head := 100
		node := MustNode(t, answering(func(method string, _ json.RawMessage) (string, string) {
			mu.Lock()
			defer mu.Unlock()
			return fmt.Sprintf(`"0x%x"`, head), ""
		}))
		h := MustProxy(t, func(c *Config) { c.NearHeadTTL = 2 * time.Second }, node)
		get := func(method, params string) string {
			_, body := h.Post(t, `{"jsonrpc":"2.0","id":1,"method":"`+method+`","params":`+params+`}`)
			return string(MustReply(t, body).Result)
		}
		if got := get("eth_blockNumber", "[]"); got != `"0x64"` {
			t.Fatal(got)
		}
		get("eth_getBalance", `["0xaa","latest"]`)
		mu.Lock()
		head = 101 // a new block
		mu.Unlock()
		h.Advance(1500 * time.Millisecond)
		if got := get("eth_blockNumber", "[]"); got != `"0x64"` {
			t.Fatalf("within TTL: %s", got)
		}
		if got := get("eth_getBalance", `[ "0xaa" , "latest" ]`); got != `"0x64"` {
			t.Fatalf("within TTL: %s", got)
		}
		wantHits(t, node, 2)
		h.Advance(600 * time.Millisecond)
		if got := get("eth_blockNumber", "[]"); got != `"0x65"` {
			t.Fatalf("after TTL: %s", got)
		}
		if got := get("eth_getBalance", `["0xaa","latest"]`); got != `"0x65"` {
			t.Fatalf("stale latest after TTL: %s", got)
		}
		wantHits(t, node, 4)
		// pending is never cached
		get("eth_getTransactionCount", `["0xaa","pending"]`)
		get("eth_getTransactionCount", `["0xaa","pending"]`)
		wantHits(t, node, 6)
	})

	t.Run("Immutable", func(t *testing.T) {
		node := MustNode(t, answering(func(method string, params json.RawMessage) (string, string) {
			switch method {
			case "eth_blockNumber":
				return `"0x100"`, ""
			case "eth_getTransactionReceipt":
				if strings.Contains(string(params), "0xnew") {
					return "null", ""
				}
				return `{"blockNumber":"0x10","status":"0x1"}`, ""
			}
			return `{"number":"0x10"}`, ""
		}))
		h := MustProxy(t, nil, node)
		h.Post(t, `{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}`)
		for range 2 {
			h.Post(t, `{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["0x10",false]}`)
			h.Post(t, `{"jsonrpc":"2.0","id":1,"method":"eth_getLogs","params":[{"fromBlock":"0x1","toBlock":"0x20","address":"0xaa"}]}`)
			h.Post(t, `{"jsonrpc":"2.0","id":1,"method":"eth_getTransactionReceipt","params":["0xold"]}`)
			h.Post(t, `{"jsonrpc":"2.0","id":1,"method":"eth_getTransactionReceipt","params":["0xnew"]}`) // null: never cached
			h.Advance(10 * time.Minute)
		}
		wantHits(t, node, 1+3+2)
	})

	t.Run("ErrorsNotCached", func(t *testing.T) {
		node := MustNode(t, answering(func(string, json.RawMessage) (string, string) {
			return "", `{"code":3,"message":"execution reverted"}`
		}))
		h := MustProxy(t, nil, node)
		for range 2 {
			_, body := h.Post(t, `{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"to":"0x1"},"latest"]}`)
			wantCode(t, MustReply(t, body), 3)
		}
		wantHits(t, node, 2)
	})

	t.Run("Coalesce50", func(t *testing.T) {
		release := make(chan struct{})
		node := MustNode(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
			<-release
			answering(echoMethod)(w, r, body)
		})
		h := MustProxy(t, nil, node)
		var wg sync.WaitGroup
		bodies := make([]string, 50)
		for i := range 50 {
			wg.Go(func() {
				_, bodies[i] = h.Post(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"eth_getBalance","params":["0xaa","latest"]}`, i))
			})
		}
		poll.For(t, 5*time.Second, func() bool { return h.p.metrics.cache.Value(testChain, "coalesced") >= 49 })
		close(release)
		wg.Wait()
		wantHits(t, node, 1)
		for i, b := range bodies {
			if b != fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":"eth_getBalance"}`, i) {
				t.Fatalf("reply %d = %s", i, b)
			}
		}
	})

	t.Run("CanonicalKey", func(t *testing.T) {
		a, _ := cacheKey("n", "eth_call", json.RawMessage(`[{"to":"0x1","data":"0x2"}, "latest"]`))
		b, _ := cacheKey("n", "eth_call", json.RawMessage(`[{"data":"0x2","to":"0x1"},"latest"]`))
		c, _ := cacheKey("m", "eth_call", json.RawMessage(`[{"data":"0x2","to":"0x1"},"latest"]`))
		d, _ := cacheKey("n", "eth_blockNumber", nil)
		e, _ := cacheKey("n", "eth_blockNumber", json.RawMessage(`[]`))
		if a != b || a == c || d != e {
			t.Fatalf("keys %q %q %q %q %q", a, b, c, d, e)
		}
	})

	t.Run("MemoryCacheBounds", func(t *testing.T) {
		now := time.Unix(0, 0)
		c := NewMemoryCache(2, 1<<10, func() time.Time { return now })
		ctx := t.Context()
		_ = c.Set(ctx, "a", []byte("1"), 0)
		_ = c.Set(ctx, "b", []byte("2"), time.Second)
		_, _, _ = c.Get(ctx, "a") // a is now the most recent
		_ = c.Set(ctx, "c", []byte("3"), 0)
		if _, ok, _ := c.Get(ctx, "b"); ok {
			t.Fatal("b should be evicted")
		}
		if v, ok, _ := c.Get(ctx, "a"); !ok || string(v) != "1" {
			t.Fatal("a lost")
		}
		_ = c.Set(ctx, "big", make([]byte, 2<<10), 0)
		if _, ok, _ := c.Get(ctx, "big"); ok || c.Len() != 2 {
			t.Fatal("oversized value stored")
		}
		_ = c.Set(ctx, "t", []byte("x"), time.Second)
		now = now.Add(time.Second)
		if _, ok, _ := c.Get(ctx, "t"); ok {
			t.Fatal("expired value served")
		}
	})
}

// batchKey tags a test request's context with a batch name; the proxy's
// cache calls see it (the request's values outlive its cancellation).
type batchKey struct{}

// crossingCache holds each batch at its second cache lookup until both
// batches are there: each has then led the flight of its first read and
// will join the other's flight for its second.
type crossingCache struct {
	Cache
	mu      sync.Mutex
	gets    map[any]int
	arrived int
	both    chan struct{}
}

func (c *crossingCache) Get(ctx context.Context, key string) ([]byte, bool, error) {
	c.mu.Lock()
	batch := ctx.Value(batchKey{})
	c.gets[batch]++
	second := c.gets[batch] == 2
	if second {
		if c.arrived++; c.arrived == 2 {
			close(c.both)
		}
	}
	c.mu.Unlock()
	if second {
		<-c.both
	}
	return c.Cache.Get(ctx, key)
}

func TestProxy_CoalesceCrossingBatches(t *testing.T) {
	a := `{"jsonrpc":"2.0","id":"a","method":"eth_getBalance","params":["0xaa","latest"]}`
	b := `{"jsonrpc":"2.0","id":"b","method":"eth_getCode","params":["0xbb","latest"]}`
	finishes := func(t *testing.T, wg *sync.WaitGroup) {
		t.Helper()
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("deadlock")
		}
	}

	// [a,b] and [b,a], each leading one read and waiting on the other's.
	t.Run("Crossing", func(t *testing.T) {
		// The node answers once both batches' calls are in: neither flight
		// ends before the other batch has joined it.
		both := make(chan struct{})
		var calls atomic.Int32
		node := MustNode(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
			if calls.Add(1) == 2 {
				close(both)
			}
			select {
			case <-both:
			case <-time.After(5 * time.Second): // not crossed: the count below says so
			}
			answering(echoMethod)(w, r, body)
		})
		cache := &crossingCache{gets: map[any]int{}, both: make(chan struct{})}
		h := MustProxy(t, func(c *Config) {
			cache.Cache = NewMemoryCache(100, 1<<20, c.Now)
			c.Cache = cache
		}, node)
		var wg sync.WaitGroup
		for i, body := range []string{"[" + a + "," + b + "]", "[" + b + "," + a + "]"} {
			wg.Go(func() {
				r := httptest.NewRequestWithContext(context.WithValue(t.Context(), batchKey{}, i), http.MethodPost, "/v1?chainId="+testChain, strings.NewReader(body))
				_, out := h.Do(t, r)
				if rs := MustReplies(t, out); len(rs) != 2 || rs[0].Error != nil || rs[1].Error != nil {
					t.Errorf("replies %s", out)
				}
			})
		}
		finishes(t, &wg)
		if n := h.p.metrics.cache.Value(testChain, "coalesced"); n != 2 {
			t.Fatalf("%v reads joined another batch's flight, want 2", n)
		}
		wantHits(t, node, 2)
	})

	t.Run("Many", func(t *testing.T) {
		h := MustProxy(t, nil, MustNode(t, answering(echoMethod)))
		var wg sync.WaitGroup
		for i := range 40 {
			wg.Go(func() {
				body := "[" + a + "," + b + "," + a + "]"
				if i%2 == 1 {
					body = "[" + b + "," + a + "," + b + "]"
				}
				_, out := h.Post(t, body)
				if rs := MustReplies(t, out); len(rs) != 3 || rs[0].Error != nil || rs[1].Error != nil || rs[2].Error != nil {
					t.Errorf("replies %s", out)
				}
			})
			if i%10 == 9 {
				h.Advance(2 * time.Second) // let the cache expire now and then
			}
		}
		finishes(t, &wg)
	})
}

func TestProxy_LeaderCancelDoesNotFailWaiters(t *testing.T) {
	release := make(chan struct{})
	node := MustNode(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		<-release
		answering(echoMethod)(w, r, body)
	})
	h := MustProxy(t, nil, node)
	req := `{"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":["0xaa","latest"]}`
	ctx, cancel := context.WithCancel(t.Context())
	leaderDone := make(chan struct{})
	go func() {
		defer close(leaderDone)
		r := httptest.NewRequestWithContext(ctx, http.MethodPost, "/v1?chainId="+testChain, strings.NewReader(req))
		h.Do(t, r)
	}()
	poll.For(t, 5*time.Second, func() bool { return node.Hits() > 0 })
	waiter := make(chan string)
	go func() { _, body := h.Post(t, req); waiter <- body }()
	poll.For(t, 5*time.Second, func() bool { return h.p.metrics.cache.Value(testChain, "coalesced") >= 1 })
	cancel()
	close(release)
	wantResult(t, MustReply(t, <-waiter), `"eth_getBalance"`)
	<-leaderDone
	wantHits(t, node, 1)
}
