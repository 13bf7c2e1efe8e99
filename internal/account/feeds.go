package account

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/latchkit/latch/internal/caip"
	"github.com/latchkit/latch/internal/indexer"
	"github.com/latchkit/latch/internal/network"
)

//go:embed pricefeeds.json
var builtinFeeds []byte

// FeedConfig is one feed of pricefeeds.json or --price-feed.
type FeedConfig struct {
	Network string // CAIP-2
	Asset   string // "native", a token symbol of the network's list, or a token address
	Feed    common.Address
	MaxAge  time.Duration
}

// heartbeatGrace is added to a feed's heartbeat before its answer counts as
// stale: an update can land a little late.
const heartbeatGrace = time.Hour

// defaultHeartbeat is assumed for feeds given without one (--price-feed):
// Chainlink's slowest USD feeds update at least daily.
const defaultHeartbeat = 24 * time.Hour

// BuiltinFeeds returns the feeds of pricefeeds.json.
func BuiltinFeeds() ([]FeedConfig, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(builtinFeeds, &raw); err != nil {
		return nil, fmt.Errorf("pricefeeds.json: %w", err)
	}
	var out []FeedConfig
	for network, body := range raw {
		if strings.HasPrefix(network, "_") {
			continue
		}
		var assets map[string]struct {
			Feed      string `json:"feed"`
			Heartbeat int64  `json:"heartbeat"`
		}
		if err := json.Unmarshal(body, &assets); err != nil {
			return nil, fmt.Errorf("pricefeeds.json: %s: %w", network, err)
		}
		for asset, f := range assets {
			if !common.IsHexAddress(f.Feed) || f.Heartbeat <= 0 {
				return nil, fmt.Errorf("pricefeeds.json: %s %s: bad feed", network, asset)
			}
			out = append(out, FeedConfig{Network: network, Asset: asset, Feed: common.HexToAddress(f.Feed), MaxAge: time.Duration(f.Heartbeat)*time.Second + heartbeatGrace})
		}
	}
	return out, nil
}

// ParseFeedFlag parses --price-feed "<caip2>:<native|symbol|token address>=<feed address>".
func ParseFeedFlag(s string) (FeedConfig, error) {
	bad := fmt.Errorf("--price-feed %q: want <caip2>:<native|symbol|token address>=<feed address>", s)
	left, feed, ok := strings.Cut(s, "=")
	if !ok {
		return FeedConfig{}, bad
	}
	i := strings.LastIndex(left, ":")
	if i <= 0 {
		return FeedConfig{}, bad
	}
	network, asset := left[:i], left[i+1:]
	if _, err := caip.EVMChainID(network); err != nil || asset == "" || !common.IsHexAddress(feed) || len(feed) != 42 {
		return FeedConfig{}, bad
	}
	return FeedConfig{Network: network, Asset: asset, Feed: common.HexToAddress(feed), MaxAge: defaultHeartbeat + heartbeatGrace}, nil
}

// Feeds are the price feeds per chain and token (Native for the coin).
type Feeds map[uint64]map[common.Address]Feed

// Set makes f the feed of token on chainID.
func (fs Feeds) Set(chainID uint64, token common.Address, f Feed) {
	if fs[chainID] == nil {
		fs[chainID] = map[common.Address]Feed{}
	}
	fs[chainID][token] = f
}

// ResolveFeeds builds the feeds of the registry's networks from the
// built-in feeds and the --price-feed flags (which win), resolving each
// asset against the listed tokens. A built-in feed of an unknown network or
// asset is skipped; a flag's is an error.
func ResolveFeeds(networks *network.Registry, listed map[uint64][]indexer.Token, flags []string) (Feeds, error) {
	builtin, err := BuiltinFeeds()
	if err != nil {
		return nil, err
	}
	configs := builtin
	for _, s := range flags {
		f, err := ParseFeedFlag(s)
		if err != nil {
			return nil, err
		}
		configs = append(configs, f)
	}
	out := Feeds{}
	for i, f := range configs {
		fromFlag := i >= len(builtin)
		chainID, err := caip.EVMChainID(f.Network)
		if networks.Get(f.Network) == nil || err != nil {
			if fromFlag {
				return nil, fmt.Errorf("--price-feed: unknown network %s", f.Network)
			}
			continue
		}
		token, ok := ResolveAsset(f.Asset, listed[chainID])
		if !ok {
			if fromFlag {
				return nil, fmt.Errorf("--price-feed %s:%s: not native, a listed token symbol or a token address", f.Network, f.Asset)
			}
			continue
		}
		out.Set(chainID, token, Feed{Address: f.Feed, MaxAge: f.MaxAge})
	}
	return out, nil
}

// ResolveAsset maps a feed's asset ("native", a listed symbol, an address) to a token key.
func ResolveAsset(asset string, listed []indexer.Token) (common.Address, bool) {
	if asset == "native" {
		return Native, true
	}
	if common.IsHexAddress(asset) && strings.HasPrefix(asset, "0x") {
		return common.HexToAddress(asset), true
	}
	for _, t := range listed {
		if t.Symbol == asset {
			return t.Address, true
		}
	}
	return common.Address{}, false
}
