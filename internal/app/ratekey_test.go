package app_test

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/latchkit/latch/internal/app"
)

// Issue 15 finding 5: every per-IP limit counts an IPv6 client by its /64
// (--ipv6-prefix), so rotating addresses within it does not reset a budget.
// The clients' addresses come through X-Forwarded-For from the loopback
// peer, declared a trusted proxy.
func TestMain_IPv6RateKey(t *testing.T) {
	_, lo, _ := net.ParseCIDR("127.0.0.0/8")
	loopback := []*net.IPNet{lo}
	const (
		a     = "2001:db8:1:2::a"
		b     = "2001:db8:1:2:ffff:ffff:ffff:b" // same /64 as a
		other = "2001:db8:1:3::c"               // the next /64
	)
	do := func(t *testing.T, method, url, from, body string, hdr ...string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(method, url, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("X-Forwarded-For", from)
		req.Header.Set("Content-Type", "application/json")
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(out)
	}

	t.Run("IPLimit", func(t *testing.T) {
		for _, tt := range []struct {
			name   string
			prefix int
			wantB  int // status of b's request once a spent the budget
		}{
			{"Default64", 0, http.StatusTooManyRequests},
			{"Full128", 128, http.StatusUnauthorized},
		} {
			t.Run(tt.name, func(t *testing.T) {
				m := runRelayMain(t, app.Config{TrustedProxies: loopback, IPRateLimit: 2, IPv6Prefix: tt.prefix, RelayURL: "wss://relay.example.com"}, "")
				url := m.APIURL() + "/getWallets"
				for i := 0; i < 2; i++ {
					if code, body := do(t, "GET", url, a, ""); code != http.StatusUnauthorized {
						t.Fatalf("a: %d %s", code, body)
					}
				}
				if code, body := do(t, "GET", url, b, ""); code != tt.wantB {
					t.Fatalf("b: %d %s, want %d", code, body, tt.wantB)
				}
				if code, body := do(t, "GET", url, other, ""); code != http.StatusUnauthorized {
					t.Fatalf("another /64: %d %s, want its own budget", code, body)
				}
			})
		}
	})

	t.Run("RPCProxy", func(t *testing.T) {
		node := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, `[{"jsonrpc":"2.0","id":1,"result":"0x1"},{"jsonrpc":"2.0","id":2,"result":"0x1"},{"jsonrpc":"2.0","id":3,"result":"0x1"}]`)
		}))
		t.Cleanup(node.Close)
		m := runRelayMain(t, app.Config{TrustedProxies: loopback, IPRateLimit: 3, RelayURL: "wss://relay.example.com"}, "")
		if err := m.Networks.SetUpstreams("eip155:1", []string{node.URL}); err != nil {
			t.Fatal(err)
		}
		url := m.APIURL() + "/v1?chainId=eip155:1&projectId=" + relayProject
		batch := `[{"jsonrpc":"2.0","id":1,"method":"eth_gasPrice"},{"jsonrpc":"2.0","id":2,"method":"eth_blockNumber"},{"jsonrpc":"2.0","id":3,"method":"eth_chainId"}]`
		if code, body := do(t, "POST", url, a, batch, "Origin", "https://dapp.example"); code != http.StatusOK {
			t.Fatalf("a's batch: %d %s", code, body)
		}
		code, body := do(t, "POST", url, b, `{"jsonrpc":"2.0","id":1,"method":"eth_gasPrice"}`, "Origin", "https://dapp.example")
		if code != http.StatusTooManyRequests || !strings.Contains(body, "-32005") {
			t.Fatalf("b after a spent the /64's budget: %d %s, want 429", code, body)
		}
	})

	t.Run("RelayConnCap", func(t *testing.T) {
		m := runRelayMain(t, app.Config{TrustedProxies: loopback, RelayMaxConnsPerIP: 1, RelayURL: "wss://relay.example.com"}, "")
		dial := func(from string) (int, error) {
			_, resp, err := dialRelay(t, relayURL(m)+"/?"+relayQuery(newKey(t), "wss://relay.example.com", relayProject, false), http.Header{"X-Forwarded-For": {from}})
			if resp != nil {
				return resp.StatusCode, err
			}
			return 0, err
		}
		if _, err := dial(a); err != nil {
			t.Fatalf("a: %v", err)
		}
		if code, err := dial(b); err == nil || code != http.StatusTooManyRequests {
			t.Fatalf("b, same /64 as a: %d %v, want 429", code, err)
		}
		if _, err := dial(other); err != nil {
			t.Fatalf("another /64: %v", err)
		}
	})
}
