package account

import (
	"context"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/latchkit/latch/data"
	"github.com/latchkit/latch/internal/network"
	"github.com/latchkit/latch/internal/rpcproxy"
	"github.com/latchkit/latch/internal/solana"
	"github.com/latchkit/latch/internal/solanadev"
)

// fixedPrices is a PriceSource with set prices (the feeds themselves are
// tested in prices_test.go).
type fixedPrices map[common.Address]float64

func (f fixedPrices) Prices(_ context.Context, _ uint64, tokens []common.Address) (map[common.Address]float64, error) {
	out := map[common.Address]float64{}
	for _, t := range tokens {
		if p, ok := f[t]; ok {
			out[t] = p
		}
	}
	return out, nil
}

// solanaEnv is a Service and its HTTP routes over the Solana dev network,
// reached through a proxy that counts the requests sent to it.
type solanaEnv struct {
	t     *testing.T
	net   *solanadev.Network
	caip  string
	svc   *Service
	mux   *http.ServeMux
	sent  atomic.Int32
	rpc   *solana.Client
	usdc  solana.Address
	feedT common.Address
}

func newSolanaEnv(t *testing.T) *solanaEnv {
	t.Helper()
	e := &solanaEnv{t: t, net: solanadev.StartForTest(t, "")}
	e.caip = e.net.Info.CAIPNetworkID
	e.usdc = solana.MustParseAddress(e.net.Info.USDCMint)
	target, _ := url.Parse(e.net.Info.RPCURL)
	rp := httputil.NewSingleHostReverseProxy(target)
	counting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.sent.Add(1)
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(counting.Close)
	reg, err := network.Load(data.Networks)
	if err != nil {
		t.Fatal(err)
	}
	ref, _ := json.Marshal(e.caip[len("solana:"):])
	n := &network.Network{CAIPNetworkID: e.caip, ChainNamespace: "solana", ID: ref, Name: "Latch Solana Dev", Testnet: true, Dev: true,
		NativeCurrency: network.Currency{Name: "Solana", Symbol: "SOL", Decimals: 9}}
	if err := reg.Add(n); err != nil {
		t.Fatal(err)
	}
	reg.SetUpstreams(e.caip, []string{counting.URL})
	e.feedT = common.HexToAddress("0x00000000000000000000000000000000000000c1")
	prices := NewPriceCache(fixedPrices{e.feedT: 1.0}, PriceTTL, nil)
	e.svc = New(Config{Networks: reg, Prices: prices, Cache: rpcproxy.NewMemoryCache(1000, 1<<20, nil), Solana: map[string]SolanaNetworkConfig{
		e.caip: {Tokens: map[string]SolanaToken{e.net.Info.USDCMint: {Symbol: "USDC", Name: "USD Coin", Decimals: 6, PriceChain: 31337, PriceToken: e.feedT}}},
	}})
	h := NewHandler(e.svc, func(*http.Request) string { return "http://latchd.test" }, nil)
	e.mux = http.NewServeMux()
	e.mux.HandleFunc("GET /v1/account/{address}/balance", h.Balance)
	e.mux.HandleFunc("GET /v1/account/{address}/history", h.History)
	e.rpc, _ = solana.NewClient([]string{e.net.Info.RPCURL}, nil)
	return e
}

func (e *solanaEnv) get(path string) (int, string) {
	e.t.Helper()
	w := httptest.NewRecorder()
	e.mux.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
	b, _ := io.ReadAll(w.Body)
	return w.Code, string(b)
}

// send signs and sends a transaction from key, returning its signature.
func (e *solanaEnv) send(key solanadev.Key, opts map[string]any, ixs ...solanadev.Instruction) string {
	e.t.Helper()
	var bh struct {
		Value struct{ Blockhash string } `json:"value"`
	}
	if err := e.rpc.Do(context.Background(), &bh, "getLatestBlockhash"); err != nil {
		e.t.Fatal(err)
	}
	wire, _ := solanadev.SignTransaction(key, nil, solana.MustParseAddress(bh.Value.Blockhash), ixs...)
	if opts == nil {
		opts = map[string]any{}
	}
	opts["encoding"] = "base64"
	var sig string
	if err := e.rpc.Do(context.Background(), &sig, "sendTransaction", wire, opts); err != nil {
		e.t.Fatal(err)
	}
	return sig
}

