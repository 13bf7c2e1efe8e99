package indexer

import (
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/latchkit/latch/data"
	"github.com/latchkit/latch/internal/network"
)

func TestWrapsNative(t *testing.T) {
	tests := []struct {
		symbol, native string
		want           bool
	}{
		{"WETH", "ETH", true},
		{"WBNB", "BNB", true},
		{"WAVAX", "AVAX", true},
		{"WMATIC", "POL", true}, // Polygon's wrapper kept its name after the POL rename
		{"WPOL", "POL", true},
		{"WMATIC", "ETH", false},
		{"ETH", "ETH", false},
		{"weth", "ETH", false},
		{"USDC", "ETH", false},
	}
	for _, tt := range tests {
		if got := WrapsNative(tt.symbol, tt.native); got != tt.want {
			t.Errorf("WrapsNative(%q, %q) = %v, want %v", tt.symbol, tt.native, got, tt.want)
		}
	}
}

func TestParseTokenList(t *testing.T) {
	networks, err := network.Load(data.Networks)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("OK", func(t *testing.T) {
		listed, err := ParseTokenList(data.Tokens, networks)
		if err != nil {
			t.Fatal(err)
		}
		var weth *Token
		for i, tok := range listed[1] {
			if tok.Symbol == "WETH" {
				weth = &listed[1][i]
			}
			if tok.Standard != 20 || tok.Address == (common.Address{}) {
				t.Fatalf("eip155:1 token %+v", tok)
			}
		}
		if weth == nil || !weth.WrappedNative || weth.Decimals != 18 || weth.Address != common.HexToAddress("0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2") {
			t.Fatalf("eip155:1 WETH = %+v", weth)
		}
		for _, tok := range listed[137] {
			if (tok.Symbol == "WMATIC" || tok.Symbol == "WPOL") != tok.WrappedNative {
				t.Fatalf("eip155:137 %s: WrappedNative = %v", tok.Symbol, tok.WrappedNative)
			}
		}
	})
	t.Run("SkipsUnknownAndNonEVMNetworks", func(t *testing.T) {
		raw := `{"eip155:999999999":[{"address":"0x0000000000000000000000000000000000000001","symbol":"X"}],
			"solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp":[{"address":"So11111111111111111111111111111111111111112","symbol":"SOL"}],
			"eip155:1":[{"address":"0x0000000000000000000000000000000000000002","symbol":"Y","name":"Y","decimals":6}]}`
		listed, err := ParseTokenList([]byte(raw), networks)
		if err != nil {
			t.Fatal(err)
		}
		if len(listed) != 1 || len(listed[1]) != 1 || listed[1][0].Symbol != "Y" || listed[1][0].Decimals != 6 {
			t.Fatalf("listed = %+v", listed)
		}
	})
	t.Run("ErrBadAddress", func(t *testing.T) {
		_, err := ParseTokenList([]byte(`{"eip155:1":[{"address":"0x12","symbol":"BAD"}]}`), networks)
		if err == nil || !strings.Contains(err.Error(), "eip155:1 BAD: bad address") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("ErrBadJSON", func(t *testing.T) {
		if _, err := ParseTokenList([]byte(`[`), networks); err == nil {
			t.Fatal("no error")
		}
	})
}
