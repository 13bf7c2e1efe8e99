package account

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"sort"
	"sync"
	"time"

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

// SolanaMovement is one change of an account's holdings in a transaction.
type SolanaMovement struct {
	Mint      string // "" for SOL
	Decimals  int
	Amount    *big.Int // positive
	Direction string   // in, out
	Sender    string
	Recipient string
}

// SolanaActivity is one transaction of an account's Solana history.
type SolanaActivity struct {
	Signature string
	Slot      uint64
	BlockTime int64
	FeePayer  string
	Failed    bool
	Movements []SolanaMovement
}

// SolanaHistoryPage is a page of a Solana account's history, newest first;
// Next is the cursor of the next page ("" at the end).
type SolanaHistoryPage struct {
	Network *network.Network
	Address solana.Address
	Items   []SolanaActivity
	Next    string
}

// transactionJSON is the part of getTransaction's "json" answer history reads.
type transactionJSON struct {
	Slot      uint64 `json:"slot"`
	BlockTime *int64 `json:"blockTime"`
	Meta      *struct {
		Err               json.RawMessage   `json:"err"`
		Fee               uint64            `json:"fee"`
		PreBalances       []uint64          `json:"preBalances"`
		PostBalances      []uint64          `json:"postBalances"`
		PreTokenBalances  []tokenBalanceRow `json:"preTokenBalances"`
		PostTokenBalances []tokenBalanceRow `json:"postTokenBalances"`
		LoadedAddresses   *struct {
			Writable []string `json:"writable"`
			Readonly []string `json:"readonly"`
		} `json:"loadedAddresses"`
	} `json:"meta"`
	Transaction struct {
		Message struct {
			AccountKeys []string `json:"accountKeys"`
		} `json:"message"`
	} `json:"transaction"`
}

type tokenBalanceRow struct {
	AccountIndex  int    `json:"accountIndex"`
	Mint          string `json:"mint"`
	Owner         string `json:"owner"`
	UITokenAmount struct {
		Amount   string `json:"amount"`
		Decimals int    `json:"decimals"`
	} `json:"uiTokenAmount"`
}

// solanaActivityTTL: a parsed transaction is cached this long; a confirmed
// transaction does not change.
const solanaActivityTTL = 24 * time.Hour

// SolanaHistory returns a page of addr's transactions on a solana network,
// newest first, before cursor (a signature; "" for the first page).
// Errors: apperr.Invalid for the network id or cursor, apperr.NotFound for
// an unknown network, apperr.Unavailable when the upstream fails.
func (s *Service) SolanaHistory(ctx context.Context, caipID string, addr solana.Address, cursor string, limit int, spend Spend) (SolanaHistoryPage, error) {
	n, client, err := s.solanaNetwork(caipID)
	if err != nil {
		return SolanaHistoryPage{}, err
	}
	if cursor != "" {
		if b, err := solanaSignature(cursor); err != nil || b == "" {
			return SolanaHistoryPage{}, apperr.Fieldf(apperr.Invalid, "cursor", "cursor %s is not a transaction signature", clip(cursor))
		}
	}
	if limit <= 0 {
		limit = DefaultHistoryLimit
	}
	limit = min(limit, MaxHistoryLimit)
	unavailable := apperr.Errorf(apperr.Unavailable, "History is unavailable for %s: the network's RPC upstream did not answer; retry later", caipID)
	opts := map[string]any{"commitment": "confirmed", "limit": limit}
	if cursor != "" {
		opts["before"] = cursor
	}
	sigs, err := solanaSignatures(ctx, client, addr, opts, limit)
	if err != nil {
		return SolanaHistoryPage{}, unavailable
	}
	page := SolanaHistoryPage{Network: n, Address: addr, Items: make([]SolanaActivity, len(sigs))}
	var calls []solana.Call
	var missing []int
	txs := make([]transactionJSON, len(sigs))
	for i, sg := range sigs {
		if raw, ok, err := s.cfg.Cache.Get(ctx, activityKey(caipID, sg.Signature, addr)); err == nil && ok && json.Unmarshal(raw, &page.Items[i]) == nil {
			continue
		}
		missing = append(missing, i)
		calls = append(calls, solana.Call{Method: "getTransaction", Params: []any{sg.Signature, map[string]any{"commitment": "confirmed", "encoding": "json", "maxSupportedTransactionVersion": 0}}, Result: &txs[i]})
	}
	if len(calls) > 0 {
		if spend != nil {
			if err := spend(ctx); err != nil {
				return SolanaHistoryPage{}, err
			}
		}
		if err := client.Batch(ctx, calls); err != nil {
			return SolanaHistoryPage{}, unavailable
		}
		for k, i := range missing {
			if calls[k].Err != nil || txs[i].Meta == nil {
				return SolanaHistoryPage{}, unavailable
			}
			page.Items[i] = solanaActivity(sigs[i].Signature, txs[i], addr.String())
			if raw, err := json.Marshal(page.Items[i]); err == nil {
				s.cfg.Cache.Set(ctx, activityKey(caipID, sigs[i].Signature, addr), raw, solanaActivityTTL)
			}
		}
	}
	if len(sigs) == limit {
		page.Next = sigs[len(sigs)-1].Signature
	}
	return page, nil
}

