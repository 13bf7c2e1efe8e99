// Package swap quotes and builds token swaps for the convert API (AppKit's
// /v1/convert calls): the tokens of a network, quotes, allowances, gas
// prices, approve and swap transactions. Quotes come from on-chain state
// (a Uniswap-V2-compatible router's pools, read through latchd's RPC
// clients), so swaps work on any network the operator gives a router, and no
// third-party host is contacted. latchd never signs or sends: it returns
// transactions for the user's wallet.
package swap

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/latchkit/latch/contracts"
	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/caip"
	"github.com/latchkit/latch/internal/evm"
)

// NativeAddress stands for a network's native coin in the convert API
// (api-shapes §3.4); swaps map it to the router's wrapped token.
var NativeAddress = common.HexToAddress("0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE")

// DefaultSlippage is the slippage tolerance, in percent, when a build
// request names none (spec §9: the swap slippage tolerance constant, 1).
const DefaultSlippage = 1.0

// MaxSlippage is the largest tolerance a build request may ask for; beyond
// it the minimum out protects nothing.
const MaxSlippage = 50.0

// deadlineAfter is how long a built swap stays valid on chain.
const deadlineAfter = 20 * time.Minute

// Gas of a swap when the request disables estimation: a first hop, and each
// further one (a V2 hop costs about 60–90k; these leave margin, and unused
// gas is not charged).
const (
	gasFirstHop = 160_000
	gasNextHop  = 100_000
	gasApprove  = 70_000
)

// gasPriceTTL is how long a network's gas prices are reused.
const gasPriceTTL = 3 * time.Second

// The spec's messages (§8).
const (
	msgNetworkSwaps    = "Network not supported for Swaps"
	msgNetworkGasPrice = "Network not supported for Gas Price"
)

// ErrNoLiquidity is what a Provider returns when no route has liquidity.
var ErrNoLiquidity = errors.New("no route with liquidity")

var erc20ABI = contracts.MustLoad("DevToken").ABI // the ERC-20 allowance and approve every token has

// Route is a quoted path: the tokens in order and the amount at each step.
type Route struct {
	Path    []common.Address
	Amounts []*big.Int
	// PriceImpact is how much worse than the pools' current prices the
	// output is, in percent, the pools' fees excluded: what the trade's own
	// size costs.
	PriceImpact float64
}

// AmountOut is the route's final output.
func (r Route) AmountOut() *big.Int { return r.Amounts[len(r.Amounts)-1] }

// Call is a contract call a wallet sends.
type Call struct {
	To    common.Address
	Data  []byte
	Value *big.Int
}

// Provider quotes and builds swaps on one network. Every implementation
// must quote from the network's current state (or state at most its
// documented cache age), return ErrNoLiquidity when no route can fill the
// amount, and build calls whose on-chain minimum out makes a trade that
// moved beyond it revert rather than fill. Tokens are ERC-20 addresses; the
// native coin is passed as the wrapped token with nativeIn/nativeOut set.
// V2 is the built-in implementation; an aggregator could be another, but
// latchd ships none, so no third-party host is contacted.
type Provider interface {
	Quote(ctx context.Context, from, to common.Address, amountIn *big.Int) (Route, error)
	SwapCall(r Route, minOut *big.Int, recipient common.Address, deadline time.Time, nativeIn, nativeOut bool) (Call, error)
	// Spender is the address ERC-20 approvals must name.
	Spender() common.Address
	// Wrapped is the network's wrapped native token.
	Wrapped(ctx context.Context) (common.Address, error)
	// Invalidate drops cached chain state (a new block arrived).
	Invalidate()
}

// Token is a token the network swaps.
type Token struct {
	Address  common.Address // NativeAddress for the native coin
	Symbol   string
	Name     string
	Decimals uint8
}

// Network is one network with swaps.
type Network struct {
	ID       string // CAIP-2, e.g. "eip155:1"
	Client   *evm.Client
	Provider Provider
	Native   Token   // the coin, with Address NativeAddress
	Tokens   []Token // the ERC-20s offered, wrapped token included
}

// Service answers the convert API. It is safe for concurrent use.
type Service struct {
	networks map[string]*Network
	now      func() time.Time

	mu  sync.Mutex
	gas map[string]gasEntry
}

type gasEntry struct {
	p  GasPrice
	at time.Time
}

