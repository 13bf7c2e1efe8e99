package app_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/pquerna/otp/totp"

	"github.com/latchkit/latch/api"
	"github.com/latchkit/latch/internal/app"
	"github.com/latchkit/latch/internal/store/storetest"
)

// The route table and the document describe the same routes: each route of
// the table is an operation with its method, path, listener and guard
// class, and the document has no operation the table lacks.
func TestOpenAPI_RoutesMatchTable(t *testing.T) {
	c := loadContract(t)
	table := map[string]bool{}
	for _, r := range app.Routes() {
		table[fmt.Sprintf("%s %s %s guard=%s", r.Listener, methodName(r.Method), r.Path, r.Guard)] = true
	}
	doc := map[string]bool{}
	for _, op := range c.operations(t) {
		guard, _ := op.obj["x-latch-guard"].(string)
		pattern := op.path
		if p, ok := op.obj["x-latch-pattern"].(string); ok {
			pattern = p
		}
		method := strings.ToUpper(op.method)
		if op.obj["x-latch-any-method"] == true {
			method = ""
		}
		listeners, _ := op.obj["x-latch-listeners"].([]any)
		if len(listeners) == 0 {
			t.Errorf("%s: no x-latch-listeners", op.ptr)
		}
		for _, l := range listeners {
			doc[fmt.Sprintf("%v %s %s guard=%s", l, methodName(method), pattern, guard)] = true
		}
		checkSecurity(t, op, guard)
	}
	for k := range table {
		if !doc[k] {
			t.Errorf("route %q is not in api/openapi.yaml", k)
		}
	}
	for k := range doc {
		if !table[k] {
			t.Errorf("api/openapi.yaml has %q, which the route table lacks", k)
		}
	}
}

func methodName(m string) string {
	if m == "" {
		return "*"
	}
	return m
}

// checkSecurity: an operation's security requirement and tags say what its
// guard class does.
func checkSecurity(t *testing.T, op operation, guard string) {
	t.Helper()
	sec, ok := op.obj["security"].([]any)
	if !ok {
		t.Errorf("%s: no security requirement", op.ptr)
		return
	}
	var schemes []string
	for _, req := range sec {
		for name := range asMap(req) {
			schemes = append(schemes, name)
		}
	}
	sort.Strings(schemes)
	want := map[string][]string{
		"open": {""}, "dev": {""}, "link": {""}, "project": {"projectId", "projectId,siwxSession"}, "admin": {"adminToken,projectId"},
		// The guard admits the frame; some routes also take a session's token.
		"frame-origin": {"projectId", "projectId,session"},
	}[guard]
	if got := strings.Join(schemes, ","); !slices.Contains(want, got) || len(sec) > 1 {
		t.Errorf("%s: guard %s with security %v, want one requirement of %q", op.ptr, guard, sec, want)
	}
	tags, _ := op.obj["tags"].([]any)
	isDev := false
	for _, tag := range tags {
		isDev = isDev || tag == "dev"
	}
	if isDev != (guard == "dev") {
		t.Errorf("%s: guard %s, tags %v: dev routes and only they carry the tag dev", op.ptr, guard, tags)
	}
}