// signatureRow is one entry of getSignaturesForAddress.
type signatureRow struct {
	Signature string `json:"signature"`
	Slot      uint64 `json:"slot"`
}

// solanaSignatures lists the transactions of addr and of its token
// accounts, newest first, at most limit: a token transfer to an account
// names its token account, not the owner, so the owner's own list misses
// what it received. One batch finds the token accounts, one more reads
// every list; the cursor (before) is a signature each list is cut at.
func solanaSignatures(ctx context.Context, client *solana.Client, addr solana.Address, opts map[string]any, limit int) ([]signatureRow, error) {
	accounts := func() []solana.Call {
		base64 := map[string]any{"commitment": "confirmed", "encoding": "base64", "dataSlice": map[string]int{"offset": 0, "length": 0}}
		return []solana.Call{
			{Method: "getTokenAccountsByOwner", Params: []any{addr.String(), map[string]string{"programId": solana.TokenProgram.String()}, base64}, Result: new(pubkeyList)},
			{Method: "getTokenAccountsByOwner", Params: []any{addr.String(), map[string]string{"programId": solana.Token2022Program.String()}, base64}, Result: new(pubkeyList)},
		}
	}()
	own := make([]signatureRow, 0, limit)
	calls := append([]solana.Call{{Method: "getSignaturesForAddress", Params: []any{addr.String(), opts}, Result: &own}}, accounts...)
	if err := client.Batch(ctx, calls); err != nil {
		return nil, err
	}
	if calls[0].Err != nil {
		return nil, calls[0].Err
	}
	if calls[1].Err != nil {
		return nil, calls[1].Err
	}
	var tokenAccounts []string
	for _, c := range calls[1:] {
		if c.Err == nil { // a node without Token-2022 refuses its filter
			for _, v := range c.Result.(*pubkeyList).Value {
				tokenAccounts = append(tokenAccounts, v.Pubkey)
			}
		}
	}
	lists := [][]signatureRow{own}
	if len(tokenAccounts) > 0 {
		rows := make([][]signatureRow, len(tokenAccounts))
		calls = calls[:0]
		for i, ta := range tokenAccounts {
			calls = append(calls, solana.Call{Method: "getSignaturesForAddress", Params: []any{ta, opts}, Result: &rows[i]})
		}
		if err := client.Batch(ctx, calls); err != nil {
			return nil, err
		}
		for i, c := range calls {
			if c.Err != nil {
				return nil, c.Err
			}
			lists = append(lists, rows[i])
		}
	}
	seen := map[string]bool{}
	var out []signatureRow
	for _, l := range lists {
		for _, r := range l {
			if !seen[r.Signature] {
				seen[r.Signature] = true
				out = append(out, r)
			}
		}
	}
	// Newest first across the lists; within a slot, the order the lists gave.
	sort.SliceStable(out, func(i, j int) bool { return out[i].Slot > out[j].Slot })
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// pubkeyList is getTokenAccountsByOwner's answer, read for the accounts' addresses only.
type pubkeyList struct {
	Value []struct {
		Pubkey string `json:"pubkey"`
	} `json:"value"`
}

func activityKey(caipID, sig string, addr solana.Address) string {
	return "solana-activity:" + caipID + ":" + sig + ":" + addr.String()
}

// solanaSignature checks a base58 transaction signature (64 bytes).
func solanaSignature(s string) (string, error) {
	if len(s) < 64 || len(s) > 88 || !solana.IsBase58Address(s[:32]) {
		return "", fmt.Errorf("not a signature")
	}
	return s, nil
}

// solanaActivity turns a transaction's balance changes into addr's
// movements: its SOL change (the fee put back when addr paid it) and each
// token's change over the token accounts addr owns. The counterparty is the
// account whose change mirrors it most.
func solanaActivity(sig string, tx transactionJSON, addr string) SolanaActivity {
	keys := append([]string(nil), tx.Transaction.Message.AccountKeys...)
	if la := tx.Meta.LoadedAddresses; la != nil {
		keys = append(append(keys, la.Writable...), la.Readonly...)
	}
	a := SolanaActivity{Signature: sig, Slot: tx.Slot, Failed: len(tx.Meta.Err) > 0 && string(tx.Meta.Err) != "null"}
	if tx.BlockTime != nil {
		a.BlockTime = *tx.BlockTime
	}
	if len(keys) > 0 {
		a.FeePayer = keys[0]
	}
	// SOL: per account, post - pre, with the fee added back to the payer's.
	deltas := make([]*big.Int, len(keys))
	for i := range keys {
		d := new(big.Int)
		if i < len(tx.Meta.PreBalances) && i < len(tx.Meta.PostBalances) {
			d.SetUint64(tx.Meta.PostBalances[i])
			d.Sub(d, new(big.Int).SetUint64(tx.Meta.PreBalances[i]))
		}
		if i == 0 {
			d.Add(d, new(big.Int).SetUint64(tx.Meta.Fee))
		}
		deltas[i] = d
	}
	for i, k := range keys {
		if k != addr || deltas[i].Sign() == 0 {
			continue
		}
		a.Movements = append(a.Movements, movementOf("", 9, addr, deltas[i], keys, deltas))
	}
	// Tokens: per (owner, mint), post - pre over the owner's token accounts.
	type ownerMint struct{ owner, mint string }
	tokenDelta := map[ownerMint]*big.Int{}
	decimals := map[string]int{}
	var order []ownerMint
	apply := func(rows []tokenBalanceRow, sign int) {
		for _, r := range rows {
			amt, ok := new(big.Int).SetString(r.UITokenAmount.Amount, 10)
			if !ok {
				continue
			}
			k := ownerMint{r.Owner, r.Mint}
			if tokenDelta[k] == nil {
				tokenDelta[k] = new(big.Int)
				order = append(order, k)
			}
			if sign > 0 {
				tokenDelta[k].Add(tokenDelta[k], amt)
			} else {
				tokenDelta[k].Sub(tokenDelta[k], amt)
			}
			decimals[r.Mint] = r.UITokenAmount.Decimals
		}
	}
	apply(tx.Meta.PreTokenBalances, -1)
	apply(tx.Meta.PostTokenBalances, +1)
	for _, k := range order {
		if k.owner != addr || tokenDelta[k].Sign() == 0 {
			continue
		}
		var others []string
		var otherDeltas []*big.Int
		for _, o := range order {
			if o.mint == k.mint && o.owner != addr {
				others, otherDeltas = append(others, o.owner), append(otherDeltas, tokenDelta[o])
			}
		}
		a.Movements = append(a.Movements, movementOf(k.mint, decimals[k.mint], addr, tokenDelta[k], others, otherDeltas))
	}
	return a
}

// movementOf is addr's change d as a movement, with the counterparty taken
// from the other accounts' changes (the largest opposite one).
func movementOf(mint string, decimals int, addr string, d *big.Int, keys []string, deltas []*big.Int) SolanaMovement {
	m := SolanaMovement{Mint: mint, Decimals: decimals, Amount: new(big.Int).Abs(d)}
	var best *big.Int
	other := ""
	for i, k := range keys {
		if k == addr || deltas[i].Sign() == 0 || deltas[i].Sign() == d.Sign() {
			continue
		}
		if a := new(big.Int).Abs(deltas[i]); best == nil || a.Cmp(best) > 0 {
			best, other = a, k
		}
	}
	if d.Sign() < 0 {
		m.Direction, m.Sender, m.Recipient = "out", addr, other
	} else {
		m.Direction, m.Sender, m.Recipient = "in", other, addr
	}
	return m
}

// solanaOperation is the history's operationType of an activity.
func solanaOperation(a SolanaActivity) string {
	var in, out bool
	for _, m := range a.Movements {
		in, out = in || m.Direction == "in", out || m.Direction == "out"
	}
	switch {
	case in && out:
		return "trade"
	case out:
		return "send"
	case in:
		return "receive"
	}
	return "execute"
}
