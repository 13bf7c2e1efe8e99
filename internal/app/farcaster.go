package app

import (
	"flag"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/latchkit/latch/internal/siwx"
	"github.com/latchkit/latch/internal/social"
)

// FarcasterConfig is Sign In With Farcaster's ID registry (docs/social.md):
// the contract whose custodyOf(fid) says which address signs for a
// Farcaster account, and the network it is on (Optimism, eip155:10, for
// Farcaster's own). Both unset: latchd serve does not offer Farcaster;
// latchd dev uses the dev chains' copy.
type FarcasterConfig struct {
	IDRegistry string
	Network    string
}

// farcasterFlags binds the Farcaster flags and returns their check.
func farcasterFlags(fs *flag.FlagSet, cfg *Config) func() error {
	f := &cfg.Social.Farcaster
	fs.StringVar(&f.IDRegistry, "farcaster-id-registry", "", "Farcaster login: the address of Farcaster's ID registry contract (custodyOf), on --farcaster-network; without it Farcaster is not offered (latchd dev: the dev chains' copy)")
	fs.StringVar(&f.Network, "farcaster-network", "", "Farcaster login: the CAIP-2 network of --farcaster-id-registry, read through latchd's RPC upstreams (Farcaster's registry is on Optimism: eip155:10)")
	return func() error {
		if (f.IDRegistry == "") != (f.Network == "") {
			return fmt.Errorf("--farcaster-id-registry and --farcaster-network go together")
		}
		if f.IDRegistry != "" && !common.IsHexAddress(f.IDRegistry) {
			return fmt.Errorf("--farcaster-id-registry %q is not a 0x address", f.IDRegistry)
		}
		if f.Network != "" && !strings.HasPrefix(f.Network, "eip155:") {
			return fmt.Errorf("--farcaster-network %q must be an EVM network (eip155:<chain id>)", f.Network)
		}
		return nil
	}
}

// farcasterRegistry resolves the ID registry social login reads: the flags,
// else (latchd dev) the first dev chain's copy; nil when there is none. The
// network must be one latchd has RPC upstreams for.
func (m *Main) farcasterRegistry() (*social.FarcasterConfig, error) {
	f := m.Config.Social.Farcaster
	network, registry := f.Network, common.Address{}
	if f.IDRegistry != "" {
		registry = common.HexToAddress(f.IDRegistry)
	} else if m.Devnet != nil {
		for _, c := range m.Devnet.Chains() {
			if c.FarcasterIDRegistry != (common.Address{}) {
				network, registry = c.CAIPNetworkID, c.FarcasterIDRegistry
				break
			}
		}
	}
	if network == "" {
		return nil, nil
	}
	if m.account.clients == nil {
		return nil, fmt.Errorf("--farcaster-network %s: account data is off, so latchd has no RPC upstreams to read the ID registry", network)
	}
	client := m.account.clients.For(network)
	if client == nil {
		return nil, fmt.Errorf("--farcaster-network %s: latchd has no RPC upstream for this network (add it to the networks)", network)
	}
	return &social.FarcasterConfig{Network: network, Registry: registry, Caller: siwx.EVMCaller{Client: client}, RelayURL: m.PublicAPIURL}, nil
}