// Every route answers, to valid and invalid requests alike, with a status,
// Content-Type, body and headers the document describes; each operation is
// called at least once with a request it accepts and once with one it
// refuses (where it can refuse).
func TestOpenAPI_Responses(t *testing.T) {
	c := loadContract(t)
	m := MustRunMain(t, "")
	bases := map[string]string{"": m.APIURL(), "admin": m.AdminURL(), "frame": m.FrameURL()}
	var info app.DevInfo
	if _, _, b := c.do(t, bases, call{op: "GET /dev/info", url: "/dev/info"}); json.Unmarshal(b, &info) != nil || info.ProjectID == "" {
		t.Fatalf("dev info: %s", b)
	}
	pid := "projectId=" + info.ProjectID
	acct := info.Accounts[0]
	usdc := info.Tokens["eip155:31337"]["USDC"].Address
	bearer := []string{"Authorization", "Bearer " + adminToken}
	event := func(name string) string {
		return fmt.Sprintf(`{"eventId":%q,"url":"http://localhost/","domain":"localhost","timestamp":%d,"props":{"type":"track","event":%q}}`, newUUID(t), time.Now().UnixMilli(), name)
	}
	rpcReq := `{"jsonrpc":"2.0","id":7,"method":"eth_chainId","params":[]}`
	wsUpgrade := []string{"Connection", "Upgrade", "Upgrade", "websocket", "Sec-WebSocket-Version", "13", "Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="}

	calls := []call{
		{op: "GET /healthz", url: "/healthz"},
		{op: "GET /healthz", on: "admin", url: "/healthz"},
		{op: "GET /healthz", on: "frame", url: "/healthz"},
		{op: "GET /readyz", url: "/readyz"},
		{op: "GET /metrics", on: "admin", url: "/metrics"},

		{op: "OPTIONS /{path}", url: "/getWallets?" + pid, hdr: []string{"Origin", "http://localhost:5173", "Access-Control-Request-Method", "GET"}},
		{op: "OPTIONS /{path}", url: "/dev/faucet", hdr: []string{"Origin", "http://localhost:5173", "Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "content-type"}},
		{op: "OPTIONS /{path}", url: "/getWallets", hdr: []string{"Origin", "http://localhost:5173", "Access-Control-Request-Method", "GET"}},
		{op: "OPTIONS /{path}", url: "/getWallets?" + pid, hdr: []string{"Origin", "http://localhost:5173", "Access-Control-Request-Method", "GET", "Access-Control-Request-Headers", "x-evil"}},
		{op: "GET /{path}", url: "/nowhere"},
		{op: "GET /{path}", method: "DELETE", url: "/getWallets"},
		{op: "GET /{path}", url: "/", hdr: []string{"Connection", "Upgrade", "Upgrade", "websocket", "Sec-WebSocket-Version", "13", "Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="}},

		{op: "GET /appkit/v1/config", url: "/appkit/v1/config?" + pid + "&st=appkit&sv=test"},
		{op: "GET /appkit/v1/config", url: "/appkit/v1/config"},
		{op: "GET /appkit/v1/config", url: "/appkit/v1/config?projectId=nothex"},
		{op: "GET /appkit/v1/config", url: "/appkit/v1/config?projectId=0123456789abcdef0123456789abcdef"},
		{op: "GET /appkit/v1/config", url: "/appkit/v1/config?" + pid, hdr: []string{"Origin", "https://evil.example"}},
		{op: "GET /appkit/v1/project-limits", url: "/appkit/v1/project-limits?" + pid},
		{op: "GET /appkit/v1/project-limits", url: "/appkit/v1/project-limits"},
		{op: "GET /projects/v1/origins", url: "/projects/v1/origins?" + pid},
		{op: "GET /projects/v1/origins", url: "/projects/v1/origins"},
		{op: "GET /getAnalyticsConfig", url: "/getAnalyticsConfig?" + pid},
		{op: "GET /getAnalyticsConfig", url: "/getAnalyticsConfig?projectId=0123456789abcdef0123456789abcdef"},

		{op: "GET /getWallets", url: "/getWallets?" + pid},
		{op: "GET /getWallets", url: "/getWallets?page=1&entries=4&chains=eip155:1&badge_type=none&" + pid},
		{op: "GET /getWallets", url: "/getWallets?search=zzzz-no-such-wallet&" + pid},
		{op: "GET /getWallets", url: "/getWallets?page=0&" + pid},
		{op: "GET /getWallets", url: "/getWallets?badge=gold&" + pid},
		{op: "GET /getWalletImage/{id}", url: "/getWalletImage/no-such-wallet?" + pid},
		{op: "GET /getWalletImage/{id}", url: "/getWalletImage/bad%20id?" + pid},
		{op: "GET /public/getAssetImage/{id}", url: "/public/getAssetImage/692ed6ba-e569-459a-556a-776476829e00?" + pid},
		{op: "GET /public/getAssetImage/{id}", url: "/public/getAssetImage/" + strings.Repeat("a", 300) + "?" + pid},
		{op: "GET /public/getCurrencyImage/{id}", url: "/public/getCurrencyImage/US?" + pid},
		{op: "GET /public/getCurrencyImage/{id}", url: "/public/getCurrencyImage/U$?" + pid},
		{op: "GET /public/getTokenImage/{id}", url: "/public/getTokenImage/USDC?" + pid},
		{op: "GET /public/getTokenImage/{id}", url: "/public/getTokenImage/USDC"},

		{op: "POST /e", url: "/e?" + pid, body: event("MODAL_OPEN")},
		{op: "POST /e", url: "/e?" + pid, body: `{"eventId":"x"}`},
		{op: "POST /e", url: "/e?" + pid, body: event("MODAL_OPEN"), hdr: []string{"Content-Type", "application/xml"}},
		{op: "POST /e", url: "/e?" + pid, body: `{"eventId":"` + strings.Repeat("a", 40<<10) + `"}`},
		{op: "POST /batch", url: "/batch?" + pid, body: "[" + event("CONNECT_SUCCESS") + "," + event("MODAL_CLOSE") + "]", hdr: []string{"Content-Type", "text/plain;charset=UTF-8"}},
		{op: "POST /batch", url: "/batch?" + pid, body: event("MODAL_OPEN")},
		{op: "GET /v1/analytics/summary", url: "/v1/analytics/summary?" + pid, hdr: bearer},
		{op: "GET /v1/analytics/summary", url: "/v1/analytics/summary?from=2026-01-01&to=2026-01-31&" + pid, hdr: bearer},
		{op: "GET /v1/analytics/summary", url: "/v1/analytics/summary?from=yesterday&" + pid, hdr: bearer},
		{op: "GET /v1/analytics/summary", url: "/v1/analytics/summary?" + pid, hdr: []string{"Authorization", "Bearer wrong"}},

		{op: "GET /v1/supported-chains", url: "/v1/supported-chains?" + pid},
		{op: "GET /v1/supported-chains", url: "/v1/supported-chains"},
		{op: "GET /v1/networks", url: "/v1/networks?" + pid},
		{op: "GET /v1/networks", url: "/v1/networks"},

		{op: "POST /v1", url: "/v1?chainId=eip155:31337&" + pid, body: rpcReq},
		{op: "POST /v1", url: "/v1?chainId=eip155:31337&" + pid, body: `[{"jsonrpc":"2.0","id":"a","method":"eth_chainId"},{"jsonrpc":"2.0","id":2,"method":"admin_peers"},{"jsonrpc":"1.0","id":3,"method":"eth_chainId"},{"jsonrpc":"2.0","method":"eth_chainId"}]`, hdr: []string{"Content-Type", "text/plain"}, mixed: true},
		{op: "POST /v1", url: "/v1?chainId=eip155:31337&" + pid, body: `{"jsonrpc":"2.0","method":"eth_chainId"}`},
		{op: "POST /v1", url: "/v1?chainId=eip155:31337&" + pid, body: `not json`},
		{op: "POST /v1", url: "/v1?chainId=eip155:31337&" + pid, body: `[]`},
		{op: "POST /v1", url: "/v1?chainId=chain&" + pid, body: rpcReq},
		{op: "POST /v1", url: "/v1?chainId=eip155:1&" + pid, body: rpcReq},
		{op: "POST /v1", url: "/v1?chainId=eip155:31337&" + pid, body: rpcReq, hdr: []string{"Content-Type", "application/xml"}},
		{op: "POST /v1", url: "/v1?chainId=eip155:31337", body: rpcReq},
		{op: "POST /v1/", url: "/v1/?chainId=eip155:31338&" + pid, body: rpcReq},
		// The subscriptions' refusals before an upgrade (the upgrade itself: rpcproxy's ws_test.go, TestMain_SolanaDev).
		{op: "GET /v1", url: "/v1?chainId=eip155:31337&" + pid},
		{op: "GET /v1", url: "/v1?chainId=chain&" + pid, hdr: wsUpgrade},
		{op: "GET /v1", url: "/v1?chainId=eip155:31337&" + pid, hdr: wsUpgrade},
		{op: "GET /v1", url: "/v1?chainId=eip155:31337", hdr: wsUpgrade},
		{op: "GET /v1/", url: "/v1/?chainId=eip155:31338&" + pid, hdr: wsUpgrade},
		{op: "GET /ws", url: "/ws?chainId=eip155:31338&" + pid},
		{op: "POST /v1/", url: "/v1/?chainId=eip155:31338&" + pid, body: `{"jsonrpc":`},

		{op: "GET /v1/account/{address}/history", url: "/v1/account/" + acct + "/history?chainId=eip155:31337&" + pid},
		{op: "GET /v1/account/{address}/history", url: "/v1/account/" + acct + "/history?chainId=eip155:31337&limit=1&" + pid},
		{op: "GET /v1/account/{address}/history", url: "/v1/account/0x123/history?chainId=eip155:31337&" + pid},
		{op: "GET /v1/account/{address}/history", url: "/v1/account/" + acct + "/history?chainId=eip155:31337&limit=0&" + pid},
		{op: "GET /v1/account/{address}/history", url: "/v1/account/" + acct + "/history?chainId=eip155:999999&" + pid},
		{op: "GET /v1/account/history", url: "/v1/account/history?" + pid},
		{op: "GET /v1/account/{address}/balance", url: "/v1/account/" + acct + "/balance?chainId=eip155:31337&currency=usd&" + pid},
		{op: "GET /v1/account/{address}/balance", url: "/v1/account/" + acct + "/balance?chainId=eip155:31337&forceUpdate=eip155:31337:" + usdc + "&" + pid},
		{op: "GET /v1/account/{address}/balance", url: "/v1/account/" + acct + "/balance?chainId=eip155:31337&currency=eur&" + pid},
		{op: "GET /v1/account/{address}/balance", url: "/v1/account/nope/balance?chainId=eip155:31337&" + pid},
		{op: "GET /v1/account/{address}/balance", url: "/v1/account/" + acct + "/balance?chainId=eip155:999999&" + pid},
		{op: "GET /v1/account/{address}/identity", url: "/v1/account/" + acct + "/identity?chainId=eip155:31337&" + pid},
		{op: "GET /v1/account/{address}/identity", url: "/v1/account/nope/identity?" + pid},
		{op: "GET /v1/identity/{address}", url: "/v1/identity/" + acct + "?chainId=eip155:31338&" + pid},
		{op: "GET /v1/identity/{address}", url: "/v1/identity/7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV?" + pid},
		{op: "GET /v1/identity/{address}", url: "/v1/identity/" + acct + "?chainId=bad&" + pid},
		{op: "GET /v1/image", url: "/v1/image?url=" + url.QueryEscape("https://127.0.0.1/a.png") + "&" + pid},
		{op: "GET /v1/image", url: "/v1/image?url=" + url.QueryEscape("ftp://example.com/a.png") + "&" + pid},
		{op: "GET /v1/image", url: "/v1/image?" + pid},
		{op: "POST /v1/fungible/price", url: "/v1/fungible/price", body: `{"currency":"usd","addresses":["eip155:31337:` + usdc + `"],"projectId":"` + info.ProjectID + `"}`},
		{op: "POST /v1/fungible/price", url: "/v1/fungible/price?" + pid, body: `{"addresses":[]}`},
		{op: "POST /v1/fungible/price", url: "/v1/fungible/price?projectId=0123456789abcdef0123456789abcdef", body: `{"currency":"usd","addresses":[],"projectId":"` + info.ProjectID + `"}`},
		{op: "POST /v1/fungible/price", url: "/v1/fungible/price?" + pid, body: `{"currency":"usd"`},

		{op: "GET /relay", url: "/relay"},
		{op: "GET /{path}", method: "POST", url: "/relay"},
		{op: "GET /relay", url: "/relay", hdr: []string{"Connection", "Upgrade", "Upgrade", "websocket", "Sec-WebSocket-Version", "13", "Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="}},

		{op: "GET /dev/info", url: "/dev/info", hdr: []string{"Origin", "https://evil.example"}},
		{op: "POST /dev/faucet", url: "/dev/faucet", body: fmt.Sprintf(`{"address":%q,"caipNetworkId":"eip155:31337","token":"USDC","amount":"2"}`, info.Accounts[2])},
		{op: "POST /dev/faucet", url: "/dev/faucet", body: `{"address":"0x123","caipNetworkId":"eip155:31337","amount":"1"}`},
		{op: "POST /dev/faucet", url: "/dev/faucet", body: `{}`, hdr: []string{"Content-Type", "application/xml"}},
		{op: "POST /dev/price", url: "/dev/price", body: `{"chainId":"eip155:31337","token":"ETH","usd":"2500"}`},
		{op: "POST /dev/price", url: "/dev/price", body: `{"chainId":"eip155:31337","token":"ETH","usd":"-1"}`},

		{op: "GET /openapi.yaml", url: "/openapi.yaml"},
	}
	calls = append(calls, namesCalls(t, m, pid)...) // names_test.go
	for _, cl := range calls {
		c.do(t, bases, cl)
	}

	t.Run("ImageNotModified", func(t *testing.T) {
		cl := call{op: "GET /getWalletImage/{id}", url: "/getWalletImage/no-such-wallet?" + pid}
		_, h, _ := c.do(t, bases, cl)
		cl.hdr = []string{"If-None-Match", h.Get("ETag")}
		if status, _, _ := c.do(t, bases, cl); status != http.StatusNotModified {
			t.Fatalf("If-None-Match the ETag: %d, want 304", status)
		}
	})

	t.Run("ServesItself", func(t *testing.T) {
		_, h, b := c.do(t, bases, call{op: "GET /openapi.yaml", url: "/openapi.yaml"})
		if !bytes.Equal(b, api.OpenAPI) || h.Get("Content-Type") != api.MediaType {
			t.Fatalf("GET /openapi.yaml: %s, %d bytes; want the embedded document", h.Get("Content-Type"), len(b))
		}
	})

	t.Run("RelayUpgrade", func(t *testing.T) {
		for _, cl := range []call{{op: "GET /relay", url: "/relay"}, {op: "GET /{path}", url: "/"}} {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			ws, resp, err := websocket.Dial(ctx, relayURL(m)+cl.url+"?"+relayQuery(newKey(t), relayURL(m), info.ProjectID, false), nil)
			cancel()
			if err != nil {
				t.Fatalf("%s: %v", cl.url, err)
			}
			c.check(t, cl, resp.StatusCode, resp.Header, nil)
			ws.CloseNow()
		}
	})

	// The frame's files are there only once make build has built them; a
	// latchd without them answers 503, which the document says too.
	noSuccess := maps.Clone(noSuccessInTest)
	noRefusal := map[string]string{}
	t.Run("Frame", func(t *testing.T) {
		status, _, page := c.do(t, bases, call{op: "GET /", on: "frame", url: "/?" + pid})
		c.do(t, bases, call{op: "GET /", on: "frame", url: "/?projectId=nothex"})
		c.do(t, bases, call{op: "GET /", on: "frame", url: "/?projectId=0123456789abcdef0123456789abcdef"})
		c.do(t, bases, call{op: "GET /assets/{file}", on: "frame", url: "/assets/no-such-file.js"})
		if status == http.StatusServiceUnavailable {
			noSuccess["frame GET /"] = "the frame is not built"
			noRefusal["frame GET /"] = "the frame is not built"
			noSuccess["frame GET /assets/{file}"] = "the frame is not built"
			noRefusal["frame GET /assets/{file}"] = "the frame is not built"
			return
		}
		asset := regexp.MustCompile(`/assets/[^"'?#]+`).Find(page)
		if asset == nil {
			t.Fatalf("the frame page names no /assets/ file: %.300s", page)
		}
		c.do(t, bases, call{op: "GET /assets/{file}", on: "frame", url: string(asset)})
	})

	t.Run("Auth", func(t *testing.T) { callAuth(t, c, bases, pid) })
	t.Run("SIWX", func(t *testing.T) { callSIWX(t, c, bases, pid) })
	t.Run("Social", func(t *testing.T) { callSocial(t, c, bases, pid) })       // social_test.go
	t.Run("Farcaster", func(t *testing.T) { callFarcaster(t, c, bases, pid) }) // farcaster_test.go
	t.Run("Swap", func(t *testing.T) { callSwap(t, c, bases, pid, info) })
	t.Run("Onramp", func(t *testing.T) { callOnramp(t, c, bases, pid, info, bearer) }) // onramp_test.go

	t.Run("RateLimited", func(t *testing.T) {
		lm := app.NewMain(app.Config{Addr: "127.0.0.1:0", FrameAddr: "127.0.0.1:0", DataDir: storetest.SQLiteDir(t), IPRateLimit: 1, ShutdownTimeout: 5 * time.Second}, slog.New(slog.NewTextHandler(io.Discard, nil)))
		if err := lm.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { lm.Close() })
		limited := map[string]string{"": lm.APIURL()}
		for i, cl := range []call{
			{op: "GET /openapi.yaml", url: "/openapi.yaml"},
			{op: "GET /openapi.yaml", url: "/openapi.yaml"},
			{op: "POST /v1", url: "/v1?chainId=eip155:1", body: rpcReq},
			{op: "POST /v1/", url: "/v1/?chainId=eip155:1", body: `[{"jsonrpc":"2.0","id":1,"method":"eth_chainId"},{"jsonrpc":"2.0","id":"b","method":"eth_chainId"}]`},
		} {
			if status, _, _ := c.do(t, limited, cl); i > 0 && status != http.StatusTooManyRequests {
				t.Fatalf("%s after the limit: %d, want 429", cl.url, status)
			}
		}
	})

	// Each operation was called with a request it accepts and, where it lists
	// a refusal, one it refuses; a new operation needs its calls above.
	for _, op := range c.operations(t) {
		var listeners []any
		listeners, _ = op.obj["x-latch-listeners"].([]any)
		for _, l := range listeners {
			key := fmt.Sprintf("%v %s %s", l, strings.ToUpper(op.method), op.path)
			var okListed, errListed, okSeen, errSeen bool
			for code := range op.responses {
				n, _ := strconv.Atoi(code)
				okListed = okListed || n < 400
				errListed = errListed || n >= 400 && n < 500
			}
			for n := range c.seen[key] {
				okSeen = okSeen || n < 400
				errSeen = errSeen || n >= 400 && n < 500
			}
			if okListed && !okSeen && noSuccess[key] == "" {
				t.Errorf("%s: no call was accepted (answered %v)", key, c.seen[key])
			}
			if errListed && !errSeen && noRefusal[key] == "" {
				t.Errorf("%s: no call was refused (answered %v)", key, c.seen[key])
			}
		}
	}
}

// passkeysOnIP: the test's frame origin is 127.0.0.1, and an IP address
// cannot be a WebAuthn RP ID; internal/auth's passkey_test.go runs these
// operations' successes against a software authenticator.
const passkeysOnIP = "passkeys need the frame origin on a domain name; tested in internal/auth passkey_test.go"

// noSuccessInTest are the operations whose success a test on this machine
// cannot bring about, and why.
var noSuccessInTest = map[string]string{
	"api POST /auth/v1/passkeys/register/begin":  passkeysOnIP,
	"api POST /auth/v1/passkeys/register/finish": passkeysOnIP,
	"api POST /auth/v1/passkeys/assert/begin":    passkeysOnIP,
	"api POST /auth/v1/passkeys/assert/finish":   passkeysOnIP,
	"api POST /auth/v1/passkeys/{id}/remove":     passkeysOnIP,
	"api POST /auth/v1/passkey/login/begin":      passkeysOnIP,
	"api POST /auth/v1/passkey/login/finish":     passkeysOnIP,
	"api PUT /auth/v1/recovery/passkey":          passkeysOnIP,
	"api GET /v1/image":                          "the image proxy fetches from public addresses only; its answers are tested in internal/imageproxy",
	// An upgraded socket stays open, which this test's client cannot read to its end.
	"api GET /v1":  "a subscription socket stays open; upgrades are tested in TestMain_SolanaDev and internal/rpcproxy's ws_test.go",
	"api GET /v1/": "a subscription socket stays open; upgrades are tested in TestMain_SolanaDev and internal/rpcproxy's ws_test.go",
	"api GET /ws":  "a subscription socket stays open; upgrades are tested in TestMain_SolanaDev and internal/rpcproxy's ws_test.go",
}

func newUUID(t *testing.T) string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// callAuth walks the e-mail login of the embedded wallet through every
// /auth/v1 route (latchd dev keeps its mail in the outbox), with refusals
// on the way.
func callAuth(t *testing.T, c *contract, bases map[string]string, pid string) {
	const email, newEmail, device = "openapi@example.com", "openapi2@example.com", "openapi-test-device-0001"
	// send calls an /auth/v1 operation from the frame's (local, under dev) origin.
	send := func(op, path, body string, hdr ...string) (int, map[string]any) {
		t.Helper()
		method, _, _ := strings.Cut(op, " ")
		status, _, b := c.do(t, bases, call{op: op, method: method, url: path + "?" + pid, body: body, hdr: append(hdr, "Origin", "http://localhost:5173")})
		var v map[string]any
		json.Unmarshal(b, &v)
		return status, v
	}
	post := func(path, body string, hdr ...string) (int, map[string]any) {
		t.Helper()
		return send("POST "+path, path, body, hdr...)
	}
	bearerOf := func(sess map[string]any) []string {
		return []string{"Authorization", fmt.Sprintf("Bearer %v", sess["accessToken"])}
	}
	outbox := func(to string) map[string]any {
		t.Helper()
		var v struct{ Messages []map[string]any }
		_, _, b := c.do(t, bases, call{op: "GET /dev/outbox", url: "/dev/outbox?to=" + url.QueryEscape(to)})
		if json.Unmarshal(b, &v) != nil || len(v.Messages) == 0 {
			t.Fatalf("no mail to %s: %s", to, b)
		}
		return v.Messages[0]
	}
	c.do(t, bases, call{op: "GET /dev/outbox", url: "/dev/outbox?to=" + strings.Repeat("a", 300)})
	c.do(t, bases, call{op: "OPTIONS /auth/v1/{path}", url: "/auth/v1/email/start", hdr: []string{"Origin", "http://localhost:5173", "Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "content-type,authorization"}})
	c.do(t, bases, call{op: "OPTIONS /auth/v1/{path}", url: "/auth/v1/email/start", hdr: []string{"Origin", "https://evil.example", "Access-Control-Request-Method", "POST"}})
	c.do(t, bases, call{op: "GET /auth/v1/origins", url: "/auth/v1/origins?" + pid})
	c.do(t, bases, call{op: "GET /auth/v1/origins", url: "/auth/v1/origins"})

	// A new device: an approval link, then a code.
	post("/auth/v1/email/start", `{"email":"not an address","deviceId":"`+device+`"}`)
	c.do(t, bases, call{op: "POST /auth/v1/email/start", url: "/auth/v1/email/start?" + pid, body: `{}`, hdr: []string{"Origin", "https://evil.example"}})
	_, start := post("/auth/v1/email/start", `{"email":"`+email+`","deviceId":"`+device+`"}`)
	if start["action"] != "VERIFY_DEVICE" {
		t.Fatalf("email/start: %v", start)
	}
	post("/auth/v1/device/status", fmt.Sprintf(`{"requestId":%q,"deviceId":%q}`, start["requestId"], device))
	post("/auth/v1/device/status", `{"requestId":1}`)
	link, err := url.Parse(fmt.Sprint(outbox(email)["link"]))
	if err != nil || link.Query().Get("token") == "" {
		t.Fatalf("approval link %v: %v", link, err)
	}
	const approve = "/auth/v1/device/approve"
	c.do(t, bases, call{op: "GET " + approve, on: "frame", url: link.RequestURI()})
	c.do(t, bases, call{op: "GET " + approve, on: "frame", url: approve})
	form := "token=" + url.QueryEscape(link.Query().Get("token"))
	for range 2 { // the second time the link is spent: 410
		c.do(t, bases, call{op: "POST " + approve, on: "frame", url: approve, body: form, hdr: []string{"Content-Type", "application/x-www-form-urlencoded"}})
	}
	if _, again := post("/auth/v1/email/start", `{"email":"`+email+`","deviceId":"`+device+`"}`); again["action"] != "VERIFY_OTP" {
		t.Fatalf("email/start after approval: %v", again)
	}
	post("/auth/v1/email/verify", `{"email":"`+email+`","deviceId":"`+device+`","otp":"12345"}`)
	_, sess := post("/auth/v1/email/verify", fmt.Sprintf(`{"email":%q,"deviceId":%q,"otp":%q}`, email, device, outbox(email)["code"]))
	bearer := bearerOf(sess)

	send("GET /auth/v1/email/me", "/auth/v1/email/me", "", bearer...)
	send("GET /auth/v1/email/me", "/auth/v1/email/me", "")
	send("GET /auth/v1/sessions", "/auth/v1/sessions", "", bearer...)
	send("GET /auth/v1/sessions", "/auth/v1/sessions", "", "Authorization", "Bearer nope")
	shares := `{"deviceId":"` + device + `","authShare":"YXV0aA==","recovery":{"mode":"operator","share":"cmVjb3Zlcnk="}}`
	for range 2 { // stored, then 409
		send("PUT /auth/v1/shares", "/auth/v1/shares", shares, bearer...)
	}
	post("/auth/v1/shares/fetch", `{"deviceId":"`+device+`","includeRecovery":true}`, bearer...)
	post("/auth/v1/shares/fetch", `{"deviceId":7}`, bearer...)

	// The e-mail change: a code to the old address, then to the new one.
	post("/auth/v1/email/change", `{"newEmail":"not an address"}`, bearer...)
	post("/auth/v1/email/change", `{"newEmail":"`+newEmail+`"}`, bearer...)
	post("/auth/v1/email/change/primary", `{"otp":"abc"}`, bearer...)
	post("/auth/v1/email/change/primary", fmt.Sprintf(`{"otp":%q}`, outbox(email)["code"]), bearer...)
	post("/auth/v1/email/change/secondary", `{"otp":"000000","deviceId":"`+device+`"}`, bearer...)
	_, changed := post("/auth/v1/email/change/secondary", fmt.Sprintf(`{"otp":%q,"deviceId":%q}`, outbox(newEmail)["code"], device), bearer...)
	sess, _ = changed["session"].(map[string]any)
	bearer = bearerOf(sess)

	// Sign-out: an unknown session id, then the caller's own.
	const revoke = "POST /auth/v1/sessions/{id}/revoke"
	send(revoke, "/auth/v1/sessions/no-such-session/revoke", "", bearer...)
	send(revoke, fmt.Sprintf("/auth/v1/sessions/%v/revoke", sess["sessionId"]), "", bearer...)

	// A refresh token works once; spent, it is refused.
	post("/auth/v1/email/start", `{"email":"`+newEmail+`","deviceId":"`+device+`"}`)
	_, sess = post("/auth/v1/email/verify", fmt.Sprintf(`{"email":%q,"deviceId":%q,"otp":%q}`, newEmail, device, outbox(newEmail)["code"]))
	refresh := fmt.Sprintf(`{"refreshToken":%q,"deviceId":%q}`, sess["refreshToken"], device)
	for range 2 {
		post("/auth/v1/session/refresh", refresh)
	}

	callSecondFactor(t, send, post, outbox, bases, c)
}

// callSecondFactor calls the second factor's, passkeys' and the export
// gate's operations (docs/auth.md): a TOTP enrolment, step-up and removal,
// a new device's pending login and its completion, the export gate. The
// passkey operations can only be refused here: the test's frame origin is
// 127.0.0.1, which cannot be a WebAuthn RP ID (noSuccessInTest; their
// successes are internal/auth's passkey_test.go).
func callSecondFactor(t *testing.T, send func(op, path, body string, hdr ...string) (int, map[string]any), post func(path, body string, hdr ...string) (int, map[string]any),
	outbox func(to string) map[string]any, bases map[string]string, c *contract) {
	const email, device, device2 = "mfa@example.com", "openapi-test-device-mfa1", "openapi-test-device-mfa2"
	bearerOf := func(sess map[string]any) []string {
		return []string{"Authorization", fmt.Sprintf("Bearer %v", sess["accessToken"])}
	}
	// login runs start, the approval link and the code for a new device.
	login := func(dev string) map[string]any {
		t.Helper()
		post("/auth/v1/email/start", `{"email":"`+email+`","deviceId":"`+dev+`"}`)
		link, err := url.Parse(fmt.Sprint(outbox(email)["link"]))
		if err != nil {
			t.Fatal(err)
		}
		const approve = "/auth/v1/device/approve"
		c.do(t, bases, call{op: "POST " + approve, on: "frame", url: approve, body: "token=" + url.QueryEscape(link.Query().Get("token")), hdr: []string{"Content-Type", "application/x-www-form-urlencoded"}})
		post("/auth/v1/email/start", `{"email":"`+email+`","deviceId":"`+dev+`"}`)
		_, sess := post("/auth/v1/email/verify", fmt.Sprintf(`{"email":%q,"deviceId":%q,"otp":%q}`, email, dev, outbox(email)["code"]))
		return sess
	}
	bearer := bearerOf(login(device))
	dev := `{"deviceId":"` + device + `"}`
	withCode := func(code string) string { return fmt.Sprintf(`{"deviceId":%q,"code":%q}`, device, code) }

	send("GET /auth/v1/mfa", "/auth/v1/mfa", "", bearer...)
	send("GET /auth/v1/mfa", "/auth/v1/mfa", "")
	// Shares, then the export gate: a fresh e-mail code suffices without a factor.
	send("PUT /auth/v1/shares", "/auth/v1/shares", `{"deviceId":"`+device+`","authShare":"YXV0aA==","recovery":{"mode":"operator","share":"cmVjb3Zlcnk="}}`, bearer...)
	if status, x := post("/auth/v1/export", dev, bearer...); status != http.StatusOK || x["authShare"] != "YXV0aA==" {
		t.Fatalf("export: %d %v", status, x)
	}
	post("/auth/v1/export", `{"deviceId":7}`, bearer...)

	// TOTP: enrol, confirm, step-up, remove (codes of successive steps: each step's code works once;
	// an account has 5 tries per 15 minutes, so the refusals below are malformed codes, which spend none).
	post("/auth/v1/mfa/totp/enroll", `{}`, bearer...)
	_, en := post("/auth/v1/mfa/totp/enroll", dev, bearer...)
	secret, _ := en["secret"].(string)
	code := func(d time.Duration) string {
		t.Helper()
		c, err := totp.GenerateCode(secret, time.Now().Add(d))
		if err != nil {
			t.Fatalf("TOTP secret %q: %v", secret, err)
		}
		return c
	}
	post("/auth/v1/mfa/totp/confirm", withCode("abc"), bearer...)
	if status, _ := post("/auth/v1/mfa/totp/confirm", withCode(code(-30*time.Second)), bearer...); status != http.StatusOK {
		t.Fatalf("confirm: %d", status)
	}
	post("/auth/v1/mfa/totp/verify", withCode("12345"), bearer...)
	post("/auth/v1/mfa/totp/verify", withCode(code(0)), bearer...)
	post("/auth/v1/mfa/totp/disable", withCode("abcdef"), bearer...)
	if status, _ := post("/auth/v1/mfa/totp/disable", withCode(code(30*time.Second)), bearer...); status != http.StatusOK {
		t.Fatalf("disable: %d", status)
	}
	// Enrolled again: a new device's login waits for the factor.
	_, en = post("/auth/v1/mfa/totp/enroll", dev, bearer...)
	secret, _ = en["secret"].(string)
	post("/auth/v1/mfa/totp/confirm", withCode(code(0)), bearer...)
	pending, _ := login(device2)["secondFactorRequired"].(map[string]any)
	if pending == nil {
		t.Fatal("a new device's login after enrolment is not pending")
	}
	post("/auth/v1/mfa/complete", fmt.Sprintf(`{"ticket":"nope","deviceId":%q,"code":%q}`, device2, code(30*time.Second)))
	if status, sess := post("/auth/v1/mfa/complete", fmt.Sprintf(`{"ticket":%q,"deviceId":%q,"code":%q}`, pending["ticket"], device2, code(30*time.Second))); status != http.StatusOK || sess["accessToken"] == nil {
		t.Fatalf("complete: %d %v", status, sess)
	}

	// Passkeys: refusals (and the 503 of a frame origin on an IP address).
	send("GET /auth/v1/passkeys", "/auth/v1/passkeys", "", bearer...)
	send("GET /auth/v1/passkeys", "/auth/v1/passkeys", "")
	for _, path := range []string{"/auth/v1/passkeys/register/begin", "/auth/v1/passkeys/assert/begin", "/auth/v1/passkey/login/begin"} {
		post(path, `{"deviceId":"short"}`, bearer...)
		post(path, dev, bearer...)
	}
	for _, path := range []string{"/auth/v1/passkeys/register/finish", "/auth/v1/passkeys/assert/finish", "/auth/v1/passkey/login/finish"} {
		post(path, `{"deviceId":"short","challengeId":"nope","credential":{"id":"x"}}`, bearer...)
	}
	send("POST /auth/v1/passkeys/{id}/remove", "/auth/v1/passkeys/no-such-passkey/remove", dev, bearer...)
	send("PUT /auth/v1/recovery/passkey", "/auth/v1/recovery/passkey", `{"deviceId":"`+device+`","ciphertext":"Y3Q=","kdf":{"credentialId":"AAAA"}}`, bearer...)
}
