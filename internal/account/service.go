// Package account serves what the widget shows about an account: token
// balances (read from the chain in one Multicall3 call, cached 30 s), the
// transaction history recorded by the indexer, USD prices from
// Chainlink-compatible feeds, and the account's name and avatar (ENS).
package account

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/caip"
	"github.com/latchkit/latch/internal/evm"
	"github.com/latchkit/latch/internal/indexer"
	"github.com/latchkit/latch/internal/network"
	"github.com/latchkit/latch/internal/rpcproxy"
)

// Cache lifetimes (spec §9: portfolio and native balance 30 s, identity 5 min).
const (
	BalanceTTL  = 30 * time.Second
	IdentityTTL = 5 * time.Minute
)

// Clients holds one RPC client per network with an upstream, made on first
// use. It is safe for concurrent use.
type Clients struct {
	networks *network.Registry

	mu      sync.Mutex
	clients map[string]*evm.Client
}

// NewClients returns the clients of the registry's networks.
func NewClients(networks *network.Registry) *Clients {
	return &Clients{networks: networks, clients: map[string]*evm.Client{}}
}

// For returns the client of a network, or nil when it has no upstream.
func (c *Clients) For(caipNetworkID string) *evm.Client {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cl, ok := c.clients[caipNetworkID]; ok {
		return cl
	}
	urls := c.networks.Upstreams(caipNetworkID)
	if len(urls) == 0 {
		return nil
	}
	cl, err := evm.NewClient(urls)
	if err != nil {
		return nil
	}
	c.clients[caipNetworkID] = cl
	return cl
}

// ForChain returns the client of an EVM chain, or nil.
func (c *Clients) ForChain(chainID uint64) *evm.Client {
	return c.For(caip.EVMNetworkID(chainID))
}

// Close closes every client.
func (c *Clients) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, cl := range c.clients {
		cl.Close()
	}
	c.clients = map[string]*evm.Client{}
}

// Config configures a Service.
type Config struct {
	Networks *network.Registry
	Clients  *Clients
	Store    *indexer.Store
	Tokens   *indexer.Tokens
	// Indexer says which chains have history; nil: none.
	Indexer *indexer.Indexer
	Prices  *PriceCache
	// Names resolves identities; nil answers every lookup with no name.
	Names NameResolver
	// Cache holds balances and identities (memory, or Redis shared by nodes).
	Cache rpcproxy.Cache
	// Solana is what account data knows of each solana network (solana.go), by CAIP-2 id.
	Solana map[string]SolanaNetworkConfig
}

// Service answers account-data questions. It is safe for concurrent use.
type Service struct {
	cfg Config
	sol solanaClients
}

// New returns a Service.
func New(cfg Config) *Service {
	if cfg.Cache == nil {
		cfg.Cache = rpcproxy.NewMemoryCache(10_000, 16<<20, nil)
	}
	return &Service{cfg: cfg}
}

// Spend is called before work that costs upstream calls (a cache miss); an
// error (rate_limited) stops the work and is returned.
type Spend func(ctx context.Context) error

// evmNetwork resolves a CAIP-2 id to a known EVM network and its chain id.
// Errors: apperr.Invalid for a malformed or non-EVM id, apperr.NotFound for
// an unknown network.
func (s *Service) evmNetwork(caipID string) (*network.Network, uint64, error) {
	if caipID == "" {
		return nil, 0, apperr.Fieldf(apperr.Invalid, "chainId", "chainId is required (a CAIP-2 network id such as eip155:1)")
	}
	c, err := caip.ParseChainID(caipID)
	if err != nil {
		return nil, 0, apperr.Fieldf(apperr.Invalid, "chainId", "%s", err.Error())
	}
	n := s.cfg.Networks.Get(caipID)
	if n == nil {
		return nil, 0, apperr.Fieldf(apperr.NotFound, "chainId", "Unknown network %s", caipID)
	}
	if c.Namespace != caip.EIP155 {
		return nil, 0, apperr.Fieldf(apperr.NotFound, "chainId", "Account data is served for EVM networks only, not %s", caipID)
	}
	id, err := c.EVMChainID()
	if err != nil {
		return nil, 0, apperr.Fieldf(apperr.Invalid, "chainId", "Invalid CAIP-2 network id: %s", caipID)
	}
	return n, id, nil
}

// ParseAddress parses an EVM address: 0x and 40 hex digits; all-lower or
// all-upper case as is, mixed case only as a valid EIP-55 checksum.
// Errors: apperr.Invalid naming field.
func ParseAddress(field, s string) (common.Address, error) {
	if len(s) != 42 || !strings.HasPrefix(s, "0x") || !common.IsHexAddress(s) {
		return common.Address{}, apperr.Fieldf(apperr.Invalid, field, "Invalid address: %s is not 0x followed by 40 hexadecimal characters", clip(s))
	}
	a := common.HexToAddress(s)
	digits := s[2:]
	if digits != strings.ToLower(digits) && digits != strings.ToUpper(digits) && a.Hex() != s {
		return common.Address{}, apperr.Fieldf(apperr.Invalid, field, "Invalid address: %s has a wrong EIP-55 checksum", clip(s))
	}
	return a, nil
}

// clip bounds user input echoed in messages.
func clip(s string) string {
	const n = 64
	if len(s) > n {
		s = s[:n] + "…"
	}
	return strings.ToValidUTF8(s, "?")
}
