package app

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/latchkit/latch/internal/solana"
	"github.com/latchkit/latch/internal/solanadev"
)

// syncBuffer is a log destination tests read while latchd writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func runSolanaDev(t *testing.T, dir string, sc SolanaDevConfig) (*Main, *syncBuffer) {
	t.Helper()
	logs := &syncBuffer{}
	cfg := Config{Dev: true, Addr: "127.0.0.1:0", FrameAddr: "127.0.0.1:0", DataDir: dir, DevChains: []uint64{31337}, ShutdownTimeout: 5 * time.Second, SolanaDev: sc}
	m := NewMain(cfg, slog.New(slog.NewTextHandler(logs, nil)))
	if err := m.Run(context.Background()); err != nil {
		t.Fatalf("Run: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	return m, logs
}

// skipWithoutSolana skips when this machine cannot run the dev network
// (make test installs Node.js and the package, so there it runs).
func skipWithoutSolana(t *testing.T, m *Main, logs *syncBuffer) {
	t.Helper()
	if m.SolanaDev() == nil {
		t.Skipf("the Solana dev network is off here: %s", logs.String())
	}
}

func postRPC(t *testing.T, url, body string) map[string]json.RawMessage {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var out map[string]json.RawMessage
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%d %s", resp.StatusCode, b)
	}
	return out
}

func TestMain_SolanaDev(t *testing.T) {
	dir := t.TempDir()
	m, logs := runSolanaDev(t, dir, SolanaDevConfig{})
	skipWithoutSolana(t, m, logs)
	info := m.Info()
	sol := info.Solana
	if sol == nil || !strings.HasPrefix(sol.CAIPNetworkID, "solana:") || len(sol.CAIPNetworkID) != len("solana:")+32 {
		t.Fatalf("/dev/info solana = %+v", sol)
	}
	if sol.Accounts[0] != solanadev.DevKey(solanadev.TestMnemonic, 0).Address.String() || sol.USDC.Decimals != 6 || info.Tokens[sol.CAIPNetworkID]["USDC"].Address != sol.USDC.Address {
		t.Fatalf("/dev/info solana = %+v, tokens %+v", sol, info.Tokens[sol.CAIPNetworkID])
	}
	n := m.Networks.Get(sol.CAIPNetworkID)
	if n == nil || n.ChainNamespace != "solana" || !n.Dev || !n.Testnet || n.NativeCurrency.Symbol != "SOL" || n.NativeCurrency.Decimals != 9 {
		t.Fatalf("network = %+v", n)
	}
	proxy := m.APIURL() + "/v1?chainId=" + sol.CAIPNetworkID + "&projectId=" + m.DevProjectID
	acct := sol.Accounts[3]

	t.Run("ProxyServesIt", func(t *testing.T) {
		r := postRPC(t, proxy, `{"jsonrpc":"2.0","id":1,"method":"getBalance","params":["`+acct+`"]}`)
		if !bytes.Contains(r["result"], []byte(`"value":1000000000000`)) {
			t.Fatalf("getBalance = %s %s", r["result"], r["error"])
		}
		r = postRPC(t, proxy, `{"jsonrpc":"2.0","id":2,"method":"getProgramAccounts","params":["TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"]}`)
		if !bytes.Contains(r["error"], []byte(`-32601`)) || !bytes.Contains(r["error"], []byte("getProgramAccounts is not allowed")) {
			t.Fatalf("getProgramAccounts = %s", r["error"])
		}
	})
	t.Run("AccountBalanceAndHistory", func(t *testing.T) {
		owner := sol.Accounts[7]
		resp, err := http.Get(m.APIURL() + "/v1/account/" + owner + "/balance?currency=usd&chainId=" + sol.CAIPNetworkID + "&projectId=" + m.DevProjectID)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		// The dev USDC is priced by the first dev chain's USDC feed ($1).
		for _, want := range []string{`"symbol":"SOL"`, `"numeric":"1000"`, `"symbol":"USDC"`, `"address":"` + sol.CAIPNetworkID + ":" + sol.USDC.Address + `"`, `"numeric":"10000"`, `"price":1,`, `"value":10000`} {
			if resp.StatusCode != 200 || !bytes.Contains(b, []byte(want)) {
				t.Fatalf("balance lacks %s: %d %s", want, resp.StatusCode, b)
			}
		}
		resp, err = http.Get(m.APIURL() + "/v1/account/" + owner + "/history?chainId=" + sol.CAIPNetworkID + "&projectId=" + m.DevProjectID)
		if err != nil {
			t.Fatal(err)
		}
		b, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || string(b) != "{\"data\":[],\"next\":null}\n" {
			t.Fatalf("history: %d %s", resp.StatusCode, b)
		}
	})
	t.Run("AirdropOnDevNetworkPersists", func(t *testing.T) {
		r := postRPC(t, proxy, `{"jsonrpc":"2.0","id":1,"method":"requestAirdrop","params":["`+acct+`",2000000000]}`)
		if r["error"] != nil {
			t.Fatalf("requestAirdrop: %s", r["error"])
		}
		m.Close()
		m2, logs2 := runSolanaDev(t, dir, SolanaDevConfig{})
		skipWithoutSolana(t, m2, logs2)
		if m2.Info().Solana.CAIPNetworkID != sol.CAIPNetworkID {
			t.Fatal("the network id changed across a restart")
		}
		proxy2 := m2.APIURL() + "/v1?chainId=" + sol.CAIPNetworkID + "&projectId=" + m2.DevProjectID
		r = postRPC(t, proxy2, `{"jsonrpc":"2.0","id":1,"method":"getBalance","params":["`+acct+`",{"commitment":"processed"}]}`)
		if !bytes.Contains(r["result"], []byte(`"value":1002000000000`)) {
			t.Fatalf("after restart: getBalance = %s %s", r["result"], r["error"])
		}
		if !strings.Contains(logs2.String(), "replayed=1") {
			t.Fatalf("log lacks replayed=1: %s", logs2.String())
		}
	})
}

