package devnet

import (
	"context"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/latchkit/latch/internal/poll"
)

// callSwap calls a LatchSwap view through the public endpoint.
func callSwap(tb testing.TB, client *ethclient.Client, to common.Address, method string, args ...any) []any {
	tb.Helper()
	a := swapRouterArtifact
	switch method {
	case "getReserves", "token0":
		a = swapPairArtifact
	case "getPair", "allPairsLength":
		a = swapFactoryArtifact
	}
	data, err := a.ABI.Pack(method, args...)
	if err != nil {
		tb.Fatal(err)
	}
	out, err := client.CallContract(context.Background(), ethereum.CallMsg{To: &to, Data: data}, nil)
	if err != nil {
		tb.Fatalf("%s: %v", method, err)
	}
	vals, err := a.ABI.Unpack(method, out)
	if err != nil {
		tb.Fatal(err)
	}
	return vals
}

func TestStart_SwapPools(t *testing.T) {
	for _, c := range shared.Chains() {
		t.Run(c.CAIPNetworkID, func(t *testing.T) {
			if c.SwapRouter != swapRouterAddress || c.SwapFactory != swapFactoryAddress {
				t.Fatalf("SwapRouter %s SwapFactory %s", c.SwapRouter, c.SwapFactory)
			}
			client := MustDial(t, c)
			if got := callSwap(t, client, c.SwapRouter, "factory")[0].(common.Address); got != c.SwapFactory {
				t.Errorf("router.factory() = %s", got)
			}
			if got := callSwap(t, client, c.SwapRouter, "WETH")[0].(common.Address); got != tokenBySymbol(t, c, "WETH").Address {
				t.Errorf("router.WETH() = %s", got)
			}
			if n := callSwap(t, client, c.SwapFactory, "allPairsLength")[0].(*big.Int); n.Int64() != int64(len(swapPools)) {
				t.Errorf("allPairsLength = %s", n)
			}
			for _, p := range swapPools {
				a, b := tokenBySymbol(t, c, p.a), tokenBySymbol(t, c, p.b)
				pair := callSwap(t, client, c.SwapFactory, "getPair", a.Address, b.Address)[0].(common.Address)
				if pair != crypto.CreateAddress(swapFactoryAddress, p.factoryNonce) {
					t.Fatalf("%s/%s pool at %s", p.a, p.b, pair)
				}
				res := callSwap(t, client, pair, "getReserves")
				ra, rb := res[0].(*big.Int), res[1].(*big.Int)
				if callSwap(t, client, pair, "token0")[0].(common.Address) != a.Address {
					ra, rb = rb, ra
				}
				// The pools may have traded in other tests; at start they hold
				// exactly the seeded reserves, and each trade moves both.
				wantA, wantB := units(p.reserveA, a.Decimals), units(p.reserveB, b.Decimals)
				if new(big.Int).Mul(ra, rb).Cmp(new(big.Int).Mul(wantA, wantB)) < 0 {
					t.Errorf("%s/%s reserves %s × %s, below the seeded %s × %s", p.a, p.b, ra, rb, wantA, wantB)
				}
			}
		})
	}
}

// A wallet swaps ether for USDC through the router and gets exactly what
// getAmountsOut promised; asking for one unit more reverts.
func TestRouter_SwapExactETHForTokens(t *testing.T) {
	ctx := context.Background()
	c := shared.Chains()[1]
	client := MustDial(t, c)
	key, _ := crypto.GenerateKey()
	user := crypto.PubkeyToAddress(key.PublicKey)
	if _, err := shared.Faucet(ctx, FaucetRequest{Address: user.Hex(), CAIPNetworkID: c.CAIPNetworkID, Amount: "5"}); err != nil {
		t.Fatal(err)
	}
	weth, usdc := tokenBySymbol(t, c, "WETH"), tokenBySymbol(t, c, "USDC")
	path := []common.Address{weth.Address, usdc.Address}
	amountIn := ether(1)
	amounts := callSwap(t, client, c.SwapRouter, "getAmountsOut", amountIn, path)[0].([]*big.Int)
	out := amounts[1]
	// 1 ETH into 3,000,000 USDC / 1,000 WETH at 0.3%: just under 2,991 USDC.
	if out.Cmp(units(2_980, 6)) < 0 || out.Cmp(units(3_000, 6)) >= 0 {
		t.Fatalf("getAmountsOut(1 ETH) = %s USDC units", out)
	}
	deadline := big.NewInt(time.Now().Add(time.Hour).Unix())

	t.Run("ErrSlippage", func(t *testing.T) {
		data, _ := swapRouterArtifact.ABI.Pack("swapExactETHForTokens", new(big.Int).Add(out, big.NewInt(1)), path, user, deadline)
		_, err := client.EstimateGas(ctx, ethereum.CallMsg{From: user, To: &c.SwapRouter, Value: amountIn, Data: data})
		if err == nil || !strings.Contains(err.Error(), "INSUFFICIENT_OUTPUT_AMOUNT") {
			t.Fatalf("estimate with minimum out above the quote: %v", err)
		}
	})
	t.Run("ErrExpired", func(t *testing.T) {
		data, _ := swapRouterArtifact.ABI.Pack("swapExactETHForTokens", big.NewInt(0), path, user, big.NewInt(1))
		_, err := client.EstimateGas(ctx, ethereum.CallMsg{From: user, To: &c.SwapRouter, Value: amountIn, Data: data})
		if err == nil || !strings.Contains(err.Error(), "EXPIRED") {
			t.Fatalf("estimate past the deadline: %v", err)
		}
	})
	t.Run("OK", func(t *testing.T) {
		data, _ := swapRouterArtifact.ABI.Pack("swapExactETHForTokens", out, path, user, deadline)
		head, err := client.HeaderByNumber(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		id := new(big.Int).SetUint64(c.ChainID)
		tx, err := types.SignNewTx(key, types.LatestSignerForChainID(id), &types.DynamicFeeTx{
			ChainID: id, Nonce: 0, GasTipCap: priorityFee,
			GasFeeCap: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), priorityFee),
			Gas:       300_000, To: &c.SwapRouter, Value: amountIn, Data: data,
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
			t.Fatalf("swap not mined: %v", err)
		}
		if receipt.Status != types.ReceiptStatusSuccessful {
			t.Fatal("swap reverted")
		}
		if got := balanceOf(t, client, usdc.Address, user); got.Cmp(out) != 0 {
			t.Fatalf("USDC received %s, want %s", got, out)
		}
	})
}
