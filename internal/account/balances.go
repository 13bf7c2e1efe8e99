package account

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"sort"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/latchkit/latch/contracts"
	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/evm"
	"github.com/latchkit/latch/internal/indexer"
	"github.com/latchkit/latch/internal/network"
)

var (
	multicallABI = contracts.MustLoad("Multicall3").ABI
	erc20ABI     = contracts.MustLoad("DevToken").ABI
)

// TokenBalance is one asset an account holds.
type TokenBalance struct {
	Token  *indexer.Token // nil for the native coin
	Amount *big.Int       // base units
	Price  *float64       // USD per whole unit; nil when no feed prices it
}

// maxForceUpdate bounds the tokens one balance request may add.
const maxForceUpdate = 20

// cachedBalances is what the balance cache holds: the amounts read, by
// token address ("" for the coin). Prices are applied when answering.
type cachedBalances struct {
	Amounts map[string]string `json:"a"`
}

// Balances returns what addr holds on a network: the coin, the network's
// listed tokens, the tokens the indexer saw it receive and the force tokens
// (Native stands for the coin), read in one Multicall3 call. Zero balances
// and tokens with no decimals are left out; the coin comes first, then by USD
// value and symbol. A read is cached BalanceTTL per network and address;
// force reads the chain again.
//
// Errors: apperr.Invalid / NotFound for the network (see evmNetwork),
// apperr.NotFound when it has no RPC upstream, apperr.Unavailable when the
// upstream fails, and what spend returns.
func (s *Service) Balances(ctx context.Context, caipID string, addr common.Address, force []common.Address, spend Spend) ([]TokenBalance, error) {
	n, chainID, err := s.evmNetwork(caipID)
	if err != nil {
		return nil, err
	}
	client := s.cfg.Clients.For(caipID)
	if client == nil {
		return nil, apperr.Fieldf(apperr.NotFound, "chainId", "No RPC upstream for %s; balances need one (--rpc-upstream)", caipID)
	}
	if len(force) > maxForceUpdate {
		return nil, apperr.Fieldf(apperr.Invalid, "forceUpdate", "forceUpdate names more than %d tokens", maxForceUpdate)
	}
	key := "balance:" + caipID + ":" + strings.ToLower(addr.Hex())
	var amounts map[common.Address]*big.Int
	if len(force) == 0 {
		if raw, ok, err := s.cfg.Cache.Get(ctx, key); err == nil && ok {
			amounts, _ = decodeBalances(raw)
		}
	}
	if amounts == nil {
		if spend != nil {
			if err := spend(ctx); err != nil {
				return nil, err
			}
		}
		amounts, err = s.readBalances(ctx, n, chainID, client, addr, force)
		if err != nil {
			return nil, err
		}
		if raw, err := encodeBalances(amounts); err == nil {
			s.cfg.Cache.Set(ctx, key, raw, BalanceTTL)
		}
	}

	want := map[common.Address]int{}
	for t, a := range amounts {
		if t != Native && a.Sign() > 0 {
			want[t] = 20
		}
	}
	meta, err := s.cfg.Tokens.Resolve(ctx, client, chainID, want)
	if err != nil {
		return nil, apperr.Errorf(apperr.Unavailable, "Token metadata is unavailable for %s; retry later", caipID)
	}
	var out []TokenBalance
	var priced []common.Address
	for t, a := range amounts {
		if a.Sign() <= 0 {
			continue
		}
		if t == Native {
			out = append(out, TokenBalance{Amount: a})
			priced = append(priced, Native)
			continue
		}
		tok, ok := meta[t]
		// Spec §5: tokens with decimals '0' are not balances the widget
		// shows (NFTs, points); unknown decimals cannot be rendered either.
		if !ok || tok.Decimals <= 0 || tok.Standard != 20 {
			continue
		}
		out = append(out, TokenBalance{Token: &tok, Amount: a})
		priced = append(priced, t)
	}
	if s.cfg.Prices != nil && len(priced) > 0 {
		prices, _ := s.cfg.Prices.Prices(ctx, chainID, priced, nil)
		for i := range out {
			k := Native
			if out[i].Token != nil {
				k = out[i].Token.Address
			}
			if p, ok := prices[k]; ok {
				out[i].Price = &p
			}
		}
	}
	sortBalances(out, n)
	return out, nil
}

// sortBalances: the coin first, then by USD value, then by symbol.
func sortBalances(b []TokenBalance, n *network.Network) {
	value := func(t TokenBalance) float64 {
		if t.Price == nil {
			return -1
		}
		d := n.NativeCurrency.Decimals
		if t.Token != nil {
			d = t.Token.Decimals
		}
		return unitsFloat(t.Amount, d) * *t.Price
	}
	sort.SliceStable(b, func(i, j int) bool {
		if (b[i].Token == nil) != (b[j].Token == nil) {
			return b[i].Token == nil
		}
		vi, vj := value(b[i]), value(b[j])
		if vi != vj {
			return vi > vj
		}
		if b[i].Token != nil && b[j].Token != nil {
			return b[i].Token.Symbol < b[j].Token.Symbol
		}
		return false
	})
}