// Config configures New.
type Config struct {
	Networks []*Network
	Now      func() time.Time // default time.Now
}

// New returns a Service over the networks.
func New(cfg Config) *Service {
	s := &Service{networks: map[string]*Network{}, now: cfg.Now, gas: map[string]gasEntry{}}
	if s.now == nil {
		s.now = time.Now
	}
	for _, n := range cfg.Networks {
		s.networks[n.ID] = n
	}
	return s
}

// Invalidate drops a network's cached chain state; unknown ids are ignored.
func (s *Service) Invalidate(networkID string) {
	if n := s.networks[networkID]; n != nil {
		n.Provider.Invalidate()
	}
}

// network returns a network with swaps or the spec's refusal.
func (s *Service) network(field, id string) (*Network, error) {
	if n := s.networks[id]; n != nil {
		return n, nil
	}
	return nil, apperr.Fieldf(apperr.Invalid, field, msgNetworkSwaps)
}

// Tokens lists the network's swappable tokens, native coin first.
//
// Errors: apperr.Invalid "Network not supported for Swaps".
func (s *Service) Tokens(networkID string) ([]Token, error) {
	n, err := s.network("chainId", networkID)
	if err != nil {
		return nil, err
	}
	return append([]Token{n.Native}, n.Tokens...), nil
}

// parseAccount reads a CAIP-10 EVM address of a network with swaps.
func (s *Service) parseAccount(field, v string) (*Network, common.Address, error) {
	if v == "" {
		return nil, common.Address{}, apperr.Fieldf(apperr.Invalid, field, "%s is required (a CAIP-10 address, e.g. eip155:1:0x…)", field)
	}
	id, err := caip.ParseAccountID(v)
	if err != nil || id.Chain.Namespace != caip.EIP155 || !common.IsHexAddress(id.Address) || !strings.HasPrefix(id.Address, "0x") {
		return nil, common.Address{}, apperr.Fieldf(apperr.Invalid, field, "%s must be a CAIP-10 EVM address (eip155:<chain id>:0x…)", field)
	}
	n, err := s.network(field, id.Chain.String())
	if err != nil {
		return nil, common.Address{}, err
	}
	return n, common.HexToAddress(id.Address), nil
}

// token resolves a CAIP-10 token of the network's list.
func (n *Network) token(field string, addr common.Address) (Token, error) {
	if addr == NativeAddress {
		return n.Native, nil
	}
	for _, t := range n.Tokens {
		if t.Address == addr {
			return t, nil
		}
	}
	return Token{}, apperr.Fieldf(apperr.Invalid, field, "Unknown token %s on %s: it is not one of this network's swap tokens (GET /v1/convert/tokens)", addr.Hex(), n.ID)
}

// Pair is a validated from/to request: one network, two listed tokens.
type Pair struct {
	Network  *Network
	From, To Token
	User     common.Address
	Amount   *big.Int
}

// ParsePair validates the fields every quote and build shares: from, to
// and userAddress as CAIP-10 on one network with swaps, listed tokens, two
// different assets, and amount as a positive whole number of from's base
// units that fits a pool.
//
// Errors: apperr.Invalid, with the field and a message saying what to fix.
func (s *Service) ParsePair(from, to, user, amount string) (Pair, error) {
	nf, fromAddr, err := s.parseAccount("from", from)
	if err != nil {
		return Pair{}, err
	}
	nt, toAddr, err := s.parseAccount("to", to)
	if err != nil {
		return Pair{}, err
	}
	if nf != nt {
		return Pair{}, apperr.Fieldf(apperr.Invalid, "to", "from and to must be on the same network (%s, %s)", nf.ID, nt.ID)
	}
	p := Pair{Network: nf}
	if user != "" {
		nu, u, err := s.parseAccount("userAddress", user)
		if err != nil {
			return Pair{}, err
		}
		if nu != nf {
			return Pair{}, apperr.Fieldf(apperr.Invalid, "userAddress", "userAddress must be on the tokens' network %s", nf.ID)
		}
		p.User = u
	}
	if p.From, err = nf.token("from", fromAddr); err != nil {
		return Pair{}, err
	}
	if p.To, err = nf.token("to", toAddr); err != nil {
		return Pair{}, err
	}
	if p.From.Address == p.To.Address {
		return Pair{}, apperr.Fieldf(apperr.Invalid, "to", "from and to are the same token (%s): choose two different tokens", p.From.Symbol)
	}
	if p.Amount, err = parseAmount(amount, p.From); err != nil {
		return Pair{}, err
	}
	return p, nil
}

