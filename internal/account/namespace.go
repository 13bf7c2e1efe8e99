package account

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/caip"
	"github.com/latchkit/latch/internal/httpx"
	"github.com/latchkit/latch/internal/solana"
)

// namespaceHandlers are the balance and history handlers of one CAIP-2
// namespace: the account routes take any namespace's address and network,
// and the chainId query says whose handlers answer.
type namespaceHandlers struct {
	balance, history func(*Handler, http.ResponseWriter, *http.Request)
}

// byNamespace lists the namespaces with account data. eip155 also answers
// requests whose chainId is missing or malformed (its errors say what is
// wanted), as before Solana had account data.
var byNamespace = map[string]namespaceHandlers{
	caip.EIP155: {balance: (*Handler).evmBalance, history: (*Handler).evmHistory},
	"solana":    {balance: (*Handler).solanaBalance, history: (*Handler).solanaHistory},
}

func handlersFor(r *http.Request) namespaceHandlers {
	if c, err := caip.ParseChainID(r.URL.Query().Get("chainId")); err == nil {
		if h, ok := byNamespace[c.Namespace]; ok {
			return h
		}
	}
	return byNamespace[caip.EIP155]
}

// Balance serves GET /v1/account/{address}/balance for the namespace of its chainId.
func (h *Handler) Balance(w http.ResponseWriter, r *http.Request) {
	handlersFor(r).balance(h, w, r)
}

// History serves GET /v1/account/{address}/history (and
// /v1/account/history, where the mux cleans an empty address to) for the
// namespace of its chainId: a page of the account's transactions. The
// handlers run behind the project guard.
func (h *Handler) History(w http.ResponseWriter, r *http.Request) {
	if isMissingAddress(r.PathValue("address")) {
		httpx.Error(w, r, apperr.Fieldf(apperr.Invalid, "address", "Transactions can't be fetched without an accountAddress"))
		return
	}
	handlersFor(r).history(h, w, r)
}

// solanaBalance serves the balance route for a solana network, in the same
// wire shape as EVM balances (a token's address is its CAIP-10 mint).
// forceUpdate (CAIP-10 mints of this network) reads the chain again.
func (h *Handler) solanaBalance(w http.ResponseWriter, r *http.Request) {
	addr, err := solana.ParseAddress("address", r.PathValue("address"))
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	if err := checkCurrency(r.URL.Query().Get("currency")); err != nil {
		httpx.Error(w, r, err)
		return
	}
	chainID, err := query(r, "chainId", 64)
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	forceRaw, err := query(r, "forceUpdate", 4096)
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	force := false
	if forceRaw != "" {
		for _, s := range strings.Split(forceRaw, ",") {
			s = strings.TrimSpace(s)
			mint, ok := strings.CutPrefix(s, chainID+":")
			if !ok {
				httpx.Error(w, r, apperr.Fieldf(apperr.Invalid, "forceUpdate", "forceUpdate token %s is not on chainId %s", clip(s), clip(chainID)))
				return
			}
			if _, err := solana.ParseAddress("forceUpdate", mint); err != nil {
				httpx.Error(w, r, err)
				return
			}
			force = true
		}
	}
	balances, err := h.svc.SolanaBalances(r.Context(), chainID, addr, force, h.spend(r))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	icon := h.icons(r)
	out := balanceResponse{Balances: make([]balanceItem, 0, len(balances))}
	for _, b := range balances {
		it := balanceItem{Name: b.Name, Symbol: b.Symbol, ChainID: chainID}
		if b.Mint != "" {
			it.Address = chainID + ":" + b.Mint
		}
		it.Quantity.Decimals = strconv.Itoa(b.Decimals)
		it.Quantity.Numeric = formatUnits(b.Amount, b.Decimals)
		if b.Price != nil {
			it.Price = *b.Price
			v := fiat(unitsFloat(b.Amount, b.Decimals) * *b.Price)
			it.Value = &v
		}
		it.IconURL = icon(it.Symbol)
		out.Balances = append(out.Balances, it)
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, r, out)
}

