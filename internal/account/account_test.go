package account

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net"
	"os"
	"strconv"
	"sync/atomic"
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
	"github.com/latchkit/latch/internal/indexer"
	"github.com/latchkit/latch/internal/network"
	"github.com/latchkit/latch/internal/poll"
	"github.com/latchkit/latch/internal/store/storetest"
)

// shared is the dev chain the package's tests use.
var shared *devnet.Devnet

func TestMain(m *testing.M) {
	d, err := devnet.Start(context.Background(), devnet.Config{ChainIDs: []uint64{42424}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		fmt.Fprintln(os.Stderr, "start devnet:", err)
		os.Exit(1)
	}
	shared = d
	code := m.Run()
	d.Close()
	os.Exit(code)
}

// env is a Service over the shared dev chain.
type env struct {
	t       *testing.T
	chain   devnet.Chain
	eth     *ethclient.Client
	reg     *network.Registry
	clients *Clients
	tokens  *indexer.Tokens
	src     *ChainlinkSource
	prices  *PriceCache
	svc     *Service
}

// devNetwork is the registry entry of a dev chain, as the app adds it.
func devNetwork(c devnet.Chain, multicall bool) *network.Network {
	n := &network.Network{
		CAIPNetworkID: c.CAIPNetworkID, ChainNamespace: "eip155", ID: json.RawMessage(strconv.FormatUint(c.ChainID, 10)),
		Name: c.Name, Testnet: true, NativeCurrency: network.Currency{Name: "Ether", Symbol: "ETH", Decimals: 18}, Dev: true,
	}
	if multicall {
		mc := c.Multicall3.Hex()
		n.Multicall3 = &mc
	}
	return n
}

func newEnv(t *testing.T, opts ...func(*Config)) *env {
	t.Helper()
	return newEnvWith(t, devNetwork(shared.Chains()[0], true), "", opts...)
}

// newEnvWith builds the env with the given network entry and, unless
// upstream is set, the dev chain's RPC URL as its upstream.
func newEnvWith(t *testing.T, n *network.Network, upstream string, opts ...func(*Config)) *env {
	t.Helper()
	c := shared.Chains()[0]
	reg, err := network.Load([]byte("[]"))
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.Add(n); err != nil {
		t.Fatal(err)
	}
	if upstream == "" {
		upstream = c.RPCURL
	}
	if err := reg.SetUpstreams(n.CAIPNetworkID, []string{upstream}); err != nil {
		t.Fatal(err)
	}
	eth, err := ethclient.Dial(c.RPCURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(eth.Close)
	e := &env{t: t, chain: c, eth: eth, reg: reg, clients: NewClients(reg)}
	t.Cleanup(e.clients.Close)
	var listed []indexer.Token
	for _, tok := range c.Tokens {
		listed = append(listed, indexer.Token{Address: tok.Address, Standard: 20, Name: tok.Name, Symbol: tok.Symbol, Decimals: int(tok.Decimals), WrappedNative: tok.Symbol == "WETH"})
	}
	st := indexer.NewStore(storetest.MustOpenSQLite(t))
	e.tokens = indexer.NewTokens(st, map[uint64][]indexer.Token{c.ChainID: listed})
	feeds := map[common.Address]Feed{}
	for _, f := range c.PriceFeeds {
		k := Native
		if f.Token != nil {
			k = *f.Token
		}
		feeds[k] = Feed{Address: f.Address}
	}
	e.src = NewChainlinkSource(map[uint64]map[common.Address]Feed{c.ChainID: feeds}, e.clients.ForChain, nil)
	e.prices = NewPriceCache(e.src, PriceTTL, nil)
	cfg := Config{Networks: reg, Clients: e.clients, Store: st, Tokens: e.tokens, Prices: e.prices}
	for _, o := range opts {
		o(&cfg)
	}
	e.svc = New(cfg)
	return e
}

func (e *env) token(symbol string) common.Address {
	for _, t := range e.chain.Tokens {
		if t.Symbol == symbol {
			return t.Address
		}
	}
	e.t.Fatalf("no %s", symbol)
	return common.Address{}
}

type wallet struct {
	key  *ecdsa.PrivateKey
	addr common.Address
}

func (e *env) fund(eth, usdc string) wallet {
	e.t.Helper()
	key, _ := crypto.GenerateKey()
	w := wallet{key, crypto.PubkeyToAddress(key.PublicKey)}
	for token, amount := range map[string]string{"ETH": eth, "USDC": usdc} {
		if amount == "" {
			continue
		}
		if _, err := shared.Faucet(context.Background(), devnet.FaucetRequest{Address: w.addr.Hex(), CAIPNetworkID: e.chain.CAIPNetworkID, Token: token, Amount: amount}); err != nil {
			e.t.Fatal(err)
		}
	}
	return w
}

// send makes w send a transaction (a contract creation when to is nil) and
// waits for it to be mined.
func (e *env) send(w wallet, to *common.Address, data []byte, gas uint64) *types.Receipt {
	e.t.Helper()
	ctx := context.Background()
	nonce, err := e.eth.PendingNonceAt(ctx, w.addr)
	if err != nil {
		e.t.Fatal(err)
	}
	head, err := e.eth.HeaderByNumber(ctx, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	id := new(big.Int).SetUint64(e.chain.ChainID)
	tx, err := types.SignNewTx(w.key, types.LatestSignerForChainID(id), &types.DynamicFeeTx{
		ChainID: id, Nonce: nonce, GasTipCap: big.NewInt(1e9), GasFeeCap: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(3)), big.NewInt(1e9)),
		Gas: gas, To: to, Value: new(big.Int), Data: data,
	})
	if err != nil {
		e.t.Fatal(err)
	}
	if err := e.eth.SendTransaction(ctx, tx); err != nil {
		e.t.Fatal(err)
	}
	// The chain seals on arrival: check on each new head (and every few
	// milliseconds, as the receipt index can trail the head by a moment).
	wake := make(chan struct{}, 1)
	stop, err := shared.WatchHeads(e.chain.CAIPNetworkID, wake)
	if err != nil {
		e.t.Fatal(err)
	}
	defer stop()
	var r *types.Receipt
	if !poll.Until(10*time.Second, wake, func() bool {
		r, err = e.eth.TransactionReceipt(ctx, tx.Hash())
		return err == nil
	}) {
		e.t.Fatalf("transaction %s not mined", tx.Hash())
	}
	if r.Status != types.ReceiptStatusSuccessful {
		e.t.Fatalf("transaction %s reverted", tx.Hash())
	}
	return r
}

var tokenArtifact = contracts.MustLoad("DevToken")

// deployToken deploys a DevToken owned by w and mints it amount base units.
func (e *env) deployToken(w wallet, name, symbol string, decimals uint8, amount *big.Int) common.Address {
	e.t.Helper()
	data, err := tokenArtifact.DeployData(name, symbol, decimals)
	if err != nil {
		e.t.Fatal(err)
	}
	r := e.send(w, nil, data, 3_000_000)
	mint, _ := tokenArtifact.ABI.Pack("mint", w.addr, amount)
	e.send(w, &r.ContractAddress, mint, 100_000)
	return r.ContractAddress
}

func (e *env) chainBalance(token, owner common.Address) *big.Int {
	e.t.Helper()
	if token == Native {
		b, err := e.eth.BalanceAt(context.Background(), owner, nil)
		if err != nil {
			e.t.Fatal(err)
		}
		return b
	}
	data, _ := tokenArtifact.ABI.Pack("balanceOf", owner)
	out, err := e.eth.CallContract(context.Background(), ethereum.CallMsg{To: &token, Data: data}, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	return new(big.Int).SetBytes(out)
}

// summary renders balances as "SYMBOL amount price" lines for comparison.
func summary(bs []TokenBalance) []string {
	var out []string
	for _, b := range bs {
		sym := "ETH"
		if b.Token != nil {
			sym = b.Token.Symbol
		}
		price := "-"
		if b.Price != nil {
			price = strconv.FormatFloat(*b.Price, 'f', -1, 64)
		}
		out = append(out, sym+" "+b.Amount.String()+" "+price)
	}
	return out
}

func units(whole int64, decimals int) *big.Int {
	return new(big.Int).Mul(big.NewInt(whole), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil))
}

func counter() (Spend, *atomic.Int32) {
	var n atomic.Int32
	return func(context.Context) error { n.Add(1); return nil }, &n
}

func TestService_Balances(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	usdc := e.token("USDC")
	w := e.fund("2", "150")

	t.Run("OKEqualsChain", func(t *testing.T) {
		spend, spent := counter()
		got, err := e.svc.Balances(ctx, e.chain.CAIPNetworkID, w.addr, nil, spend)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{
			"ETH " + e.chainBalance(Native, w.addr).String() + " 3000",
			"USDC " + e.chainBalance(usdc, w.addr).String() + " 1",
		}
		if fmt.Sprint(summary(got)) != fmt.Sprint(want) || spent.Load() != 1 {
			t.Fatalf("balances %v (spent %d), want %v", summary(got), spent.Load(), want)
		}
		if got[1].Token.Name != "USD Coin" || got[1].Token.Decimals != 6 {
			t.Fatalf("USDC metadata %+v", got[1].Token)
		}
	})

	// Move some USDC away: the cached answer holds for 30 s; forceUpdate reads again.
	other := common.HexToAddress("0x00000000000000000000000000000000000000f1")
	transfer, _ := tokenArtifact.ABI.Pack("transfer", other, big.NewInt(1_000_000))
	e.send(w, &usdc, transfer, 100_000)

	t.Run("OKCached", func(t *testing.T) {
		spend, spent := counter()
		got, err := e.svc.Balances(ctx, e.chain.CAIPNetworkID, w.addr, nil, spend)
		if err != nil {
			t.Fatal(err)
		}
		if got[1].Amount.Int64() != 150_000_000 || spent.Load() != 0 {
			t.Fatalf("cached USDC %s (spent %d), want the cached 150000000 without upstream calls", got[1].Amount, spent.Load())
		}
	})
	t.Run("OKForceUpdate", func(t *testing.T) {
		spend, spent := counter()
		got, err := e.svc.Balances(ctx, e.chain.CAIPNetworkID, w.addr, []common.Address{usdc}, spend)
		if err != nil {
			t.Fatal(err)
		}
		if got[1].Amount.Int64() != 149_000_000 || spent.Load() != 1 {
			t.Fatalf("forced USDC %s (spent %d), want 149000000", got[1].Amount, spent.Load())
		}
		// The forced read refreshed the cache too.
		again, _ := e.svc.Balances(ctx, e.chain.CAIPNetworkID, w.addr, nil, nil)
		if again[1].Amount.Int64() != 149_000_000 {
			t.Fatalf("cache after force: %s", again[1].Amount)
		}
	})

	t.Run("OKUnlistedTokens", func(t *testing.T) {
		gold := e.deployToken(w, "Gold Token", "GOLD", 18, units(7, 18))
		points := e.deployToken(w, "Points", "PTS", 0, big.NewInt(500))
		got, err := e.svc.Balances(ctx, e.chain.CAIPNetworkID, w.addr, []common.Address{gold, points}, nil)
		if err != nil {
			t.Fatal(err)
		}
		// Spec §5: the 0-decimals token is left out; GOLD has no feed, so no price.
		want := []string{
			"ETH " + e.chainBalance(Native, w.addr).String() + " 3000",
			"USDC 149000000 1",
			"GOLD 7000000000000000000 -",
		}
		if fmt.Sprint(summary(got)) != fmt.Sprint(want) {
			t.Fatalf("balances %v, want %v", summary(got), want)
		}
		if got[2].Token.Name != "Gold Token" {
			t.Fatalf("GOLD metadata read from the chain: %+v", got[2].Token)
		}
	})

	t.Run("OKWithoutMulticall", func(t *testing.T) {
		e2 := newEnvWith(t, devNetwork(e.chain, false), "")
		got, err := e2.svc.Balances(ctx, e.chain.CAIPNetworkID, w.addr, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"ETH " + e.chainBalance(Native, w.addr).String() + " 3000", "USDC 149000000 1"}
		if fmt.Sprint(summary(got)) != fmt.Sprint(want) {
			t.Fatalf("balances %v, want %v", summary(got), want)
		}
	})

	t.Run("OKEmpty", func(t *testing.T) {
		got, err := e.svc.Balances(ctx, e.chain.CAIPNetworkID, common.HexToAddress("0x00000000000000000000000000000000000000e0"), nil, nil)
		if err != nil || len(got) != 0 {
			t.Fatalf("balances of an empty address: %v, %v", summary(got), err)
		}
	})

	t.Run("ErrRateLimited", func(t *testing.T) {
		limited := func(context.Context) error { return &RateLimitError{RetryAfter: time.Second} }
		_, err := e.svc.Balances(ctx, e.chain.CAIPNetworkID, common.HexToAddress("0x00000000000000000000000000000000000000e1"), nil, limited)
		if _, ok := err.(*RateLimitError); !ok {
			t.Fatalf("err = %v", err)
		}
	})

	t.Run("ErrNetwork", func(t *testing.T) {
		for id, code := range map[string]string{"": apperr.Invalid, "eip155": apperr.Invalid, "eip155:5": apperr.NotFound} {
			if _, err := e.svc.Balances(ctx, id, w.addr, nil, nil); apperr.Code(err) != code {
				t.Errorf("chain %q: err = %v, want %s", id, err, code)
			}
		}
	})

	t.Run("ErrUpstreamDown", func(t *testing.T) {
		ln, _ := net.Listen("tcp", "127.0.0.1:0")
		dead := "http://" + ln.Addr().String()
		ln.Close()
		e2 := newEnvWith(t, devNetwork(e.chain, true), dead)
		if _, err := e2.svc.Balances(ctx, e.chain.CAIPNetworkID, w.addr, nil, nil); apperr.Code(err) != apperr.Unavailable {
			t.Fatalf("err = %v, want unavailable", err)
		}
	})
}

func TestChainlinkSource_DevFeeds(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	usdc, dai, weth := e.token("USDC"), e.token("DAI"), e.token("WETH")
	unknown := common.HexToAddress("0x00000000000000000000000000000000000000a1")

	got, err := e.prices.Prices(ctx, e.chain.ChainID, []common.Address{Native, usdc, weth, unknown}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprint(map[common.Address]float64{Native: 3000, usdc: 1, weth: 3000}) {
		t.Fatalf("prices = %v", got)
	}

	if _, err := shared.SetPrice(ctx, devnet.PriceRequest{CAIPNetworkID: e.chain.CAIPNetworkID, Token: "DAI", USD: "0.9975"}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		shared.SetPrice(ctx, devnet.PriceRequest{CAIPNetworkID: e.chain.CAIPNetworkID, Token: "DAI", USD: "1"})
	})
	// Straight from the feed: the new answer.
	fresh, err := e.src.Prices(ctx, e.chain.ChainID, []common.Address{dai})
	if err != nil || fresh[dai] != 0.9975 {
		t.Fatalf("feed price %v, %v", fresh, err)
	}
	// Through the cache: read once, then a new answer stays unseen until
	// the TTL passes or the network's prices are invalidated.
	if p, ok := e.prices.Price(ctx, e.chain.ChainID, dai); !ok || p != 0.9975 {
		t.Fatalf("cached DAI %v %v", p, ok)
	}
	shared.SetPrice(ctx, devnet.PriceRequest{CAIPNetworkID: e.chain.CAIPNetworkID, Token: "DAI", USD: "1.0025"})
	if p, _ := e.prices.Price(ctx, e.chain.ChainID, dai); p != 0.9975 {
		t.Fatalf("DAI within the TTL = %v, want the cached 0.9975", p)
	}
	e.prices.Invalidate(e.chain.ChainID)
	if p, _ := e.prices.Price(ctx, e.chain.ChainID, dai); p != 1.0025 {
		t.Fatalf("DAI after Invalidate = %v, want 1.0025", p)
	}

	t.Run("StaleIsMissing", func(t *testing.T) {
		feeds := map[uint64]map[common.Address]Feed{e.chain.ChainID: {Native: {Address: e.chain.PriceFeeds[0].Address, MaxAge: time.Hour}}}
		later := func() time.Time { return time.Now().Add(2 * time.Hour) }
		src := NewChainlinkSource(feeds, e.clients.ForChain, later)
		got, err := src.Prices(ctx, e.chain.ChainID, []common.Address{Native})
		if err != nil || len(got) != 0 {
			t.Fatalf("stale feed gave %v, %v", got, err)
		}
	})
	t.Run("NotAFeedIsMissing", func(t *testing.T) {
		feeds := map[uint64]map[common.Address]Feed{e.chain.ChainID: {Native: {Address: usdc}}}
		got, err := NewChainlinkSource(feeds, e.clients.ForChain, nil).Prices(ctx, e.chain.ChainID, []common.Address{Native})
		if err != nil || len(got) != 0 {
			t.Fatalf("a token contract as a feed gave %v, %v", got, err)
		}
	})
}

func TestFeedAnswer(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	at := func(d time.Duration) *big.Int { return big.NewInt(now.Add(d).Unix()) }
	tests := []struct {
		name      string
		answer    *big.Int
		updatedAt *big.Int
		maxAge    time.Duration
		want      float64
		ok        bool
	}{
		{"OK", big.NewInt(300012345678), at(-time.Minute), time.Hour, 3000.12345678, true},
		{"OKNoMaxAge", big.NewInt(100000000), at(-100 * 24 * time.Hour), 0, 1, true},
		{"Zero", big.NewInt(0), at(0), time.Hour, 0, false},
		{"Negative", big.NewInt(-5), at(0), time.Hour, 0, false},
		{"NeverUpdated", big.NewInt(1), big.NewInt(0), time.Hour, 0, false},
		{"Stale", big.NewInt(1), at(-2 * time.Hour), time.Hour, 0, false},
		{"Future", big.NewInt(1), at(time.Hour), time.Hour, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := feedAnswer(tt.answer, tt.updatedAt, 8, now, tt.maxAge)
			if ok != tt.ok || (ok && got != tt.want) {
				t.Fatalf("feedAnswer = %v, %v; want %v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestFormatUnits(t *testing.T) {
	for _, tt := range []struct {
		amount   string
		decimals int
		want     string
	}{
		{"1500000", 6, "1.5"}, {"10000000000000000000000", 18, "10000"}, {"1", 18, "0.000000000000000001"},
		{"0", 6, "0"}, {"123", 0, "123"}, {"-1500000", 6, "-1.5"}, {"100", 2, "1"},
	} {
		a, _ := new(big.Int).SetString(tt.amount, 10)
		if got := formatUnits(a, tt.decimals); got != tt.want {
			t.Errorf("formatUnits(%s, %d) = %s, want %s", tt.amount, tt.decimals, got, tt.want)
		}
	}
	if got := fiat(25.500000000000004); got != 25.5 {
		t.Errorf("fiat = %v", got)
	}
}

func TestParseAddress(t *testing.T) {
	for _, ok := range []string{"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266", "0xF39FD6E51AAD88F6F4CE6AB8827279CFFFB92266", "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"} {
		if _, err := ParseAddress("address", ok); err != nil {
			t.Errorf("ParseAddress(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"", "0x", "f39fd6e51aad88f6f4ce6ab8827279cfffb92266", "0xF39fd6e51aad88f6f4ce6ab8827279cfffb92266", "0xg39fd6e51aad88f6f4ce6ab8827279cfffb92266", "0xf39fd6e51aad88f6f4ce6ab8827279cfffb922661"} {
		if _, err := ParseAddress("address", bad); apperr.Code(err) != apperr.Invalid {
			t.Errorf("ParseAddress(%q) = %v", bad, err)
		}
	}
}
