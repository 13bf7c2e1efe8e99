package app

import (
	"context"
	"crypto/ecdsa"
	"flag"
	"fmt"
	"github.com/latchkit/latch/internal/frameapp"
	"math/big"
	"os"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/latchkit/latch/internal/bundler"
	"github.com/latchkit/latch/internal/caip"
	"github.com/latchkit/latch/internal/devchain"
	"github.com/latchkit/latch/internal/rpcproxy"
)

// BundlerConfig configures the ERC-4337 bundler and paymaster (issue 17).
type BundlerConfig struct {
	// Dev runs a bundler and paymaster on every dev network (latchd dev),
	// with the dev chains' contracts and their funded dev keys.
	Dev bool
	// Networks are real networks' bundlers, "<caip2>=<entryPoint>,<factory>".
	Networks []string
	// KeyFile holds the bundler's private key (hex) for Networks.
	KeyFile string
	// Paymasters are "<caip2>=<LatchVerifyingPaymaster address>" on networks with a bundler.
	Paymasters []string
	// PaymasterKeyFile holds the paymaster signer's private key (hex).
	PaymasterKeyFile string
	// MinPriorityFee is the least maxPriorityFeePerGas accepted, in wei.
	MinPriorityFee string
	// MaxPendingPerSender bounds a sender's operations in the mempool.
	MaxPendingPerSender int
	// SponsorDefault sponsors the operations of projects without a policy of their own.
	SponsorDefault         bool
	SponsorAccountDailyCap int
	SponsorDailyCap        int
	// Untraced is "accept" or "refuse": operations on a network whose node
	// cannot trace, where ERC-7562's rules cannot be checked.
	Untraced string
	// MinStake is ERC-7562's MIN_STAKE_VALUE in wei.
	MinStake string
	// MinBalances are "<caip2>=<wei>": the bundler key's floor on a network.
	MinBalances []string
	// Sponsor holds the budgets and bounds of sponsorship (sponsor.go).
	Sponsor SponsorConfig
}

// bundlerService is the bundler's state in Main.
type bundlerService struct {
	svc *bundler.Service
	// accounts are the networks' EntryPoints and factories, for the frame.
	accounts []frameapp.SmartAccountNetwork
}

// Bundler is the ERC-4337 bundler; nil when no network has one.
func (m *Main) Bundler() *bundler.Service { return m.bundler.svc }

// Defaults of the sponsorship flags.
const (
	defaultSponsorAccountDailyCap = 20
	defaultSponsorDailyCap        = 1000
)