// readBalances reads the coin and every token balance of addr at the
// latest block.
func (s *Service) readBalances(ctx context.Context, n *network.Network, chainID uint64, client *evm.Client, addr common.Address, force []common.Address) (map[common.Address]*big.Int, error) {
	seen := map[common.Address]bool{}
	var tokens []common.Address
	add := func(t common.Address) {
		if t != Native && !seen[t] {
			seen[t] = true
			tokens = append(tokens, t)
		}
	}
	for _, t := range s.cfg.Tokens.Listed(chainID) {
		add(t.Address)
	}
	if s.cfg.Indexer != nil && s.cfg.Indexer.Follows(chainID) {
		received, err := s.cfg.Store.AccountTokens(ctx, chainID, addr)
		if err != nil {
			return nil, err
		}
		for _, t := range received {
			add(t)
		}
	}
	for _, t := range force {
		add(t)
	}
	sort.Slice(tokens, func(i, j int) bool { return tokens[i].Cmp(tokens[j]) < 0 })

	var amounts map[common.Address]*big.Int
	var err error
	if n.Multicall3 != nil && common.IsHexAddress(*n.Multicall3) {
		amounts, err = multicallBalances(ctx, client, common.HexToAddress(*n.Multicall3), addr, tokens)
	} else {
		amounts, err = batchBalances(ctx, client, addr, tokens)
	}
	if err != nil {
		return nil, apperr.Errorf(apperr.Unavailable, "Balances are unavailable for %s: the network's RPC upstream did not answer; retry later", n.CAIPNetworkID)
	}
	return amounts, nil
}

// call3 and result3 are Multicall3's Call3 and Result tuples.
type call3 struct {
	Target       common.Address
	AllowFailure bool
	CallData     []byte
}

type result3 struct {
	Success    bool
	ReturnData []byte
}

// multicallBalances reads everything with one aggregate3 eth_call; a token
// whose balanceOf fails (not a token, self-destructed) is left out.
func multicallBalances(ctx context.Context, client *evm.Client, mc, addr common.Address, tokens []common.Address) (map[common.Address]*big.Int, error) {
	getEth, _ := multicallABI.Pack("getEthBalance", addr)
	balanceOf, _ := erc20ABI.Pack("balanceOf", addr)
	calls := []call3{{Target: mc, AllowFailure: true, CallData: getEth}}
	for _, t := range tokens {
		calls = append(calls, call3{Target: t, AllowFailure: true, CallData: balanceOf})
	}
	data, err := multicallABI.Pack("aggregate3", calls)
	if err != nil {
		return nil, err
	}
	raw, err := client.CallContract(ctx, mc, data)
	if err != nil {
		return nil, err
	}
	vals, err := multicallABI.Unpack("aggregate3", raw)
	if err != nil || len(vals) != 1 {
		return nil, fmt.Errorf("aggregate3: %v", err)
	}
	results := *abi.ConvertType(vals[0], new([]result3)).(*[]result3)
	if len(results) != len(calls) {
		return nil, fmt.Errorf("aggregate3: %d results for %d calls", len(results), len(calls))
	}
	out := map[common.Address]*big.Int{}
	for i, r := range results {
		if !r.Success || len(r.ReturnData) != 32 {
			continue
		}
		key := Native
		if i > 0 {
			key = tokens[i-1]
		}
		out[key] = new(big.Int).SetBytes(r.ReturnData)
	}
	if _, ok := out[Native]; !ok {
		return nil, fmt.Errorf("aggregate3: getEthBalance failed")
	}
	return out, nil
}

// batchBalances is the fallback for networks without Multicall3: one
// JSON-RPC batch of eth_getBalance and balanceOf calls.
func batchBalances(ctx context.Context, client *evm.Client, addr common.Address, tokens []common.Address) (map[common.Address]*big.Int, error) {
	balanceOf, _ := erc20ABI.Pack("balanceOf", addr)
	var native hexutil.Big
	results := make([]hexutil.Bytes, len(tokens))
	elems := []rpc.BatchElem{{Method: "eth_getBalance", Args: []any{addr, "latest"}, Result: &native}}
	for i, t := range tokens {
		elems = append(elems, rpc.BatchElem{Method: "eth_call", Args: []any{map[string]any{"to": t, "data": hexutil.Bytes(balanceOf)}, "latest"}, Result: &results[i]})
	}
	if err := client.Batch(ctx, elems); err != nil {
		return nil, err
	}
	if elems[0].Error != nil {
		return nil, elems[0].Error
	}
	out := map[common.Address]*big.Int{Native: native.ToInt()}
	for i, t := range tokens {
		if elems[i+1].Error == nil && len(results[i]) == 32 {
			out[t] = new(big.Int).SetBytes(results[i])
		}
	}
	return out, nil
}

func encodeBalances(m map[common.Address]*big.Int) ([]byte, error) {
	c := cachedBalances{Amounts: map[string]string{}}
	for t, a := range m {
		k := ""
		if t != Native {
			k = t.Hex()
		}
		c.Amounts[k] = a.String()
	}
	return json.Marshal(c)
}

func decodeBalances(raw []byte) (map[common.Address]*big.Int, error) {
	var c cachedBalances
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, err
	}
	out := map[common.Address]*big.Int{}
	for k, v := range c.Amounts {
		a, ok := new(big.Int).SetString(v, 10)
		if !ok {
			return nil, fmt.Errorf("cached amount %q", v)
		}
		t := Native
		if k != "" {
			t = common.HexToAddress(k)
		}
		out[t] = a
	}
	return out, nil
}
