// Package devnet runs in-process EVM development chains for `latchd dev` and
// tests: each chain is a go-ethereum node driven by a simulated beacon that
// seals a block as soon as a transaction arrives, served over HTTP JSON-RPC on
// a free local port, with the test mnemonic's accounts funded and our dev
// contracts (USDC, DAI, WETH, Multicall3) deployed at fixed addresses.
package devnet

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"strconv"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/eth"
	"github.com/ethereum/go-ethereum/eth/catalyst"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/eth/filters"
	"github.com/ethereum/go-ethereum/eth/tracers"
	_ "github.com/ethereum/go-ethereum/eth/tracers/native" // callTracer, erc7562Tracer, … as in stock geth
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/p2p"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/latchkit/latch/internal/caip"
	"github.com/latchkit/latch/internal/devchain"
	"github.com/latchkit/latch/internal/evm"
)

// Defaults applied by Start when the Config leaves a field empty.
var (
	DefaultChainIDs = []uint64{31337, 31338}
	DefaultHost     = "127.0.0.1"
)

// Config configures Start. The zero value starts the two default chains.
type Config struct {
	// ChainIDs lists the EIP-155 chain ids to run, one node each; the default
	// is DefaultChainIDs.
	ChainIDs []uint64
	// Host is the interface the JSON-RPC servers listen on (port chosen freely).
	Host string
	// Logger receives go-ethereum's warnings and errors; the default is slog.Default().
	Logger *slog.Logger
}

// Token, Chain and PriceFeed are the descriptions package devchain defines,
// so that latchd can use them without linking this package.
type (
	Token     = devchain.Token
	Chain     = devchain.Chain
	PriceFeed = devchain.PriceFeed
)

// Devnet is a set of running dev chains. Its methods are safe for concurrent use.
type Devnet struct {
	chains    []*chain
	byNetwork map[string]*chain

	closeOnce sync.Once
	closeErr  error
}

// chain is one running node and the deployer's transaction state on it.
type chain struct {
	info    Chain
	chainID *big.Int
	stack   *node.Node
	backend *eth.Ethereum
	beacon  *catalyst.SimulatedBeacon
	client  *evm.Client // in-process, so our own calls bypass HTTP
	signer  types.Signer

	quit     chan struct{} // closed to stop sealLoop
	quitOnce sync.Once
	sealDone chan struct{} // closed when sealLoop has returned

	// mu serialises the deployer's transactions on this chain so concurrent
	// faucet requests never reuse a nonce.
	mu    sync.Mutex
	nonce uint64

	// sealMu is held while a block is sealed, so Rollback never rewinds the
	// chain under a seal in progress, and around every TxPool.Sync (see
	// syncPool).
	sealMu sync.Mutex
}

// Genesis balances.
var (
	testAccountBalance = ether(10_000)
	// deployerBalance is far beyond what the faucet can hand out in a dev session.
	deployerBalance = ether(1_000_000_000)
)

