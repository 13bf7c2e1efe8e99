package app_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/app"
	"github.com/latchkit/latch/internal/poll"
	"github.com/latchkit/latch/internal/store/storetest"
)

const adminToken = "test-admin-token"

// MustRunMain starts latchd dev on :0 with a temp data dir (and Postgres when
// databaseURL is set) and stops it when the test ends.
func MustRunMain(tb testing.TB, databaseURL string) *app.Main {
	tb.Helper()
	cfg := app.Config{
		Dev: true, Addr: "127.0.0.1:0", FrameAddr: "127.0.0.1:0", AdminAddr: "127.0.0.1:0", DataDir: storetest.SQLiteDir(tb), DatabaseURL: databaseURL,
		AdminToken: adminToken, DevChains: []uint64{31337, 31338}, ShutdownTimeout: 5 * time.Second,
	}
	m := app.NewMain(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := m.Run(context.Background()); err != nil {
		tb.Fatalf("Run: %v", err)
	}
	tb.Cleanup(func() { m.Close() })
	return m
}

type client struct {
	t    *testing.T
	base string
}

type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) json(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decode %s: %v", r.body, err)
	}
}

func (c client) do(method, path string, body string, hdr ...string) response {
	c.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return response{resp.StatusCode, resp.Header, b}
}

// want fails unless the response has the status and its body contains every text.
func (c client) want(r response, status int, texts ...string) {
	c.t.Helper()
	if r.status != status {
		c.t.Fatalf("status %d, want %d: %s", r.status, status, r.body)
	}
	for _, s := range texts {
		if !bytes.Contains(r.body, []byte(s)) {
			c.t.Fatalf("body lacks %q: %s", s, r.body)
		}
	}
}

func rpc(t *testing.T, url, method string, params ...any) json.RawMessage {
	t.Helper()
	if params == nil {
		params = []any{}
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	resp, err := http.Post(url, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Result json.RawMessage
		Error  *struct{ Message string }
	}
	json.NewDecoder(resp.Body).Decode(&out)
	if out.Error != nil {
		t.Fatalf("%s: %s", method, out.Error.Message)
	}
	return out.Result
}

func TestMain_EndToEnd(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { endToEnd(t, "") })
	if base := os.Getenv("LATCH_TEST_POSTGRES"); base != "" {
		t.Run("postgres", func(t *testing.T) {
			url, drop := storetest.FreshSchema(t, base)
			t.Cleanup(drop)
			endToEnd(t, url)
		})
	}
}

