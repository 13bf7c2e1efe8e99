package swap_test

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/latchkit/latch/contracts"
	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/devnet"
	"github.com/latchkit/latch/internal/evm"
	"github.com/latchkit/latch/internal/poll"
	"github.com/latchkit/latch/internal/swap"
)

// dev is the package's dev chains: chain 0 for most tests, chain 1 for the
// test that unbalances a pool.
var dev *devnet.Devnet

func TestMain(m *testing.M) {
	d, err := devnet.Start(context.Background(), devnet.Config{Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	if err != nil {
		fmt.Fprintln(os.Stderr, "start devnet:", err)
		os.Exit(1)
	}
	dev = d
	code := m.Run()
	d.Close()
	os.Exit(code)
}

var (
	routerABI = contracts.MustLoad("LatchSwapRouter").ABI
	erc20ABI  = contracts.MustLoad("DevToken").ABI
)

// fixture is a Service over one dev chain, read through its HTTP endpoint
// as latchd reads any network.
type fixture struct {
	chain  devnet.Chain
	svc    *swap.Service
	net    *swap.Network
	eth    *ethclient.Client
	tokens map[string]devnet.Token
}

type fixtureOpts struct {
	ttl   time.Duration
	now   func() time.Time
	extra []swap.Token // listed tokens beyond the dev ones
}

func newFixture(t testing.TB, chainIndex int, o fixtureOpts) *fixture {
	t.Helper()
	c := dev.Chains()[chainIndex]
	client, err := evm.NewClient([]string{c.RPCURL})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.Close)
	f := &fixture{chain: c, tokens: map[string]devnet.Token{}}
	n := &swap.Network{ID: c.CAIPNetworkID, Client: client, Native: swap.Token{Address: swap.NativeAddress, Symbol: "ETH", Name: "Ether", Decimals: 18}}
	var bases []common.Address
	for _, tok := range c.Tokens {
		f.tokens[tok.Symbol] = tok
		n.Tokens = append(n.Tokens, swap.Token{Address: tok.Address, Symbol: tok.Symbol, Name: tok.Name, Decimals: tok.Decimals})
		bases = append(bases, tok.Address)
	}
	n.Tokens = append(n.Tokens, o.extra...)
	ttl := o.ttl
	if ttl == 0 {
		ttl = -1 // read the chain on every quote unless the test says otherwise
	}
	n.Provider = swap.NewV2(swap.V2Config{Router: c.SwapRouter, Client: client, Bases: bases, ReserveTTL: ttl, Now: o.now})
	f.net = n
	f.svc = swap.New(swap.Config{Networks: []*swap.Network{n}, Now: o.now})
	if f.eth, err = ethclient.Dial(c.RPCURL); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.eth.Close)
	return f
}

// caip returns the CAIP-10 id of a dev token ("ETH": the native coin).
func (f *fixture) caip(symbol string) string {
	if symbol == "ETH" {
		return f.chain.CAIPNetworkID + ":" + swap.NativeAddress.Hex()
	}
	return f.chain.CAIPNetworkID + ":" + f.tokens[symbol].Address.Hex()
}

func (f *fixture) account(a common.Address) string { return f.chain.CAIPNetworkID + ":" + a.Hex() }

// getAmountsOut asks the router on chain.
func (f *fixture) getAmountsOut(t *testing.T, amount *big.Int, path []common.Address) []*big.Int {
	t.Helper()
	data, _ := routerABI.Pack("getAmountsOut", amount, path)
	out, err := f.eth.CallContract(context.Background(), ethereum.CallMsg{To: &f.chain.SwapRouter, Data: data}, nil)
	if err != nil {
		t.Fatalf("getAmountsOut %v: %v", path, err)
	}
	vals, err := routerABI.Unpack("getAmountsOut", out)
	if err != nil {
		t.Fatal(err)
	}
	return vals[0].([]*big.Int)
}

