package rpcproxy

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/jsonrpc"
)

const gasPrice = `{"jsonrpc":"2.0","id":1,"method":"eth_gasPrice"}`
const sendTx = `{"jsonrpc":"2.0","id":1,"method":"eth_sendRawTransaction","params":["0x02f8"]}`

func status(code int, header ...string) func(http.ResponseWriter, *http.Request, []byte) {
	return func(w http.ResponseWriter, _ *http.Request, _ []byte) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.WriteHeader(code)
		_, _ = w.Write([]byte("busy"))
	}
}

// failThen fails the first n calls with fail and then answers.
func failThen(n int, fail func(http.ResponseWriter, *http.Request, []byte)) func(http.ResponseWriter, *http.Request, []byte) {
	calls := 0
	return func(w http.ResponseWriter, r *http.Request, b []byte) {
		calls++ // httptest handlers of one node are called sequentially in these tests
		if calls <= n {
			fail(w, r, b)
			return
		}
		answering(echoMethod)(w, r, b)
	}
}

// hang blocks until the proxy gives up on the request.
func hang(_ http.ResponseWriter, r *http.Request, _ []byte) { <-r.Context().Done() }

func TestProxy_Failover(t *testing.T) {
	for name, fail := range map[string]func(http.ResponseWriter, *http.Request, []byte){
		"500": status(500),
		"502": status(502),
		"403": status(403),
		"401": status(401),
		"Malformed": func(w http.ResponseWriter, _ *http.Request, _ []byte) {
			_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":0,"res`))
		},
		"Empty200": func(http.ResponseWriter, *http.Request, []byte) {},
		"ClosedMidResponse": func(w http.ResponseWriter, _ *http.Request, _ []byte) {
			conn, buf, err := w.(http.Hijacker).Hijack()
			if err != nil {
				panic(err)
			}
			_, _ = buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\":\"2.0\",")
			_ = buf.Flush()
			_ = conn.Close()
		},
	} {
		t.Run(name, func(t *testing.T) {
			a := MustNode(t, fail)
			b := MustNode(t, answering(echoMethod))
			h := MustProxy(t, nil, a, b)
			_, body := h.Post(t, gasPrice)
			wantResult(t, MustReply(t, body), `"eth_gasPrice"`)
			wantHits(t, a, 1)
			wantHits(t, b, 1)
			wantSleeps(t, h, 150*time.Millisecond)
		})
	}

	t.Run("RetriesWithBackoffThenFails", func(t *testing.T) {
		a := MustNode(t, status(503))
		h := MustProxy(t, nil, a)
		_, body := h.Post(t, gasPrice)
		r := MustReply(t, body)
		wantCode(t, r, jsonrpc.CodeInternal)
		if !strings.Contains(r.Error.Message, "http_5xx") {
			t.Fatalf("message %q", r.Error.Message)
		}
		wantHits(t, a, 4)
		wantSleeps(t, h, 150*time.Millisecond, 300*time.Millisecond, 600*time.Millisecond)
		if got := h.p.metrics.errors.Value(testChain, a.srv.URL, classHTTP5xx); got != 4 {
			t.Fatalf("http_5xx errors metric = %d", got)
		}
	})

	t.Run("NonRetryableStatusNotRepeated", func(t *testing.T) {
		a := MustNode(t, status(401))
		h := MustProxy(t, nil, a)
		_, body := h.Post(t, gasPrice)
		wantCode(t, MustReply(t, body), jsonrpc.CodeInternal)
		wantHits(t, a, 1)
	})

	t.Run("RetryAfterSeconds", func(t *testing.T) {
		a := MustNode(t, failThen(1, status(429, "Retry-After", "2")))
		h := MustProxy(t, nil, a)
		_, body := h.Post(t, gasPrice)
		wantResult(t, MustReply(t, body), `"eth_gasPrice"`)
		wantHits(t, a, 2)
		wantSleeps(t, h, 2*time.Second)
	})

	t.Run("RetryAfterDate", func(t *testing.T) {
		var h *harness
		a := MustNode(t, failThen(1, func(w http.ResponseWriter, r *http.Request, b []byte) {
			status(503, "Retry-After", h.Now().Add(3*time.Second).Format(http.TimeFormat))(w, r, b)
		}))
		h = MustProxy(t, nil, a)
		_, body := h.Post(t, gasPrice)
		wantResult(t, MustReply(t, body), `"eth_gasPrice"`)
		wantSleeps(t, h, 3*time.Second)
	})

	t.Run("RetryAfterPrefersOtherUpstream", func(t *testing.T) {
		a := MustNode(t, status(429, "Retry-After", "30"))
		b := MustNode(t, answering(echoMethod))
		h := MustProxy(t, nil, a, b)
		h.Post(t, gasPrice)
		// a is inside its Retry-After: the next request goes to b first.
		_, body := h.Post(t, `{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}`)
		wantResult(t, MustReply(t, body), `"eth_blockNumber"`)
		wantHits(t, a, 1)
		wantHits(t, b, 2)
		wantSleeps(t, h, 150*time.Millisecond)
	})

	t.Run("RetryAfterBeyondBudget", func(t *testing.T) {
		a := MustNode(t, status(429, "Retry-After", "120"))
		h := MustProxy(t, nil, a)
		_, body := h.Post(t, gasPrice)
		r := MustReply(t, body)
		wantCode(t, r, jsonrpc.CodeInternal)
		if r.Error.Message != msgTimeout {
			t.Fatalf("message %q", r.Error.Message)
		}
		wantHits(t, a, 1)
	})

	t.Run("Revert", func(t *testing.T) {
		revert := `{"code":3,"message":"execution reverted: ERC20: transfer amount exceeds balance","data":"0x08c379a0"}`
		a := MustNode(t, func(w http.ResponseWriter, _ *http.Request, _ []byte) {
			_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":0,"error":` + revert + `}`))
		})
		b := MustNode(t, answering(echoMethod))
		h := MustProxy(t, nil, a, b)
		_, body := h.Post(t, `{"jsonrpc":"2.0","id":"x","method":"eth_call","params":[{"to":"0x1"},"latest"]}`)
		if body != `{"jsonrpc":"2.0","id":"x","error":`+revert+`}` {
			t.Fatalf("body %s", body)
		}
		wantHits(t, a, 1)
		wantHits(t, b, 0)
		wantSleeps(t, h)
		if got := h.p.metrics.errors.Value(testChain, a.srv.URL, classNodeError); got != 1 {
			t.Fatalf("node_error metric = %d", got)
		}
	})

	t.Run("PaymentRequiredSetsAside", func(t *testing.T) {
		a := MustNode(t, failThen(1, status(402)))
		b := MustNode(t, answering(echoMethod))
		h := MustProxy(t, nil, a, b)
		poll := `{"jsonrpc":"2.0","id":1,"method":"eth_getTransactionByHash","params":["0x1"]}`
		for range 3 {
			_, body := h.Post(t, poll)
			wantResult(t, MustReply(t, body), `"eth_getTransactionByHash"`)
			h.Advance(2 * time.Second) // past the near-head TTL
		}
		wantHits(t, a, 1)
		wantHits(t, b, 3)
		h.Advance(55 * time.Second)
		h.p.poolFor(testChain, []string{a.srv.URL, b.srv.URL}).ups[1].record(false, 0, h.Now()) // b now ranks below a
		h.Post(t, poll)
		wantHits(t, a, 2)
	})

	t.Run("Timeout", func(t *testing.T) {
		a := MustNode(t, hang)
		b := MustNode(t, answering(echoMethod))
		h := MustProxy(t, func(c *Config) { c.Timeout = 200 * time.Millisecond }, a, b)
		start := time.Now()
		code, body := h.Post(t, gasPrice)
		if el := time.Since(start); el > 2*time.Second {
			t.Fatalf("took %v", el)
		}
		r := MustReply(t, body)
		wantCode(t, r, jsonrpc.CodeInternal)
		if code != http.StatusOK || r.Error.Message != msgTimeout {
			t.Fatalf("status %d body %s", code, body)
		}
		wantHits(t, a, 1)
		wantHits(t, b, 0)
	})

	t.Run("AttemptTimeoutFailsOver", func(t *testing.T) {
		a := MustNode(t, hang)
		b := MustNode(t, answering(echoMethod))
		h := MustProxy(t, func(c *Config) { c.Timeout = 5 * time.Second; c.AttemptTimeout = 100 * time.Millisecond }, a, b)
		_, body := h.Post(t, gasPrice)
		wantResult(t, MustReply(t, body), `"eth_gasPrice"`)
		if got := h.p.metrics.errors.Value(testChain, a.srv.URL, classTimeout); got != 1 {
			t.Fatalf("timeout metric = %d", got)
		}
	})

	t.Run("BatchForwardedOnceAsBatch", func(t *testing.T) {
		a := MustNode(t, status(500))
		b := MustNode(t, answering(echoMethod))
		h := MustProxy(t, nil, a, b)
		_, body := h.Post(t, `[{"jsonrpc":"2.0","id":1,"method":"eth_gasPrice"},{"jsonrpc":"2.0","id":2,"method":"eth_blockNumber"}]`)
		rs := MustReplies(t, body)
		wantResult(t, rs[0], `"eth_gasPrice"`)
		wantResult(t, rs[1], `"eth_blockNumber"`)
		wantHits(t, a, 1)
		wantHits(t, b, 1)
		if !strings.HasPrefix(string(b.last), "[") {
			t.Fatalf("upstream body %s", b.last)
		}
	})
}

