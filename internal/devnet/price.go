package devnet

import (
	"context"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/decimal"
)

// FeedDecimals is the precision of every dev price feed's answer, as of
// Chainlink's USD feeds: an answer of 300000000000 is $3000.
const FeedDecimals = 8

// priceFeeds lists which feed prices which asset: one per feed, plus WETH on
// the ETH feed (wrapped ether is worth ether).
func priceFeeds() []PriceFeed {
	var out []PriceFeed
	for _, f := range devFeeds {
		pf := PriceFeed{Symbol: f.asset, Address: f.address}
		if t := devTokenBySymbol(f.asset); t != nil {
			addr := t.Address
			pf.Token = &addr
		}
		out = append(out, pf)
	}
	for _, t := range devTokens {
		if t.wrapped {
			addr := t.Address
			out = append(out, PriceFeed{Symbol: t.Symbol, Token: &addr, Address: devFeeds[0].address})
		}
	}
	return out
}

func devTokenBySymbol(symbol string) *devToken {
	for i := range devTokens {
		if devTokens[i].Symbol == symbol {
			return &devTokens[i]
		}
	}
	return nil
}

// PriceRequest sets the USD price of an asset on a dev chain.
type PriceRequest struct {
	CAIPNetworkID string // e.g. "eip155:31337"
	Token         string // "native" or "ETH" for the native coin; a dev token symbol (any case) or address
	USD           string // a positive decimal with at most FeedDecimals places, e.g. "1.00"
}

// PriceResult reports a mined price update.
type PriceResult struct {
	Symbol string         // the asset whose feed was set ("ETH" for native and WETH)
	Feed   common.Address // the feed contract
	Answer *big.Int       // the new answer, scaled by 10^FeedDecimals
	TxHash string
}

// maxPriceUSD bounds a dev price; it keeps UI figures and float conversions sane.
const maxPriceUSD = 1_000_000_000

// SetPrice writes a new answer to the asset's feed and waits until it is
// mined. Setting WETH sets the ETH feed, which prices both.
//
// Errors: apperr.Invalid for a malformed price or network id, apperr.NotFound
// for an unknown network or an asset without a feed.
func (d *Devnet) SetPrice(ctx context.Context, req PriceRequest) (PriceResult, error) {
	c, err := d.chainFor(req.CAIPNetworkID)
	if err != nil {
		return PriceResult{}, err
	}
	feed, err := resolveFeed(req.Token)
	if err != nil {
		return PriceResult{}, err
	}
	answer, err := parsePrice(req.USD)
	if err != nil {
		return PriceResult{}, err
	}
	data, err := priceFeedArtifact.ABI.Pack("updateAnswer", answer)
	if err != nil {
		return PriceResult{}, err
	}
	c.mu.Lock()
	tx, err := c.sendLocked(ctx, &feed.address, nil, data, tokenGas)
	c.mu.Unlock()
	if err != nil {
		return PriceResult{}, fmt.Errorf("devnet: set price: %w", err)
	}
	hash, err := c.confirm(ctx, tx.Hash())
	if err != nil {
		return PriceResult{}, err
	}
	return PriceResult{Symbol: feed.asset, Feed: feed.address, Answer: answer, TxHash: hash.Hex()}, nil
}

// resolveFeed finds the feed that prices token.
func resolveFeed(token string) (*devFeed, error) {
	if token == "" {
		return nil, apperr.Fieldf(apperr.Invalid, "token", "token is required: native, a token symbol or a token address")
	}
	symbol := ""
	if strings.EqualFold(token, "native") || strings.EqualFold(token, nativeSymbol) {
		symbol = nativeSymbol
	} else {
		for _, t := range devTokens {
			if strings.EqualFold(token, t.Symbol) || strings.EqualFold(token, t.Address.Hex()) {
				symbol = t.Symbol
				if t.wrapped {
					symbol = nativeSymbol
				}
			}
		}
	}
	for i := range devFeeds {
		if devFeeds[i].asset == symbol {
			return &devFeeds[i], nil
		}
	}
	return nil, apperr.Fieldf(apperr.NotFound, "token", "No dev price feed for %q: use native, USDC, DAI, WETH or a dev token address", decimal.Clip(token))
}

// parsePrice converts "1.00" to an answer scaled by 10^FeedDecimals, exactly.
func parsePrice(s string) (*big.Int, error) {
	v, err := decimal.Parse(decimal.Field{Name: "usd", Label: "usd", Example: "1.00"}, s, FeedDecimals)
	if err != nil {
		return nil, err
	}
	if v.Cmp(new(big.Int).Mul(big.NewInt(maxPriceUSD), pow10(FeedDecimals))) > 0 {
		return nil, apperr.Fieldf(apperr.Invalid, "usd", "usd must be at most %d", maxPriceUSD)
	}
	return v, nil
}

// formatPrice renders an answer scaled by 10^FeedDecimals as a decimal with
// at least two places: 100000000 → "1.00", 99875000 → "0.99875".
func formatPrice(answer *big.Int) string {
	s := answer.String()
	if len(s) <= FeedDecimals {
		s = strings.Repeat("0", FeedDecimals-len(s)+1) + s
	}
	whole, frac := s[:len(s)-FeedDecimals], strings.TrimRight(s[len(s)-FeedDecimals:], "0")
	for len(frac) < 2 {
		frac += "0"
	}
	return whole + "." + frac
}
