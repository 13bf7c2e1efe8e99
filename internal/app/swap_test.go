package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/app"
	"github.com/latchkit/latch/internal/devnet"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/store/storetest"
)

// native is the convert API's native coin address.
const native = "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE"

// callSwap is TestOpenAPI_Responses's calls of the convert routes: each
// answered and refused once, against the document's schemas.
func callSwap(t *testing.T, c *contract, bases map[string]string, pid string, info app.DevInfo) {
	net := "eip155:31337"
	usdc := net + ":" + info.Tokens[net]["USDC"].Address
	weth := net + ":" + info.Tokens[net]["WETH"].Address
	dai := net + ":" + info.Tokens[net]["DAI"].Address
	eth := net + ":" + native
	user := net + ":" + info.Accounts[4]
	q := func(kv ...string) string {
		v := url.Values{}
		for i := 0; i+1 < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		return v.Encode() + "&" + pid
	}
	want := func(cl call, status int) {
		t.Helper()
		if got, _, b := c.do(t, bases, cl); got != status {
			t.Fatalf("%s %s: %d, want %d: %s", cl.op, cl.url, got, status, b)
		}
	}
	want(call{op: "GET /v1/convert/tokens", url: "/v1/convert/tokens?" + q("chainId", net)}, 200)
	want(call{op: "GET /v1/convert/tokens", url: "/v1/convert/tokens?" + q("chainId", "eip155:1")}, 400)
	want(call{op: "GET /v1/convert/quotes", url: "/v1/convert/quotes?" + q("amount", "100000000", "from", usdc, "to", weth, "userAddress", user, "gasPrice", "1")}, 200)
	want(call{op: "GET /v1/convert/quotes", url: "/v1/convert/quotes?" + q("amount", "0", "from", usdc, "to", weth)}, 400)
	want(call{op: "GET /v1/convert/allowance", url: "/v1/convert/allowance?" + q("tokenAddress", usdc, "userAddress", user)}, 200)
	want(call{op: "GET /v1/convert/allowance", url: "/v1/convert/allowance?" + q("tokenAddress", net+":0x000000000000000000000000000000000000dEaD", "userAddress", user)}, 400)
	want(call{op: "GET /v1/convert/gas-price", url: "/v1/convert/gas-price?" + q("chainId", net)}, 200)
	want(call{op: "GET /v1/convert/gas-price", url: "/v1/convert/gas-price?" + q("chainId", "eip155:1")}, 400)
	want(call{op: "GET /v1/convert/build-approve", url: "/v1/convert/build-approve?" + q("userAddress", user, "from", usdc, "to", weth)}, 200)
	want(call{op: "GET /v1/convert/build-approve", url: "/v1/convert/build-approve?" + q("userAddress", user, "from", eth, "to", weth)}, 400)
	// The projectId in the body only, as AppKit sends it.
	body := func(slippage int) string {
		return fmt.Sprintf(`{"amount":"10000000000000000","eip155":{"slippage":%d},"projectId":%q,"from":%q,"to":%q,"userAddress":%q}`, slippage, strings.TrimPrefix(pid, "projectId="), eth, dai, user)
	}
	want(call{op: "POST /v1/convert/build-transaction", url: "/v1/convert/build-transaction", body: body(1)}, 200)
	want(call{op: "POST /v1/convert/build-transaction", url: "/v1/convert/build-transaction", body: body(80)}, 400)
}

