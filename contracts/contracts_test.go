package contracts

import (
	"encoding/hex"
	"testing"
)

func TestNames(t *testing.T) {
	got := Names()
	want := []string{"DevENSRegistry", "DevENSResolver", "DevFarcasterIdRegistry", "DevPriceFeed", "DevSmartWallet", "DevSmartWalletFactory", "DevToken", "DevUniversalResolver", "IAccount", "IAggregator", "IEntryPoint", "ILatchSwapERC20", "ILatchSwapWETH", "IPaymaster", "LatchEntryPoint", "LatchEntryPointSimulations", "LatchSenderCreator", "LatchSignatures", "LatchSmartAccount", "LatchSmartAccountFactory", "LatchSwapFactory", "LatchSwapPair", "LatchSwapRouter", "LatchSwapTransfer", "LatchTestAggregatedAccount", "LatchTestAggregator", "LatchTestRulesAccount", "LatchTestRulesFactory", "LatchVerifyingPaymaster", "Multicall3", "OffchainResolver", "UniversalSigValidator", "ValidateSigOffchain", "WETH"}
	if len(got) != len(want) {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("Names() = %v, want %v", got, want)
		}
	}
}

func TestLoad(t *testing.T) {
	t.Run("ErrUnknown", func(t *testing.T) {
		if _, err := Load("Nope"); err == nil {
			t.Fatal("Load(Nope) succeeded")
		}
	})
	t.Run("DevTokenConstructor", func(t *testing.T) {
		a := MustLoad("DevToken")
		data, err := a.DeployData("USD Coin", "USDC", uint8(6))
		if err != nil {
			t.Fatal(err)
		}
		if len(data) <= len(a.Bytecode) {
			t.Fatal("constructor arguments not appended")
		}
		if _, err := a.DeployData("only one"); err == nil {
			t.Fatal("DeployData with wrong arguments succeeded")
		}
	})
}

// The selectors below are those of the well-known ERC-20, WETH9 and Multicall3
// ABIs; wallets and libraries call them by selector, so they must not drift.
func TestSelectors(t *testing.T) {
	tests := []struct {
		contract, method, selector string
	}{
		{"DevToken", "transfer", "a9059cbb"},
		{"DevToken", "approve", "095ea7b3"},
		{"DevToken", "transferFrom", "23b872dd"},
		{"DevToken", "balanceOf", "70a08231"},
		{"DevToken", "allowance", "dd62ed3e"},
		{"DevToken", "totalSupply", "18160ddd"},
		{"DevToken", "decimals", "313ce567"},
		{"DevToken", "mint", "40c10f19"},
		{"WETH", "deposit", "d0e30db0"},
		{"WETH", "withdraw", "2e1a7d4d"},
		{"WETH", "transfer", "a9059cbb"},
		{"Multicall3", "aggregate", "252dba42"},
		{"Multicall3", "tryAggregate", "bce38bd7"},
		{"Multicall3", "aggregate3", "82ad56cb"},
		{"Multicall3", "aggregate3Value", "174dea71"},
		{"Multicall3", "blockAndAggregate", "c3077fa9"},
		{"Multicall3", "tryBlockAndAggregate", "399542e9"},
		{"Multicall3", "getEthBalance", "4d2301cc"},
		{"Multicall3", "getBlockNumber", "42cbb15c"},
		{"Multicall3", "getCurrentBlockTimestamp", "0f28c97d"},
		{"Multicall3", "getChainId", "3408e470"},
		{"Multicall3", "getBasefee", "3e64a696"},
		{"Multicall3", "getBlockHash", "ee82ac5e"},
		{"Multicall3", "getLastBlockHash", "27e86d6e"},
		// Chainlink AggregatorV3Interface and the legacy AggregatorInterface.
		{"DevPriceFeed", "latestRoundData", "feaf968c"},
		{"DevPriceFeed", "getRoundData", "9a6fc8f5"},
		{"DevPriceFeed", "decimals", "313ce567"},
		{"DevPriceFeed", "description", "7284e416"},
		{"DevPriceFeed", "version", "54fd4d50"},
		{"DevPriceFeed", "latestAnswer", "50d25bcd"},
		{"DevPriceFeed", "latestTimestamp", "8205bf6a"},
		{"DevPriceFeed", "latestRound", "668a0f02"},
		// ENS registry and public resolver profiles.
		{"DevENSRegistry", "resolver", "0178b8bf"},
		{"DevENSResolver", "name", "691f3431"},
		{"DevENSResolver", "addr", "3b3b57de"},
		{"DevENSResolver", "text", "59d1d43c"},
		// ENSIP-10 wildcard resolution and the ERC-3668 callback of ENS's offchain resolver.
		{"OffchainResolver", "resolve", "9061b923"},
		{"OffchainResolver", "resolveWithProof", "f4d4d2f8"},
		// What viem's ENS actions call on the universal resolver.
		{"DevUniversalResolver", "resolveWithGateways", "a1472844"},
		// The Uniswap V2 pair, factory and router calls latchd's swap makes
		// (internal/swap), so any V2-compatible router works in their place.
		{"LatchSwapPair", "getReserves", "0902f1ac"},
		{"LatchSwapPair", "token0", "0dfe1681"},
		{"LatchSwapPair", "swap", "022c0d9f"},
		{"LatchSwapPair", "mint", "6a627842"},
		{"LatchSwapFactory", "getPair", "e6a43905"},
		{"LatchSwapFactory", "createPair", "c9c65396"},
		{"LatchSwapRouter", "factory", "c45a0155"},
		{"LatchSwapRouter", "WETH", "ad5c4648"},
		{"LatchSwapRouter", "getAmountsOut", "d06ca61f"},
		{"LatchSwapRouter", "swapExactTokensForTokens", "38ed1739"},
		{"LatchSwapRouter", "swapExactETHForTokens", "7ff36ab5"},
		{"LatchSwapRouter", "swapExactTokensForETH", "18cbafe5"},
		// ERC-4337 v0.7's EntryPoint interface, which bundlers and SDKs call by
		// selector: operations, nonces, deposits and the stake manager.
		{"LatchEntryPoint", "handleOps", "765e827f"},
		{"LatchEntryPoint", "handleAggregatedOps", "dbed18e0"},
		{"LatchEntryPoint", "getUserOpHash", "22cdde4c"},
		{"LatchEntryPoint", "getNonce", "35567e1a"},
		{"LatchEntryPoint", "getSenderAddress", "9b249f69"},
		{"LatchEntryPoint", "depositTo", "b760faf9"},
		{"LatchEntryPoint", "balanceOf", "70a08231"},
		{"LatchEntryPoint", "withdrawTo", "205c2878"},
		{"LatchEntryPoint", "addStake", "0396cb60"},
		{"LatchEntryPoint", "unlockStake", "bb9fe6bf"},
		{"LatchEntryPoint", "withdrawStake", "c23a5cea"},
		{"LatchEntryPoint", "getDepositInfo", "5287ce12"},
	}
	for _, tt := range tests {
		t.Run(tt.contract+"."+tt.method, func(t *testing.T) {
			m, ok := MustLoad(tt.contract).ABI.Methods[tt.method]
			if !ok {
				t.Fatalf("%s has no method %s", tt.contract, tt.method)
			}
			if got := hex.EncodeToString(m.ID); got != tt.selector {
				t.Errorf("%s selector = %s (%s), want %s", tt.method, got, m.Sig, tt.selector)
			}
		})
	}
}
