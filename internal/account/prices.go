package account

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/latchkit/latch/contracts"
	"github.com/latchkit/latch/internal/evm"
)

// Native is the key of a network's coin in price maps (no token has the zero address).
var Native = common.Address{}

// PriceSource gives USD prices of one whole unit of an asset.
//
// Every implementation guarantees: a price it returns is positive and as
// fresh as the source vouches for (an answer it cannot trust — zero,
// negative, stale — is left out, never returned as a number); an asset it
// has no price for is absent from the map; an error means the source could
// not be asked (prices it could read may be returned alongside). Callers
// show no fiat value for an absent asset rather than a guess.
type PriceSource interface {
	Prices(ctx context.Context, chainID uint64, tokens []common.Address) (map[common.Address]float64, error)
}

// Feed is a Chainlink-compatible USD feed (AggregatorV3Interface).
type Feed struct {
	Address common.Address
	// MaxAge is how old an answer may be; 0 accepts any age (dev feeds,
	// which change only when someone sets them).
	MaxAge time.Duration
}

// ChainlinkSource reads prices from AggregatorV3 feeds with
// latestRoundData, one batch of eth_calls per request. It is safe for
// concurrent use.
type ChainlinkSource struct {
	feeds  map[uint64]map[common.Address]Feed // chain → token (Native for the coin) → feed
	client func(chainID uint64) *evm.Client
	now    func() time.Time

	mu       sync.Mutex
	decimals map[common.Address]uint8 // per feed address, read once
}

// NewChainlinkSource returns a source over feeds (chain → token → feed);
// client gives the RPC client of a chain, or nil when it has none.
func NewChainlinkSource(feeds map[uint64]map[common.Address]Feed, client func(chainID uint64) *evm.Client, now func() time.Time) *ChainlinkSource {
	if now == nil {
		now = time.Now
	}
	return &ChainlinkSource{feeds: feeds, client: client, now: now, decimals: map[common.Address]uint8{}}
}

// HasFeed reports whether the source can price the token (Native for the coin).
func (s *ChainlinkSource) HasFeed(chainID uint64, token common.Address) bool {
	_, ok := s.feeds[chainID][token]
	return ok
}

var feedABI = contracts.MustLoad("DevPriceFeed").ABI

// Prices implements PriceSource.
func (s *ChainlinkSource) Prices(ctx context.Context, chainID uint64, tokens []common.Address) (map[common.Address]float64, error) {
	out := map[common.Address]float64{}
	feeds := s.feeds[chainID]
	byFeed := map[common.Address][]common.Address{}
	for _, t := range tokens {
		if f, ok := feeds[t]; ok {
			byFeed[f.Address] = append(byFeed[f.Address], t)
		}
	}
	if len(byFeed) == 0 {
		return out, nil
	}
	client := s.client(chainID)
	if client == nil {
		return out, fmt.Errorf("price feeds of chain %d: no RPC upstream", chainID)
	}
	latest, _ := feedABI.Pack("latestRoundData")
	decimalsCall, _ := feedABI.Pack("decimals")
	type read struct {
		feed     common.Address
		round    int // index of latestRoundData in calls
		decimals int // index of decimals, or -1 when known
	}
	var calls []evm.CallElem
	var reads []read
	s.mu.Lock()
	for feed := range byFeed {
		r := read{feed: feed, round: len(calls), decimals: -1}
		calls = append(calls, evm.CallElem{To: feed, Data: latest})
		if _, ok := s.decimals[feed]; !ok {
			r.decimals = len(calls)
			calls = append(calls, evm.CallElem{To: feed, Data: decimalsCall})
		}
		reads = append(reads, r)
	}
	s.mu.Unlock()
	if err := client.CallBatch(ctx, calls); err != nil {
		return out, fmt.Errorf("price feeds of chain %d: %w", chainID, err)
	}
	now := s.now()
	for _, r := range reads {
		s.mu.Lock()
		dec, ok := s.decimals[r.feed]
		if !ok && r.decimals >= 0 {
			c := calls[r.decimals]
			if vals, err := feedABI.Unpack("decimals", c.Result); c.Err == nil && err == nil {
				dec, ok = vals[0].(uint8), true
				s.decimals[r.feed] = dec
			}
		}
		s.mu.Unlock()
		c := calls[r.round]
		if !ok || c.Err != nil {
			continue
		}
		vals, err := feedABI.Unpack("latestRoundData", c.Result)
		if err != nil || len(vals) != 5 {
			continue
		}
		answer, _ := vals[1].(*big.Int)
		updatedAt, _ := vals[3].(*big.Int)
		usd, ok := feedAnswer(answer, updatedAt, dec, now, maxAgeOf(feeds, byFeed[r.feed]))
		if !ok {
			continue
		}
		for _, t := range byFeed[r.feed] {
			out[t] = usd
		}
	}
	return out, nil
}