// getJSON is a GET through the project guard and its decoded body.
func getJSON(t *testing.T, base, path string) (int, map[string]any) {
	t.Helper()
	resp, err := http.Get(base + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v map[string]any
	json.NewDecoder(resp.Body).Decode(&v)
	return resp.StatusCode, v
}

func reason(body map[string]any) string {
	rs, _ := body["reasons"].([]any)
	if len(rs) == 0 {
		return ""
	}
	d, _ := rs[0].(map[string]any)["description"].(string)
	return d
}

// --swap-rate-limit counts the chain-reading convert requests of a client;
// the token list, which reads no chain, is not counted.
func TestSwap_RateLimit(t *testing.T) {
	m := mustRunAccountMain(t, "", func(c *app.Config) { c.Swap.RateLimit = 2 })
	info := m.Info()
	net := "eip155:31337"
	quote := "/v1/convert/quotes?" + url.Values{"projectId": {info.ProjectID}, "amount": {"1000000"}, "from": {net + ":" + info.Tokens[net]["USDC"].Address}, "to": {net + ":" + native}}.Encode()
	tokens := "/v1/convert/tokens?projectId=" + info.ProjectID + "&chainId=" + net
	for i := range 2 {
		if status, body := getJSON(t, m.APIURL(), quote); status != 200 {
			t.Fatalf("quote %d: %d %v", i+1, status, body)
		}
		if status, _ := getJSON(t, m.APIURL(), tokens); status != 200 {
			t.Fatalf("tokens: %d", status)
		}
	}
	if status, body := getJSON(t, m.APIURL(), quote); status != http.StatusTooManyRequests || !strings.Contains(reason(body), "swap requests per IP") {
		t.Fatalf("third quote: %d %v, want 429", status, body)
	}
	if status, _ := getJSON(t, m.APIURL(), tokens); status != 200 {
		t.Fatalf("tokens after the limit: %d", status)
	}
}

// --swap-router gives a network swaps: without it latchd serve has none.
// The network here is a dev chain with chain id 1 standing in for mainnet
// through --rpc-upstream; its router is our AMM, and its listed tokens are
// mainnet's (absent on that chain), so quotes reach the router and find no
// pool.
func TestSwap_RouterFlag(t *testing.T) {
	ctx := context.Background()
	d, err := devnet.Start(ctx, devnet.Config{ChainIDs: []uint64{1}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	chain := d.Chains()[0]
	run := func(routers ...string) (*app.Main, string) {
		m := app.NewMain(app.Config{
			Addr: "127.0.0.1:0", FrameAddr: "127.0.0.1:0", DataDir: storetest.SQLiteDir(t), ShutdownTimeout: 5 * time.Second, IdentityNetwork: "eip155:1",
			RPCUpstreams: []string{"eip155:1=" + chain.RPCURL}, Swap: app.SwapConfig{Routers: routers},
		}, slog.New(slog.NewTextHandler(io.Discard, nil)))
		if err := m.Run(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { m.Close() })
		p := &project.Project{Name: "Shop", Origins: []string{"https://shop.example"}, Features: project.DefaultFeatures()}
		if err := m.Projects.Create(ctx, p); err != nil {
			t.Fatal(err)
		}
		return m, "projectId=" + p.ID
	}
	mainnetUSDC := "eip155:1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"
	quote := "/v1/convert/quotes?" + url.Values{"amount": {"1000000000000000000"}, "from": {"eip155:1:" + native}, "to": {mainnetUSDC}}.Encode() + "&"

	m, pid := run()
	for _, path := range []string{"/v1/convert/tokens?chainId=eip155:1&", quote} {
		if status, body := getJSON(t, m.APIURL(), path+pid); status != 400 || reason(body) != "Network not supported for Swaps" {
			t.Fatalf("without --swap-router %s: %d %v", path, status, body)
		}
	}

	m, pid = run("eip155:1=" + chain.SwapRouter.Hex())
	status, body := getJSON(t, m.APIURL(), "/v1/convert/tokens?chainId=eip155:1&"+pid)
	tokens, _ := body["tokens"].([]any)
	listed := false
	for _, tok := range tokens {
		listed = listed || tok.(map[string]any)["address"] == mainnetUSDC
	}
	if status != 200 || len(tokens) < 2 || tokens[0].(map[string]any)["symbol"] != "ETH" || !listed {
		t.Fatalf("tokens with --swap-router: %d %v", status, body)
	}
	if status, body := getJSON(t, m.APIURL(), quote+pid); status != 400 || !strings.HasPrefix(reason(body), "No liquidity to swap ETH for USDC on eip155:1") {
		t.Fatalf("quote with --swap-router: %d %v", status, body)
	}
	if status, body := getJSON(t, m.APIURL(), "/v1/convert/gas-price?chainId=eip155:1&"+pid); status != 200 || body["standard"] == nil {
		t.Fatalf("gas price with --swap-router: %d %v", status, body)
	}

	// A router for a network latchd does not know, or one without an
	// upstream, stops the start with the reason.
	for _, tc := range []struct{ flag, want string }{
		{"eip155:99999999=" + chain.SwapRouter.Hex(), "--swap-router eip155:99999999: unknown network"},
		{"eip155:10=" + chain.SwapRouter.Hex(), "--swap-router eip155:10: the network has no --rpc-upstream"},
	} {
		m := app.NewMain(app.Config{Addr: "127.0.0.1:0", FrameAddr: "127.0.0.1:0", DataDir: storetest.SQLiteDir(t), ShutdownTimeout: 5 * time.Second, IdentityNetwork: "eip155:1",
			Swap: app.SwapConfig{Routers: []string{tc.flag}}}, slog.New(slog.NewTextHandler(io.Discard, nil)))
		if err := m.Run(ctx); err == nil || !strings.Contains(err.Error(), tc.want) {
			m.Close()
			t.Fatalf("%s: %v, want %q", tc.flag, err, tc.want)
		}
	}
}