// maxAmount is the largest input a V2 pool can take (reserves are uint112).
var maxAmount = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 112), big.NewInt(1))

// parseAmount reads an amount in base units of t.
func parseAmount(s string, t Token) (*big.Int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, apperr.Fieldf(apperr.Invalid, "amount", "amount is required (in base units of %s)", t.Symbol)
	}
	if strings.HasPrefix(s, "-") {
		return nil, apperr.Fieldf(apperr.Invalid, "amount", "Amount must be greater than zero")
	}
	if i := strings.IndexByte(s, '.'); i >= 0 {
		if strings.Trim(s[i+1:], "0") != "" {
			return nil, apperr.Fieldf(apperr.Invalid, "amount", "Too many decimals: amount is in base units of %s (%d decimals), a whole number", t.Symbol, t.Decimals)
		}
		s = s[:i]
	}
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return nil, apperr.Fieldf(apperr.Invalid, "amount", "amount must be a whole number of base units of %s", t.Symbol)
	}
	if v.Sign() <= 0 {
		return nil, apperr.Fieldf(apperr.Invalid, "amount", "Amount must be greater than zero")
	}
	if v.Cmp(maxAmount) > 0 {
		return nil, apperr.Fieldf(apperr.Invalid, "amount", "Amount is too large to swap")
	}
	return v, nil
}

// Quoted is a quote: the request's pair and the best route.
type Quoted struct {
	Pair
	Route Route
}

// Quote returns the best route for the pair's amount.
//
// Errors: apperr.Invalid when no pool (direct or through one base token)
// can fill it, or it would buy nothing; apperr.Unavailable when the
// network's upstream does not answer.
func (s *Service) Quote(ctx context.Context, p Pair) (Quoted, error) {
	n := p.Network
	wrapped, err := n.Provider.Wrapped(ctx)
	if err != nil {
		return Quoted{}, providerError(err)
	}
	from, to := p.From.Address, p.To.Address
	if from == NativeAddress {
		from = wrapped
	}
	if to == NativeAddress {
		to = wrapped
	}
	if from == to {
		return Quoted{}, apperr.Fieldf(apperr.Invalid, "to", "%s and %s are the same asset: wrap or unwrap with the %s contract (deposit, withdraw) instead of swapping", p.From.Symbol, p.To.Symbol, p.To.Symbol)
	}
	r, err := n.Provider.Quote(ctx, from, to, p.Amount)
	if errors.Is(err, ErrNoLiquidity) {
		return Quoted{}, apperr.Fieldf(apperr.Invalid, "amount", "No liquidity to swap %s for %s on %s: no pool, direct or through one other token, can fill this amount", p.From.Symbol, p.To.Symbol, n.ID)
	}
	if err != nil {
		return Quoted{}, providerError(err)
	}
	return Quoted{Pair: p, Route: r}, nil
}

// providerError keeps a dead upstream apart from a bug: the first is the
// client's to retry, the second is logged.
func providerError(err error) error {
	switch {
	case errors.Is(err, errUpstream):
		return apperr.Errorf(apperr.Unavailable, "The network's RPC upstream did not answer; retry later")
	case errors.Is(err, errNotRouter):
		slog.Warn("swap: the configured router does not answer", "err", err)
		return apperr.Errorf(apperr.Unavailable, "This network's swap router does not answer as a Uniswap V2 router (the operator's --swap-router)")
	}
	return err
}

// Allowance is what user allowed the network's spender to take of token;
// the native coin needs no allowance, so it is the maximum uint256.
//
// Errors: apperr.Invalid for a malformed or unknown token or user, or a
// network without swaps.
func (s *Service) Allowance(ctx context.Context, token, user string) (*big.Int, error) {
	n, tokenAddr, err := s.parseAccount("tokenAddress", token)
	if err != nil {
		return nil, err
	}
	nu, u, err := s.parseAccount("userAddress", user)
	if err != nil {
		return nil, err
	}
	if nu != n {
		return nil, apperr.Fieldf(apperr.Invalid, "userAddress", "userAddress must be on the token's network %s", n.ID)
	}
	t, err := n.token("tokenAddress", tokenAddr)
	if err != nil {
		return nil, err
	}
	if t.Address == NativeAddress {
		return new(big.Int).Set(maxUint256), nil
	}
	data, _ := erc20ABI.Pack("allowance", u, n.Provider.Spender())
	out, err := n.Client.CallContract(ctx, t.Address, data)
	if err != nil {
		return nil, callError(err, "allowance")
	}
	if len(out) != 32 {
		return nil, fmt.Errorf("%s allowance: %d bytes returned", t.Address.Hex(), len(out))
	}
	return new(big.Int).SetBytes(out), nil
}