// The proxy's subscriptions (GET /v1 upgraded) reach the Solana dev network's
// WebSocket, behind the project guard.
func TestMain_SolanaDevSubscriptions(t *testing.T) {
	m, logs := runSolanaDev(t, t.TempDir(), SolanaDevConfig{})
	skipWithoutSolana(t, m, logs)
	sol := m.Info().Solana
	proxy := m.APIURL() + "/v1?chainId=" + sol.CAIPNetworkID + "&projectId=" + m.DevProjectID
	sc, err := http.Get(m.APIURL() + "/v1/supported-chains?projectId=" + m.DevProjectID)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(sc.Body)
	sc.Body.Close()
	if !bytes.Contains(b, []byte(`"ws":["`+sol.CAIPNetworkID+`"]`)) {
		t.Fatalf("supported-chains: %s", b)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	wsURL := "ws" + strings.TrimPrefix(m.APIURL(), "http") + "/v1?chainId=" + sol.CAIPNetworkID + "&projectId=" + m.DevProjectID
	// The project guard runs first: an origin the project does not allow gets no socket.
	if _, res, err := websocket.Dial(ctx, wsURL, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {"https://evil.example"}}}); err == nil || res == nil || res.StatusCode != http.StatusForbidden {
		t.Fatalf("a refused origin: %v %+v", err, res)
	}
	c, _, err := websocket.Dial(ctx, wsURL, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {"http://localhost:5173"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"jsonrpc":"2.0","id":1,"method":"slotSubscribe"}`)); err != nil {
		t.Fatal(err)
	}
	_, got, err := c.Read(ctx)
	if err != nil || !bytes.Contains(got, []byte(`"id":1,"result":`)) {
		t.Fatalf("slotSubscribe: %s %v", got, err)
	}
	// A transaction moves the slot: the subscription hears of it.
	postRPC(t, proxy, `{"jsonrpc":"2.0","id":2,"method":"requestAirdrop","params":["`+sol.Accounts[5]+`",1000]}`)
	_, got, err = c.Read(ctx)
	if err != nil || !bytes.Contains(got, []byte(`"method":"slotNotification"`)) {
		t.Fatalf("notification: %s %v", got, err)
	}
}

// TestMain_SolanaDevFaucet: POST /dev/faucet credits a Solana address of the
// dev network with SOL (requestAirdrop) and dev USDC (minted into its token
// account, created on the first request); bad requests name the field and
// move nothing.
func TestMain_SolanaDevFaucet(t *testing.T) {
	m, logs := runSolanaDev(t, t.TempDir(), SolanaDevConfig{})
	skipWithoutSolana(t, m, logs)
	sol := m.Info().Solana
	proxy := m.APIURL() + "/v1?chainId=" + sol.CAIPNetworkID + "&projectId=" + m.DevProjectID
	// A fresh address: no SOL, no token account.
	pub, _, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	var to solana.Address
	copy(to[:], pub)
	faucet := func(body string) (int, string) {
		t.Helper()
		resp, err := http.Post(m.APIURL()+"/dev/faucet", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	req := func(token, amount string) string {
		return fmt.Sprintf(`{"address":%q,"caipNetworkId":%q,"token":%q,"amount":%q}`, to.String(), sol.CAIPNetworkID, token, amount)
	}
	usdcOf := func() string {
		r := postRPC(t, proxy, `{"jsonrpc":"2.0","id":1,"method":"getTokenAccountsByOwner","params":["`+to.String()+`",{"mint":"`+sol.USDC.Address+`"},{"encoding":"jsonParsed","commitment":"processed"}]}`)
		var res struct {
			Value []struct {
				Account struct {
					Data struct {
						Parsed struct {
							Info struct {
								TokenAmount struct {
									Amount string `json:"amount"`
								} `json:"tokenAmount"`
							} `json:"info"`
						} `json:"parsed"`
					} `json:"data"`
				} `json:"account"`
			} `json:"value"`
		}
		if err := json.Unmarshal(r["result"], &res); err != nil || len(res.Value) != 1 {
			t.Fatalf("getTokenAccountsByOwner = %s %s", r["result"], r["error"])
		}
		return res.Value[0].Account.Data.Parsed.Info.TokenAmount.Amount
	}

	code, body := faucet(req("", "1.5"))
	if code != 200 || !strings.Contains(body, `"amount":"1500000000"`) || !strings.Contains(body, `"token":"SOL"`) || !strings.Contains(body, `"caipNetworkId":"`+sol.CAIPNetworkID+`"`) {
		t.Fatalf("SOL: %d %s", code, body)
	}
	r := postRPC(t, proxy, `{"jsonrpc":"2.0","id":1,"method":"getBalance","params":["`+to.String()+`",{"commitment":"processed"}]}`)
	if !bytes.Contains(r["result"], []byte(`"value":1500000000}`)) {
		t.Fatalf("after the SOL faucet: getBalance = %s %s", r["result"], r["error"])
	}
	// USDC creates the token account, then adds to it.
	if code, body := faucet(req("USDC", "2.5")); code != 200 || !strings.Contains(body, `"amount":"2500000"`) || !strings.Contains(body, `"token":"USDC"`) {
		t.Fatalf("USDC: %d %s", code, body)
	}
	if got := usdcOf(); got != "2500000" {
		t.Fatalf("USDC after the faucet = %s, want 2500000", got)
	}
	if code, body := faucet(req(sol.USDC.Address, "1")); code != 200 {
		t.Fatalf("USDC by mint: %d %s", code, body)
	}
	if got := usdcOf(); got != "3500000" {
		t.Fatalf("USDC after the second faucet = %s, want 3500000", got)
	}
	// Refusals name the field and move nothing.
	for _, c := range []struct {
		body string
		code int
		want string
	}{
		{fmt.Sprintf(`{"address":"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266","caipNetworkId":%q,"amount":"1"}`, sol.CAIPNetworkID), 400, "not a Solana address"},
		{req("SOL", "1001"), 400, "at most 1000 SOL"},
		{req("SOL", "0.0000000001"), 400, "more than 9 decimal places"},
		{req("USDC", "-1"), 400, "positive decimal"},
		{req("DAI", "1"), 404, "Unknown token"},
		{fmt.Sprintf(`{"address":%q,"caipNetworkId":"solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1","amount":"1"}`, to.String()), 404, "No dev network"},
	} {
		if code, body := faucet(c.body); code != c.code || !strings.Contains(body, c.want) {
			t.Errorf("%s: %d %s, want %d with %q", c.body, code, body, c.code, c.want)
		}
	}
	if got := usdcOf(); got != "3500000" {
		t.Fatalf("a refused request moved USDC: %s", got)
	}
}

func TestMain_SolanaDevOff(t *testing.T) {
	t.Run("Flag", func(t *testing.T) {
		m, logs := runSolanaDev(t, t.TempDir(), SolanaDevConfig{Off: true})
		if m.SolanaDev() != nil || m.Info().Solana != nil {
			t.Fatal("the Solana dev network runs with --dev-solana=false")
		}
		if !strings.Contains(logs.String(), "Solana dev network is off (--dev-solana=false)") {
			t.Fatalf("log: %s", logs.String())
		}
	})
	t.Run("NoNode", func(t *testing.T) {
		m, logs := runSolanaDev(t, t.TempDir(), SolanaDevConfig{Node: "latch-no-such-node"})
		if m.SolanaDev() != nil {
			t.Fatal("a network without Node.js")
		}
		if !strings.Contains(logs.String(), "Solana dev network is off: Node.js (latch-no-such-node) was not found") {
			t.Fatalf("log: %s", logs.String())
		}
		for _, n := range m.Networks.All() {
			if n.Dev && n.ChainNamespace == "solana" {
				t.Fatalf("registered %s", n.CAIPNetworkID)
			}
		}
	})
	t.Run("NoPackage", func(t *testing.T) {
		m, logs := runSolanaDev(t, t.TempDir(), SolanaDevConfig{Dir: t.TempDir()})
		if m.SolanaDev() != nil || !strings.Contains(logs.String(), "Solana dev network is off:") {
			t.Fatalf("log: %s", logs.String())
		}
	})
}

func TestConfig_SolanaDevFlags(t *testing.T) {
	cfg, err := parseConfig("latchd dev", nil, io.Discard)
	if err != nil || cfg.SolanaDev.Off || cfg.SolanaDev.Node != "node" || cfg.SolanaDev.Dir != "" {
		t.Fatalf("defaults: %+v, %v", cfg.SolanaDev, err)
	}
	cfg, err = parseConfig("latchd dev", []string{"--dev-solana=false", "--dev-solana-dir", "/opt/solana-devnet", "--dev-solana-node", "/usr/bin/node"}, io.Discard)
	if err != nil || !cfg.SolanaDev.Off || cfg.SolanaDev.Dir != "/opt/solana-devnet" || cfg.SolanaDev.Node != "/usr/bin/node" {
		t.Fatalf("set: %+v, %v", cfg.SolanaDev, err)
	}
	if cfg, err := parseConfig("latchd dev", []string{"--dev-solana=false", "--dev-solana"}, io.Discard); err != nil || cfg.SolanaDev.Off {
		t.Fatalf("--dev-solana alone: %+v, %v", cfg.SolanaDev, err)
	}
	if _, err := parseConfig("latchd dev", []string{"--dev-solana=maybe"}, io.Discard); err == nil || !strings.Contains(err.Error(), "--dev-solana takes true or false") {
		t.Fatalf("bad value: %v", err)
	}
}
