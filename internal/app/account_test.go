package app_test

import (
	"context"
	"crypto/ecdsa"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/latchkit/latch/contracts"
	"github.com/latchkit/latch/internal/app"
	"github.com/latchkit/latch/internal/poll"
	"github.com/latchkit/latch/internal/store/storetest"
)

// mustRunAccountMain is MustRunMain with a config tweak.
func mustRunAccountMain(tb testing.TB, databaseURL string, tweak func(*app.Config)) *app.Main {
	tb.Helper()
	cfg := app.Config{
		Dev: true, Addr: "127.0.0.1:0", FrameAddr: "127.0.0.1:0", DataDir: storetest.SQLiteDir(tb), DatabaseURL: databaseURL,
		DevChains: []uint64{31337, 31338}, ShutdownTimeout: 5 * time.Second,
		IndexConfirmations: 2, IndexPollInterval: 2 * time.Second, IdentityNetwork: "eip155:1",
	}
	if tweak != nil {
		tweak(&cfg)
	}
	m := app.NewMain(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := m.Run(context.Background()); err != nil {
		tb.Fatalf("Run: %v", err)
	}
	tb.Cleanup(func() { m.Close() })
	return m
}

// History JSON as the client reads it (api-shapes §3.2).
type historyJSON struct {
	Data []struct {
		ID       string `json:"id"`
		Metadata struct {
			OperationType string `json:"operationType"`
			Hash          string `json:"hash"`
			Chain         string `json:"chain"`
			MinedAt       string `json:"minedAt"`
			SentFrom      string `json:"sentFrom"`
			SentTo        string `json:"sentTo"`
			Status        string `json:"status"`
			Nonce         int    `json:"nonce"`
		} `json:"metadata"`
		Transfers []struct {
			FungibleInfo *struct {
				Name   string `json:"name"`
				Symbol string `json:"symbol"`
				Icon   struct {
					URL string `json:"url"`
				} `json:"icon"`
			} `json:"fungible_info"`
			Direction string `json:"direction"`
			Quantity  struct {
				Numeric string `json:"numeric"`
			} `json:"quantity"`
			Value *float64 `json:"value"`
			Price *float64 `json:"price"`
		} `json:"transfers"`
	} `json:"data"`
	Next *string `json:"next"`
}

type balanceJSON struct {
	Balances []struct {
		Name     string   `json:"name"`
		Symbol   string   `json:"symbol"`
		ChainID  string   `json:"chainId"`
		Address  string   `json:"address"`
		Value    *float64 `json:"value"`
		Price    float64  `json:"price"`
		Quantity struct {
			Decimals string `json:"decimals"`
			Numeric  string `json:"numeric"`
		} `json:"quantity"`
		IconURL string `json:"iconUrl"`
	} `json:"balances"`
}

// signer sends transactions from a fresh key on a dev chain, as a wallet would.
type signer struct {
	t     *testing.T
	key   *ecdsa.PrivateKey
	addr  common.Address
	eth   *ethclient.Client
	chain *big.Int
}

func newSigner(t *testing.T, rpcURL string, chainID uint64) *signer {
	key, _ := crypto.GenerateKey()
	eth, err := ethclient.Dial(rpcURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(eth.Close)
	return &signer{t: t, key: key, addr: crypto.PubkeyToAddress(key.PublicKey), eth: eth, chain: new(big.Int).SetUint64(chainID)}
}

func (s *signer) send(to common.Address, value *big.Int, data []byte, gas uint64) common.Hash {
	s.t.Helper()
	ctx := context.Background()
	nonce, err := s.eth.PendingNonceAt(ctx, s.addr)
	if err != nil {
		s.t.Fatal(err)
	}
	head, err := s.eth.HeaderByNumber(ctx, nil)
	if err != nil {
		s.t.Fatal(err)
	}
	if value == nil {
		value = new(big.Int)
	}
	tx, err := types.SignNewTx(s.key, types.LatestSignerForChainID(s.chain), &types.DynamicFeeTx{
		ChainID: s.chain, Nonce: nonce, GasTipCap: big.NewInt(1e9), GasFeeCap: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(3)), big.NewInt(1e9)),
		Gas: gas, To: &to, Value: value, Data: data,
	})
	if err != nil {
		s.t.Fatal(err)
	}
	if err := s.eth.SendTransaction(ctx, tx); err != nil {
		s.t.Fatal(err)
	}
	return tx.Hash()
}