var maxUint256 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))

// GasPrice is what a legacy transaction should pay per gas, in wei, for
// three speeds.
type GasPrice struct {
	Standard, Fast, Instant *big.Int
}

// GasPrice returns the network's gas prices: the next block's base fee
// plus the 25th, 50th and 90th percentile tips of recent blocks (at least
// the node's suggested tip), with headroom of one and two blocks of
// base-fee growth (12.5% each) for fast and instant.
//
// Errors: apperr.Invalid "Network not supported for Gas Price".
func (s *Service) GasPrice(ctx context.Context, networkID string) (GasPrice, error) {
	n := s.networks[networkID]
	if n == nil {
		return GasPrice{}, apperr.Fieldf(apperr.Invalid, "chainId", msgNetworkGasPrice)
	}
	now := s.now()
	s.mu.Lock()
	e, ok := s.gas[networkID]
	s.mu.Unlock()
	if ok && now.Sub(e.at) < gasPriceTTL {
		return e.p, nil
	}
	var hist struct {
		BaseFee []*hexutil.Big   `json:"baseFeePerGas"`
		Reward  [][]*hexutil.Big `json:"reward"`
	}
	var tip hexutil.Big
	elems := []rpc.BatchElem{
		{Method: "eth_feeHistory", Args: []any{hexutil.Uint64(10), "latest", []float64{25, 50, 90}}, Result: &hist},
		{Method: "eth_maxPriorityFeePerGas", Result: &tip},
	}
	if err := n.Client.Batch(ctx, elems); err != nil {
		return GasPrice{}, apperr.Errorf(apperr.Unavailable, "The network's RPC upstream did not answer; retry later")
	}
	for _, e := range elems {
		if e.Error != nil {
			return GasPrice{}, fmt.Errorf("%s %s: %w", networkID, e.Method, e.Error)
		}
	}
	if len(hist.BaseFee) == 0 {
		return GasPrice{}, fmt.Errorf("%s eth_feeHistory: no base fee", networkID)
	}
	base := hist.BaseFee[len(hist.BaseFee)-1].ToInt()
	tips := make([]*big.Int, 3)
	for i := range tips {
		var vals []*big.Int
		for _, r := range hist.Reward {
			if i < len(r) && r[i] != nil {
				vals = append(vals, r[i].ToInt())
			}
		}
		tips[i] = median(vals)
		if tips[i].Cmp(tip.ToInt()) < 0 {
			tips[i] = new(big.Int).Set(tip.ToInt())
		}
		if i > 0 && tips[i].Cmp(tips[i-1]) < 0 {
			tips[i] = new(big.Int).Set(tips[i-1])
		}
	}
	grow := func(steps int) *big.Int {
		b := new(big.Int).Set(base)
		for range steps {
			b.Add(b, new(big.Int).Quo(b, big.NewInt(8)))
		}
		return b
	}
	p := GasPrice{
		Standard: new(big.Int).Add(base, tips[0]),
		Fast:     new(big.Int).Add(grow(1), tips[1]),
		Instant:  new(big.Int).Add(grow(2), tips[2]),
	}
	s.mu.Lock()
	s.gas[networkID] = gasEntry{p: p, at: now}
	s.mu.Unlock()
	return p, nil
}

func median(vals []*big.Int) *big.Int {
	if len(vals) == 0 {
		return new(big.Int)
	}
	sorted := append([]*big.Int(nil), vals...)
	for i := 1; i < len(sorted); i++ {
		for j := i; j > 0 && sorted[j].Cmp(sorted[j-1]) < 0; j-- {
			sorted[j], sorted[j-1] = sorted[j-1], sorted[j]
		}
	}
	return new(big.Int).Set(sorted[len(sorted)/2])
}

