package account

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"sort"
	"time"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/network"
	"github.com/latchkit/latch/internal/solana"
)

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
	sigs, err := s.solanaSignatures(ctx, caipID, client, addr, opts, limit)
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
// what it received. The token accounts are looked up with the owner's list
// and kept BalanceTTL (as balances are); then one batch reads their lists.
// The cursor (before) is a signature each list is cut at.
func (s *Service) solanaSignatures(ctx context.Context, caipID string, client *solana.Client, addr solana.Address, opts map[string]any, limit int) ([]signatureRow, error) {
	key := "solana-token-accounts:" + caipID + ":" + addr.String()
	var tokenAccounts []string
	cached := false
	if raw, ok, err := s.cfg.Cache.Get(ctx, key); err == nil && ok && json.Unmarshal(raw, &tokenAccounts) == nil {
		cached = true
	}
	own := make([]signatureRow, 0, limit)
	calls := []solana.Call{{Method: "getSignaturesForAddress", Params: []any{addr.String(), opts}, Result: &own}}
	if !cached {
		base64 := map[string]any{"commitment": "confirmed", "encoding": "base64", "dataSlice": map[string]int{"offset": 0, "length": 0}}
		calls = append(calls,
			solana.Call{Method: "getTokenAccountsByOwner", Params: []any{addr.String(), map[string]string{"programId": solana.TokenProgram.String()}, base64}, Result: new(pubkeyList)},
			solana.Call{Method: "getTokenAccountsByOwner", Params: []any{addr.String(), map[string]string{"programId": solana.Token2022Program.String()}, base64}, Result: new(pubkeyList)},
		)
	}
	rows := make([][]signatureRow, len(tokenAccounts))
	for i, ta := range tokenAccounts {
		calls = append(calls, solana.Call{Method: "getSignaturesForAddress", Params: []any{ta, opts}, Result: &rows[i]})
	}
	if err := client.Batch(ctx, calls); err != nil {
		return nil, err
	}
	if calls[0].Err != nil {
		return nil, calls[0].Err
	}
	lists := [][]signatureRow{own}
	if cached {
		for i, c := range calls[1:] {
			if c.Err != nil {
				return nil, c.Err
			}
			lists = append(lists, rows[i])
		}
	} else {
		if calls[1].Err != nil {
			return nil, calls[1].Err
		}
		for _, c := range calls[1:3] {
			if c.Err == nil { // a node without Token-2022 refuses its filter
				for _, v := range c.Result.(*pubkeyList).Value {
					tokenAccounts = append(tokenAccounts, v.Pubkey)
				}
			}
		}
		if raw, err := json.Marshal(tokenAccounts); err == nil {
			s.cfg.Cache.Set(ctx, key, raw, BalanceTTL)
		}
		if len(tokenAccounts) > 0 {
			rows = make([][]signatureRow, len(tokenAccounts))
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
