package app

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/latchkit/latch/internal/caip"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/swap"
)

// SwapConfig configures swaps (internal/swap).
type SwapConfig struct {
	// Routers are --swap-router values, <caip2>=<Uniswap-V2-compatible router>.
	Routers []string
	// RateLimit is --swap-rate-limit: convert requests that read a chain,
	// per client IP per minute; 0 = no limit.
	RateLimit int
}

// defaultSwapRateLimit: a swap panel refreshes its quote every 10 s and on
// input, and reads allowance and gas around each build.
const defaultSwapRateLimit = 300

// swapService is the swap state in Main.
type swapService struct {
	svc     *swap.Service
	http    *swap.Handler
	unwatch []func()
}

// Swap quotes and builds swaps; nil before Run.
func (m *Main) Swap() *swap.Service { return m.swap.svc }

// swapFlags binds the swap flags and returns their check.
func swapFlags(fs *flag.FlagSet, cfg *Config) func() error {
	var routers stringList
	fs.Var(&routers, "swap-router", "Uniswap-V2-compatible router (factory(), WETH(), getAmountsOut, swapExact…) that quotes and builds swaps on a network: <caip2>=<router address>; repeatable; the network needs an --rpc-upstream (latchd dev's networks default to latchd's own AMM)")
	fs.IntVar(&cfg.Swap.RateLimit, "swap-rate-limit", defaultSwapRateLimit, "swap quote, allowance, gas-price and build requests (each reads the chain) per client IP per minute (0 = no limit)")
	return func() error {
		cfg.Swap.Routers = routers
		for _, s := range cfg.Swap.Routers {
			if _, _, err := parseSwapRouter(s); err != nil {
				return err
			}
		}
		if cfg.Swap.RateLimit < 0 {
			return fmt.Errorf("--swap-rate-limit must not be negative")
		}
		return nil
	}
}

// parseSwapRouter reads one --swap-router value.
func parseSwapRouter(s string) (network string, router common.Address, err error) {
	id, addr, ok := strings.Cut(strings.TrimSpace(s), "=")
	if !ok {
		return "", common.Address{}, fmt.Errorf("--swap-router %q: want <caip2>=<router address>", s)
	}
	if _, err := caip.EVMChainID(id); err != nil {
		return "", common.Address{}, fmt.Errorf("--swap-router %q: %q is not an EVM network id (eip155:<chain id>)", s, id)
	}
	if !common.IsHexAddress(addr) || !strings.HasPrefix(addr, "0x") || common.HexToAddress(addr) == (common.Address{}) {
		return "", common.Address{}, fmt.Errorf("--swap-router %q: %q is not a router address (0x + 40 hex digits)", s, addr)
	}
	return id, common.HexToAddress(addr), nil
}

// startSwap builds the swap service over every network with a router: the
// dev networks' own AMM, then the --swap-router ones (which may replace a
// dev network's). It runs after startAccount, whose RPC clients and token
// lists it reads through.
func (m *Main) startSwap(ctx context.Context) error {
	routers := map[string]common.Address{}
	var order []string
	set := func(id string, router common.Address) {
		if _, ok := routers[id]; !ok {
			order = append(order, id)
		}
		routers[id] = router
	}
	if m.Devnet != nil {
		for _, c := range m.Devnet.Chains() {
			if c.SwapRouter != (common.Address{}) {
				set(c.CAIPNetworkID, c.SwapRouter)
			}
		}
	}
	for _, s := range m.Config.Swap.Routers {
		id, router, err := parseSwapRouter(s)
		if err != nil {
			return err
		}
		if m.Networks.Get(id) == nil {
			return fmt.Errorf("--swap-router %s: unknown network", id)
		}
		set(id, router)
	}
	var networks []*swap.Network
	for _, id := range order {
		client := m.account.clients.For(id)
		if client == nil {
			return fmt.Errorf("--swap-router %s: the network has no --rpc-upstream", id)
		}
		chainID, _ := caip.EVMChainID(id)
		cur := m.Networks.Get(id).NativeCurrency
		n := &swap.Network{ID: id, Client: client, Native: swap.Token{Address: swap.NativeAddress, Symbol: cur.Symbol, Name: cur.Name, Decimals: uint8(cur.Decimals)}}
		var bases []common.Address
		listed := m.account.tokens.Listed(chainID)
		// The list is a map's; a stable order keeps the token pickers still.
		sort.Slice(listed, func(i, j int) bool { return listed[i].Symbol < listed[j].Symbol })
		for _, t := range listed {
			if t.Standard != 20 || t.Decimals < 0 || t.Decimals > 77 {
				continue
			}
			n.Tokens = append(n.Tokens, swap.Token{Address: t.Address, Symbol: t.Symbol, Name: t.Name, Decimals: uint8(t.Decimals)})
			bases = append(bases, t.Address)
		}
		n.Provider = swap.NewV2(swap.V2Config{Router: routers[id], Client: client, Bases: bases})
		networks = append(networks, n)
	}
	m.swap.svc = swap.New(swap.Config{Networks: networks})
	m.swap.http = swap.NewHandler(m.swap.svc, m.tokenLogo, m.swapLimit())

	// A dev chain's reserves change only in its blocks: drop them on each
	// new head, so a quote right after a swap sees it.
	if m.Devnet != nil {
		for _, c := range m.Devnet.Chains() {
			wake := make(chan struct{}, 1)
			stop, err := m.Devnet.WatchHeads(c.CAIPNetworkID, wake)
			if err != nil {
				return err
			}
			done := make(chan struct{})
			id := c.CAIPNetworkID
			go func() {
				for {
					select {
					case <-wake:
						m.swap.svc.Invalidate(id)
					case <-done:
						return
					}
				}
			}()
			m.swap.unwatch = append(m.swap.unwatch, stop, func() { close(done) })
		}
	}
	return nil
}

// closeSwap stops the dev head watchers.
func (m *Main) closeSwap() {
	for _, stop := range m.swap.unwatch {
		stop()
	}
	m.swap.unwatch = nil
}

// tokenLogo is a token's logo on this latchd's token image route.
func (m *Main) tokenLogo(r *http.Request, symbol string) string {
	u := strings.TrimRight(m.publicBaseURL(r), "/") + "/public/getTokenImage/" + url.PathEscape(symbol)
	if p := project.FromContext(r.Context()); p != nil {
		u += "?projectId=" + url.QueryEscape(p.ID)
	}
	return u
}

// swapLimit caps chain-reading convert requests per client IP at
// --swap-rate-limit per minute; nil without one.
func (m *Main) swapLimit() func(*http.Request) (time.Duration, bool) {
	if m.Config.Swap.RateLimit <= 0 {
		return nil
	}
	limiter := m.newLimiter("swap", m.Config.Swap.RateLimit, time.Minute)
	return func(r *http.Request) (time.Duration, bool) {
		d, err := limiter.Allow(r.Context(), m.clientIP(r))
		if err != nil {
			// A limiter failure must not take swaps down.
			m.Logger.Warn("swap rate limiter", "err", err)
			return 0, true
		}
		return d.RetryAfter, d.Allowed
	}
}

// swapRoute serves a convert route.
func swapRoute(f func(*swap.Handler, http.ResponseWriter, *http.Request)) func(*Main) http.Handler {
	return func(m *Main) http.Handler {
		h := m.swap.http
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { f(h, w, r) })
	}
}