// Tx is a transaction for the user's wallet.
type Tx struct {
	Network  *Network
	From     common.Address
	To       common.Address
	Data     []byte
	Value    *big.Int
	Gas      uint64
	GasPrice *big.Int
}

// BuildApprove returns token.approve(spender, amount) from user; amount
// nil approves the maximum (an allowance most tokens never spend down, so
// later swaps skip the approval).
//
// Errors: apperr.Invalid for a bad field, the native coin (it needs no
// approval) or a network without swaps.
func (s *Service) BuildApprove(ctx context.Context, user, token, to, amount string) (Tx, error) {
	n, u, err := s.parseAccount("userAddress", user)
	if err != nil {
		return Tx{}, err
	}
	nt, tokenAddr, err := s.parseAccount("from", token)
	if err != nil {
		return Tx{}, err
	}
	if nt != n {
		return Tx{}, apperr.Fieldf(apperr.Invalid, "from", "from must be on the user's network %s", n.ID)
	}
	t, err := n.token("from", tokenAddr)
	if err != nil {
		return Tx{}, err
	}
	if to != "" {
		nTo, toAddr, err := s.parseAccount("to", to)
		if err != nil {
			return Tx{}, err
		}
		if nTo != n {
			return Tx{}, apperr.Fieldf(apperr.Invalid, "to", "to must be on the user's network %s", n.ID)
		}
		if _, err := n.token("to", toAddr); err != nil {
			return Tx{}, err
		}
	}
	if t.Address == NativeAddress {
		return Tx{}, apperr.Fieldf(apperr.Invalid, "from", "%s is the native coin: it needs no approval", t.Symbol)
	}
	value := new(big.Int).Set(maxUint256)
	if amount != "" {
		if value, err = parseAmount(amount, t); err != nil {
			return Tx{}, err
		}
	}
	data, _ := erc20ABI.Pack("approve", n.Provider.Spender(), value)
	gp, err := s.GasPrice(ctx, n.ID)
	if err != nil {
		return Tx{}, err
	}
	tx := Tx{Network: n, From: u, To: t.Address, Data: data, Value: new(big.Int), Gas: gasApprove, GasPrice: gp.Standard}
	if est, err := n.Client.EstimateGas(ctx, ethereum.CallMsg{From: u, To: &t.Address, Data: data}); err == nil {
		tx.Gas = withMargin(est)
	} else if err := callError(err, "approve"); apperr.As(err) != nil {
		return Tx{}, err
	}
	return tx, nil
}

// SwapRequest is a build-transaction request.
type SwapRequest struct {
	From, To, User, Amount string
	// Slippage is the tolerance in percent; nil = DefaultSlippage.
	Slippage *float64
	// DisableEstimate skips eth_estimateGas (a wallet that approves first
	// cannot have the swap estimated yet); the gas is then a fixed allowance
	// per hop.
	DisableEstimate bool
}

// Built is a swap transaction and the quote it was built on.
type Built struct {
	Tx
	Quoted
	MinOut *big.Int
}