func TestProxy_SendRawTransaction(t *testing.T) {
	t.Run("NeverTwiceToOneUpstream", func(t *testing.T) {
		a := MustNode(t, status(503))
		h := MustProxy(t, nil, a)
		_, body := h.Post(t, sendTx)
		wantCode(t, MustReply(t, body), jsonrpc.CodeInternal)
		wantHits(t, a, 1)
	})

	t.Run("MovesToNextAfterTimeout", func(t *testing.T) {
		a := MustNode(t, hang)
		b := MustNode(t, status(502))
		c := MustNode(t, answering(func(string, json.RawMessage) (string, string) { return `"0xhash"`, "" }))
		h := MustProxy(t, func(c *Config) { c.AttemptTimeout = 100 * time.Millisecond }, a, b, c)
		_, body := h.Post(t, sendTx)
		wantResult(t, MustReply(t, body), `"0xhash"`)
		wantHits(t, a, 1)
		wantHits(t, b, 1)
		wantHits(t, c, 1)
		_, body = h.Post(t, sendTx) // same tx again is the client's choice: not cached, not coalesced
		wantHits(t, c, 2)
		_ = body
	})

	t.Run("NonceTooLowReturnedAsIs", func(t *testing.T) {
		a := MustNode(t, answering(func(string, json.RawMessage) (string, string) {
			return "", `{"code":-32000,"message":"nonce too low"}`
		}))
		b := MustNode(t, answering(echoMethod))
		h := MustProxy(t, nil, a, b)
		_, body := h.Post(t, sendTx)
		r := MustReply(t, body)
		if r.Error == nil || r.Error.Message != "nonce too low" {
			t.Fatalf("body %s", body)
		}
		wantHits(t, b, 0)
	})
}