// bundlerFlags binds the bundler flags and returns their check.
func bundlerFlags(fs *flag.FlagSet, cfg *Config) func() error {
	var networks, paymasters, minBalances stringList
	b := &cfg.Bundler
	fs.BoolVar(&b.Dev, "dev-bundler", true, "latchd dev: an ERC-4337 bundler and paymaster on every dev network (their EntryPoint, account factory and paymaster are deployed at start)")
	fs.Var(&networks, "bundler", "an ERC-4337 v0.7 bundler on a network, <caip2>=<entryPoint>,<factory> (the canonical EntryPoint v0.7 is 0x0000000071727De22E5E9d8BAf0edAc6f37da032); needs --bundler-key-file and the network's --rpc-upstream; repeatable")
	fs.StringVar(&b.KeyFile, "bundler-key-file", "", "file holding the hex private key the bundler sends handleOps from (it pays the gas and receives the operations' fees)")
	fs.Var(&paymasters, "paymaster", "a LatchVerifyingPaymaster on a network with --bundler, <caip2>=<address>, whose signer is --paymaster-key-file's key; repeatable")
	fs.StringVar(&b.PaymasterKeyFile, "paymaster-key-file", "", "file holding the hex private key whose approvals the paymasters accept")
	fs.StringVar(&b.MinPriorityFee, "bundler-min-priority-fee", "1", "least maxPriorityFeePerGas (wei) a user operation may offer")
	fs.IntVar(&b.MaxPendingPerSender, "bundler-max-pending-per-sender", bundler.DefaultMaxPendingPerSender, "operations one sender may have in the bundler's mempool at once (an operation may follow pending ones of its sender)")
	fs.BoolVar(&b.SponsorDefault, "sponsor-default", false, "the paymaster sponsors operations of projects without a sponsorship policy of their own (latchd dev's project has one that sponsors)")
	fs.IntVar(&b.SponsorAccountDailyCap, "sponsor-account-daily-cap", defaultSponsorAccountDailyCap, "with --sponsor-default: sponsored operations per account per UTC day (0 = no cap)")
	fs.IntVar(&b.SponsorDailyCap, "sponsor-daily-cap", defaultSponsorDailyCap, "with --sponsor-default: sponsored operations per project per UTC day (0 = no cap)")
	fs.StringVar(&b.Untraced, "bundler-untraced", string(bundler.UntracedAccept), "on a network whose node cannot trace (debug_traceCall with erc7562Tracer), so ERC-7562's validation rules cannot be checked: accept operations on simulation alone, or refuse them")
	fs.StringVar(&b.MinStake, "bundler-min-stake", bundler.DefaultMinStake.String(), "ERC-7562's MIN_STAKE_VALUE (wei): the EntryPoint stake, locked for at least a day, that makes a factory or paymaster staked")
	fs.Var(&minBalances, "bundler-min-balance", "<caip2>=<wei>, repeatable: below this balance of the bundler key on the network, new user operations are refused (default: one full bundle at twice the current base fee)")
	finishSponsor := sponsorFlags(fs, &b.Sponsor)
	return func() error {
		if err := finishSponsor(); err != nil {
			return err
		}
		b.Networks, b.Paymasters, b.MinBalances = networks, paymasters, minBalances
		for _, s := range b.Networks {
			if _, _, _, err := parseBundlerFlag(s); err != nil {
				return err
			}
		}
		for _, s := range b.Paymasters {
			if _, _, err := parsePaymasterFlag(s); err != nil {
				return err
			}
		}
		if len(b.Networks) > 0 && b.KeyFile == "" {
			return fmt.Errorf("--bundler needs --bundler-key-file")
		}
		if len(b.Paymasters) > 0 && b.PaymasterKeyFile == "" {
			return fmt.Errorf("--paymaster needs --paymaster-key-file")
		}
		if fee, ok := new(big.Int).SetString(b.MinPriorityFee, 10); !ok || fee.Sign() < 0 {
			return fmt.Errorf("--bundler-min-priority-fee: %q is not a number of wei", b.MinPriorityFee)
		}
		if b.MaxPendingPerSender < 1 {
			return fmt.Errorf("--bundler-max-pending-per-sender: %d; at least 1", b.MaxPendingPerSender)
		}
		if b.SponsorAccountDailyCap < 0 || b.SponsorDailyCap < 0 {
			return fmt.Errorf("--sponsor-account-daily-cap and --sponsor-daily-cap must not be negative")
		}
		if p := bundler.UntracedPolicy(b.Untraced); p != bundler.UntracedAccept && p != bundler.UntracedRefuse {
			return fmt.Errorf("--bundler-untraced: %q; want %s or %s", b.Untraced, bundler.UntracedAccept, bundler.UntracedRefuse)
		}
		if _, err := weiFlag("--bundler-min-stake", b.MinStake); err != nil {
			return err
		}
		for _, s := range b.MinBalances {
			if _, _, err := parseMinBalanceFlag(s); err != nil {
				return err
			}
		}
		return nil
	}
}

// weiFlag reads a non-negative amount of wei.
func weiFlag(name, s string) (*big.Int, error) {
	v, ok := new(big.Int).SetString(s, 10)
	if !ok || v.Sign() < 0 {
		return nil, fmt.Errorf("%s: %q is not a number of wei", name, s)
	}
	return v, nil
}

