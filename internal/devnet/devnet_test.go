package devnet

import (
	"context"
	"fmt"
	"log/slog"
	"math/big"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/params"
	"github.com/latchkit/latch/internal/poll"
)

// shared is the devnet most tests use; starting one per test would dominate
// the package's run time.
var shared *Devnet

func TestMain(m *testing.M) {
	start := time.Now()
	d, err := Start(context.Background(), Config{Logger: testLogger()})
	if err != nil {
		fmt.Fprintln(os.Stderr, "start devnet:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "devnet: Start (2 chains, deploy + 20 mints each) took %s\n", time.Since(start).Round(time.Millisecond))
	shared = d
	code := m.Run()
	if err := d.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "close devnet:", err)
		code = 1
	}
	os.Exit(code)
}

// testLogger shows go-ethereum's warnings on stderr; it must not be bound to a
// *testing.T, since geth may log after a test has finished.
func testLogger() *slog.Logger {
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// MustDial connects to a chain's public HTTP endpoint, as a wallet would.
func MustDial(tb testing.TB, c Chain) *ethclient.Client {
	tb.Helper()
	client, err := ethclient.Dial(c.RPCURL)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(client.Close)
	return client
}

// newRecipient returns a fresh address with no balance anywhere.
func newRecipient(tb testing.TB) common.Address {
	tb.Helper()
	key, err := crypto.GenerateKey()
	if err != nil {
		tb.Fatal(err)
	}
	return crypto.PubkeyToAddress(key.PublicKey)
}

func tokenBySymbol(tb testing.TB, c Chain, symbol string) Token {
	tb.Helper()
	for _, t := range c.Tokens {
		if t.Symbol == symbol {
			return t
		}
	}
	tb.Fatalf("chain %d has no %s", c.ChainID, symbol)
	return Token{}
}

// balanceOf calls the ERC-20 balanceOf through the public endpoint.
func balanceOf(tb testing.TB, client *ethclient.Client, token, owner common.Address) *big.Int {
	tb.Helper()
	data, err := devTokenArtifact.ABI.Pack("balanceOf", owner)
	if err != nil {
		tb.Fatal(err)
	}
	out, err := client.CallContract(context.Background(), ethereum.CallMsg{To: &token, Data: data}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return new(big.Int).SetBytes(out)
}

func units(n int64, decimals uint8) *big.Int {
	return new(big.Int).Mul(big.NewInt(n), pow10(decimals))
}

func TestStart(t *testing.T) {
	chains := shared.Chains()
	if len(chains) != 2 {
		t.Fatalf("len(Chains()) = %d, want 2", len(chains))
	}
	wantNames := []string{"Latch Dev", "Latch Dev 2"}
	for i, want := range []uint64{31337, 31338} {
		c := chains[i]
		t.Run(c.CAIPNetworkID, func(t *testing.T) {
			if c.ChainID != want || c.CAIPNetworkID != fmt.Sprintf("eip155:%d", want) || c.Name != wantNames[i] {
				t.Fatalf("chain = %+v", c)
			}
			if !strings.HasPrefix(c.RPCURL, "http://127.0.0.1:") {
				t.Fatalf("RPCURL = %q", c.RPCURL)
			}
			ctx := context.Background()
			client := MustDial(t, c)

			id, err := client.ChainID(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if id.Uint64() != want {
				t.Fatalf("eth_chainId = %d, want %d", id, want)
			}

			acc0 := TestAccounts()[0].Address
			bal, err := client.BalanceAt(ctx, acc0, nil)
			if err != nil {
				t.Fatal(err)
			}
			if bal.Cmp(ether(10_000)) != 0 {
				t.Errorf("account 0 balance = %s wei, want 10000 ETH", bal)
			}
			for _, sym := range []string{"USDC", "DAI"} {
				tok := tokenBySymbol(t, c, sym)
				if got, want := balanceOf(t, client, tok.Address, acc0), units(1_000_000, tok.Decimals); got.Cmp(want) != 0 {
					t.Errorf("account 0 %s = %s, want %s", sym, got, want)
				}
			}
			if code, err := client.CodeAt(ctx, tokenBySymbol(t, c, "WETH").Address, nil); err != nil || len(code) == 0 {
				t.Errorf("no WETH code (err %v)", err)
			}

			data, _ := multicall3Artifact.ABI.Pack("getChainId")
			out, err := client.CallContract(ctx, ethereum.CallMsg{To: &c.Multicall3, Data: data}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := new(big.Int).SetBytes(out); got.Uint64() != want {
				t.Errorf("Multicall3.getChainId = %s, want %d", got, want)
			}
		})
	}
}

// eth_getLogs must work without the log index (see LogNoHistory in newChain).
func TestStart_Logs(t *testing.T) {
	c := shared.Chains()[0]
	usdc := tokenBySymbol(t, c, "USDC")
	logs, err := MustDial(t, c).FilterLogs(context.Background(), ethereum.FilterQuery{
		Addresses: []common.Address{usdc.Address},
		Topics:    [][]common.Hash{{devTokenArtifact.ABI.Events["Transfer"].ID}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(logs) < len(TestAccounts()) {
		t.Fatalf("got %d USDC Transfer logs, want at least %d (the initial mints)", len(logs), len(TestAccounts()))
	}
}

// A wallet's own transaction, sent over HTTP from a test account, is sealed
// without anyone asking for a block.
func TestStart_WalletTransaction(t *testing.T) {
	ctx := context.Background()
	c := shared.Chains()[1]
	client := MustDial(t, c)
	from := TestAccounts()[3]
	to := newRecipient(t)

	nonce, err := client.PendingNonceAt(ctx, from.Address)
	if err != nil {
		t.Fatal(err)
	}
	tip, err := client.SuggestGasTipCap(ctx)
	if err != nil {
		t.Fatal(err)
	}
	head, err := client.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := types.SignNewTx(from.Key, types.LatestSignerForChainID(new(big.Int).SetUint64(c.ChainID)), &types.DynamicFeeTx{
		ChainID:   new(big.Int).SetUint64(c.ChainID),
		Nonce:     nonce,
		GasTipCap: tip,
		GasFeeCap: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip),
		Gas:       21_000,
		To:        &to,
		Value:     ether(1),
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := client.SendTransaction(ctx, tx); err != nil {
		t.Fatal(err)
	}
	var receipt *types.Receipt
	if !poll.Until(5*time.Second, nil, func() bool {
		receipt, err = client.TransactionReceipt(ctx, tx.Hash())
		return err == nil
	}) {
		t.Fatalf("transaction not mined: %v", err)
	}
	if receipt.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("receipt status %d", receipt.Status)
	}
}

// A page on another localhost port calls the node directly, so CORS must allow it.
func TestStart_CORS(t *testing.T) {
	c := shared.Chains()[0]
	req, _ := http.NewRequest(http.MethodPost, c.RPCURL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", "http://localhost:5173")
	req.Host = "localhost:1234"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status = %d", resp.StatusCode)
	}
	if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "*" && got != "http://localhost:5173" {
		t.Fatalf("Access-Control-Allow-Origin = %q", got)
	}
}

// Only local pages may read the node's answers, and only through a local
// Host: a DNS-rebinding page reaches 127.0.0.1 under its own name.
func TestStart_RefusesNonLocalOriginAndHost(t *testing.T) {
	c := shared.Chains()[0]
	call := func(origin, host string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, c.RPCURL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", origin)
		if host != "" {
			req.Host = host
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	if resp := call("https://evil.example", ""); resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Fatalf("evil origin allowed: %q", resp.Header.Get("Access-Control-Allow-Origin"))
	}
	if resp := call("http://localhost:5173", "rebind.evil.example:1234"); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("non-local Host: status %d, want 403", resp.StatusCode)
	}
	for _, origin := range []string{"http://127.0.0.1:3000", "chrome-extension://nkbihfbeogaeaoehlefnkodbefgpgknn"} {
		if resp := call(origin, ""); resp.StatusCode != http.StatusOK || resp.Header.Get("Access-Control-Allow-Origin") != origin {
			t.Fatalf("%s: status %d, Access-Control-Allow-Origin %q", origin, resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"))
		}
	}
}

func TestStart_SameAddresses(t *testing.T) {
	// How long a start takes is make bench's (bench/main.go, "Start-up of latchd dev"), not a test's: a loaded
	// machine would fail a timed assertion. The log line is for the reader.
	start := time.Now()
	d, err := Start(context.Background(), Config{ChainIDs: []uint64{31337, 31338}, Logger: testLogger()})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Start took %s", time.Since(start).Round(time.Millisecond))
	defer d.Close()

	want := shared.Chains()
	got := d.Chains()
	for i := range want {
		if got[i].RPCURL == want[i].RPCURL {
			t.Errorf("chain %d: both devnets on %s", i, got[i].RPCURL)
		}
		if got[i].Multicall3 != want[i].Multicall3 || got[i].Multicall3 != want[0].Multicall3 {
			t.Errorf("chain %d: Multicall3 %s, want %s", i, got[i].Multicall3, want[0].Multicall3)
		}
		if fmt.Sprint(got[i].Tokens) != fmt.Sprint(want[i].Tokens) || fmt.Sprint(got[i].Tokens) != fmt.Sprint(want[0].Tokens) {
			t.Errorf("chain %d: tokens %v, want %v", i, got[i].Tokens, want[0].Tokens)
		}
	}
	for _, tok := range want[0].Tokens {
		t.Logf("%-5s %s", tok.Symbol, tok.Address)
	}
	t.Logf("Multicall3 %s", want[0].Multicall3)

	closeStart := time.Now()
	if err := d.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	t.Logf("Close took %s", time.Since(closeStart).Round(time.Millisecond))
	if err := d.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

func TestStart_ErrDuplicateChainID(t *testing.T) {
	if _, err := Start(context.Background(), Config{ChainIDs: []uint64{5, 5}}); err == nil {
		t.Fatal("Start with a repeated chain id succeeded")
	}
}

func TestGenesis(t *testing.T) {
	g := genesis(31337)
	if !g.Config.IsPrague(big.NewInt(0), 0) || g.Config.IsOsaka(big.NewInt(0), 0) {
		t.Fatal("dev genesis must run Prague rules, not Osaka")
	}
	if g.BaseFee == nil || g.BaseFee.Int64() != params.InitialBaseFee {
		t.Fatalf("base fee = %v", g.BaseFee)
	}
	for _, acc := range TestAccounts() {
		if acc.Address == deployer.Address {
			t.Fatal("deployer is one of the test accounts")
		}
	}
}