func TestProxy_UpstreamAnswers(t *testing.T) {
	t.Run("BatchRefusedAsWhole", func(t *testing.T) {
		a := MustNode(t, func(w http.ResponseWriter, _ *http.Request, _ []byte) {
			_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"batch too large"}}`))
		})
		h := MustProxy(t, nil, a)
		_, body := h.Post(t, `[{"jsonrpc":"2.0","id":1,"method":"eth_gasPrice"},{"jsonrpc":"2.0","id":2,"method":"eth_blockNumber"}]`)
		rs := MustReplies(t, body)
		if len(rs) != 2 || rs[0].Error == nil || rs[1].Error == nil || rs[1].Error.Message != "batch too large" || string(rs[1].ID) != "2" {
			t.Fatalf("body %s", body)
		}
		wantHits(t, a, 1)
	})

	t.Run("Non2xxWithJSONRPCBody", func(t *testing.T) {
		a := MustNode(t, func(w http.ResponseWriter, _ *http.Request, _ []byte) {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":0,"error":{"code":-32602,"message":"invalid argument 0"}}`))
		})
		b := MustNode(t, answering(echoMethod))
		h := MustProxy(t, nil, a, b)
		_, body := h.Post(t, `{"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":["zz"]}`)
		wantCode(t, MustReply(t, body), jsonrpc.CodeInvalidParams)
		wantHits(t, b, 0)
	})

	t.Run("MetricsRegistered", func(t *testing.T) {
		n := MustNode(t, answering(echoMethod))
		h := MustProxy(t, nil, n)
		// Upstream URLs often carry an API key in their path; the registry
		// change also rebuilds the pool.
		if err := h.p.cfg.Networks.SetUpstreams(testChain, []string{n.srv.URL + "/v3/secretkey"}); err != nil {
			t.Fatal(err)
		}
		h.Post(t, gasPrice)
		wantHits(t, n, 1)
		var sb strings.Builder
		h.p.cfg.Metrics.WriteText(&sb)
		for _, name := range []string{"latch_rpc_upstream_requests_total", "latch_rpc_upstream_errors_total", "latch_rpc_upstream_duration_seconds", "latch_rpc_cache_total"} {
			if !strings.Contains(sb.String(), name) {
				t.Fatalf("metrics lack %s:\n%s", name, sb.String())
			}
		}
		if strings.Contains(sb.String(), "secretkey") {
			t.Fatal("upstream path in metrics")
		}
	})
}