// parseMinBalanceFlag reads "<caip2>=<wei>".
func parseMinBalanceFlag(s string) (string, *big.Int, error) {
	id, amount, ok := strings.Cut(s, "=")
	if !ok {
		return "", nil, fmt.Errorf("--bundler-min-balance %q: want <caip2>=<wei>", s)
	}
	if _, err := caip.EVMChainID(id); err != nil {
		return "", nil, fmt.Errorf("--bundler-min-balance %q: %s is not an eip155 network", s, id)
	}
	v, err := weiFlag("--bundler-min-balance "+id, amount)
	return id, v, err
}

// parseBundlerFlag reads "<caip2>=<entryPoint>,<factory>".
func parseBundlerFlag(s string) (network string, entryPoint, factory common.Address, err error) {
	id, rest, ok := strings.Cut(s, "=")
	addrs := strings.Split(rest, ",")
	if !ok || len(addrs) != 2 || !common.IsHexAddress(addrs[0]) || !common.IsHexAddress(addrs[1]) {
		return "", common.Address{}, common.Address{}, fmt.Errorf("--bundler %q: want <caip2>=<entryPoint>,<factory>", s)
	}
	if _, err := caip.EVMChainID(id); err != nil {
		return "", common.Address{}, common.Address{}, fmt.Errorf("--bundler %q: %s is not an eip155 network", s, id)
	}
	return id, common.HexToAddress(addrs[0]), common.HexToAddress(addrs[1]), nil
}

// parsePaymasterFlag reads "<caip2>=<address>".
func parsePaymasterFlag(s string) (string, common.Address, error) {
	id, addr, ok := strings.Cut(s, "=")
	if !ok || !common.IsHexAddress(addr) {
		return "", common.Address{}, fmt.Errorf("--paymaster %q: want <caip2>=<address>", s)
	}
	return id, common.HexToAddress(addr), nil
}

// readKeyFile reads a hex private key; the message never shows the key.
func readKeyFile(flagName, path string) (*ecdsa.PrivateKey, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", flagName, err)
	}
	key, err := crypto.HexToECDSA(strings.TrimPrefix(strings.TrimSpace(string(raw)), "0x"))
	if err != nil {
		return nil, fmt.Errorf("%s: the file does not hold a hex private key", flagName)
	}
	return key, nil
}

