package indexer

import (
	"encoding/json"
	"fmt"

	"github.com/ethereum/go-ethereum/common"

	"github.com/latchkit/latch/internal/caip"
	"github.com/latchkit/latch/internal/network"
)

// tokenListEntry is one token of a token list (data/tokens.json).
type tokenListEntry struct {
	Address  string `json:"address"`
	Symbol   string `json:"symbol"`
	Name     string `json:"name"`
	Decimals int    `json:"decimals"`
}

// ParseTokenList reads a token list ({"<caip2>": [{address, symbol, name,
// decimals}]}) into the listed tokens per EVM chain, keeping only the EVM
// networks of the registry. A bad address fails the whole list.
func ParseTokenList(raw []byte, networks *network.Registry) (map[uint64][]Token, error) {
	var list map[string][]tokenListEntry
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("tokens.json: %w", err)
	}
	out := map[uint64][]Token{}
	for id, entries := range list {
		n := networks.Get(id)
		if n == nil || n.ChainNamespace != caip.EIP155 {
			continue
		}
		chainID, err := caip.EVMChainID(id)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if !common.IsHexAddress(e.Address) {
				return nil, fmt.Errorf("tokens.json: %s %s: bad address", id, e.Symbol)
			}
			out[chainID] = append(out[chainID], Token{
				Address: common.HexToAddress(e.Address), Standard: 20, Name: e.Name, Symbol: e.Symbol, Decimals: e.Decimals,
				WrappedNative: WrapsNative(e.Symbol, n.NativeCurrency.Symbol),
			})
		}
	}
	return out, nil
}

// WrapsNative reports whether a token with symbol is the WETH9-style wrapper
// of a network's coin: it is named W<coin> (WETH, WBNB, WAVAX…); Polygon's is
// still WMATIC after the POL rename.
func WrapsNative(symbol, native string) bool {
	return symbol == "W"+native || (native == "POL" && (symbol == "WMATIC" || symbol == "WPOL"))
}
