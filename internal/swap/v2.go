package swap

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/latchkit/latch/contracts"
	"github.com/latchkit/latch/internal/evm"
)

// The V2 calls are those of Uniswap V2's router, factory and pair; our dev
// AMM (contracts/src/LatchSwap.sol) has the same signatures, and the
// contracts package's tests pin their selectors.
var (
	routerABI  = contracts.MustLoad("LatchSwapRouter").ABI
	factoryABI = contracts.MustLoad("LatchSwapFactory").ABI
	pairABI    = contracts.MustLoad("LatchSwapPair").ABI
)

// Cache lifetimes of the V2 provider.
const (
	// DefaultReserveTTL bounds how old the reserves behind a quote may be:
	// about one block on a fast network. A build re-checks the price on
	// chain anyway (the minimum out), so a stale quote costs at worst a
	// refused transaction, never a worse trade than the slippage allows.
	DefaultReserveTTL = 2 * time.Second
	// noPairTTL is how long a pair the factory does not have is remembered;
	// an existing pair's address never changes.
	noPairTTL = time.Minute
)

// V2 is a Provider over a Uniswap-V2-compatible router: factory() and WETH()
// on the router, getPair on the factory, getReserves on the pairs. Routes are
// the direct pool and every one-hop route through a base token; the best
// output wins. It is safe for concurrent use.
type V2 struct {
	router common.Address
	client *evm.Client
	bases  []common.Address
	ttl    time.Duration
	now    func() time.Time

	mu       sync.Mutex
	factory  common.Address // zero until read
	wrapped  common.Address
	pairs    map[[2]common.Address]pairEntry // sorted token pair →
	reserves map[common.Address]reserveEntry // pair →
}

type pairEntry struct {
	pair common.Address // zero: no pool
	at   time.Time
}

type reserveEntry struct {
	r0, r1 *big.Int // in token0, token1 order
	at     time.Time
}

// V2Config configures NewV2.
type V2Config struct {
	Router common.Address
	Client *evm.Client
	// Bases are the tokens one-hop routes may pass through (the network's
	// listed tokens); the wrapped native token is always one.
	Bases []common.Address
	// ReserveTTL is how long reserves are reused; 0 = DefaultReserveTTL,
	// negative = never (every quote reads the chain).
	ReserveTTL time.Duration
	Now        func() time.Time
}

