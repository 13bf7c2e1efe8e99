package indexer

import (
	"context"
	"crypto/ecdsa"
	"io"
	"log/slog"
	"math/big"
	"os"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/latchkit/latch/contracts"
	"github.com/latchkit/latch/internal/devnet"
	"github.com/latchkit/latch/internal/evm"
	"github.com/latchkit/latch/internal/store"
)

var erc20 = contracts.MustLoad("DevToken").ABI

// quietLogger drops logs unless LATCH_TEST_LOG is set.
func quietLogger() *slog.Logger {
	if os.Getenv("LATCH_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// harness is a dev chain of its own plus an indexer store for it.
type harness struct {
	t      *testing.T
	dev    *devnet.Devnet
	chain  devnet.Chain
	client *ethclient.Client
	db     *store.DB
	store  *Store
	tokens *Tokens
}

// nextChainID gives each harness its own chain id, so no two dev chains of
// one test binary ever look alike.
var nextChainID uint64 = 41000

func newHarness(t *testing.T, db *store.DB) *harness {
	t.Helper()
	nextChainID++
	d, err := devnet.Start(context.Background(), devnet.Config{ChainIDs: []uint64{nextChainID}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	c := d.Chains()[0]
	cl, err := ethclient.Dial(c.RPCURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	st := NewStore(db)
	return &harness{t: t, dev: d, chain: c, client: cl, db: db, store: st, tokens: NewTokens(st, map[uint64][]Token{c.ChainID: devChainTokens(c)})}
}

// devChainTokens lists a dev chain's tokens for NewTokens.
func devChainTokens(c devnet.Chain) []Token {
	var out []Token
	for _, t := range c.Tokens {
		out = append(out, Token{Address: t.Address, Standard: 20, Name: t.Name, Symbol: t.Symbol, Decimals: int(t.Decimals), WrappedNative: t.Symbol == "WETH"})
	}
	return out
}

func (h *harness) token(symbol string) common.Address {
	for _, t := range h.chain.Tokens {
		if t.Symbol == symbol {
			return t.Address
		}
	}
	h.t.Fatalf("no %s", symbol)
	return common.Address{}
}

// rpcClient returns an indexer Client for the chain.
func (h *harness) rpcClient(urls ...string) *evm.Client {
	if len(urls) == 0 {
		urls = []string{h.chain.RPCURL}
	}
	c, err := evm.NewClient(urls)
	if err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(c.Close)
	return c
}

// startIndexer follows the harness chain from block 0 until the test ends
// (or stop is called).
func (h *harness) startIndexer(cfg Config, chain Chain) (ix *Indexer, stop func()) {
	h.t.Helper()
	cfg.Store, cfg.Tokens = h.store, h.tokens
	if cfg.Logger == nil {
		cfg.Logger = quietLogger()
	}
	ix = New(cfg)
	chain.ChainID = h.chain.ChainID
	if chain.Client == nil {
		chain.Client = h.rpcClient()
	}
	if chain.PollInterval == 0 {
		chain.PollInterval = time.Second
	}
	if chain.Wake == nil {
		wake := make(chan struct{}, 1)
		unwatch, err := h.dev.WatchHeads(h.chain.CAIPNetworkID, wake)
		if err != nil {
			h.t.Fatal(err)
		}
		h.t.Cleanup(unwatch)
		chain.Wake = wake
	}
	if err := ix.Follow(chain); err != nil {
		h.t.Fatal(err)
	}
	stopped := false
	stop = func() {
		if !stopped {
			stopped = true
			ix.Close()
		}
	}
	h.t.Cleanup(stop)
	return ix, stop
}

// head is the chain's current block number.
func (h *harness) head() uint64 {
	n, err := h.client.BlockNumber(context.Background())
	if err != nil {
		h.t.Fatal(err)
	}
	return n
}

// waitIndexed waits until the chain's head is indexed.
func (h *harness) waitIndexed(ix *Indexer) {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := ix.WaitIndexed(ctx, h.chain.ChainID, h.head()); err != nil {
		h.t.Fatal(err)
	}
}

// wallet is a fresh key funded by the faucet.
type wallet struct {
	key  *ecdsa.PrivateKey
	addr common.Address
}

func (h *harness) newWallet(eth, usdc string) wallet {
	h.t.Helper()
	key, _ := crypto.GenerateKey()
	w := wallet{key: key, addr: crypto.PubkeyToAddress(key.PublicKey)}
	ctx := context.Background()
	if eth != "" {
		if _, err := h.dev.Faucet(ctx, devnet.FaucetRequest{Address: w.addr.Hex(), CAIPNetworkID: h.chain.CAIPNetworkID, Amount: eth}); err != nil {
			h.t.Fatal(err)
		}
	}
	if usdc != "" {
		if _, err := h.dev.Faucet(ctx, devnet.FaucetRequest{Address: w.addr.Hex(), CAIPNetworkID: h.chain.CAIPNetworkID, Token: "USDC", Amount: usdc}); err != nil {
			h.t.Fatal(err)
		}
	}
	return w
}

// send signs and sends a transaction from w and waits for its receipt.
func (h *harness) send(w wallet, to common.Address, value *big.Int, data []byte, gas uint64) *types.Receipt {
	h.t.Helper()
	tx := h.sign(w, to, value, data, gas, 0)
	return h.mined(tx)
}

// sign builds a signed transaction from w; nonceOffset lets a caller queue
// several before any is mined.
func (h *harness) sign(w wallet, to common.Address, value *big.Int, data []byte, gas uint64, nonceOffset uint64) *types.Transaction {
	h.t.Helper()
	ctx := context.Background()
	nonce, err := h.client.PendingNonceAt(ctx, w.addr)
	if err != nil {
		h.t.Fatal(err)
	}
	head, err := h.client.HeaderByNumber(ctx, nil)
	if err != nil {
		h.t.Fatal(err)
	}
	if value == nil {
		value = new(big.Int)
	}
	id := new(big.Int).SetUint64(h.chain.ChainID)
	tip := big.NewInt(1e9)
	tx, err := types.SignNewTx(w.key, types.LatestSignerForChainID(id), &types.DynamicFeeTx{
		ChainID: id, Nonce: nonce + nonceOffset, GasTipCap: tip,
		GasFeeCap: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(3)), tip),
		Gas:       gas, To: &to, Value: value, Data: data,
	})
	if err != nil {
		h.t.Fatal(err)
	}
	if err := h.client.SendTransaction(ctx, tx); err != nil {
		h.t.Fatal(err)
	}
	return tx
}

func (h *harness) mined(tx *types.Transaction) *types.Receipt {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		r, err := h.client.TransactionReceipt(ctx, tx.Hash())
		if err == nil {
			return r
		}
		select {
		case <-ctx.Done():
			h.t.Fatalf("transaction %s not mined: %v", tx.Hash(), err)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

func pack(method string, args ...any) []byte {
	data, err := erc20.Pack(method, args...)
	if err != nil {
		panic(err)
	}
	return data
}

func units(whole int64, decimals int) *big.Int {
	return new(big.Int).Mul(big.NewInt(whole), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil))
}