func TestService_SolanaBalancesAndHistory(t *testing.T) {
	e := newSolanaEnv(t)
	ctx := context.Background()
	k0, k1, k2 := solanadev.DevKey(solanadev.TestMnemonic, 0), solanadev.DevKey(solanadev.TestMnemonic, 1), solanadev.DevKey(solanadev.TestMnemonic, 2)

	t.Run("FundedBalances", func(t *testing.T) {
		code, body := e.get("/v1/account/" + k2.Address.String() + "/balance?chainId=" + e.caip + "&currency=usd")
		if code != 200 {
			t.Fatalf("%d %s", code, body)
		}
		var res balanceResponse
		json.Unmarshal([]byte(body), &res)
		if len(res.Balances) != 2 {
			t.Fatalf("balances %s", body)
		}
		sol, usdc := res.Balances[0], res.Balances[1]
		if sol.Symbol != "SOL" || sol.Quantity.Numeric != "1000" || sol.Quantity.Decimals != "9" || sol.Address != "" || sol.Value != nil {
			t.Fatalf("SOL %+v", sol)
		}
		if usdc.Symbol != "USDC" || usdc.Quantity.Numeric != "10000" || usdc.Quantity.Decimals != "6" || usdc.Address != e.caip+":"+e.usdc.String() || usdc.Price != 1 || usdc.Value == nil || *usdc.Value != 10000 {
			t.Fatalf("USDC %+v", usdc)
		}
	})

	mint := e.usdc
	from, _ := solanadev.AssociatedTokenAddress(k0.Address, mint)
	to, _ := solanadev.AssociatedTokenAddress(k1.Address, mint)
	solSig := e.send(k0, nil, solanadev.TransferSOL(k0.Address, k1.Address, 500_000_000))
	usdcSig := e.send(k0, nil, solanadev.TransferChecked(from, mint, to, k0.Address, 2_000_000, 6))

	t.Run("BalancesAfterTransfers", func(t *testing.T) {
		b, err := e.svc.SolanaBalances(ctx, e.caip, k1.Address, true, nil)
		if err != nil {
			t.Fatal(err)
		}
		if b[0].Amount.Cmp(big.NewInt(1000_500_000_000)) != 0 || b[1].Amount.Cmp(big.NewInt(10_002_000_000)) != 0 {
			t.Fatalf("balances %v %v", b[0].Amount, b[1].Amount)
		}
	})
	t.Run("CachedUntilForced", func(t *testing.T) {
		if _, err := e.svc.SolanaBalances(ctx, e.caip, k0.Address, false, nil); err != nil {
			t.Fatal(err)
		}
		before := e.sent.Load()
		b, err := e.svc.SolanaBalances(ctx, e.caip, k0.Address, false, nil)
		if err != nil || e.sent.Load() != before {
			t.Fatalf("a cached read reached the network: %v", err)
		}
		// 1000 SOL - 0.5 - two fees of 5000 lamports.
		if b[0].Amount.Cmp(big.NewInt(1000_000_000_000-500_000_000-10_000)) != 0 {
			t.Fatalf("SOL %v", b[0].Amount)
		}
		code, _ := e.get("/v1/account/" + k0.Address.String() + "/balance?chainId=" + e.caip + "&forceUpdate=" + e.caip + ":" + mint.String())
		if code != 200 || e.sent.Load() == before {
			t.Fatalf("forceUpdate did not read again (%d)", code)
		}
	})
	t.Run("HistoryOfSender", func(t *testing.T) {
		code, body := e.get("/v1/account/" + k0.Address.String() + "/history?chainId=" + e.caip)
		if code != 200 {
			t.Fatalf("%d %s", code, body)
		}
		var res historyResponse
		json.Unmarshal([]byte(body), &res)
		if len(res.Data) != 2 || res.Next != nil {
			t.Fatalf("history %s", body)
		}
		u, s := res.Data[0], res.Data[1]
		if u.ID != usdcSig || u.Metadata.Hash != usdcSig || u.Metadata.OperationType != "send" || u.Metadata.Status != "confirmed" || u.Metadata.Chain != e.caip ||
			u.Metadata.SentFrom != k0.Address.String() || u.Metadata.SentTo != k1.Address.String() || !strings.HasSuffix(u.Metadata.MinedAt, "Z") {
			t.Fatalf("USDC item %+v", u.Metadata)
		}
		if len(u.Transfers) != 1 || u.Transfers[0].Direction != "out" || u.Transfers[0].Quantity.Numeric != "2" || u.Transfers[0].FungibleInfo.Symbol != "USDC" ||
			u.Transfers[0].Recipient != k1.Address.String() || u.Transfers[0].Value == nil || *u.Transfers[0].Value != 2 {
			t.Fatalf("USDC transfer %+v", u.Transfers)
		}
		if s.ID != solSig || len(s.Transfers) != 1 || s.Transfers[0].Direction != "out" || s.Transfers[0].Quantity.Numeric != "0.5" || s.Transfers[0].FungibleInfo.Symbol != "SOL" ||
			s.Transfers[0].Sender != k0.Address.String() || s.Transfers[0].Recipient != k1.Address.String() {
			t.Fatalf("SOL item %+v %+v", s.Metadata, s.Transfers)
		}
	})
	t.Run("HistoryOfRecipientAndPaging", func(t *testing.T) {
		code, body := e.get("/v1/account/" + k1.Address.String() + "/history?chainId=" + e.caip + "&limit=1")
		var res historyResponse
		json.Unmarshal([]byte(body), &res)
		if code != 200 || len(res.Data) != 1 || res.Next == nil || *res.Next != usdcSig || res.Data[0].Metadata.OperationType != "receive" || res.Data[0].Transfers[0].Direction != "in" || res.Data[0].Transfers[0].Sender != k0.Address.String() {
			t.Fatalf("%d %s", code, body)
		}
		code, body = e.get("/v1/account/" + k1.Address.String() + "/history?chainId=" + e.caip + "&limit=1&cursor=" + *res.Next)
		res = historyResponse{}
		json.Unmarshal([]byte(body), &res)
		if code != 200 || len(res.Data) != 1 || res.Data[0].ID != solSig || res.Data[0].Transfers[0].Quantity.Numeric != "0.5" {
			t.Fatalf("page 2: %d %s", code, body)
		}
	})
	t.Run("FailedTransaction", func(t *testing.T) {
		sig := e.send(k2, map[string]any{"skipPreflight": true}, solanadev.TransferSOL(k2.Address, k0.Address, 5000*1_000_000_000))
		page, err := e.svc.SolanaHistory(ctx, e.caip, k2.Address, "", 1, nil)
		if err != nil || len(page.Items) != 1 || page.Items[0].Signature != sig || !page.Items[0].Failed || len(page.Items[0].Movements) != 0 {
			t.Fatalf("%+v %v", page.Items, err)
		}
	})
}

