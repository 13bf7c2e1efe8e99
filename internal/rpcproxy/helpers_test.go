package rpcproxy

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/latchkit/latch/data"
	"github.com/latchkit/latch/internal/network"
)

const testChain = "eip155:1"

// fakeNode is an httptest upstream that counts its hits.
type fakeNode struct {
	srv  *httptest.Server
	hits atomic.Int32
	mu   sync.Mutex
	last []byte // last body received
}

// MustNode starts a fake upstream; h sees each request and its body.
func MustNode(tb testing.TB, h func(w http.ResponseWriter, r *http.Request, body []byte)) *fakeNode {
	tb.Helper()
	n := &fakeNode{}
	n.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		n.hits.Add(1)
		n.mu.Lock()
		n.last = body
		n.mu.Unlock()
		h(w, r, body)
	}))
	tb.Cleanup(n.srv.Close)
	return n
}

func (n *fakeNode) Hits() int { return int(n.hits.Load()) }

// answering returns a node handler that answers every entry of a request or
// batch with fn(method, params) → (result, error object); a nil result and
// error means "leave this entry out".
func answering(fn func(method string, params json.RawMessage) (result, rpcErr string)) func(http.ResponseWriter, *http.Request, []byte) {
	return func(w http.ResponseWriter, _ *http.Request, body []byte) {
		type req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		var reqs []req
		batch := strings.HasPrefix(strings.TrimSpace(string(body)), "[")
		if batch {
			_ = json.Unmarshal(body, &reqs)
		} else {
			var r req
			_ = json.Unmarshal(body, &r)
			reqs = []req{r}
		}
		var out []string
		for _, r := range reqs {
			res, e := fn(r.Method, r.Params)
			switch {
			case e != "":
				out = append(out, `{"jsonrpc":"2.0","id":`+string(r.ID)+`,"error":`+e+`}`)
			case res != "":
				out = append(out, `{"jsonrpc":"2.0","id":`+string(r.ID)+`,"result":`+res+`}`)
			}
		}
		w.Header().Set("Content-Type", "application/json")
		if batch {
			_, _ = io.WriteString(w, "["+strings.Join(out, ",")+"]")
		} else if len(out) == 1 {
			_, _ = io.WriteString(w, out[0])
		}
	}
}

// echoMethod answers every call with the method name as its result.
func echoMethod(method string, _ json.RawMessage) (string, string) {
	return `"` + method + `"`, ""
}

// harness is a Proxy with an injected clock and sleep.
type harness struct {
	p      *Proxy
	mu     sync.Mutex
	now    time.Time
	sleeps []time.Duration
}

// MustProxy builds a Proxy over the nodes as the upstreams of testChain.
func MustProxy(tb testing.TB, mod func(*Config), nodes ...*fakeNode) *harness {
	tb.Helper()
	reg, err := network.Load(data.Networks)
	if err != nil {
		tb.Fatal(err)
	}
	var urls []string
	for _, n := range nodes {
		urls = append(urls, n.srv.URL)
	}
	if len(urls) > 0 {
		if err := reg.SetUpstreams(testChain, urls); err != nil {
			tb.Fatal(err)
		}
	}
	h := &harness{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	cfg := Config{
		Networks: reg,
		Now:      h.Now,
		Sleep: func(ctx context.Context, d time.Duration) error {
			h.mu.Lock()
			h.sleeps = append(h.sleeps, d)
			h.now = h.now.Add(d)
			h.mu.Unlock()
			return ctx.Err()
		},
		Logger: discardLogger(),
	}
	if mod != nil {
		mod(&cfg)
	}
	h.p = New(cfg)
	return h
}

func (h *harness) Now() time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.now
}

func (h *harness) Advance(d time.Duration) {
	h.mu.Lock()
	h.now = h.now.Add(d)
	h.mu.Unlock()
}

func (h *harness) Sleeps() []time.Duration {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]time.Duration(nil), h.sleeps...)
}

// Post sends body to the proxy and returns the status and body.
func (h *harness) Post(tb testing.TB, body string) (int, string) {
	tb.Helper()
	return h.Do(tb, httptest.NewRequest(http.MethodPost, "/v1?chainId="+testChain+"&projectId=p1", strings.NewReader(body)))
}

func (h *harness) Do(tb testing.TB, r *http.Request) (int, string) {
	tb.Helper()
	if r.Header.Get("Content-Type") == "" {
		r.Header.Set("Content-Type", "application/json")
	}
	w := httptest.NewRecorder()
	h.p.ServeHTTP(w, r)
	return w.Code, w.Body.String()
}

// rpcReply is a decoded JSON-RPC answer.
type rpcReply struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

func MustReply(tb testing.TB, body string) rpcReply {
	tb.Helper()
	var r rpcReply
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		tb.Fatalf("reply %q: %v", body, err)
	}
	return r
}

func MustReplies(tb testing.TB, body string) []rpcReply {
	tb.Helper()
	var r []rpcReply
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		tb.Fatalf("replies %q: %v", body, err)
	}
	return r
}

func wantCode(tb testing.TB, r rpcReply, code int) {
	tb.Helper()
	if r.Error == nil || r.Error.Code != code {
		tb.Fatalf("want error %d, got result=%s error=%+v", code, r.Result, r.Error)
	}
}

func wantResult(tb testing.TB, r rpcReply, result string) {
	tb.Helper()
	if r.Error != nil || string(r.Result) != result {
		tb.Fatalf("want result %s, got result=%s error=%+v", result, r.Result, r.Error)
	}
}

func wantSleeps(tb testing.TB, h *harness, want ...time.Duration) {
	tb.Helper()
	got := h.Sleeps()
	if len(got) != len(want) {
		tb.Fatalf("sleeps = %v, want %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			tb.Fatalf("sleeps = %v, want %v", got, want)
		}
	}
}

func wantHits(tb testing.TB, n *fakeNode, want int) {
	tb.Helper()
	if got := n.Hits(); got != want {
		tb.Fatalf("node %s hits = %d, want %d", n.srv.URL, got, want)
	}
}