// waitHistory polls the history until it has n entries (the indexer picks a
// dev block up within milliseconds; the deadline only guards a hang).
func waitHistory(t *testing.T, c client, path string, n int) historyJSON {
	t.Helper()
	var h historyJSON
	var r response
	if !poll.Until(10*time.Second, nil, func() bool {
		h = historyJSON{}
		r = c.do("GET", path, "")
		c.want(r, 200)
		r.json(t, &h)
		return len(h.Data) >= n
	}) {
		t.Fatalf("history has %d entries, want %d: %s", len(h.Data), n, r.body)
	}
	return h
}

func TestAccount_EndToEnd(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { accountEndToEnd(t, "") })
	if base := os.Getenv("LATCH_TEST_POSTGRES"); base != "" {
		t.Run("postgres", func(t *testing.T) {
			url, drop := storetest.FreshSchema(t, base)
			t.Cleanup(drop)
			accountEndToEnd(t, url)
		})
	}
}

func accountEndToEnd(t *testing.T, databaseURL string) {
	m := mustRunAccountMain(t, databaseURL, nil)
	c := client{t: t, base: m.APIURL()}
	info := m.Info()
	pid := "projectId=" + info.ProjectID
	chain := info.Networks[0]
	usdc := common.HexToAddress(info.Tokens[chain.CAIPNetworkID]["USDC"].Address)
	if len(info.PriceFeeds[chain.CAIPNetworkID]) != 4 {
		t.Fatalf("dev info price feeds: %v", info.PriceFeeds)
	}

	w := newSigner(t, chain.RPCURL, chain.ChainID)
	recipient := common.HexToAddress("0x000000000000000000000000000000000000bEEF")
	c.want(c.do("POST", "/dev/faucet", fmt.Sprintf(`{"address":%q,"caipNetworkId":%q,"amount":"1"}`, w.addr.Hex(), chain.CAIPNetworkID)), 200)
	c.want(c.do("POST", "/dev/faucet", fmt.Sprintf(`{"address":%q,"caipNetworkId":%q,"token":"USDC","amount":"100"}`, w.addr.Hex(), chain.CAIPNetworkID)), 200)
	transfer, _ := contracts.MustLoad("DevToken").ABI.Pack("transfer", recipient, big.NewInt(10_000_000))
	sent := w.send(usdc, nil, transfer, 100_000)

	wPath := fmt.Sprintf("/v1/account/%s/history?%s&chainId=%s", w.addr.Hex(), pid, chain.CAIPNetworkID)
	t.Run("HistoryRightAfterSend", func(t *testing.T) {
		c := client{t: t, base: m.APIURL()}
		// The recipient's Activity shows the transfer as soon as it is mined.
		h := waitHistory(t, c, fmt.Sprintf("/v1/account/%s/history?%s&chainId=%s", recipient.Hex(), pid, chain.CAIPNetworkID), 1)
		got := h.Data[0]
		if got.ID != sent.Hex() || got.Metadata.Hash != sent.Hex() || got.Metadata.OperationType != "receive" || got.Metadata.Status != "confirmed" ||
			got.Metadata.Chain != chain.CAIPNetworkID || got.Metadata.SentFrom != w.addr.Hex() || got.Metadata.SentTo != usdc.Hex() || h.Next != nil {
			t.Fatalf("recipient history: %+v", h)
		}
		if _, err := time.Parse(time.RFC3339, got.Metadata.MinedAt); err != nil {
			t.Fatalf("minedAt %q: %v", got.Metadata.MinedAt, err)
		}
		tr := got.Transfers[0]
		if len(got.Transfers) != 1 || tr.FungibleInfo == nil || tr.FungibleInfo.Symbol != "USDC" || tr.Direction != "in" || tr.Quantity.Numeric != "10" ||
			tr.Price == nil || *tr.Price != 1 || tr.Value == nil || *tr.Value != 10 || !strings.Contains(tr.FungibleInfo.Icon.URL, "/public/getTokenImage/USDC?projectId=") {
			t.Fatalf("transfer %+v", tr)
		}
	})

	t.Run("HistoryPaging", func(t *testing.T) {
		c := client{t: t, base: m.APIURL()}
		all := waitHistory(t, c, wPath, 3)
		var ops []string
		for _, d := range all.Data {
			ops = append(ops, d.Metadata.OperationType+":"+d.Transfers[0].Direction)
		}
		if fmt.Sprint(ops) != "[send:out mint:in receive:in]" || all.Data[0].Metadata.Nonce != 0 {
			t.Fatalf("history of the sender: %v", ops)
		}
		var paged []string
		cursor := ""
		for i := 0; ; i++ {
			var h historyJSON
			r := c.do("GET", wPath+"&limit=1"+cursor, "")
			c.want(r, 200)
			r.json(t, &h)
			for _, d := range h.Data {
				paged = append(paged, d.ID)
			}
			if h.Next == nil {
				break
			}
			if i > 5 {
				t.Fatal("paging does not end")
			}
			cursor = "&cursor=" + *h.Next
		}
		if len(paged) != 3 || paged[0] != all.Data[0].ID || paged[1] != all.Data[1].ID || paged[2] != all.Data[2].ID {
			t.Fatalf("paged %v", paged)
		}
	})

	bPath := fmt.Sprintf("/v1/account/%s/balance?%s&currency=usd&chainId=%s", w.addr.Hex(), pid, chain.CAIPNetworkID)
	t.Run("BalanceEqualsChain", func(t *testing.T) {
		c := client{t: t, base: m.APIURL()}
		var b balanceJSON
		r := c.do("GET", bPath, "")
		c.want(r, 200)
		r.json(t, &b)
		wei, err := w.eth.BalanceAt(context.Background(), w.addr, nil)
		if err != nil {
			t.Fatal(err)
		}
		eth, _ := new(big.Float).Quo(new(big.Float).SetInt(wei), big.NewFloat(1e18)).Float64()
		if len(b.Balances) != 2 || b.Balances[0].Symbol != "ETH" || b.Balances[0].Address != "" || b.Balances[0].Quantity.Decimals != "18" ||
			b.Balances[0].Price != 3000 || b.Balances[0].Value == nil {
			t.Fatalf("balances %+v", b)
		}
		if got, _ := new(big.Float).SetString(b.Balances[0].Quantity.Numeric); got == nil {
			t.Fatalf("numeric %q", b.Balances[0].Quantity.Numeric)
		} else if f, _ := got.Float64(); f != eth {
			t.Fatalf("ETH %s, chain has %v", b.Balances[0].Quantity.Numeric, eth)
		}
		u := b.Balances[1]
		if u.Symbol != "USDC" || u.Name != "USD Coin" || u.Address != chain.CAIPNetworkID+":"+usdc.Hex() || u.Quantity.Numeric != "90" || u.Quantity.Decimals != "6" || u.Price != 1 || *u.Value != 90 {
			t.Fatalf("USDC %+v", u)
		}
	})

	t.Run("DevPriceShowsAtOnce", func(t *testing.T) {
		c := client{t: t, base: m.APIURL()}
		c.want(c.do("POST", "/dev/price", fmt.Sprintf(`{"chainId":%q,"token":"USDC","usd":"2.5"}`, chain.CAIPNetworkID)), 200, `"usd":"2.50"`, `"token":"USDC"`)
		var b balanceJSON
		c.do("GET", bPath, "").json(t, &b)
		if b.Balances[1].Price != 2.5 || *b.Balances[1].Value != 225 {
			t.Fatalf("USDC after /dev/price: %+v", b.Balances[1])
		}
		// The price API, with projectId in the body as AppKit sends it.
		body := fmt.Sprintf(`{"currency":"usd","addresses":["%s:%s","%s:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee","%s:0x0000000000000000000000000000000000000abc"],"projectId":%q}`,
			chain.CAIPNetworkID, usdc.Hex(), chain.CAIPNetworkID, chain.CAIPNetworkID, info.ProjectID)
		var p struct {
			Fungibles []struct {
				Address, Name, Symbol string
				Price                 float64
				Decimals              int
			}
		}
		r := c.do("POST", "/v1/fungible/price", body)
		c.want(r, 200)
		r.json(t, &p)
		if len(p.Fungibles) != 2 || p.Fungibles[0].Symbol != "USDC" || p.Fungibles[0].Price != 2.5 || p.Fungibles[0].Decimals != 6 ||
			p.Fungibles[1].Symbol != "ETH" || p.Fungibles[1].Price != 3000 {
			t.Fatalf("prices %s", r.body)
		}
		c.want(c.do("POST", "/dev/price", fmt.Sprintf(`{"chainId":%q,"token":"USDC","usd":"1"}`, chain.CAIPNetworkID)), 200)
	})

	t.Run("Identity", func(t *testing.T) {
		c := client{t: t, base: m.APIURL()}
		// No mainnet upstream in the default setup: no names, and no host called.
		c.want(c.do("GET", "/v1/identity/"+w.addr.Hex()+"?"+pid, ""), 200, `{"name":null,"avatar":null}`)
		c.want(c.do("GET", "/v1/account/"+w.addr.Hex()+"/identity?"+pid+"&sender="+w.addr.Hex(), ""), 200, `"name":null`)
		c.want(c.do("GET", "/v1/identity/7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV?"+pid, ""), 200, `"name":null`)
	})

	t.Run("Errors", func(t *testing.T) {
		c := client{t: t, base: m.APIURL()}
		a := w.addr.Hex()
		for _, tt := range []struct {
			method, path, body string
			status             int
			text               string
		}{
			{"GET", "/v1/account/undefined/history?" + pid + "&chainId=eip155:31337", "", 400, "Transactions can't be fetched without an accountAddress"},
			{"GET", "/v1/account/history?" + pid + "&chainId=eip155:31337", "", 400, "Transactions can't be fetched without an accountAddress"},
			{"GET", "/v1/account/0x12/history?" + pid + "&chainId=eip155:31337", "", 400, "Invalid address"},
			{"GET", "/v1/account/" + a + "/history?" + pid, "", 400, "chainId is required"},
			{"GET", "/v1/account/" + a + "/history?" + pid + "&chainId=eip155", "", 400, "Invalid CAIP-2 network id: eip155"},
			{"GET", "/v1/account/" + a + "/history?" + pid + "&chainId=eip155:1", "", 404, "History is not indexed for eip155:1"},
			{"GET", "/v1/account/" + a + "/history?" + pid + "&chainId=eip155:31337&cursor=1-x-2", "", 400, "Invalid cursor"},
			{"GET", "/v1/account/" + a + "/history?" + pid + "&chainId=eip155:31337&limit=0", "", 400, "limit"},
			{"GET", "/v1/account/" + a + "/history?chainId=eip155:31337", "", 401, "projectId"},
			{"GET", "/v1/account/" + a + "/balance?" + pid + "&chainId=eip155:1", "", 404, "No RPC upstream for eip155:1"},
			{"GET", "/v1/account/" + a + "/balance?" + pid + "&chainId=eip155:31337&currency=eur", "", 400, "Only usd"},
			{"GET", "/v1/account/" + a + "/balance?" + pid + "&chainId=eip155:31337&forceUpdate=eip155:31337:0x12", "", 400, "forceUpdate"},
			{"GET", "/v1/account/0xF39fd6e51aad88f6f4ce6ab8827279cfffb92266/balance?" + pid + "&chainId=eip155:31337", "", 400, "EIP-55"},
			{"GET", "/v1/identity/nope?" + pid, "", 400, "Invalid address"},
			{"POST", "/v1/fungible/price?" + pid, `{"currency":"usd","addresses":[]}`, 400, "addresses is required"},
			{"POST", "/v1/fungible/price?" + pid, `{"currency":"eur","addresses":["eip155:31337:` + usdc.Hex() + `"]}`, 400, "Only usd"},
			{"POST", "/v1/fungible/price?" + pid, `{"currency":"usd","addresses":["eip155:31337"]}`, 400, "Invalid CAIP-10 address"},
			{"POST", "/v1/fungible/price", `{"currency":"usd","addresses":["eip155:31337:` + usdc.Hex() + `"]}`, 401, "projectId"},
			{"POST", "/dev/price", `{"chainId":"eip155:31337","token":"USDC","usd":"0"}`, 400, "greater than zero"},
		} {
			c.want(c.do(tt.method, tt.path, tt.body), tt.status, tt.text)
		}
		c.want(c.do("POST", "/dev/price", `{"chainId":"eip155:31337","token":"USDC","usd":"1"}`, "Origin", "https://evil.example"), 403, "Origin not allowed")
	})
}

// Requests that cost upstream calls are limited per IP; cached answers are not.
func TestAccount_RateLimit(t *testing.T) {
	m := mustRunAccountMain(t, "", func(c *app.Config) { c.AccountRateLimit = 2 })
	c := client{t: t, base: m.APIURL()}
	pid := "projectId=" + m.DevProjectID
	balance := func(addr string) response {
		return c.do("GET", "/v1/account/"+addr+"/balance?"+pid+"&chainId=eip155:31337", "")
	}
	a1, a2, a3 := "0x00000000000000000000000000000000000000a1", "0x00000000000000000000000000000000000000a2", "0x00000000000000000000000000000000000000a3"
	c.want(balance(a1), 200)
	c.want(balance(a2), 200)
	c.want(balance(a1), 200) // cached: free
	r := balance(a3)
	c.want(r, 429, "uncached account data requests per IP")
	if r.header.Get("Retry-After") == "" {
		t.Fatal("429 without Retry-After")
	}
	// History reads only the database: not limited by this budget.
	c.want(c.do("GET", "/v1/account/"+a3+"/history?"+pid+"&chainId=eip155:31337", ""), 200, `"data":[]`, `"next":null`)
}