// NewV2 returns the provider of one router. It reads nothing until used.
func NewV2(cfg V2Config) *V2 {
	if cfg.ReserveTTL == 0 {
		cfg.ReserveTTL = DefaultReserveTTL
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &V2{
		router: cfg.Router, client: cfg.Client, bases: append([]common.Address(nil), cfg.Bases...),
		ttl: cfg.ReserveTTL, now: cfg.Now,
		pairs: map[[2]common.Address]pairEntry{}, reserves: map[common.Address]reserveEntry{},
	}
}

// Spender implements Provider: approvals are for the router.
func (v *V2) Spender() common.Address { return v.router }

// Wrapped implements Provider: the router's WETH().
func (v *V2) Wrapped(ctx context.Context) (common.Address, error) {
	if err := v.init(ctx); err != nil {
		return common.Address{}, err
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.wrapped, nil
}

// Invalidate implements Provider: drops every cached reserve.
func (v *V2) Invalidate() {
	v.mu.Lock()
	clear(v.reserves)
	v.mu.Unlock()
}

// init reads the router's factory and wrapped token once.
func (v *V2) init(ctx context.Context) error {
	v.mu.Lock()
	done := v.factory != (common.Address{})
	v.mu.Unlock()
	if done {
		return nil
	}
	f, _ := routerABI.Pack("factory")
	w, _ := routerABI.Pack("WETH")
	calls := []evm.CallElem{{To: v.router, Data: f}, {To: v.router, Data: w}}
	if err := v.client.CallBatch(ctx, calls); err != nil {
		return unavailable(err)
	}
	var addrs [2]common.Address
	for i, name := range []string{"factory", "WETH"} {
		if calls[i].Err != nil || len(calls[i].Result) != 32 {
			return fmt.Errorf("%w: %s() of %s: %v", errNotRouter, name, v.router.Hex(), calls[i].Err)
		}
		addrs[i] = common.BytesToAddress(calls[i].Result)
	}
	v.mu.Lock()
	v.factory, v.wrapped = addrs[0], addrs[1]
	v.mu.Unlock()
	return nil
}

// Quote implements Provider.
func (v *V2) Quote(ctx context.Context, from, to common.Address, amountIn *big.Int) (Route, error) {
	if err := v.init(ctx); err != nil {
		return Route{}, err
	}
	paths := [][]common.Address{{from, to}}
	seen := map[common.Address]bool{from: true, to: true}
	for _, b := range append([]common.Address{v.wrapped}, v.bases...) {
		if !seen[b] {
			seen[b] = true
			paths = append(paths, []common.Address{from, b, to})
		}
	}
	var hops [][2]common.Address
	for _, p := range paths {
		for i := 0; i+1 < len(p); i++ {
			hops = append(hops, sortPair(p[i], p[i+1]))
		}
	}
	pools, err := v.pools(ctx, hops)
	if err != nil {
		return Route{}, err
	}
	var best Route
	for _, p := range paths {
		amounts := []*big.Int{amountIn}
		// The output at the pools' current prices, less only their fees.
		ideal := new(big.Float).SetInt(amountIn)
		for i := 0; i+1 < len(p); i++ {
			res, ok := pools[sortPair(p[i], p[i+1])]
			if !ok {
				amounts = nil
				break
			}
			rIn, rOut := res.r0, res.r1
			if bytes.Compare(p[i].Bytes(), p[i+1].Bytes()) > 0 {
				rIn, rOut = rOut, rIn
			}
			ideal.Mul(ideal, new(big.Float).Quo(new(big.Float).SetInt(rOut), new(big.Float).SetInt(rIn)))
			ideal.Mul(ideal, big.NewFloat(0.997))
			out := AmountOut(amounts[i], rIn, rOut)
			if out.Sign() == 0 {
				amounts = nil
				break
			}
			amounts = append(amounts, out)
		}
		if amounts == nil {
			continue
		}
		if best.Path == nil || amounts[len(amounts)-1].Cmp(best.AmountOut()) > 0 {
			ratio, _ := new(big.Float).Quo(new(big.Float).SetInt(amounts[len(amounts)-1]), ideal).Float64()
			best = Route{Path: p, Amounts: amounts, PriceImpact: max(0, (1-ratio)*100)}
		}
	}
	if best.Path == nil {
		return Route{}, ErrNoLiquidity
	}
	return best, nil
}

// pools returns the reserves of every hop that has a pool with liquidity,
// reading what the caches lack in at most two batches.
func (v *V2) pools(ctx context.Context, hops [][2]common.Address) (map[[2]common.Address]reserveEntry, error) {
	now := v.now()
	v.mu.Lock()
	var missing [][2]common.Address
	asked := map[[2]common.Address]bool{}
	for _, h := range hops {
		e, ok := v.pairs[h]
		if (!ok || (e.pair == common.Address{} && now.Sub(e.at) > noPairTTL)) && !asked[h] {
			asked[h] = true
			missing = append(missing, h)
		}
	}
	factory := v.factory
	v.mu.Unlock()

	if len(missing) > 0 {
		calls := make([]evm.CallElem, len(missing))
		for i, h := range missing {
			data, _ := factoryABI.Pack("getPair", h[0], h[1])
			calls[i] = evm.CallElem{To: factory, Data: data}
		}
		if err := v.client.CallBatch(ctx, calls); err != nil {
			return nil, unavailable(err)
		}
		v.mu.Lock()
		for i, h := range missing {
			if calls[i].Err != nil || len(calls[i].Result) != 32 {
				v.mu.Unlock()
				return nil, fmt.Errorf("factory %s: getPair: %v", factory.Hex(), calls[i].Err)
			}
			v.pairs[h] = pairEntry{pair: common.BytesToAddress(calls[i].Result), at: now}
		}
		v.mu.Unlock()
	}

	out := map[[2]common.Address]reserveEntry{}
	var stale []common.Address
	byPair := map[common.Address][2]common.Address{}
	v.mu.Lock()
	for _, h := range hops {
		pair := v.pairs[h].pair
		if pair == (common.Address{}) {
			continue
		}
		if _, dup := byPair[pair]; dup {
			continue
		}
		byPair[pair] = h
		if r, ok := v.reserves[pair]; ok && v.ttl > 0 && now.Sub(r.at) < v.ttl {
			out[h] = r
			continue
		}
		stale = append(stale, pair)
	}
	v.mu.Unlock()
	if len(stale) > 0 {
		data, _ := pairABI.Pack("getReserves")
		calls := make([]evm.CallElem, len(stale))
		for i, p := range stale {
			calls[i] = evm.CallElem{To: p, Data: data}
		}
		if err := v.client.CallBatch(ctx, calls); err != nil {
			return nil, unavailable(err)
		}
		v.mu.Lock()
		for i, p := range stale {
			if calls[i].Err != nil || len(calls[i].Result) < 64 {
				v.mu.Unlock()
				return nil, fmt.Errorf("pair %s: getReserves: %v", p.Hex(), calls[i].Err)
			}
			r := reserveEntry{r0: new(big.Int).SetBytes(calls[i].Result[:32]), r1: new(big.Int).SetBytes(calls[i].Result[32:64]), at: now}
			v.reserves[p] = r
			out[byPair[p]] = r
		}
		v.mu.Unlock()
	}
	for h, r := range out {
		if r.r0.Sign() == 0 || r.r1.Sign() == 0 {
			delete(out, h)
		}
	}
	return out, nil
}

// SwapCall implements Provider: the router's swapExact… function for the
// route, paying recipient, with the minimum out and the deadline.
func (v *V2) SwapCall(r Route, minOut *big.Int, recipient common.Address, deadline time.Time, nativeIn, nativeOut bool) (Call, error) {
	dl := big.NewInt(deadline.Unix())
	var data []byte
	var err error
	value := new(big.Int)
	switch {
	case nativeIn:
		data, err = routerABI.Pack("swapExactETHForTokens", minOut, r.Path, recipient, dl)
		value = r.Amounts[0]
	case nativeOut:
		data, err = routerABI.Pack("swapExactTokensForETH", r.Amounts[0], minOut, r.Path, recipient, dl)
	default:
		data, err = routerABI.Pack("swapExactTokensForTokens", r.Amounts[0], minOut, r.Path, recipient, dl)
	}
	if err != nil {
		return Call{}, err
	}
	return Call{To: v.router, Data: data, Value: value}, nil
}

// AmountOut is the constant-product output for amountIn against the
// reserves after the 0.3% fee, rounded down: Uniswap V2's getAmountOut.
func AmountOut(amountIn, reserveIn, reserveOut *big.Int) *big.Int {
	if amountIn.Sign() <= 0 || reserveIn.Sign() <= 0 || reserveOut.Sign() <= 0 {
		return new(big.Int)
	}
	inAfterFee := new(big.Int).Mul(amountIn, big.NewInt(997))
	num := new(big.Int).Mul(inAfterFee, reserveOut)
	den := new(big.Int).Add(new(big.Int).Mul(reserveIn, big.NewInt(1000)), inAfterFee)
	return num.Quo(num, den)
}

func sortPair(a, b common.Address) [2]common.Address {
	if bytes.Compare(a.Bytes(), b.Bytes()) > 0 {
		a, b = b, a
	}
	return [2]common.Address{a, b}
}

// errNotRouter marks a configured router that does not answer factory()
// and WETH(): a wrong --swap-router.
var errNotRouter = errors.New("not a Uniswap-V2-compatible router")

// errUpstream marks a transport failure of the network's RPC upstreams.
var errUpstream = errors.New("the network's RPC upstream did not answer")

func unavailable(err error) error { return fmt.Errorf("%w: %v", errUpstream, err) }