// startBundler builds the bundler of the dev networks (--dev-bundler) and
// of the --bundler networks. It runs after startAccount, whose EVM clients
// (each network's upstreams, or the dev chain's node) it uses.
func (m *Main) startBundler(ctx context.Context) error {
	b := m.Config.Bundler
	var nets []bundler.NetworkConfig
	if m.Config.Dev && b.Dev && m.Devnet != nil {
		for _, c := range m.Devnet.Chains() {
			if c.EntryPoint == (common.Address{}) {
				continue
			}
			client := m.account.clients.For(c.CAIPNetworkID)
			if client == nil {
				return fmt.Errorf("dev bundler: no client for %s", c.CAIPNetworkID)
			}
			nets = append(nets, bundler.NetworkConfig{
				Network: c.CAIPNetworkID, ChainID: c.ChainID, EntryPoint: c.EntryPoint, Factory: c.SmartAccountFactory, Node: client,
				BundlerKey: devchain.DevBundlerKey(), Paymaster: c.VerifyingPaymaster, PaymasterKey: devchain.DevPaymasterSignerKey(),
			})
		}
	}
	var bundlerKey, paymasterKey *ecdsa.PrivateKey
	var err error
	if len(b.Networks) > 0 {
		if bundlerKey, err = readKeyFile("--bundler-key-file", b.KeyFile); err != nil {
			return err
		}
	}
	if len(b.Paymasters) > 0 {
		if paymasterKey, err = readKeyFile("--paymaster-key-file", b.PaymasterKeyFile); err != nil {
			return err
		}
	}
	paymasters := map[string]common.Address{}
	for _, s := range b.Paymasters {
		id, addr, _ := parsePaymasterFlag(s)
		paymasters[id] = addr
	}
	for _, s := range b.Networks {
		id, ep, factory, _ := parseBundlerFlag(s)
		if m.Networks.Get(id) == nil {
			return fmt.Errorf("--bundler %s: unknown network", id)
		}
		client := m.account.clients.For(id)
		if client == nil {
			return fmt.Errorf("--bundler %s: the network has no --rpc-upstream", id)
		}
		chainID, _ := caip.EVMChainID(id)
		n := bundler.NetworkConfig{Network: id, ChainID: chainID, EntryPoint: ep, Factory: factory, Node: client, BundlerKey: bundlerKey}
		if pm, ok := paymasters[id]; ok {
			n.Paymaster, n.PaymasterKey = pm, paymasterKey
			delete(paymasters, id)
		}
		nets = append(nets, n)
	}
	for id := range paymasters {
		return fmt.Errorf("--paymaster %s: the network has no --bundler", id)
	}
	minBalances := map[string]*big.Int{}
	for _, s := range b.MinBalances {
		id, v, _ := parseMinBalanceFlag(s)
		minBalances[id] = v
	}
	for i := range nets {
		nets[i].MinBalance = minBalances[nets[i].Network]
		delete(minBalances, nets[i].Network)
	}
	for id := range minBalances {
		return fmt.Errorf("--bundler-min-balance %s: the network has no bundler", id)
	}
	if len(nets) == 0 {
		return nil
	}
	sp, err := b.Sponsor.parse()
	if err != nil {
		return err
	}
	for i := range nets {
		symbol := "ETH"
		if nw := m.Networks.Get(nets[i].Network); nw != nil && nw.NativeCurrency.Symbol != "" {
			symbol = nw.NativeCurrency.Symbol
		}
		nets[i].Sponsor = sp.limits(nets[i].Network, symbol)
	}
	minFee, _ := new(big.Int).SetString(b.MinPriorityFee, 10)
	minStake, _ := weiFlag("--bundler-min-stake", b.MinStake)
	st := bundler.NewStore(m.DB)
	policy := bundler.Policy{Enabled: b.SponsorDefault, AccountDailyCap: b.SponsorAccountDailyCap, DailyCap: b.SponsorDailyCap,
		DailyBudget: sp.dailyBudget, AccountDailyBudget: sp.accountDailyBudget, RequireSession: b.Sponsor.RequireSession}
	svc, err := bundler.New(bundler.Config{
		Networks:            nets,
		Store:               st,
		MinPriorityFee:      minFee,
		MaxPendingPerSender: b.MaxPendingPerSender,
		DefaultPolicy:       policy,
		ApprovalLifetime:    b.Sponsor.ApprovalTTL,
		Sponsorship:         m.sponsorConfig(sp),
		Untraced:            bundler.UntracedPolicy(b.Untraced),
		MinStake:            minStake,
		Metrics:             m.Metrics,
		Logger:              m.Logger.With("component", "bundler"),
	})
	if err != nil {
		return err
	}
	// latchd dev's project sponsors its operations within the flags'
	// bounds, from a balance topped up at every start (docs/smart-accounts.md).
	if m.Config.Dev && m.DevProjectID != "" {
		policy.Enabled = true
		if err := st.SetPolicy(ctx, m.DevProjectID, policy, time.Now()); err != nil {
			return err
		}
		if err := fundDevProject(ctx, st, m.DevProjectID, nets); err != nil {
			return err
		}
	}
	m.bundler.svc = svc
	for _, n := range nets {
		m.bundler.accounts = append(m.bundler.accounts, frameapp.SmartAccountNetwork{ChainID: n.ChainID, EntryPoint: n.EntryPoint.Hex(), Factory: n.Factory.Hex()})
	}
	return nil
}

// bundlerLocal is what the RPC proxy routes the bundler's methods to; nil
// (an untyped nil interface) without a bundler.
func (m *Main) bundlerLocal() rpcproxy.LocalMethods {
	if m.bundler.svc == nil {
		return nil
	}
	return m.bundler.svc
}

// runBundler bundles until ctx ends.
func (m *Main) runBundler(ctx context.Context) {
	if m.bundler.svc == nil {
		return
	}
	m.bundler.svc.Run(ctx)
	<-ctx.Done()
	m.bundler.svc.Close()
}