func endToEnd(t *testing.T, databaseURL string) {
	m := MustRunMain(t, databaseURL)
	c := client{t: t, base: m.APIURL()}

	var info app.DevInfo
	c.do("GET", "/dev/info", "").json(t, &info)
	if len(info.ProjectID) != 32 || len(info.Networks) != 2 || info.FrameOrigin != m.FrameURL() || len(info.Accounts) != 10 {
		t.Fatalf("dev info: %+v", info)
	}
	pid := "projectId=" + info.ProjectID
	usdc := info.Tokens["eip155:31337"]["USDC"]
	if usdc.Decimals != 6 || usdc.Address == "" || info.Tokens["eip155:31338"]["USDC"].Address != usdc.Address {
		t.Fatalf("tokens: %+v", info.Tokens)
	}

	t.Run("Operations", func(t *testing.T) {
		c.want(c.do("GET", "/healthz", ""), 200, `"ok"`)
		c.want(c.do("GET", "/readyz", ""), 200, `"ready"`)
		r := c.do("GET", "/nowhere", "")
		c.want(r, 404, `"status":"FAILED"`, `No route GET /nowhere`)
		if r.header.Get("X-Request-Id") == "" {
			t.Fatal("no request id")
		}
	})

	t.Run("DevNetworks", func(t *testing.T) {
		for i, want := range []string{`"0x7a69"`, `"0x7a6a"`} {
			if got := string(rpc(t, info.Networks[i].RPCURL, "eth_chainId")); got != want {
				t.Fatalf("%s eth_chainId = %s, want %s", info.Networks[i].CAIPNetworkID, got, want)
			}
		}
		var sc struct{ HTTP, WS []string }
		c.do("GET", "/v1/supported-chains?"+pid, "").json(t, &sc)
		wantChains := "eip155:31337,eip155:31338"
		if info.Solana != nil { // latchd dev's Solana network, where Node.js can run it
			wantChains += "," + info.Solana.CAIPNetworkID
		}
		if strings.Join(sc.HTTP, ",") != wantChains || sc.WS == nil {
			t.Fatalf("supported chains %+v", sc)
		}
		c.want(c.do("GET", "/v1/networks?"+pid, ""), 200, `"eip155:31337"`, `"Ethereum"`)
	})

	t.Run("RPCProxy", func(t *testing.T) {
		// viem posts text/plain to avoid a CORS preflight.
		c.want(c.do("POST", "/v1?chainId=eip155:31338&"+pid, `{"jsonrpc":"2.0","id":7,"method":"eth_chainId","params":[]}`, "Content-Type", "text/plain"), 200, `"id":7`, `"result":"0x7a6a"`)
		r := c.do("POST", "/v1/?chainId=eip155:31337&"+pid, `[{"jsonrpc":"2.0","id":"a","method":"eth_chainId"},{"jsonrpc":"2.0","id":"b","method":"eth_getBalance","params":["`+info.Accounts[9]+`","latest"]}]`)
		c.want(r, 200, `"id":"a","result":"0x7a69"`, `"id":"b","result":"0x21e19e0c9bab2400000"`)
		c.want(c.do("POST", "/v1?chainId=eip155:31337&"+pid, `{"jsonrpc":"2.0","id":1,"method":"admin_peers","params":[]}`), 200, "not allowed")
		c.want(c.do("POST", "/v1?chainId=eip155:1&"+pid, `{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}`), 404)
		c.want(c.do("POST", "/v1?chainId=eip155:31337", `{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}`), 401, "Project ID Not Configured")
		admin := client{t: t, base: m.AdminURL()}
		admin.want(admin.do("GET", "/metrics", ""), 200, "latch_rpc_upstream_requests_total")
	})

	t.Run("Faucet", func(t *testing.T) {
		to := info.Accounts[1]
		balance := func() *big.Int {
			data := "0x70a08231" + strings.Repeat("0", 24) + strings.ToLower(to[2:])
			var hex string
			json.Unmarshal(rpc(t, info.Networks[0].RPCURL, "eth_call", map[string]string{"to": usdc.Address, "data": data}, "latest"), &hex)
			n, _ := new(big.Int).SetString(strings.TrimPrefix(hex, "0x"), 16)
			return n
		}
		before := balance()
		c.want(c.do("POST", "/dev/faucet", fmt.Sprintf(`{"address":%q,"caipNetworkId":"eip155:31337","token":"USDC","amount":"1.5"}`, to)), 200, `"txHash"`, `"1500000"`)
		if diff := new(big.Int).Sub(balance(), before); diff.Int64() != 1_500_000 {
			t.Fatalf("USDC balance changed by %v", diff)
		}
		c.want(c.do("POST", "/dev/faucet", `{"address":"0x123","caipNetworkId":"eip155:31337","amount":"1"}`), 400, `"address"`)
		c.want(c.do("POST", "/dev/faucet", `{"address":`), 400, `not valid JSON`)
		c.want(c.do("POST", "/dev/faucet", `{}`, "Content-Type", "application/xml"), 415)
		c.want(c.do("POST", "/dev/faucet", "{}", "Origin", "https://evil.example"), 403, "Origin not allowed")
	})

	t.Run("ProjectErrors", func(t *testing.T) {
		c.want(c.do("GET", "/appkit/v1/config", ""), 401, "Project ID Not Configured")
		c.want(c.do("GET", "/getWallets?projectId=nothex", ""), 401, "Invalid project id")
		c.want(c.do("GET", "/getWallets?projectId="+strings.Repeat("a", 32), ""), 403, "Invalid project id")
		r := c.do("GET", "/appkit/v1/config?"+pid, "", "Origin", "https://evil.example")
		c.want(r, 403, "Origin not allowed")
		if r.header.Get("Access-Control-Allow-Origin") != "" {
			t.Fatal("CORS granted to a refused origin")
		}
	})

	t.Run("CORS", func(t *testing.T) {
		r := c.do("OPTIONS", "/getWallets?"+pid, "", "Origin", "http://localhost:5173", "Access-Control-Request-Method", "GET")
		if r.status != 204 || r.header.Get("Access-Control-Allow-Origin") != "http://localhost:5173" {
			t.Fatalf("preflight %d %v", r.status, r.header)
		}
		r = c.do("OPTIONS", "/getWallets?"+pid, "", "Origin", "https://evil.example", "Access-Control-Request-Method", "GET")
		if r.status != 403 || r.header.Get("Access-Control-Allow-Origin") != "" {
			t.Fatalf("evil preflight %d %v", r.status, r.header)
		}
		r = c.do("GET", "/getWallets?"+pid, "", "Origin", "http://127.0.0.1:3000")
		if r.status != 200 || r.header.Get("Access-Control-Allow-Origin") != "http://127.0.0.1:3000" {
			t.Fatalf("get %d %v", r.status, r.header)
		}
	})

	t.Run("ConfigAPI", func(t *testing.T) {
		c.want(c.do("GET", "/appkit/v1/config?"+pid, ""), 200, `"features"`, `"id":"activity","isEnabled":true`)
		c.want(c.do("GET", "/appkit/v1/project-limits?"+pid, ""), 200, `"planLimits"`, `"tier":"none"`)
		c.want(c.do("GET", "/projects/v1/origins?"+pid, ""), 200, `"allowedOrigins":[]`)
		c.want(c.do("GET", "/getAnalyticsConfig?"+pid, ""), 200, `"isAnalyticsEnabled":true`)
	})

	t.Run("Explorer", func(t *testing.T) {
		var page struct {
			Count int
			Data  []struct {
				ID, Name string
				ImageID  string `json:"image_id"`
			}
		}
		c.do("GET", "/getWallets?"+pid+"&search=meta&entries=5", "").json(t, &page)
		if page.Count == 0 || page.Data[0].Name != "MetaMask" {
			t.Fatalf("search meta: %+v", page)
		}
		var all struct{ Count int }
		c.do("GET", "/getWallets?"+pid+"&entries=500", "").json(t, &all)
		if all.Count != 119 {
			t.Fatalf("count %d", all.Count)
		}
		c.want(c.do("GET", "/getWallets?"+pid+"&entries=abc", ""), 400, `"entries"`)
		c.want(c.do("GET", "/getWallets?"+pid+"&chains=eip155:1,foo", ""), 400, "Invalid CAIP-2 network id: foo")
		c.want(c.do("GET", "/getWallets?"+pid+"&badge_type=gold", ""), 400, `"badge_type"`)

		r := c.do("GET", "/getWalletImage/"+page.Data[0].ImageID+"?"+pid, "")
		c.want(r, 200, "<svg")
		etag := r.header.Get("ETag")
		if etag == "" || !strings.Contains(r.header.Get("Cache-Control"), "max-age") {
			t.Fatalf("image headers %v", r.header)
		}
		if r := c.do("GET", "/getWalletImage/"+page.Data[0].ImageID+"?"+pid, "", "If-None-Match", etag); r.status != 304 {
			t.Fatalf("conditional GET: %d", r.status)
		}
		for _, p := range []string{"/public/getAssetImage/eip155:1", "/public/getTokenImage/USDC", "/public/getCurrencyImage/US"} {
			c.want(c.do("GET", p+"?"+pid, ""), 200, "<svg")
		}
		c.want(c.do("GET", "/public/getTokenImage/%3Cscript%3E?"+pid, ""), 400)
	})

	t.Run("Telemetry", func(t *testing.T) {
		now := time.Now().UnixMilli()
		batch := fmt.Sprintf(`[{"eventId":"6f1c2a4e-8d3b-4c5a-9e7f-0a1b2c3d4e5f","url":"http://localhost:5173/","domain":"localhost","timestamp":%d,"props":{"type":"track","event":"MODAL_OPEN","properties":{"connected":false}}},
			{"eventId":"7f1c2a4e-8d3b-4c5a-9e7f-0a1b2c3d4e5f","url":"http://localhost:5173/","domain":"localhost","timestamp":%d,"props":{"type":"track","event":"MODAL_CREATED"}}]`, now, now)
		c.want(c.do("POST", "/batch?"+pid, batch, "Content-Type", "text/plain;charset=UTF-8"), 204)
		c.want(c.do("POST", "/batch?"+pid, `[{"eventId":"nope","props":{}}]`), 400, `"status":"FAILED"`)
		c.want(c.do("POST", "/batch?"+pid, `[`), 400)
		c.want(c.do("POST", "/e?"+pid, fmt.Sprintf(`{"eventId":"8f1c2a4e-8d3b-4c5a-9e7f-0a1b2c3d4e5f","url":"http://localhost/","domain":"localhost","timestamp":%q,"props":{"type":"error","event":"INVALID_APP_CONFIGURATION","errorType":"x","errorMessage":"y"}}`, time.Now().UTC().Format(time.RFC3339))), 204)

		c.want(c.do("GET", "/v1/analytics/summary?"+pid, ""), 401)
		c.want(c.do("GET", "/v1/analytics/summary?"+pid, "", "Authorization", "Bearer wrong"), 401)
		r := c.do("GET", "/v1/analytics/summary?"+pid, "", "Authorization", "Bearer "+adminToken)
		c.want(r, 200, `"MODAL_OPEN":1`, `"INVALID_APP_CONFIGURATION":1`)
		if bytes.Contains(r.body, []byte("MODAL_CREATED")) {
			t.Fatalf("MODAL_CREATED stored: %s", r.body)
		}
	})

	t.Run("Metrics", func(t *testing.T) {
		admin := client{t: t, base: m.AdminURL()}
		admin.want(admin.do("GET", "/metrics", ""), 200, `latch_http_requests_total{route="GET /getWallets",status="200"}`, "latch_http_request_duration_seconds_bucket")
	})

	t.Run("Frame", func(t *testing.T) {
		// 503 where the frame is not built; frame_test.go checks the page itself.
		resp, err := http.Get(m.FrameURL() + "/?projectId=" + m.DevProjectID)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 503 && (resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Security-Policy"), "http://localhost:* http://127.0.0.1:*")) {
			t.Fatalf("frame %d %v", resp.StatusCode, resp.Header)
		}
	})

	t.Run("GracefulShutdown", func(t *testing.T) {
		// A request whose body is still arriving when Close starts must finish.
		conn, err := net.Dial("tcp", strings.TrimPrefix(m.APIURL(), "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		body := fmt.Sprintf(`[{"eventId":"9f1c2a4e-8d3b-4c5a-9e7f-0a1b2c3d4e5f","url":"http://localhost/","domain":"localhost","timestamp":%d,"props":{"type":"track","event":"MODAL_CLOSE"}}]`, time.Now().UnixMilli())
		// Expect: 100-continue makes the server say when the handler starts
		// reading the body: from then on the request is in flight.
		fmt.Fprintf(conn, "POST /batch?%s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\nExpect: 100-continue\r\n\r\n", pid, len(body))
		conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		br := bufio.NewReader(conn)
		if resp, err := http.ReadResponse(br, nil); err != nil || resp.StatusCode != http.StatusContinue {
			t.Fatalf("before the body: %v %v", resp, err)
		}
		io.WriteString(conn, body[:10])
		closed := make(chan error, 1)
		go func() { closed <- m.Close() }()
		// Close has begun once the listener refuses connections; it must
		// then wait for the request.
		addr := strings.TrimPrefix(m.APIURL(), "http://")
		if !poll.Until(10*time.Second, nil, func() bool {
			c, err := net.Dial("tcp", addr)
			if err == nil {
				c.Close()
			}
			return err != nil
		}) {
			t.Fatal("the API still accepts connections after Close began")
		}
		select {
		case err := <-closed:
			t.Fatalf("Close returned before the in-flight request finished: %v", err)
		default:
		}
		io.WriteString(conn, body[10:])
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != 204 {
			t.Fatalf("in-flight request: %d", resp.StatusCode)
		}
		if err := <-closed; err != nil {
			t.Fatalf("Close: %v", err)
		}
		if err := m.DB.Ping(); err == nil {
			t.Fatal("storage still open after Close")
		}
	})
}

func TestMain_DevProjectKept(t *testing.T) {
	dir := t.TempDir()
	ids := make([]string, 2)
	for i := range ids {
		cfg := app.Config{Dev: true, Addr: "127.0.0.1:0", FrameAddr: "127.0.0.1:0", DataDir: dir, DevChains: []uint64{31337}}
		m := app.NewMain(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
		if err := m.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		ids[i] = m.DevProjectID
		m.Close()
	}
	if ids[0] == "" || ids[0] != ids[1] {
		t.Fatalf("dev project ids %v", ids)
	}
}

func TestMain_ServeHasNoDevRoutes(t *testing.T) {
	cfg := app.Config{Addr: "127.0.0.1:0", FrameAddr: "127.0.0.1:0", DataDir: storetest.SQLiteDir(t)}
	m := app.NewMain(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	c := client{t: t, base: m.APIURL()}
	c.want(c.do("GET", "/dev/info", ""), 404)
	c.want(c.do("POST", "/dev/faucet", "{}"), 404)
}

func TestMain_IPRateLimit(t *testing.T) {
	cfg := app.Config{Addr: "127.0.0.1:0", FrameAddr: "127.0.0.1:0", DataDir: storetest.SQLiteDir(t), IPRateLimit: 5}
	m := app.NewMain(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	c := client{t: t, base: m.APIURL()}
	for i := 0; i < 5; i++ {
		c.want(c.do("GET", "/getWallets", ""), 401) // refused requests count too
	}
	r := c.do("GET", "/getWallets", "")
	c.want(r, 429, `"rate_limited"`)
	if r.header.Get("Retry-After") == "" {
		t.Fatal("429 without Retry-After")
	}
	c.want(c.do("GET", "/healthz", ""), 200) // probes are never throttled
}