func TestProxy_FiltersPinned(t *testing.T) {
	a := MustNode(t, failThen(1, status(503)))
	b := MustNode(t, answering(echoMethod))
	h := MustProxy(t, nil, a, b)
	_, body := h.Post(t, `[{"jsonrpc":"2.0","id":1,"method":"eth_getFilterChanges","params":["0x1"]},{"jsonrpc":"2.0","id":2,"method":"eth_gasPrice"}]`)
	rs := MustReplies(t, body)
	wantResult(t, rs[0], `"eth_getFilterChanges"`) // retried on a, never sent to b
	wantResult(t, rs[1], `"eth_gasPrice"`)
	if strings.Contains(string(b.last), "eth_getFilterChanges") {
		t.Fatalf("filter poll went to b: %s", b.last)
	}
}

func TestProxy_Register(t *testing.T) {
	node := MustNode(t, answering(echoMethod))
	h := MustProxy(t, nil, node)
	mux := http.NewServeMux()
	wrapped := 0
	h.p.Register(mux, func(next http.Handler) http.Handler {
		wrapped++
		return next
	})
	for _, path := range []string{"/v1", "/v1/"} {
		r := httptest.NewRequest(http.MethodPost, path+"?chainId="+testChain, strings.NewReader(gasPrice))
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, r)
		if w.Code != http.StatusOK {
			t.Fatalf("%s: status %d", path, w.Code)
		}
	}
	// POST /v1 and /v1/, and one handler for the subscriptions' GET /v1, /v1/ and /ws.
	if wrapped != 3 {
		t.Fatalf("wrapped %d", wrapped)
	}
	for _, path := range []string{"/v1", "/v1/", "/ws"} {
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path+"?chainId="+testChain, nil))
		if w.Code != http.StatusUpgradeRequired {
			t.Fatalf("GET %s: status %d, want 426", path, w.Code)
		}
	}
}