// solanaHistory serves the history route for a solana network in the EVM
// history's shapes: a transaction's id and hash are its signature, nonce is
// 0 (Solana has none), and the cursor is the signature to continue before.
func (h *Handler) solanaHistory(w http.ResponseWriter, r *http.Request) {
	addr, err := solana.ParseAddress("address", r.PathValue("address"))
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	chainID, err := query(r, "chainId", 64)
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	cursor, err := query(r, "cursor", 128)
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	limit := 0
	if s := r.URL.Query().Get("limit"); s != "" {
		if limit, err = strconv.Atoi(s); err != nil || limit < 1 || limit > MaxHistoryLimit {
			httpx.Error(w, r, apperr.Fieldf(apperr.Invalid, "limit", "limit must be a whole number from 1 to %d", MaxHistoryLimit))
			return
		}
	}
	page, err := h.svc.SolanaHistory(r.Context(), chainID, addr, cursor, limit, h.spend(r))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, r, h.renderSolanaHistory(r, page))
}

func (h *Handler) renderSolanaHistory(r *http.Request, p SolanaHistoryPage) historyResponse {
	icon := h.icons(r)
	caipID := p.Network.CAIPNetworkID
	known := h.svc.cfg.Solana[caipID]
	native := p.Network.NativeCurrency
	out := historyResponse{Data: make([]historyItem, 0, len(p.Items))}
	if p.Next != "" {
		next := p.Next
		out.Next = &next
	}
	for _, a := range p.Items {
		item := historyItem{
			ID: a.Signature,
			Metadata: historyMetadata{
				OperationType: solanaOperation(a),
				Hash:          a.Signature,
				Chain:         caipID,
				MinedAt:       unixUTC(a.BlockTime),
				SentFrom:      a.FeePayer,
				Status:        "confirmed",
			},
			Transfers: []historyTransfer{},
		}
		if a.Failed {
			item.Metadata.Status = "failed"
		}
		for _, m := range a.Movements {
			if item.Metadata.SentTo == "" && m.Direction == "out" {
				item.Metadata.SentTo = m.Recipient
			}
			t := historyTransfer{Direction: m.Direction, Sender: m.Sender, Recipient: m.Recipient}
			var price *float64
			if m.Mint == "" {
				t.FungibleInfo = &fungibleInfo{Name: native.Name, Symbol: native.Symbol, Icon: iconInfo{icon(native.Symbol)}}
				price = h.svc.priceVia(r.Context(), known.NativePriceChain, known.NativePriceToken)
			} else {
				fi := fungibleInfo{Address: caipID + ":" + m.Mint}
				if tok, ok := known.Tokens[m.Mint]; ok {
					fi.Name, fi.Symbol = tok.Name, tok.Symbol
					price = h.svc.priceVia(r.Context(), tok.PriceChain, tok.PriceToken)
				} else {
					fi.Symbol = shortMint(m.Mint)
					fi.Name = fi.Symbol
				}
				fi.Icon.URL = icon(fi.Symbol)
				t.FungibleInfo = &fi
			}
			t.Quantity = numeric{formatUnits(m.Amount, m.Decimals)}
			if price != nil {
				p := *price
				v := fiat(unitsFloat(m.Amount, m.Decimals) * p)
				t.Price, t.Value = &p, &v
			}
			item.Transfers = append(item.Transfers, t)
		}
		if item.Metadata.SentTo == "" && len(a.Movements) > 0 {
			item.Metadata.SentTo = a.Movements[0].Recipient
		}
		out.Data = append(out.Data, item)
	}
	return out
}

// unixUTC renders a block time as the history's minedAt.
func unixUTC(sec int64) string {
	return time.Unix(sec, 0).UTC().Format("2006-01-02T15:04:05Z")
}