func (f *fixture) quote(t *testing.T, from, to, amount string) swap.Quoted {
	t.Helper()
	p, err := f.svc.ParsePair(f.caip(from), f.caip(to), "", amount)
	if err != nil {
		t.Fatal(err)
	}
	q, err := f.svc.Quote(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// user is a fresh funded account.
type user struct {
	key  *ecdsa.PrivateKey
	addr common.Address
}

func (f *fixture) newUser(t *testing.T, funds map[string]string) user {
	t.Helper()
	key, _ := crypto.GenerateKey()
	u := user{key: key, addr: crypto.PubkeyToAddress(key.PublicKey)}
	for sym, amount := range funds {
		token := sym
		if sym == "ETH" {
			token = ""
		}
		if _, err := dev.Faucet(context.Background(), devnet.FaucetRequest{Address: u.addr.Hex(), CAIPNetworkID: f.chain.CAIPNetworkID, Token: token, Amount: amount}); err != nil {
			t.Fatal(err)
		}
	}
	return u
}

// send signs tx as the user's wallet would and waits for its receipt.
func (f *fixture) send(t *testing.T, u user, tx swap.Tx) *types.Receipt {
	t.Helper()
	ctx := context.Background()
	nonce, err := f.eth.PendingNonceAt(ctx, u.addr)
	if err != nil {
		t.Fatal(err)
	}
	id := new(big.Int).SetUint64(f.chain.ChainID)
	signed, err := types.SignNewTx(u.key, types.LatestSignerForChainID(id), &types.LegacyTx{
		Nonce: nonce, GasPrice: tx.GasPrice, Gas: tx.Gas, To: &tx.To, Value: tx.Value, Data: tx.Data,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.eth.SendTransaction(ctx, signed); err != nil {
		t.Fatal(err)
	}
	var r *types.Receipt
	if !poll.Until(10*time.Second, nil, func() bool {
		r, err = f.eth.TransactionReceipt(ctx, signed.Hash())
		return err == nil
	}) {
		t.Fatalf("transaction not mined: %v", err)
	}
	return r
}

func (f *fixture) balance(t *testing.T, symbol string, who common.Address) *big.Int {
	t.Helper()
	ctx := context.Background()
	if symbol == "ETH" {
		b, err := f.eth.BalanceAt(ctx, who, nil)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	tok := f.tokens[symbol].Address
	data, _ := erc20ABI.Pack("balanceOf", who)
	out, err := f.eth.CallContract(ctx, ethereum.CallMsg{To: &tok, Data: data}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return new(big.Int).SetBytes(out)
}

func TestService_Quote(t *testing.T) {
	f := newFixture(t, 0, fixtureOpts{})
	weth := f.tokens["WETH"].Address
	cases := []struct{ from, to, amount string }{
		{"USDC", "WETH", "100000000"},             // 100 USDC
		{"WETH", "DAI", "1000000000000000000"},    // 1 WETH
		{"DAI", "USDC", "2500000000000000000000"}, // 2,500 DAI
		{"ETH", "USDC", "500000000000000000"},     // 0.5 ETH, as WETH
		{"USDC", "ETH", "3000000000"},             // 3,000 USDC for ether
		{"USDC", "DAI", "123456789"},              // odd amount
		{"DAI", "WETH", "1"},                      // 1 wei of DAI buys nothing…
	}
	for _, tc := range cases {
		t.Run(tc.from+"-"+tc.to+"-"+tc.amount, func(t *testing.T) {
			p, err := f.svc.ParsePair(f.caip(tc.from), f.caip(tc.to), "", tc.amount)
			if err != nil {
				t.Fatal(err)
			}
			q, err := f.svc.Quote(context.Background(), p)
			if tc.amount == "1" {
				if e := apperr.As(err); e == nil || !strings.Contains(e.Message, "No liquidity to swap DAI for WETH") {
					t.Fatalf("1 wei of DAI: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			// The quote is exactly what the router computes on chain.
			onChain := f.getAmountsOut(t, p.Amount, q.Route.Path)
			for i := range onChain {
				if onChain[i].Cmp(q.Route.Amounts[i]) != 0 {
					t.Fatalf("amounts %v, router's getAmountsOut %v", q.Route.Amounts, onChain)
				}
			}
			// Native in or out travels as the router's WETH.
			if (tc.from == "ETH" && q.Route.Path[0] != weth) || (tc.to == "ETH" && q.Route.Path[len(q.Route.Path)-1] != weth) {
				t.Fatalf("path %v does not start/end with WETH", q.Route.Path)
			}
			// No other candidate route pays more.
			from, to := q.Route.Path[0], q.Route.Path[len(q.Route.Path)-1]
			best := f.getAmountsOut(t, p.Amount, []common.Address{from, to})
			for _, mid := range f.chain.Tokens {
				if mid.Address == from || mid.Address == to {
					continue
				}
				if out := f.getAmountsOut(t, p.Amount, []common.Address{from, mid.Address, to}); out[2].Cmp(best[len(best)-1]) > 0 {
					best = out
				}
			}
			if best[len(best)-1].Cmp(q.Route.AmountOut()) != 0 {
				t.Fatalf("quote %s, best route pays %s", q.Route.AmountOut(), best[len(best)-1])
			}
			if q.Route.PriceImpact < 0 || q.Route.PriceImpact > 1 {
				t.Errorf("price impact %.4f%% for a small trade", q.Route.PriceImpact)
			}
		})
	}
}

// After a whale buys most of the WETH in the USDC/WETH pool, USDC → WETH
// through DAI pays more than the direct pool, and the quote takes it.
func TestService_Quote_OneHopBeatsDirect(t *testing.T) {
	f := newFixture(t, 1, fixtureOpts{})
	usdc, dai, weth := f.tokens["USDC"].Address, f.tokens["DAI"].Address, f.tokens["WETH"].Address

	q := f.quote(t, "USDC", "WETH", "100000000")
	if len(q.Route.Path) != 2 {
		t.Fatalf("balanced pools: path %v, want the direct pool", q.Route.Path)
	}

	whale := f.newUser(t, map[string]string{"ETH": "10", "USDC": "1000000"})
	approve, err := f.svc.BuildApprove(context.Background(), f.account(whale.addr), f.caip("USDC"), "", "")
	if err != nil {
		t.Fatal(err)
	}
	f.send(t, whale, approve)
	b, err := f.svc.BuildSwap(context.Background(), swap.SwapRequest{From: f.caip("USDC"), To: f.caip("WETH"), User: f.account(whale.addr), Amount: "1000000000000"})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Route.Path) != 2 {
		t.Fatalf("whale's 1,000,000 USDC went %v; the test needs it in the direct pool", b.Route.Path)
	}
	if r := f.send(t, whale, b.Tx); r.Status != types.ReceiptStatusSuccessful {
		t.Fatal("whale's swap reverted")
	}
	if b.Route.PriceImpact < 10 {
		t.Errorf("whale's price impact %.2f%%, want a large one", b.Route.PriceImpact)
	}

	q = f.quote(t, "USDC", "WETH", "100000000")
	if len(q.Route.Path) != 3 || q.Route.Path[0] != usdc || q.Route.Path[1] != dai || q.Route.Path[2] != weth {
		t.Fatalf("after the whale: path %v, want USDC → DAI → WETH", q.Route.Path)
	}
	direct := f.getAmountsOut(t, big.NewInt(100_000_000), []common.Address{usdc, weth})
	if q.Route.AmountOut().Cmp(direct[1]) <= 0 {
		t.Fatalf("one-hop %s does not beat direct %s", q.Route.AmountOut(), direct[1])
	}
}

// Approve once, swap twice: the allowance stays, the balances move by
// the quoted amounts; a swap built before the price moved beyond its
// slippage reverts on chain and can no longer be built.
func TestService_ApproveAndSwap(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 0, fixtureOpts{})
	u := f.newUser(t, map[string]string{"ETH": "10", "USDC": "1000"})

	allowance := func() *big.Int {
		a, err := f.svc.Allowance(ctx, f.caip("USDC"), f.account(u.addr))
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	if a := allowance(); a.Sign() != 0 {
		t.Fatalf("fresh allowance %s", a)
	}
	if a, err := f.svc.Allowance(ctx, f.caip("ETH"), f.account(u.addr)); err != nil || a.BitLen() != 256 {
		t.Fatalf("native allowance %v, %v; want the maximum", a, err)
	}

	t.Run("ErrNotApproved", func(t *testing.T) {
		_, err := f.svc.BuildSwap(ctx, swap.SwapRequest{From: f.caip("USDC"), To: f.caip("WETH"), User: f.account(u.addr), Amount: "100000000"})
		if e := apperr.As(err); e == nil || e.Message != "Approve USDC first: the router may take 0 of the 100 USDC to swap" {
			t.Fatalf("swap before approve: %v", err)
		}
	})

	approve, err := f.svc.BuildApprove(ctx, f.account(u.addr), f.caip("USDC"), f.caip("WETH"), "")
	if err != nil {
		t.Fatal(err)
	}
	if approve.To != f.tokens["USDC"].Address || approve.Value.Sign() != 0 || approve.Gas == 0 {
		t.Fatalf("approve tx %+v", approve)
	}
	if r := f.send(t, u, approve); r.Status != types.ReceiptStatusSuccessful {
		t.Fatal("approve reverted")
	}
	if a := allowance(); a.BitLen() != 256 {
		t.Fatalf("allowance after approve %s, want the maximum", a)
	}

	for i := range 2 {
		usdcBefore, wethBefore := f.balance(t, "USDC", u.addr), f.balance(t, "WETH", u.addr)
		b, err := f.svc.BuildSwap(ctx, swap.SwapRequest{From: f.caip("USDC"), To: f.caip("WETH"), User: f.account(u.addr), Amount: "100000000"})
		if err != nil {
			t.Fatalf("swap %d: %v", i+1, err)
		}
		if b.To != f.chain.SwapRouter || b.Value.Sign() != 0 {
			t.Fatalf("swap tx to %s value %s", b.To, b.Value)
		}
		// Default slippage: 1%.
		want := new(big.Int).Div(new(big.Int).Mul(b.Route.AmountOut(), big.NewInt(99)), big.NewInt(100))
		if b.MinOut.Cmp(want) != 0 {
			t.Fatalf("minimum out %s, want %s (1%% under %s)", b.MinOut, want, b.Route.AmountOut())
		}
		if r := f.send(t, u, b.Tx); r.Status != types.ReceiptStatusSuccessful {
			t.Fatalf("swap %d reverted", i+1)
		}
		if got := new(big.Int).Sub(usdcBefore, f.balance(t, "USDC", u.addr)); got.Cmp(big.NewInt(100_000_000)) != 0 {
			t.Fatalf("swap %d took %s USDC units", i+1, got)
		}
		// Nobody else trades on this pool between quote and swap here.
		if got := new(big.Int).Sub(f.balance(t, "WETH", u.addr), wethBefore); got.Cmp(b.Route.AmountOut()) != 0 {
			t.Fatalf("swap %d paid %s WETH, quoted %s", i+1, got, b.Route.AmountOut())
		}
		if a := allowance(); a.BitLen() != 256 {
			t.Fatalf("allowance after swap %d: %s (must not need a new approve)", i+1, a)
		}
	}

	t.Run("NativeOut", func(t *testing.T) {
		before := f.balance(t, "ETH", u.addr)
		b, err := f.svc.BuildSwap(ctx, swap.SwapRequest{From: f.caip("USDC"), To: f.caip("ETH"), User: f.account(u.addr), Amount: "300000000"})
		if err != nil {
			t.Fatal(err)
		}
		r := f.send(t, u, b.Tx)
		if r.Status != types.ReceiptStatusSuccessful {
			t.Fatal("swap to ETH reverted")
		}
		fee := new(big.Int).Mul(new(big.Int).SetUint64(r.GasUsed), r.EffectiveGasPrice)
		if got := new(big.Int).Sub(f.balance(t, "ETH", u.addr), before); new(big.Int).Add(got, fee).Cmp(b.Route.AmountOut()) != 0 {
			t.Fatalf("received %s wei + %s fee, quoted %s", got, fee, b.Route.AmountOut())
		}
	})

	t.Run("ErrSlippageExceeded", func(t *testing.T) {
		half := 0.5
		b, err := f.svc.BuildSwap(ctx, swap.SwapRequest{From: f.caip("USDC"), To: f.caip("WETH"), User: f.account(u.addr), Amount: "100000000", Slippage: &half})
		if err != nil {
			t.Fatal(err)
		}
		// Someone else buys WETH first, moving the price more than 0.5%.
		other := f.newUser(t, map[string]string{"ETH": "10", "USDC": "300000"})
		_, err = f.svc.BuildSwap(ctx, swap.SwapRequest{From: f.caip("ETH"), To: f.caip("WETH"), User: f.account(other.addr), Amount: "1"})
		if e := apperr.As(err); e == nil || !strings.Contains(e.Message, "same asset") {
			t.Fatalf("ETH → WETH: %v", err)
		}
		approve, err := f.svc.BuildApprove(ctx, f.account(other.addr), f.caip("USDC"), "", "")
		if err != nil {
			t.Fatal(err)
		}
		f.send(t, other, approve)
		front, err := f.svc.BuildSwap(ctx, swap.SwapRequest{From: f.caip("USDC"), To: f.caip("WETH"), User: f.account(other.addr), Amount: "300000000000"})
		if err != nil {
			t.Fatal(err)
		}
		if r := f.send(t, other, front.Tx); r.Status != types.ReceiptStatusSuccessful {
			t.Fatal("front-running swap reverted")
		}
		// The swap built before now reverts on chain…
		if r := f.send(t, u, b.Tx); r.Status != types.ReceiptStatusFailed {
			t.Fatal("a swap past its slippage did not revert")
		}
		// …and built again at the old minimum it is refused with the reason.
		_, err = f.eth.EstimateGas(ctx, ethereum.CallMsg{From: u.addr, To: &b.To, Data: b.Data})
		if err == nil || !strings.Contains(err.Error(), "INSUFFICIENT_OUTPUT_AMOUNT") {
			t.Fatalf("estimate of the stale swap: %v", err)
		}
	})
}

// Reserves are reused for the TTL, then read again; Invalidate drops them.
func TestV2_ReserveCache(t *testing.T) {
	now := time.Now()
	f := newFixture(t, 0, fixtureOpts{ttl: 2 * time.Second, now: func() time.Time { return now }})
	first := f.quote(t, "DAI", "USDC", "1000000000000000000000")

	u := f.newUser(t, map[string]string{"ETH": "10", "DAI": "100000"})
	approve, err := f.svc.BuildApprove(context.Background(), f.account(u.addr), f.caip("DAI"), "", "")
	if err != nil {
		t.Fatal(err)
	}
	f.send(t, u, approve)
	b, err := f.svc.BuildSwap(context.Background(), swap.SwapRequest{From: f.caip("DAI"), To: f.caip("USDC"), User: f.account(u.addr), Amount: "50000000000000000000000"})
	if err != nil {
		t.Fatal(err)
	}
	if r := f.send(t, u, b.Tx); r.Status != types.ReceiptStatusSuccessful {
		t.Fatal("swap reverted")
	}

	if q := f.quote(t, "DAI", "USDC", "1000000000000000000000"); q.Route.AmountOut().Cmp(first.Route.AmountOut()) != 0 {
		t.Fatalf("within the TTL the quote changed: %s → %s", first.Route.AmountOut(), q.Route.AmountOut())
	}
	now = now.Add(3 * time.Second)
	after := f.quote(t, "DAI", "USDC", "1000000000000000000000")
	if after.Route.AmountOut().Cmp(first.Route.AmountOut()) >= 0 {
		t.Fatalf("after the TTL the quote %s did not fall below %s", after.Route.AmountOut(), first.Route.AmountOut())
	}
	onChain := f.getAmountsOut(t, after.Route.Amounts[0], after.Route.Path)
	if onChain[len(onChain)-1].Cmp(after.Route.AmountOut()) != 0 {
		t.Fatalf("quote %s, chain %s", after.Route.AmountOut(), onChain[len(onChain)-1])
	}

	// Invalidate makes the next quote read the chain within the TTL.
	b, err = f.svc.BuildSwap(context.Background(), swap.SwapRequest{From: f.caip("DAI"), To: f.caip("USDC"), User: f.account(u.addr), Amount: "10000000000000000000000"})
	if err != nil {
		t.Fatal(err)
	}
	f.send(t, u, b.Tx)
	f.svc.Invalidate(f.chain.CAIPNetworkID)
	if q := f.quote(t, "DAI", "USDC", "1000000000000000000000"); q.Route.AmountOut().Cmp(after.Route.AmountOut()) >= 0 {
		t.Fatalf("after Invalidate the quote %s did not fall below %s", q.Route.AmountOut(), after.Route.AmountOut())
	}
}

// A router address that is not a router is the operator's mistake, said so.
func TestService_Quote_ErrNotARouter(t *testing.T) {
	f := newFixture(t, 0, fixtureOpts{})
	usdc := f.tokens["USDC"].Address
	n := *f.net
	n.Provider = swap.NewV2(swap.V2Config{Router: usdc, Client: n.Client})
	svc := swap.New(swap.Config{Networks: []*swap.Network{&n}})
	p, err := svc.ParsePair(f.caip("USDC"), f.caip("WETH"), "", "1000000")
	if err != nil {
		t.Fatal(err)
	}
	_, err = svc.Quote(context.Background(), p)
	if e := apperr.As(err); e == nil || e.Code != apperr.Unavailable || !strings.Contains(e.Message, "does not answer as a Uniswap V2 router") {
		t.Fatalf("quote through a token as router: %v", err)
	}
}

func TestService_GasPrice(t *testing.T) {
	f := newFixture(t, 0, fixtureOpts{})
	g, err := f.svc.GasPrice(context.Background(), f.chain.CAIPNetworkID)
	if err != nil {
		t.Fatal(err)
	}
	head, err := f.eth.HeaderByNumber(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if g.Standard.Sign() <= 0 || g.Standard.Cmp(g.Fast) > 0 || g.Fast.Cmp(g.Instant) > 0 {
		t.Fatalf("gas prices %v %v %v", g.Standard, g.Fast, g.Instant)
	}
	// Within one block of the head's base fee (it moves by at most 12.5%).
	if lo := new(big.Int).Div(new(big.Int).Mul(head.BaseFee, big.NewInt(7)), big.NewInt(8)); g.Standard.Cmp(lo) < 0 {
		t.Fatalf("standard %s below the base fee %s", g.Standard, head.BaseFee)
	}
	if _, err := f.svc.GasPrice(context.Background(), "eip155:1"); err == nil || apperr.As(err).Message != "Network not supported for Gas Price" {
		t.Fatalf("unsupported network: %v", err)
	}
}

// The handlers' answers and refusals over HTTP; a refused request builds
// nothing.
func TestHandler(t *testing.T) {
	// A listed token without any pool: its quotes have no liquidity.
	lonely := swap.Token{Address: common.HexToAddress("0x0000000000000000000000000000000000010001"), Symbol: "LONE", Name: "Lonely", Decimals: 18}
	f := newFixture(t, 0, fixtureOpts{extra: []swap.Token{lonely}})
	limited := 0
	h := swap.NewHandler(f.svc, func(r *http.Request, symbol string) string {
		return "https://latch.test/public/getTokenImage/" + symbol
	}, func(*http.Request) (time.Duration, bool) {
		limited++
		return time.Second, limited <= 1000
	})
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/convert/tokens", h.Tokens)
	mux.HandleFunc("GET /v1/convert/quotes", h.Quotes)
	mux.HandleFunc("GET /v1/convert/allowance", h.Allowance)
	mux.HandleFunc("GET /v1/convert/gas-price", h.GasPrice)
	mux.HandleFunc("GET /v1/convert/build-approve", h.BuildApprove)
	mux.HandleFunc("POST /v1/convert/build-transaction", h.BuildTransaction)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	u := f.newUser(t, map[string]string{"ETH": "1"})
	user := f.account(u.addr)

	get := func(t *testing.T, path string, q url.Values) (int, map[string]any) {
		t.Helper()
		resp, err := http.Get(srv.URL + path + "?" + q.Encode())
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body map[string]any
		json.NewDecoder(resp.Body).Decode(&body)
		return resp.StatusCode, body
	}
	post := func(t *testing.T, body string) (int, map[string]any) {
		t.Helper()
		resp, err := http.Post(srv.URL+"/v1/convert/build-transaction", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		json.NewDecoder(resp.Body).Decode(&out)
		return resp.StatusCode, out
	}
	message := func(body map[string]any) string {
		reasons, _ := body["reasons"].([]any)
		if len(reasons) == 0 {
			return ""
		}
		return reasons[0].(map[string]any)["description"].(string)
	}

	t.Run("Tokens", func(t *testing.T) {
		status, body := get(t, "/v1/convert/tokens", url.Values{"chainId": {f.chain.CAIPNetworkID}})
		tokens, _ := body["tokens"].([]any)
		if status != 200 || len(tokens) != 5 {
			t.Fatalf("%d %v", status, body)
		}
		first := tokens[0].(map[string]any)
		if first["symbol"] != "ETH" || first["address"] != f.caip("ETH") || first["decimals"] != 18.0 || first["logoUri"] != "https://latch.test/public/getTokenImage/ETH" {
			t.Fatalf("native token %v", first)
		}
	})
	t.Run("Quotes", func(t *testing.T) {
		status, body := get(t, "/v1/convert/quotes", url.Values{"amount": {"100000000"}, "userAddress": {user}, "from": {f.caip("USDC")}, "to": {f.caip("WETH")}, "gasPrice": {"1000000000"}})
		quotes, _ := body["quotes"].([]any)
		if status != 200 || len(quotes) != 1 {
			t.Fatalf("%d %v", status, body)
		}
		q := quotes[0].(map[string]any)
		want := f.quote(t, "USDC", "WETH", "100000000")
		if q["toAmount"] != want.Route.AmountOut().String() || q["fromAmount"] != "100000000" || q["fromAccount"] != f.caip("USDC") || q["toAccount"] != f.caip("WETH") || q["id"] != nil {
			t.Fatalf("quote %v, want toAmount %s", q, want.Route.AmountOut())
		}
	})
	t.Run("Allowance", func(t *testing.T) {
		status, body := get(t, "/v1/convert/allowance", url.Values{"tokenAddress": {f.caip("USDC")}, "userAddress": {user}})
		if status != 200 || body["allowance"] != "0" {
			t.Fatalf("%d %v", status, body)
		}
	})
	t.Run("GasPrice", func(t *testing.T) {
		status, body := get(t, "/v1/convert/gas-price", url.Values{"chainId": {f.chain.CAIPNetworkID}})
		if status != 200 || body["standard"] == nil || body["fast"] == nil || body["instant"] == nil {
			t.Fatalf("%d %v", status, body)
		}
	})
	t.Run("BuildApprove", func(t *testing.T) {
		status, body := get(t, "/v1/convert/build-approve", url.Values{"userAddress": {user}, "from": {f.caip("USDC")}, "to": {f.caip("WETH")}, "amount": {"5000000"}})
		tx, _ := body["tx"].(map[string]any)
		if status != 200 || tx["to"] != f.caip("USDC") || tx["from"] != user || tx["value"] != "0" {
			t.Fatalf("%d %v", status, body)
		}
		// approve(router, 5 USDC)
		want, _ := erc20ABI.Pack("approve", f.chain.SwapRouter, big.NewInt(5_000_000))
		if tx["data"] != fmt.Sprintf("0x%x", want) {
			t.Fatalf("data %v", tx["data"])
		}
		if gas, _ := tx["eip155"].(map[string]any)["gas"].(float64); gas <= 0 {
			t.Fatalf("eip155 %v", tx["eip155"])
		}
	})
	t.Run("BuildTransaction", func(t *testing.T) {
		status, body := post(t, fmt.Sprintf(`{"amount":"100000000000000000","eip155":{"slippage":1},"projectId":"p","from":%q,"to":%q,"userAddress":%q}`, f.caip("ETH"), f.caip("DAI"), user))
		tx, _ := body["tx"].(map[string]any)
		if status != 200 || tx["to"] != f.account(f.chain.SwapRouter) || tx["amount"] != "100000000000000000" || tx["from"] != user {
			t.Fatalf("%d %v", status, body)
		}
		if e, _ := tx["eip155"].(map[string]any); e["gas"] == "" || e["gasPrice"] == "" {
			t.Fatalf("eip155 %v", e)
		}
	})

	unknown := f.chain.CAIPNetworkID + ":0x000000000000000000000000000000000000dEaD"
	refusals := []struct {
		name, path string
		q          url.Values
		body       string
		want       string
	}{
		{"UnknownToken", "/v1/convert/quotes", url.Values{"amount": {"1"}, "from": {unknown}, "to": {f.caip("WETH")}}, "", "Unknown token 0x000000000000000000000000000000000000dEaD on " + f.chain.CAIPNetworkID},
		{"ZeroAmount", "/v1/convert/quotes", url.Values{"amount": {"0"}, "from": {f.caip("USDC")}, "to": {f.caip("WETH")}}, "", "Amount must be greater than zero"},
		{"NegativeAmount", "/v1/convert/quotes", url.Values{"amount": {"-5"}, "from": {f.caip("USDC")}, "to": {f.caip("WETH")}}, "", "Amount must be greater than zero"},
		{"TooManyDecimals", "/v1/convert/quotes", url.Values{"amount": {"100.5"}, "from": {f.caip("USDC")}, "to": {f.caip("WETH")}}, "", "Too many decimals: amount is in base units of USDC (6 decimals)"},
		{"NotANumber", "/v1/convert/quotes", url.Values{"amount": {"1e6"}, "from": {f.caip("USDC")}, "to": {f.caip("WETH")}}, "", "amount must be a whole number of base units of USDC"},
		{"TooLarge", "/v1/convert/quotes", url.Values{"amount": {strings.Repeat("9", 40)}, "from": {f.caip("USDC")}, "to": {f.caip("WETH")}}, "", "Amount is too large to swap"},
		{"UnsupportedNetwork", "/v1/convert/quotes", url.Values{"amount": {"1"}, "from": {"eip155:1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"}, "to": {"eip155:1:0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2"}}, "", "Network not supported for Swaps"},
		{"UnsupportedNetworkTokens", "/v1/convert/tokens", url.Values{"chainId": {"eip155:1"}}, "", "Network not supported for Swaps"},
		{"UnsupportedNetworkGas", "/v1/convert/gas-price", url.Values{"chainId": {"eip155:1"}}, "", "Network not supported for Gas Price"},
		{"NoLiquidity", "/v1/convert/quotes", url.Values{"amount": {"1000"}, "from": {f.caip("USDC")}, "to": {f.chain.CAIPNetworkID + ":" + lonely.Address.Hex()}}, "", "No liquidity to swap USDC for LONE on " + f.chain.CAIPNetworkID},
		{"SameToken", "/v1/convert/quotes", url.Values{"amount": {"1"}, "from": {f.caip("USDC")}, "to": {f.caip("USDC")}}, "", "from and to are the same token (USDC)"},
		{"BadAddress", "/v1/convert/quotes", url.Values{"amount": {"1"}, "from": {"0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"}, "to": {f.caip("USDC")}}, "", "from must be a CAIP-10 EVM address"},
		{"CrossNetwork", "/v1/convert/quotes", url.Values{"amount": {"1"}, "from": {f.caip("USDC")}, "to": {f.caip("WETH")}, "userAddress": {"eip155:1:" + u.addr.Hex()}}, "", "Network not supported for Swaps"},
		{"ApproveNative", "/v1/convert/build-approve", url.Values{"userAddress": {user}, "from": {f.caip("ETH")}}, "", "ETH is the native coin: it needs no approval"},
		{"AllowanceUnknownToken", "/v1/convert/allowance", url.Values{"tokenAddress": {unknown}, "userAddress": {user}}, "", "Unknown token"},
		{"BuildSlippage", "", nil, fmt.Sprintf(`{"amount":"1000","eip155":{"slippage":80},"from":%q,"to":%q,"userAddress":%q}`, f.caip("ETH"), f.caip("DAI"), user), "slippage must be a percentage from 0 to 50"},
		{"BuildNoUser", "", nil, fmt.Sprintf(`{"amount":"1000","from":%q,"to":%q}`, f.caip("ETH"), f.caip("DAI")), "userAddress is required"},
		{"BuildPermit", "", nil, fmt.Sprintf(`{"amount":"1000","eip155":{"slippage":1,"permit":"0x01"},"from":%q,"to":%q,"userAddress":%q}`, f.caip("USDC"), f.caip("DAI"), user), "Permit signatures are not supported"},
		{"BuildZero", "", nil, fmt.Sprintf(`{"amount":"0","from":%q,"to":%q,"userAddress":%q}`, f.caip("ETH"), f.caip("DAI"), user), "Amount must be greater than zero"},
		{"BuildInsufficientToken", "", nil, fmt.Sprintf(`{"amount":"1000","from":%q,"to":%q,"userAddress":%q}`, f.caip("USDC"), f.caip("DAI"), user), "Insufficient USDC balance: 0 held, 0.001 to swap"},
		{"BuildInsufficientFunds", "", nil, fmt.Sprintf(`{"amount":"5000000000000000000","from":%q,"to":%q,"userAddress":%q}`, f.caip("ETH"), f.caip("DAI"), user), "The swap would fail"},
	}
	for _, tc := range refusals {
		t.Run("Err"+tc.name, func(t *testing.T) {
			var status int
			var body map[string]any
			if tc.body != "" {
				status, body = post(t, tc.body)
			} else {
				status, body = get(t, tc.path, tc.q)
			}
			if status < 400 || status >= 500 || !strings.Contains(message(body), tc.want) {
				t.Fatalf("%d %v, want a 4xx saying %q", status, body, tc.want)
			}
			if _, built := body["tx"]; built {
				t.Fatal("a refused request returned a transaction")
			}
		})
	}

	t.Run("ErrRateLimited", func(t *testing.T) {
		limited = 1000
		status, body := get(t, "/v1/convert/quotes", url.Values{"amount": {"100000000"}, "from": {f.caip("USDC")}, "to": {f.caip("WETH")}})
		if status != http.StatusTooManyRequests || !strings.Contains(message(body), "swap requests per IP") {
			t.Fatalf("%d %v", status, body)
		}
	})
}
