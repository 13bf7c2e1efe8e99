package account

import (
	"context"
	"encoding/json"
	"math/big"
	"sort"
	"sync"

	"github.com/ethereum/go-ethereum/common"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/caip"
	"github.com/latchkit/latch/internal/network"
	"github.com/latchkit/latch/internal/solana"
)

// Solana balances are read in one JSON-RPC batch (getBalance and
// getTokenAccountsByOwner for the token program and Token-2022, parsed), and
// history from getSignaturesForAddress and getTransaction, whose balance
// changes (pre/post lamports and token balances) become the same transfers
// the EVM history shows. Reads use confirmed commitment: what a wallet shows
// right after a transaction confirms.

// SolanaToken is an SPL token latchd knows by its mint: its symbol and name
// (on-chain metadata is not read), and the EVM feed that prices it, if any.
type SolanaToken struct {
	Symbol   string
	Name     string
	Decimals int
	// PriceChain and PriceToken name a Chainlink-compatible feed's asset on an
	// EVM network (the same asset, such as USDC) that prices this token; a
	// zero PriceChain: no price.
	PriceChain uint64
	PriceToken common.Address
}

// SolanaNetworkConfig is what account data knows of one solana network.
type SolanaNetworkConfig struct {
	// Tokens are the known mints (base58) of the network.
	Tokens map[string]SolanaToken
	// NativePrice prices SOL through an EVM feed: PriceChain (0: none) and PriceToken.
	NativePriceChain uint64
	NativePriceToken common.Address
}

// solanaClients holds one Solana RPC client per network, made on first use.
type solanaClients struct {
	mu      sync.Mutex
	clients map[string]*solana.Client
	urls    map[string][]string
}

