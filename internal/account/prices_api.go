package account

import (
	"context"
	"errors"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/caip"
	"github.com/latchkit/latch/internal/indexer"
)

// nativeAddress stands for a network's coin in CAIP-10 token addresses (api-shapes §3.4).
const nativeAddress = "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee"

// maxPriceAddresses bounds one POST /v1/fungible/price.
const maxPriceAddresses = 50

// FungiblePrice is the price of one asset, with its metadata.
type FungiblePrice struct {
	Address  string // the CAIP-10 address as asked (checksummed)
	Name     string
	Symbol   string
	Decimals int
	USD      float64
}

// tokenRef is a parsed CAIP-10 token address.
type tokenRef struct {
	caipID  string
	chainID uint64
	token   common.Address // Native for the coin
}

// parseTokenAddress parses a CAIP-10 token address of an EVM network;
// 0xeeee…eeee is the native coin. Errors: apperr.Invalid naming field.
func parseTokenAddress(field, s string) (tokenRef, error) {
	id, err := caip.ParseAccountID(s)
	if err != nil {
		return tokenRef{}, apperr.Fieldf(apperr.Invalid, field, "%s", err.Error())
	}
	if id.Chain.Namespace != caip.EIP155 {
		return tokenRef{}, apperr.Fieldf(apperr.Invalid, field, "%s is not an EVM token address", clip(s))
	}
	chainID, err := id.Chain.EVMChainID()
	if err != nil {
		return tokenRef{}, apperr.Fieldf(apperr.Invalid, field, "Invalid CAIP-10 address: %s", clip(s))
	}
	ref := tokenRef{caipID: id.Chain.String(), chainID: chainID}
	if strings.EqualFold(id.Address, nativeAddress) {
		return ref, nil
	}
	ref.token, err = ParseAddress(field, id.Address)
	if err != nil {
		return tokenRef{}, err
	}
	if ref.token == Native {
		return tokenRef{}, apperr.Fieldf(apperr.Invalid, field, "%s: the zero address is not a token", clip(s))
	}
	return ref, nil
}

// FungiblePrices returns the USD price of each asset that has one, in the
// order asked; assets without a price are left out. Errors: apperr.Invalid
// for a malformed address list, apperr.NotFound for an unknown network, and
// what spend returns.
func (s *Service) FungiblePrices(ctx context.Context, addresses []string, spend Spend) ([]FungiblePrice, error) {
	if len(addresses) == 0 {
		return nil, apperr.Fieldf(apperr.Invalid, "addresses", "addresses is required: a list of CAIP-10 token addresses")
	}
	if len(addresses) > maxPriceAddresses {
		return nil, apperr.Fieldf(apperr.Invalid, "addresses", "addresses holds more than %d entries", maxPriceAddresses)
	}
	refs := make([]tokenRef, len(addresses))
	byChain := map[uint64][]common.Address{}
	for i, a := range addresses {
		ref, err := parseTokenAddress("addresses", a)
		if err != nil {
			return nil, err
		}
		if _, _, err := s.evmNetwork(ref.caipID); err != nil {
			return nil, err
		}
		refs[i] = ref
		byChain[ref.chainID] = append(byChain[ref.chainID], ref.token)
	}
	prices := map[uint64]map[common.Address]float64{}
	for chainID, tokens := range byChain {
		got, err := s.cfg.Prices.Prices(ctx, chainID, tokens, spend)
		var limited *RateLimitError
		if errors.As(err, &limited) {
			return nil, err
		}
		// Another failure leaves those prices out, like a missing feed.
		prices[chainID] = got
	}
	var out []FungiblePrice
	for _, ref := range refs {
		usd, ok := prices[ref.chainID][ref.token]
		if !ok {
			continue
		}
		n := s.cfg.Networks.Get(ref.caipID)
		fp := FungiblePrice{USD: usd}
		if ref.token == Native {
			fp.Address = ref.caipID + ":" + nativeAddress
			fp.Name, fp.Symbol, fp.Decimals = n.NativeCurrency.Name, n.NativeCurrency.Symbol, n.NativeCurrency.Decimals
		} else {
			fp.Address = ref.caipID + ":" + ref.token.Hex()
			meta, err := s.cfg.Tokens.Resolve(ctx, s.cfg.Clients.ForChain(ref.chainID), ref.chainID, map[common.Address]int{ref.token: 20})
			tok, ok := meta[ref.token]
			if err != nil || !ok {
				tok = indexer.Token{Symbol: shortAddress(ref.token), Decimals: -1}
			}
			fp.Name, fp.Symbol, fp.Decimals = tok.Name, tok.Symbol, tok.Decimals
			if fp.Name == "" {
				fp.Name = fp.Symbol
			}
		}
		out = append(out, fp)
	}
	return out, nil
}
