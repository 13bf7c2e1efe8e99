package rpcproxy

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func benchProxy(b *testing.B, body string) {
	node := MustNode(b, answering(echoMethod))
	h := MustProxy(b, nil, node)
	b.ReportAllocs()
	for b.Loop() {
		r := httptest.NewRequest(http.MethodPost, "/v1?chainId="+testChain, strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.p.ServeHTTP(w, r)
		if w.Code != http.StatusOK {
			b.Fatalf("status %d %s", w.Code, w.Body)
		}
	}
}

// BenchmarkProxy_Cached is eth_chainId answered from the memory cache.
func BenchmarkProxy_Cached(b *testing.B) {
	benchProxy(b, `{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}`)
}

// BenchmarkProxy_Passthrough is an uncacheable call forwarded to an httptest
// upstream over a kept-alive connection.
func BenchmarkProxy_Passthrough(b *testing.B) {
	benchProxy(b, `{"jsonrpc":"2.0","id":1,"method":"eth_getFilterChanges","params":["0x1"]}`)
}

// BenchmarkProxy_PassthroughBatch100 is a batch of 100 uncacheable calls
// forwarded as one upstream batch.
func BenchmarkProxy_PassthroughBatch100(b *testing.B) {
	e := `{"jsonrpc":"2.0","id":1,"method":"eth_getFilterChanges","params":["0x1"]}`
	benchProxy(b, "["+strings.Repeat(e+",", 99)+e+"]")
}

// BenchmarkUpstreamDirect is the same call as BenchmarkProxy_Passthrough made
// straight to the upstream: the difference is the proxy's own cost.
func BenchmarkUpstreamDirect(b *testing.B) {
	node := MustNode(b, answering(echoMethod))
	body := `{"jsonrpc":"2.0","id":1,"method":"eth_getFilterChanges","params":["0x1"]}`
	b.ReportAllocs()
	for b.Loop() {
		resp, err := http.Post(node.srv.URL, "application/json", strings.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
}
