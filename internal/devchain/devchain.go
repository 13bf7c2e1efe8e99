// Package devchain describes the development chains of `latchd dev` without
// running them: what a running set of dev chains offers (Chains) and how one
// is started (Starter). Package devnet implements it with in-process
// go-ethereum nodes; latchd's dev build registers that implementation, so the
// production build, which imports only this package, links no node code.
package devchain

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/ethereum/go-ethereum/common"
)

// Token describes an ERC-20 deployed on every dev chain.
type Token struct {
	Symbol   string
	Name     string
	Address  common.Address
	Decimals uint8
}

// PriceFeed is a USD price feed deployed on a dev chain, with the asset it prices.
type PriceFeed struct {
	// Symbol is the priced asset: "ETH" for the native coin, else a dev token symbol.
	Symbol string
	// Token is the priced token's address; nil for the native coin.
	Token *common.Address
	// Address is the feed contract (Chainlink AggregatorV3 interface).
	Address common.Address
}

// Chain describes one running dev chain.
type Chain struct {
	ChainID       uint64
	CAIPNetworkID string // e.g. "eip155:31337"
	Name          string // "Latch Dev", "Latch Dev 2", …
	RPCURL        string // http://127.0.0.1:PORT
	Tokens        []Token
	Multicall3    common.Address
	PriceFeeds    []PriceFeed // USD feeds (Chainlink AggregatorV3-compatible)
	// ENSRegistry is the dev ENS registry (resolver(node) and an open
	// setResolver); NamesResolver, once SetNamesGateway ran, the offchain
	// resolver of the names zone in it.
	ENSRegistry   common.Address
	NamesResolver common.Address
	// ENSUniversalResolver resolves names of the registry for ENS clients
	// (viem: the chain's contracts.ensUniversalResolver).
	ENSUniversalResolver common.Address
	// SwapRouter is the dev AMM's router (Uniswap V2 router functions) and
	// SwapFactory its factory (getPair).
	SwapRouter  common.Address
	SwapFactory common.Address
	// EntryPoint is the chain's ERC-4337 v0.7 EntryPoint (LatchEntryPoint),
	// SmartAccountFactory the embedded wallet's account factory and
	// VerifyingPaymaster the paymaster that accepts DevPaymasterSignerKey's approvals.
	EntryPoint          common.Address
	SmartAccountFactory common.Address
	VerifyingPaymaster  common.Address
	// FarcasterIDRegistry is the dev copy of Farcaster's ID registry
	// (custodyOf, idOf), with DevFarcasterFID registered to
	// DevFarcasterCustodyKey's address.
	FarcasterIDRegistry common.Address
}

// Chains is a running set of dev chains. Every implementation must be safe
// for concurrent use, describe the same chains (same order, same contracts)
// for its whole life, and answer the two handlers with latchd's JSON error
// contract (httpx.Error).
type Chains interface {
	// Chains describes the running chains; the caller may modify the result.
	Chains() []Chain
	// Accounts are the funded development accounts, derived from Mnemonic.
	Accounts() []common.Address
	// Mnemonic is the BIP-39 mnemonic whose accounts the chains fund.
	Mnemonic() string
	// WatchHeads sends on wake, without blocking, whenever the chain of
	// networkID gets a new head, until stop is called. An unknown network
	// is an error.
	WatchHeads(networkID string, wake chan<- struct{}) (stop func(), err error)
	// HandleFaucet serves POST /dev/faucet.
	HandleFaucet(w http.ResponseWriter, r *http.Request)
	// HandlePrice serves POST /dev/price, calling changed with the network
	// whose feed it set.
	HandlePrice(changed func(networkID string)) http.Handler
	// SetNamesGateway deploys on every chain an OffchainResolver that sends
	// ENS clients to gatewayURL (an ERC-3668 URL template) and trusts
	// answers signed by signer, and makes it the resolver of zone in the
	// chain's ENS registry, so names of the zone resolve as on mainnet.
	SetNamesGateway(ctx context.Context, zone, gatewayURL string, signer common.Address) error
	// Close stops every chain; it is safe to call more than once.
	Close() error
}

// Starter starts one dev chain per id in chainIDs (a default set when
// empty) and returns once they all serve JSON-RPC; on error nothing is left
// running. Logger receives the chains' warnings.
type Starter func(ctx context.Context, chainIDs []uint64, logger *slog.Logger) (Chains, error)

// FeedAddresses lists the chains' USD feeds as GET /dev/info shows them:
// network → symbol → feed address.
func FeedAddresses(chains []Chain) map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, c := range chains {
		feeds := map[string]string{}
		for _, f := range c.PriceFeeds {
			feeds[f.Symbol] = f.Address.Hex()
		}
		out[c.CAIPNetworkID] = feeds
	}
	return out
}
