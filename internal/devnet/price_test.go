package devnet

import (
	"context"
	"encoding/json"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/latchkit/latch/internal/apperr"
)

// latestAnswer reads a feed's latestRoundData through the public endpoint.
func latestAnswer(tb testing.TB, client *ethclient.Client, feed common.Address) (answer *big.Int, round uint64) {
	tb.Helper()
	data, _ := priceFeedArtifact.ABI.Pack("latestRoundData")
	out, err := client.CallContract(context.Background(), ethereum.CallMsg{To: &feed, Data: data}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	vals, err := priceFeedArtifact.ABI.Unpack("latestRoundData", out)
	if err != nil {
		tb.Fatal(err)
	}
	return vals[1].(*big.Int), vals[0].(*big.Int).Uint64()
}

func feedFor(tb testing.TB, c Chain, symbol string) PriceFeed {
	tb.Helper()
	for _, f := range c.PriceFeeds {
		if f.Symbol == symbol {
			return f
		}
	}
	tb.Fatalf("chain %d has no %s feed", c.ChainID, symbol)
	return PriceFeed{}
}

func TestStart_PriceFeeds(t *testing.T) {
	c := shared.Chains()[1]
	client := MustDial(t, c)
	want := map[string]int64{"ETH": 3000, "USDC": 1, "DAI": 1, "WETH": 3000}
	if len(c.PriceFeeds) != len(want) {
		t.Fatalf("PriceFeeds = %+v", c.PriceFeeds)
	}
	for symbol, usd := range want {
		f := feedFor(t, c, symbol)
		if (symbol == "ETH") != (f.Token == nil) {
			t.Errorf("%s feed token = %v", symbol, f.Token)
		}
		if f.Token != nil && *f.Token != tokenBySymbol(t, c, symbol).Address {
			t.Errorf("%s feed prices %s", symbol, f.Token)
		}
		// Read the price as the Chainlink client code does; the dev chain 2
		// feeds are never changed by tests.
		if got, _ := latestAnswer(t, client, f.Address); got.Cmp(new(big.Int).Mul(big.NewInt(usd), pow10(FeedDecimals))) != 0 {
			t.Errorf("%s answer = %s, want %d×10^8", symbol, got, usd)
		}
	}
	if feedFor(t, c, "WETH").Address != feedFor(t, c, "ETH").Address {
		t.Error("WETH is not priced by the ETH feed")
	}
}

func TestDevnet_SetPrice(t *testing.T) {
	ctx := context.Background()
	c := shared.Chains()[0]
	client := MustDial(t, c)

	t.Run("OK", func(t *testing.T) {
		f := feedFor(t, c, "DAI")
		_, before := latestAnswer(t, client, f.Address)
		res, err := shared.SetPrice(ctx, PriceRequest{CAIPNetworkID: c.CAIPNetworkID, Token: "dai", USD: "0.99875"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Feed != f.Address || res.Symbol != "DAI" || res.Answer.Int64() != 99_875_000 {
			t.Fatalf("result = %+v", res)
		}
		answer, round := latestAnswer(t, client, f.Address)
		if answer.Int64() != 99_875_000 || round != before+1 {
			t.Fatalf("answer %s round %d, want 99875000 in round %d", answer, round, before+1)
		}
	})
	t.Run("OKWETHSetsETH", func(t *testing.T) {
		res, err := shared.SetPrice(ctx, PriceRequest{CAIPNetworkID: c.CAIPNetworkID, Token: tokenBySymbol(t, c, "WETH").Address.Hex(), USD: "3100"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Symbol != "ETH" || res.Feed != feedFor(t, c, "ETH").Address {
			t.Fatalf("result = %+v", res)
		}
		if _, err := shared.SetPrice(ctx, PriceRequest{CAIPNetworkID: c.CAIPNetworkID, Token: "native", USD: "3000"}); err != nil {
			t.Fatal(err)
		}
	})
	for _, tt := range []struct {
		name string
		req  PriceRequest
		code string
	}{
		{"ErrNetwork", PriceRequest{CAIPNetworkID: "eip155:1", Token: "USDC", USD: "1"}, apperr.NotFound},
		{"ErrToken", PriceRequest{CAIPNetworkID: c.CAIPNetworkID, Token: "PEPE", USD: "1"}, apperr.NotFound},
		{"ErrTokenMissing", PriceRequest{CAIPNetworkID: c.CAIPNetworkID, USD: "1"}, apperr.Invalid},
		{"ErrZero", PriceRequest{CAIPNetworkID: c.CAIPNetworkID, Token: "USDC", USD: "0.00"}, apperr.Invalid},
		{"ErrNegative", PriceRequest{CAIPNetworkID: c.CAIPNetworkID, Token: "USDC", USD: "-1"}, apperr.Invalid},
		{"ErrTooPrecise", PriceRequest{CAIPNetworkID: c.CAIPNetworkID, Token: "USDC", USD: "1.000000001"}, apperr.Invalid},
		{"ErrTooLarge", PriceRequest{CAIPNetworkID: c.CAIPNetworkID, Token: "USDC", USD: "1000000001"}, apperr.Invalid},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := shared.SetPrice(ctx, tt.req); apperr.Code(err) != tt.code {
				t.Fatalf("err = %v, want code %s", err, tt.code)
			}
		})
	}
}

// Rollback rewinds the chain, drops the rewound transactions, and the chain
// then seals different blocks at the same heights; WatchHeads reports heads.
func TestDevnet_Rollback(t *testing.T) {
	ctx := context.Background()
	// A devnet of its own: rewinding the shared one would undo other tests' state.
	d, err := Start(ctx, Config{ChainIDs: []uint64{31339}, Logger: testLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	c := d.Chains()[0]
	client := MustDial(t, c)

	wake := make(chan struct{}, 1)
	stop, err := d.WatchHeads(c.CAIPNetworkID, wake)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()

	base, err := client.BlockNumber(ctx)
	if err != nil {
		t.Fatal(err)
	}
	a := newRecipient(t)
	res, err := d.Faucet(ctx, FaucetRequest{Address: a.Hex(), CAIPNetworkID: c.CAIPNetworkID, Amount: "1"})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-wake:
	case <-time.After(2 * time.Second):
		t.Fatal("WatchHeads sent nothing for a new block")
	}
	old, err := client.HeaderByNumber(ctx, new(big.Int).SetUint64(base+1))
	if err != nil {
		t.Fatal(err)
	}

	if err := d.Rollback(ctx, c.CAIPNetworkID, base+5); apperr.Code(err) != apperr.Invalid {
		t.Fatalf("Rollback above the head: err = %v", err)
	}
	if err := d.Rollback(ctx, c.CAIPNetworkID, base); err != nil {
		t.Fatal(err)
	}
	if head, _ := client.BlockNumber(ctx); head != base {
		t.Fatalf("head after rollback = %d, want %d", head, base)
	}
	if bal, _ := client.BalanceAt(ctx, a, nil); bal.Sign() != 0 {
		t.Fatalf("rewound transfer still credited: %s", bal)
	}

	// The deployer's nonce follows the rewind: the faucet works again, and
	// the block at base+1 is a different one.
	b := newRecipient(t)
	if _, err := d.Faucet(ctx, FaucetRequest{Address: b.Hex(), CAIPNetworkID: c.CAIPNetworkID, Token: "USDC", Amount: "2"}); err != nil {
		t.Fatal(err)
	}
	// The faucet's block is sealed from the pool: a wrongly re-injected
	// rewound transaction would have been sealed by now.
	if r, err := client.TransactionReceipt(ctx, common.HexToHash(res.TxHash)); err == nil {
		t.Fatalf("rewound transaction sealed again in block %d", r.BlockNumber)
	}
	fresh, err := client.HeaderByNumber(ctx, new(big.Int).SetUint64(base+1))
	if err != nil {
		t.Fatal(err)
	}
	if fresh.Hash() == old.Hash() || fresh.ParentHash != old.ParentHash {
		t.Fatalf("block %d: old %s, new %s (parents %s, %s)", base+1, old.Hash(), fresh.Hash(), old.ParentHash, fresh.ParentHash)
	}
	block, err := client.BlockByNumber(ctx, new(big.Int).SetUint64(base+1))
	if err != nil {
		t.Fatal(err)
	}
	if len(block.Transactions()) != 1 || block.Transactions()[0].Hash() == common.HexToHash(res.TxHash) {
		t.Fatalf("new block holds %d transactions", len(block.Transactions()))
	}
}

func TestFormatPrice(t *testing.T) {
	for in, want := range map[int64]string{100_000_000: "1.00", 99_875_000: "0.99875", 300_000_000_000: "3000.00", 1: "0.00000001", 150_000_000: "1.50"} {
		if got := formatPrice(big.NewInt(in)); got != want {
			t.Errorf("formatPrice(%d) = %q, want %q", in, got, want)
		}
	}
}

func TestDevnet_HandlePrice(t *testing.T) {
	c := shared.Chains()[0]
	var changed []string
	h := shared.HandlePrice(func(id string) { changed = append(changed, id) })
	post := func(body string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/dev/price", strings.NewReader(body)))
		return w
	}
	w := post(`{"chainId":"` + c.CAIPNetworkID + `","token":"USDC","usd":"1.5"}`)
	if w.Code != http.StatusOK {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	var res priceResponseBody
	if err := json.Unmarshal(w.Body.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	if res.Token != "USDC" || res.USD != "1.50" || res.Feed != feedFor(t, c, "USDC").Address.Hex() || len(changed) != 1 || changed[0] != c.CAIPNetworkID {
		t.Fatalf("response %+v, changed %v", res, changed)
	}
	if answer, _ := latestAnswer(t, MustDial(t, c), feedFor(t, c, "USDC").Address); answer.Int64() != 150_000_000 {
		t.Fatalf("answer = %s", answer)
	}
	// Put the price back for other tests.
	if w := post(`{"chainId":"` + c.CAIPNetworkID + `","token":"USDC","usd":"1"}`); w.Code != http.StatusOK {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	if w := post(`{"chainId":"` + c.CAIPNetworkID + `","token":"USDC","usd":"abc"}`); w.Code != http.StatusBadRequest || len(changed) != 2 {
		t.Fatalf("bad price: status %d, changed %v: %s", w.Code, changed, w.Body)
	}
}
