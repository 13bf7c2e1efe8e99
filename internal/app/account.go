package app

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/latchkit/latch/data"
	"github.com/latchkit/latch/internal/account"
	"github.com/latchkit/latch/internal/caip"
	"github.com/latchkit/latch/internal/evm"
	"github.com/latchkit/latch/internal/imageproxy"
	"github.com/latchkit/latch/internal/indexer"
	"github.com/latchkit/latch/internal/rpcproxy"
)

// accountService is the indexer and account-data state in Main.
type accountService struct {
	clients *account.Clients
	tokens  *indexer.Tokens
	indexer *indexer.Indexer
	prices  *account.PriceCache
	svc     *account.Service
	http    *account.Handler
	// images serves avatars and other remote images (GET /v1/image).
	images  *imageproxy.Proxy
	unwatch []func()
}

// Indexer follows the dev networks and the --index-network ones; nil before Run.
func (m *Main) Indexer() *indexer.Indexer { return m.account.indexer }

// Account serves balances, history, prices and identity; nil before Run.
func (m *Main) Account() *account.Service { return m.account.svc }

// Defaults of the account-data flags.
const (
	defaultIndexConfirmations = 2
	defaultIndexPoll          = 2 * time.Second
	defaultAccountRateLimit   = 120
	// devIndexPoll backs up the dev chains' head notifications.
	devIndexPoll = time.Second
	// devBatchSize: a dev chain is local, so catching up reads big batches.
	devBatchSize = 100
)

// accountFlags binds the account-data flags and returns their check.
func accountFlags(fs *flag.FlagSet, cfg *Config) func() error {
	var index, feeds stringList
	fs.Var(&index, "index-network", "index a non-dev EVM network's history from a block: <caip2>=<start block|head>; repeatable; needs an --rpc-upstream for it (dev networks are always indexed)")
	fs.IntVar(&cfg.IndexConfirmations, "index-confirmations", defaultIndexConfirmations, "blocks an --index-network's head must be ahead of a block before it is indexed (reorgs within the last 128 blocks are re-indexed either way)")
	fs.DurationVar(&cfg.IndexPollInterval, "index-poll-interval", defaultIndexPoll, "how often the indexer asks an --index-network for its head")
	fs.Var(&feeds, "price-feed", "Chainlink-compatible USD price feed: <caip2>:<native|token symbol|token address>=<feed address>; repeatable; overrides the built-in feeds")
	fs.StringVar(&cfg.IdentityNetwork, "identity-network", "eip155:1", "network whose ENS registry answers identity lookups (needs an --rpc-upstream for it)")
	fs.StringVar(&cfg.IPFSGateway, "ipfs-gateway", "", "https IPFS gateway (e.g. https://ipfs.io/ipfs) through which latchd's image proxy fetches ipfs:// avatars; empty: such avatars are not shown")
	fs.IntVar(&cfg.AccountRateLimit, "account-rate-limit", defaultAccountRateLimit, "uncached balance, price and identity requests (each costs upstream calls), and name registrations (a smart account's signature costs one), per client IP per minute (0 = no limit)")
	return func() error {
		cfg.IndexNetworks, cfg.PriceFeeds = index, feeds
		for _, s := range cfg.IndexNetworks {
			if _, err := indexer.ParseStart(s); err != nil {
				return err
			}
		}
		for _, s := range cfg.PriceFeeds {
			if _, err := account.ParseFeedFlag(s); err != nil {
				return err
			}
		}
		if c, err := caip.ParseChainID(cfg.IdentityNetwork); err != nil || c.Namespace != "eip155" {
			return fmt.Errorf("--identity-network: %q is not an EVM network id", cfg.IdentityNetwork)
		}
		if cfg.IndexConfirmations < 0 || cfg.IndexConfirmations > indexer.ReorgWindow {
			return fmt.Errorf("--index-confirmations must be from 0 to %d", indexer.ReorgWindow)
		}
		if cfg.IndexPollInterval < 100*time.Millisecond {
			return fmt.Errorf("--index-poll-interval must be at least 100ms")
		}
		if cfg.IPFSGateway != "" {
			if err := imageproxy.ValidateGateway(cfg.IPFSGateway); err != nil {
				return fmt.Errorf("--ipfs-gateway: %w", err)
			}
		}
		if cfg.AccountRateLimit < 0 {
			return fmt.Errorf("--account-rate-limit must not be negative")
		}
		return nil
	}
}