// BuildSwap quotes the pair and returns the router call for the user's
// wallet: the best route, the minimum out the slippage allows, a deadline
// 20 minutes on, the user as recipient. Unless disabled, the gas is
// estimated, which also refuses a swap that would revert now.
//
// Errors: those of ParsePair and Quote; apperr.Invalid for a slippage out
// of range or a swap the chain would revert (the reason in the message).
func (s *Service) BuildSwap(ctx context.Context, req SwapRequest) (Built, error) {
	if req.User == "" {
		return Built{}, apperr.Fieldf(apperr.Invalid, "userAddress", "userAddress is required (a CAIP-10 address, e.g. eip155:1:0x…)")
	}
	slippage := DefaultSlippage
	if req.Slippage != nil {
		slippage = *req.Slippage
	}
	if !(slippage >= 0 && slippage <= MaxSlippage) {
		return Built{}, apperr.Fieldf(apperr.Invalid, "eip155.slippage", "slippage must be a percentage from 0 to %g", MaxSlippage)
	}
	p, err := s.ParsePair(req.From, req.To, req.User, req.Amount)
	if err != nil {
		return Built{}, err
	}
	q, err := s.Quote(ctx, p)
	if err != nil {
		return Built{}, err
	}
	// Basis points, so 0.5% is exact.
	bps := int64(slippage*100 + 0.5)
	minOut := new(big.Int).Mul(q.Route.AmountOut(), big.NewInt(10_000-bps))
	minOut.Quo(minOut, big.NewInt(10_000))
	if minOut.Sign() == 0 {
		minOut.SetInt64(1)
	}
	n := p.Network
	call, err := n.Provider.SwapCall(q.Route, minOut, p.User, s.now().Add(deadlineAfter), p.From.Address == NativeAddress, p.To.Address == NativeAddress)
	if err != nil {
		return Built{}, err
	}
	gp, err := s.GasPrice(ctx, n.ID)
	if err != nil {
		return Built{}, err
	}
	b := Built{Quoted: q, MinOut: minOut, Tx: Tx{Network: n, From: p.User, To: call.To, Data: call.Data, Value: call.Value, GasPrice: gp.Standard,
		Gas: gasFirstHop + gasNextHop*uint64(len(q.Route.Path)-2)}}
	if !req.DisableEstimate {
		if err := s.checkFunds(ctx, p); err != nil {
			return Built{}, err
		}
		est, err := n.Client.EstimateGas(ctx, ethereum.CallMsg{From: p.User, To: &call.To, Value: call.Value, Data: call.Data})
		if err != nil {
			return Built{}, callError(err, "swap")
		}
		b.Gas = withMargin(est)
	}
	return b, nil
}

// checkFunds refuses, with what to do, an ERC-20 swap the router could not
// take the input of: a router reverting in transferFrom says only that it
// failed. The native coin's balance the node's estimate checks itself.
func (s *Service) checkFunds(ctx context.Context, p Pair) error {
	if p.From.Address == NativeAddress {
		return nil
	}
	allowance, _ := erc20ABI.Pack("allowance", p.User, p.Network.Provider.Spender())
	balance, _ := erc20ABI.Pack("balanceOf", p.User)
	calls := []evm.CallElem{{To: p.From.Address, Data: allowance}, {To: p.From.Address, Data: balance}}
	if err := p.Network.Client.CallBatch(ctx, calls); err != nil {
		return apperr.Errorf(apperr.Unavailable, "The network's RPC upstream did not answer; retry later")
	}
	for _, c := range calls {
		if c.Err != nil || len(c.Result) != 32 {
			return fmt.Errorf("%s allowance/balanceOf: %v", p.From.Address.Hex(), c.Err)
		}
	}
	if have := new(big.Int).SetBytes(calls[1].Result); have.Cmp(p.Amount) < 0 {
		return apperr.Fieldf(apperr.Invalid, "amount", "Insufficient %s balance: %s held, %s to swap", p.From.Symbol, formatUnits(have, p.From.Decimals), formatUnits(p.Amount, p.From.Decimals))
	}
	if allowed := new(big.Int).SetBytes(calls[0].Result); allowed.Cmp(p.Amount) < 0 {
		return apperr.Fieldf(apperr.Invalid, "from", "Approve %s first: the router may take %s of the %s %s to swap", p.From.Symbol, formatUnits(allowed, p.From.Decimals), formatUnits(p.Amount, p.From.Decimals), p.From.Symbol)
	}
	return nil
}

// formatUnits renders v base units as a decimal of whole units.
func formatUnits(v *big.Int, decimals uint8) string {
	s := v.String()
	for len(s) <= int(decimals) {
		s = "0" + s
	}
	whole, frac := s[:len(s)-int(decimals)], strings.TrimRight(s[len(s)-int(decimals):], "0")
	if frac == "" {
		return whole
	}
	return whole + "." + frac
}

// withMargin adds a fifth to an estimate: state can change between the
// estimate and the block.
func withMargin(gas uint64) uint64 { return gas + gas/5 }

// callError turns a node's refusal (a revert, insufficient funds) into a
// message for the user and a transport failure into Unavailable.
func callError(err error, what string) error {
	var rerr rpc.Error
	if errors.As(err, &rerr) {
		msg := rerr.Error()
		if len(msg) > 200 {
			msg = msg[:200] + "…"
		}
		return apperr.Errorf(apperr.Invalid, "The %s would fail: %s", what, strings.ToValidUTF8(msg, "?"))
	}
	return apperr.Errorf(apperr.Unavailable, "The network's RPC upstream did not answer; retry later")
}