func maxAgeOf(feeds map[common.Address]Feed, tokens []common.Address) time.Duration {
	return feeds[tokens[0]].MaxAge
}

// feedAnswer turns a round into a price, refusing answers a reader must not
// trust: not positive, never updated, from the future, or older than maxAge.
func feedAnswer(answer, updatedAt *big.Int, decimals uint8, now time.Time, maxAge time.Duration) (float64, bool) {
	if answer == nil || answer.Sign() <= 0 || updatedAt == nil || updatedAt.Sign() <= 0 || !updatedAt.IsInt64() {
		return 0, false
	}
	at := time.Unix(updatedAt.Int64(), 0)
	if at.After(now.Add(5 * time.Minute)) {
		return 0, false
	}
	if maxAge > 0 && now.Sub(at) > maxAge {
		return 0, false
	}
	f, _ := new(big.Float).Quo(new(big.Float).SetInt(answer), new(big.Float).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil))).Float64()
	if math.IsInf(f, 0) || math.IsNaN(f) || f <= 0 {
		return 0, false
	}
	return f, true
}

// PriceCache keeps a source's answers (and its "no price") for a short
// time, so a page of balances or history asks the feeds at most once per
// TTL per asset. It is safe for concurrent use.
type PriceCache struct {
	src PriceSource
	ttl time.Duration
	now func() time.Time

	mu      sync.Mutex
	entries map[priceKey]priceEntry
}

type priceKey struct {
	chain uint64
	token common.Address
}

type priceEntry struct {
	usd float64
	ok  bool
	at  time.Time
}

// PriceTTL is how long a price is reused. Short: prices move, and a dev
// price set with /dev/price drops the cache of its network anyway.
const PriceTTL = 10 * time.Second

// NewPriceCache wraps src.
func NewPriceCache(src PriceSource, ttl time.Duration, now func() time.Time) *PriceCache {
	if now == nil {
		now = time.Now
	}
	return &PriceCache{src: src, ttl: ttl, now: now, entries: map[priceKey]priceEntry{}}
}

// Prices returns cached prices and asks the source for the rest (spend is
// called first, when that costs upstream calls; its error is returned).
func (c *PriceCache) Prices(ctx context.Context, chainID uint64, tokens []common.Address, spend func(context.Context) error) (map[common.Address]float64, error) {
	out := map[common.Address]float64{}
	var missing []common.Address
	now := c.now()
	c.mu.Lock()
	for _, t := range tokens {
		e, ok := c.entries[priceKey{chainID, t}]
		switch {
		case ok && now.Sub(e.at) < c.ttl:
			if e.ok {
				out[t] = e.usd
			}
		default:
			missing = append(missing, t)
		}
	}
	c.mu.Unlock()
	if len(missing) == 0 {
		return out, nil
	}
	if spend != nil {
		if err := spend(ctx); err != nil {
			return out, err
		}
	}
	got, err := c.src.Prices(ctx, chainID, missing)
	c.mu.Lock()
	for _, t := range missing {
		usd, ok := got[t]
		if ok {
			out[t] = usd
		}
		if err == nil || ok {
			// A failed read is not remembered as "no price".
			c.entries[priceKey{chainID, t}] = priceEntry{usd: usd, ok: ok, at: now}
		}
	}
	c.mu.Unlock()
	return out, err
}

// Price is Prices for one asset; it never fails, an error meaning no price.
func (c *PriceCache) Price(ctx context.Context, chainID uint64, token common.Address) (float64, bool) {
	got, _ := c.Prices(ctx, chainID, []common.Address{token}, nil)
	usd, ok := got[token]
	return usd, ok
}

// Invalidate drops the cached prices of a chain.
func (c *PriceCache) Invalidate(chainID uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k := range c.entries {
		if k.chain == chainID {
			delete(c.entries, k)
		}
	}
}