// Start boots one chain per configured chain id, in parallel, deploys the dev
// contracts and mints the test accounts' tokens. It returns once every chain
// serves JSON-RPC with that state in place; on error nothing is left running.
func Start(ctx context.Context, cfg Config) (*Devnet, error) {
	if len(cfg.ChainIDs) == 0 {
		cfg.ChainIDs = DefaultChainIDs
	}
	if cfg.Host == "" {
		cfg.Host = DefaultHost
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	routeGethLogs(cfg.Logger)

	seen := make(map[uint64]bool)
	for _, id := range cfg.ChainIDs {
		if id == 0 || seen[id] {
			return nil, fmt.Errorf("devnet: chain id %d is zero or repeated", id)
		}
		seen[id] = true
	}

	d := &Devnet{
		chains:    make([]*chain, len(cfg.ChainIDs)),
		byNetwork: make(map[string]*chain, len(cfg.ChainIDs)),
	}
	errs := make([]error, len(cfg.ChainIDs))
	var wg sync.WaitGroup
	for i, id := range cfg.ChainIDs {
		wg.Go(func() {
			d.chains[i], errs[i] = startChain(ctx, cfg, id, chainName(i))
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		for _, c := range d.chains {
			if c != nil {
				c.close()
			}
		}
		return nil, err
	}
	for _, c := range d.chains {
		d.byNetwork[c.info.CAIPNetworkID] = c
	}
	return d, nil
}

var (
	_ devchain.Starter = StartChains
	_ devchain.Chains  = (*Devnet)(nil)
)

// StartChains is Start as a devchain.Starter, the one latchd's dev build registers.
func StartChains(ctx context.Context, chainIDs []uint64, logger *slog.Logger) (devchain.Chains, error) {
	d, err := Start(ctx, Config{ChainIDs: chainIDs, Logger: logger})
	if err != nil {
		return nil, err // not a nil *Devnet in a non-nil interface
	}
	return d, nil
}

func chainName(i int) string {
	if i == 0 {
		return "Latch Dev"
	}
	return "Latch Dev " + strconv.Itoa(i+1)
}

// Chains describes the running chains, in Config.ChainIDs order.
func (d *Devnet) Chains() []Chain {
	out := make([]Chain, len(d.chains))
	for i, c := range d.chains {
		c.mu.Lock() // SetNamesGateway writes info.NamesResolver
		out[i] = c.info
		c.mu.Unlock()
		out[i].Tokens = append([]Token(nil), c.info.Tokens...)
		out[i].PriceFeeds = append([]PriceFeed(nil), c.info.PriceFeeds...)
	}
	return out
}

// Accounts are the addresses of TestAccounts.
func (d *Devnet) Accounts() []common.Address {
	var out []common.Address
	for _, a := range TestAccounts() {
		out = append(out, a.Address)
	}
	return out
}

// Mnemonic is TestMnemonic.
func (d *Devnet) Mnemonic() string { return TestMnemonic }

// Close stops every chain. It is safe to call more than once.
func (d *Devnet) Close() error {
	d.closeOnce.Do(func() {
		errs := make([]error, len(d.chains))
		var wg sync.WaitGroup
		for i, c := range d.chains {
			wg.Go(func() { errs[i] = c.close() })
		}
		wg.Wait()
		d.closeErr = errors.Join(errs...)
	})
	return d.closeErr
}

// startChain boots one node and brings it to the fixed dev state.
func startChain(ctx context.Context, cfg Config, chainID uint64, name string) (*chain, error) {
	c, err := newChain(cfg, chainID, name)
	if err != nil {
		return nil, fmt.Errorf("devnet: chain %d: %w", chainID, err)
	}
	if err := c.deploy(ctx); err != nil {
		c.close()
		return nil, fmt.Errorf("devnet: chain %d: deploy: %w", chainID, err)
	}
	return c, nil
}

// LocalOrigins are the origins (rs/cors patterns) allowed to call the dev
// nodes from a browser: pages on loopback, on any port, and wallet extensions.
var LocalOrigins = []string{
	"http://localhost", "http://localhost:*", "http://127.0.0.1", "http://127.0.0.1:*", "http://[::1]", "http://[::1]:*",
	"chrome-extension://*", "moz-extension://*", "safari-web-extension://*",
}

func newChain(cfg Config, chainID uint64, name string) (*chain, error) {
	logger := gethLogger(cfg.Logger.With("chain_id", chainID))
	stack, err := node.New(&node.Config{
		Name:    "latch-devnet",
		DataDir: "", // in-memory database, nothing on disk
		IPCPath: "",
		P2P: p2p.Config{
			NoDiscovery: true,
			MaxPeers:    0,
			ListenAddr:  "",
		},
		HTTPHost:    cfg.Host,
		HTTPPort:    0,
		HTTPModules: []string{"eth", "net", "web3", "debug"}, // debug: debug_traceCall with erc7562Tracer, which the bundler checks ERC-7562's rules with
		// A dev page on any localhost port (and wallets' extension origins)
		// calls the node directly; no other page may (CORS), and a request
		// must name the node by a local Host, so a DNS-rebinding page (its
		// own name pointed at 127.0.0.1) is refused. geth admits IP literals
		// as Host in any case.
		HTTPCors:             LocalOrigins,
		HTTPVirtualHosts:     []string{"localhost"},
		HTTPTimeouts:         rpc.DefaultHTTPTimeouts,
		BatchRequestLimit:    1000,
		BatchResponseMaxSize: 25 * 1000 * 1000,
		HTTPBodyLimit:        5 * 1024 * 1024,
		Logger:               logger,
	})
	if err != nil {
		return nil, err
	}

	ethCfg := ethconfig.Defaults
	ethCfg.Genesis = genesis(chainID)
	ethCfg.NetworkId = chainID
	ethCfg.SyncMode = ethconfig.FullSync
	ethCfg.TxPool.NoLocals = true
	// Include any paying transaction, as `geth --dev` does: a wallet's tiny
	// priority fee must not leave a transaction pending forever.
	ethCfg.Miner.GasPrice = big.NewInt(1)
	// No log index: its background indexer makes Close wait up to a second,
	// and scanning a dev chain's few thousand blocks for eth_getLogs is cheap.
	ethCfg.LogNoHistory = true
	// Small caches: a dev chain holds a few thousand blocks at most.
	ethCfg.TrieCleanCache = 16
	ethCfg.TrieDirtyCache = 32
	ethCfg.SnapshotCache = 16

	backend, err := eth.New(stack, &ethCfg)
	if err != nil {
		stack.Close()
		return nil, err
	}
	filterSystem := filters.NewFilterSystem(backend.APIBackend, filters.Config{
		LogCacheSize:  ethCfg.FilterLogCacheSize,
		LogQueryLimit: ethCfg.LogQueryLimit,
	})
	stack.RegisterAPIs([]rpc.API{{Namespace: "eth", Service: filters.NewFilterAPI(filterSystem)}})
	stack.RegisterAPIs(tracers.APIs(backend.APIBackend))

	// Period 0: the beacon seals only when asked, which sealLoop does as soon
	// as transactions arrive.
	beacon, err := catalyst.NewSimulatedBeacon(0, common.Address{}, backend)
	if err != nil {
		stack.Close()
		return nil, err
	}
	stack.RegisterLifecycle(beacon)

	if err := stack.Start(); err != nil {
		stack.Close()
		return nil, err
	}
	id := new(big.Int).SetUint64(chainID)
	c := &chain{
		info: Chain{
			ChainID:       chainID,
			CAIPNetworkID: caip.EVMNetworkID(chainID),
			Name:          name,
			RPCURL:        stack.HTTPEndpoint(),
		},
		chainID:  id,
		stack:    stack,
		backend:  backend,
		beacon:   beacon,
		client:   evm.Attach(stack.Attach()),
		signer:   types.LatestSignerForChainID(id),
		quit:     make(chan struct{}),
		sealDone: make(chan struct{}),
	}
	go c.sealLoop()
	return c, nil
}

// genesis is the dev genesis: every fork through Prague active from block 0,
// London base fee, the system contracts those forks call, and the test
// accounts and the deployer funded.
func genesis(chainID uint64) *core.Genesis {
	config := *params.AllDevChainProtocolChanges
	config.ChainID = new(big.Int).SetUint64(chainID)
	// Stop at Prague, the fork public networks and wallets support today;
	// later dev forks (Osaka's transaction gas cap, …) would make the dev
	// chains behave unlike the networks the same code runs against.
	config.OsakaTime = nil
	config.BogotaTime = nil

	g := core.DeveloperGenesisBlock(ethconfig.Defaults.Miner.GasCeil, nil)
	g.Config = &config
	// A fixed timestamp keeps the genesis hash the same on every start.
	g.Timestamp = 0
	for _, acc := range TestAccounts() {
		g.Alloc[acc.Address] = types.Account{Balance: new(big.Int).Set(testAccountBalance)}
	}
	g.Alloc[deployer.Address] = types.Account{Balance: new(big.Int).Set(deployerBalance)}
	g.Alloc[swapDeployer.Address] = types.Account{Balance: new(big.Int).Set(swapDeployerBalance)}
	g.Alloc[aaDeployer.Address] = types.Account{Balance: new(big.Int).Set(aaDeployerBalance)}
	g.Alloc[farcasterDeployer.Address] = types.Account{Balance: new(big.Int).Set(farcasterDeployerBalance)}
	return g
}

func (c *chain) close() error {
	c.stopSealing()
	c.client.Close()
	return c.stack.Close()
}

// ether returns n ether in wei.
func ether(n int64) *big.Int {
	return new(big.Int).Mul(big.NewInt(n), big.NewInt(params.Ether))
}

// mineTimeout bounds how long we wait for a transaction we sent to be sealed;
// the beacon seals within milliseconds, so hitting it means the chain is stuck.
const mineTimeout = 10 * time.Second