// startAccount starts the indexer and builds the account-data services.
// It runs after the dev networks and m.Networks are ready.
func (m *Main) startAccount(ctx context.Context) error {
	cfg := m.Config
	a := &m.account
	st := indexer.NewStore(m.DB)
	listed, err := m.listedTokens()
	if err != nil {
		return err
	}
	a.tokens = indexer.NewTokens(st, listed)
	a.clients = account.NewClients(m.Networks)

	feeds, err := account.ResolveFeeds(m.Networks, listed, cfg.PriceFeeds)
	if err != nil {
		return err
	}
	if m.Devnet != nil {
		for _, c := range m.Devnet.Chains() {
			for _, pf := range c.PriceFeeds {
				token := account.Native
				if pf.Token != nil {
					token = *pf.Token
				}
				// Dev feeds change only when someone sets them: no age limit.
				feeds.Set(c.ChainID, token, account.Feed{Address: pf.Address})
			}
		}
	}
	a.prices = account.NewPriceCache(account.NewChainlinkSource(feeds, a.clients.ForChain, nil), account.PriceTTL, nil)
	a.indexer = indexer.New(indexer.Config{
		Store:  st,
		Tokens: a.tokens,
		Price: func(ctx context.Context, chainID uint64, token *common.Address) (float64, bool) {
			t := account.Native
			if token != nil {
				t = *token
			}
			return a.prices.Price(ctx, chainID, t)
		},
		Logger: m.Logger.With("component", "indexer"),
		Lock:   indexer.DatabaseLock(m.DB),
	})

	if m.Devnet != nil {
		for _, c := range m.Devnet.Chains() {
			// A dev chain starts from genesis on every start: the index of the
			// last session describes blocks that no longer exist.
			if err := st.Reset(ctx, c.ChainID); err != nil {
				return fmt.Errorf("reset the index of %s: %w", c.CAIPNetworkID, err)
			}
			wake := make(chan struct{}, 1)
			stop, err := m.Devnet.WatchHeads(c.CAIPNetworkID, wake)
			if err != nil {
				return err
			}
			a.unwatch = append(a.unwatch, stop)
			if err := a.indexer.Follow(indexer.Chain{
				ChainID: c.ChainID, Client: a.clients.For(c.CAIPNetworkID),
				PollInterval: devIndexPoll, Wake: wake, BatchSize: devBatchSize,
			}); err != nil {
				return err
			}
		}
	}
	for _, s := range cfg.IndexNetworks {
		start, err := indexer.ParseStart(s)
		if err != nil {
			return err
		}
		id := start.Network
		if m.Networks.Get(id) == nil {
			return fmt.Errorf("--index-network %s: unknown network", id)
		}
		client := a.clients.For(id)
		if client == nil {
			return fmt.Errorf("--index-network %s: the network has no --rpc-upstream", id)
		}
		if err := a.indexer.Follow(indexer.Chain{
			ChainID: start.ChainID, Client: client, Start: start.Block, StartAtHead: start.AtHead,
			Confirmations: uint64(cfg.IndexConfirmations), PollInterval: cfg.IndexPollInterval,
		}); err != nil {
			return fmt.Errorf("--index-network %s: %w", id, err)
		}
	}

	var cache rpcproxy.Cache = rpcproxy.NewMemoryCache(50_000, 32<<20, nil)
	if m.Redis != nil {
		cache = rpcproxy.NewRedisCache(m.Redis, m.RedisPrefix+"account:")
	}
	// Identity: ENS first, then this latchd's own names (spec §7).
	var resolvers account.Resolvers
	if m.Networks.Get(cfg.IdentityNetwork) != nil {
		idNet := cfg.IdentityNetwork
		resolvers = append(resolvers, account.ENS{Client: func() *evm.Client { return a.clients.For(idNet) }, Registry: account.ENSRegistry, IPFSAvatars: cfg.IPFSGateway != ""})
	}
	if m.names.svc != nil {
		resolvers = append(resolvers, namesIdentity{m.names.svc})
	}
	var names account.NameResolver
	if len(resolvers) > 0 {
		names = resolvers
	}
	a.svc = account.New(account.Config{
		Networks: m.Networks, Clients: a.clients, Store: st, Tokens: a.tokens, Indexer: a.indexer,
		Prices: a.prices, Names: names, Cache: cache, Solana: m.solanaAccountConfig(listed),
	})
	a.http = account.NewHandler(a.svc, m.publicBaseURL, m.accountLimit())
	a.images = imageproxy.New(imageproxy.Config{IPFSGateway: cfg.IPFSGateway, Logger: m.Logger.With("component", "imageproxy")})
	return nil
}

// listedTokens is the token list per EVM chain: data/tokens.json for the
// networks latchd knows, plus the dev tokens.
func (m *Main) listedTokens() (map[uint64][]indexer.Token, error) {
	out, err := indexer.ParseTokenList(data.Tokens, m.Networks)
	if err != nil {
		return nil, err
	}
	if m.Devnet != nil {
		for _, c := range m.Devnet.Chains() {
			for _, t := range c.Tokens {
				out[c.ChainID] = append(out[c.ChainID], indexer.Token{
					Address: t.Address, Standard: 20, Name: t.Name, Symbol: t.Symbol, Decimals: int(t.Decimals),
					WrappedNative: indexer.WrapsNative(t.Symbol, "ETH"),
				})
			}
		}
	}
	return out, nil
}

// accountLimit is the account handler's budget of upstream-costing
// requests per client IP; nil without --account-rate-limit.
func (m *Main) accountLimit() func(*http.Request) (time.Duration, bool) {
	if m.Config.AccountRateLimit <= 0 {
		return nil
	}
	limiter := m.newLimiter("account", m.Config.AccountRateLimit, time.Minute)
	return func(r *http.Request) (time.Duration, bool) {
		d, err := limiter.Allow(r.Context(), m.clientIP(r))
		if err != nil {
			// A limiter failure must not take the API down.
			m.Logger.Warn("account rate limiter", "err", err)
			return 0, true
		}
		return d.RetryAfter, d.Allowed
	}
}

// devPriceChanged drops the cached prices of a dev network whose feed
// POST /dev/price just set.
func (m *Main) devPriceChanged(networkID string) {
	if id, err := caip.EVMChainID(networkID); err == nil {
		m.account.prices.Invalidate(id)
	}
}

// closeAccount stops the indexer.
func (m *Main) closeAccount() error {
	a := &m.account
	for _, stop := range a.unwatch {
		stop()
	}
	a.unwatch = nil
	if a.indexer != nil {
		a.indexer.Close()
	}
	if a.clients != nil {
		a.clients.Close()
	}
	return nil
}