func (c *solanaClients) get(networks *network.Registry, caipID string) *solana.Client {
	urls := networks.Upstreams(caipID)
	if len(urls) == 0 {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if cl, ok := c.clients[caipID]; ok && equalURLs(c.urls[caipID], urls) {
		return cl
	}
	cl, err := solana.NewClient(urls, nil)
	if err != nil {
		return nil
	}
	if c.clients == nil {
		c.clients, c.urls = map[string]*solana.Client{}, map[string][]string{}
	}
	c.clients[caipID], c.urls[caipID] = cl, urls
	return cl
}

func equalURLs(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// solanaNetwork resolves a CAIP-2 id to a known solana network and its
// client. Errors: apperr.Invalid for a malformed or non-solana id,
// apperr.NotFound for an unknown network or one without an upstream.
func (s *Service) solanaNetwork(caipID string) (*network.Network, *solana.Client, error) {
	if caipID == "" {
		return nil, nil, apperr.Fieldf(apperr.Invalid, "chainId", "chainId is required (a CAIP-2 network id such as solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp)")
	}
	c, err := caip.ParseChainID(caipID)
	if err != nil {
		return nil, nil, apperr.Fieldf(apperr.Invalid, "chainId", "%s", err.Error())
	}
	if c.Namespace != "solana" {
		return nil, nil, apperr.Fieldf(apperr.Invalid, "chainId", "%s is not a solana network", caipID)
	}
	n := s.cfg.Networks.Get(caipID)
	if n == nil {
		return nil, nil, apperr.Fieldf(apperr.NotFound, "chainId", "Unknown network %s", caipID)
	}
	client := s.sol.get(s.cfg.Networks, caipID)
	if client == nil {
		return nil, nil, apperr.Fieldf(apperr.NotFound, "chainId", "No RPC upstream for %s; account data needs one (--rpc-upstream)", caipID)
	}
	return n, client, nil
}

// SolanaBalance is one asset a Solana account holds.
type SolanaBalance struct {
	Mint     string // "" for SOL
	Symbol   string
	Name     string
	Decimals int
	Amount   *big.Int
	Price    *float64 // USD per whole unit; nil when no feed prices it
}

// cachedSolanaBalances is the balance cache's value: lamports and each mint's amount and decimals.
type cachedSolanaBalances struct {
	Lamports uint64                 `json:"l"`
	Tokens   map[string]cachedToken `json:"t"`
}

type cachedToken struct {
	Amount   string `json:"a"`
	Decimals int    `json:"d"`
}

// tokenAccounts is getTokenAccountsByOwner's answer with jsonParsed encoding.
type tokenAccounts struct {
	Value []struct {
		Account struct {
			Data struct {
				Parsed struct {
					Info struct {
						Mint        string `json:"mint"`
						TokenAmount struct {
							Amount   string `json:"amount"`
							Decimals int    `json:"decimals"`
						} `json:"tokenAmount"`
					} `json:"info"`
				} `json:"parsed"`
			} `json:"data"`
		} `json:"account"`
	} `json:"value"`
}

// SolanaBalances returns what addr holds on a solana network: SOL, then
// its SPL tokens (both token programs) by USD value and symbol. Zero
// balances and tokens with no decimals (spec §5: NFTs) are left out. A read
// is cached BalanceTTL per network and address; force reads again.
//
// Errors: apperr.Invalid / NotFound for the network (see solanaNetwork),
// apperr.Unavailable when the upstream fails, and what spend returns.
func (s *Service) SolanaBalances(ctx context.Context, caipID string, addr solana.Address, force bool, spend Spend) ([]SolanaBalance, error) {
	n, client, err := s.solanaNetwork(caipID)
	if err != nil {
		return nil, err
	}
	key := "balance:" + caipID + ":" + addr.String()
	var cached *cachedSolanaBalances
	if !force {
		if raw, ok, err := s.cfg.Cache.Get(ctx, key); err == nil && ok {
			var c cachedSolanaBalances
			if json.Unmarshal(raw, &c) == nil {
				cached = &c
			}
		}
	}
	if cached == nil {
		if spend != nil {
			if err := spend(ctx); err != nil {
				return nil, err
			}
		}
		cached, err = readSolanaBalances(ctx, client, addr)
		if err != nil {
			return nil, apperr.Errorf(apperr.Unavailable, "Balances are unavailable for %s: the network's RPC upstream did not answer; retry later", caipID)
		}
		if raw, err := json.Marshal(cached); err == nil {
			s.cfg.Cache.Set(ctx, key, raw, BalanceTTL)
		}
	}

	known := s.cfg.Solana[caipID]
	var out []SolanaBalance
	if cached.Lamports > 0 {
		out = append(out, SolanaBalance{Symbol: n.NativeCurrency.Symbol, Name: n.NativeCurrency.Name, Decimals: n.NativeCurrency.Decimals, Amount: new(big.Int).SetUint64(cached.Lamports)})
		out[0].Price = s.priceVia(ctx, known.NativePriceChain, known.NativePriceToken)
	}
	for mint, t := range cached.Tokens {
		amount, ok := new(big.Int).SetString(t.Amount, 10)
		// Spec §5: tokens with decimals '0' are not balances the widget shows.
		if !ok || amount.Sign() <= 0 || t.Decimals <= 0 {
			continue
		}
		b := SolanaBalance{Mint: mint, Decimals: t.Decimals, Amount: amount}
		if tok, ok := known.Tokens[mint]; ok {
			b.Symbol, b.Name = tok.Symbol, tok.Name
			b.Price = s.priceVia(ctx, tok.PriceChain, tok.PriceToken)
		} else {
			b.Symbol = shortMint(mint)
			b.Name = b.Symbol
		}
		out = append(out, b)
	}
	sortSolanaBalances(out)
	return out, nil
}

// priceVia is the USD price of an EVM feed's asset, or nil.
func (s *Service) priceVia(ctx context.Context, chainID uint64, token common.Address) *float64 {
	if chainID == 0 || s.cfg.Prices == nil {
		return nil
	}
	if p, ok := s.cfg.Prices.Price(ctx, chainID, token); ok {
		return &p
	}
	return nil
}

func readSolanaBalances(ctx context.Context, client *solana.Client, addr solana.Address) (*cachedSolanaBalances, error) {
	opts := map[string]string{"commitment": "confirmed"}
	parsed := map[string]string{"commitment": "confirmed", "encoding": "jsonParsed"}
	var lamports struct {
		Value solana.Lamports `json:"value"`
	}
	var classic, t22 tokenAccounts
	calls := []solana.Call{
		{Method: "getBalance", Params: []any{addr.String(), opts}, Result: &lamports},
		{Method: "getTokenAccountsByOwner", Params: []any{addr.String(), map[string]string{"programId": solana.TokenProgram.String()}, parsed}, Result: &classic},
		{Method: "getTokenAccountsByOwner", Params: []any{addr.String(), map[string]string{"programId": solana.Token2022Program.String()}, parsed}, Result: &t22},
	}
	if err := client.Batch(ctx, calls); err != nil {
		return nil, err
	}
	for _, c := range calls[:2] {
		if c.Err != nil {
			return nil, c.Err
		}
	}
	out := &cachedSolanaBalances{Lamports: uint64(lamports.Value), Tokens: map[string]cachedToken{}}
	add := func(ta tokenAccounts) {
		for _, v := range ta.Value {
			info := v.Account.Data.Parsed.Info
			amount, ok := new(big.Int).SetString(info.TokenAmount.Amount, 10)
			if !ok || info.Mint == "" {
				continue
			}
			prev := out.Tokens[info.Mint]
			sum, _ := new(big.Int).SetString(prev.Amount, 10)
			if sum == nil {
				sum = new(big.Int)
			}
			out.Tokens[info.Mint] = cachedToken{Amount: sum.Add(sum, amount).String(), Decimals: info.TokenAmount.Decimals}
		}
	}
	add(classic)
	// A node without Token-2022 answers an error for that filter; the classic tokens still count.
	if calls[2].Err == nil {
		add(t22)
	}
	return out, nil
}

// sortSolanaBalances: SOL first, then by USD value, then by symbol.
func sortSolanaBalances(b []SolanaBalance) {
	value := func(t SolanaBalance) float64 {
		if t.Price == nil {
			return -1
		}
		return unitsFloat(t.Amount, t.Decimals) * *t.Price
	}
	sort.SliceStable(b, func(i, j int) bool {
		if (b[i].Mint == "") != (b[j].Mint == "") {
			return b[i].Mint == ""
		}
		if vi, vj := value(b[i]), value(b[j]); vi != vj {
			return vi > vj
		}
		if b[i].Symbol != b[j].Symbol {
			return b[i].Symbol < b[j].Symbol
		}
		return b[i].Mint < b[j].Mint
	})
}

// shortMint is the display form of an unknown mint (spec §9: 4 leading and 6 trailing characters).
func shortMint(m string) string {
	if len(m) <= 10 {
		return m
	}
	return m[:4] + "…" + m[len(m)-6:]
}