// Bad Solana addresses get the spec's rule in their message, and nothing
// is sent to the network.
func TestHandler_SolanaBadAddress(t *testing.T) {
	e := newSolanaEnv(t)
	before := e.sent.Load()
	for _, tc := range []struct{ addr, want string }{
		{"0x1234", "is not a Solana address (32 to 44 base58 characters)"},
		{"oeYf6KAJkLYhBuR8CiGc6L4D4Xtfepr85fuDgA9kq9", "does not decode to a 32-byte Solana address"},
		{"0eYf6KAJkLYhBuR8CiGc6L4D4Xtfepr85fuDgA9kq96", "is not a Solana address (32 to 44 base58 characters)"},
		{"lllllllllllllllllllllllllllllllllllll", "is not a Solana address"},
		{strings.Repeat("z", 44), "does not decode to a 32-byte Solana address"},
		{strings.Repeat("A", 45), "is not a Solana address (32 to 44 base58 characters)"},
	} {
		for _, route := range []string{"balance", "history"} {
			code, body := e.get("/v1/account/" + tc.addr + "/" + route + "?chainId=" + e.caip)
			if code != 400 || !strings.Contains(body, "Invalid address: ") || !strings.Contains(body, tc.want) {
				t.Errorf("%s %s: %d %s", route, tc.addr, code, body)
			}
		}
	}
	code, body := e.get("/v1/account/undefined/history?chainId=" + e.caip)
	if code != 400 || !strings.Contains(body, "Transactions can't be fetched without an accountAddress") {
		t.Errorf("missing address: %d %s", code, body)
	}
	addr := solanadev.DevKey(solanadev.TestMnemonic, 3).Address.String()
	for _, q := range []string{"chainId=solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z", "chainId=" + e.caip + "&cursor=notasignature", "chainId=" + e.caip + "&forceUpdate=eip155:1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"} {
		route := "history"
		if strings.Contains(q, "forceUpdate") {
			route = "balance"
		}
		if code, body := e.get("/v1/account/" + addr + "/" + route + "?" + q); code/100 != 4 {
			t.Errorf("%s: %d %s", q, code, body)
		}
	}
	if n := e.sent.Load() - before; n != 0 {
		t.Fatalf("%d requests reached the network", n)
	}
}
