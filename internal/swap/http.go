package swap

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/httpx"
)

// maxBuildBody bounds a build-transaction request body.
const maxBuildBody = 8 << 10

// maxParam bounds a query parameter (a CAIP-10 address is under 100 bytes).
const maxParam = 128

// Handler serves the convert routes (api-shapes §3.4) behind the project guard.
type Handler struct {
	svc *Service
	// logo gives a token's logo URL for a request.
	logo func(r *http.Request, symbol string) string
	// limit spends one unit of the client's budget and reports when to
	// retry once it is used up; nil: no limit.
	limit func(*http.Request) (retryAfter time.Duration, ok bool)
}

// NewHandler returns the handlers of svc. logo builds a token's logo URL;
// limit (may be nil) is consulted before every request that reads a chain.
func NewHandler(svc *Service, logo func(r *http.Request, symbol string) string, limit func(*http.Request) (time.Duration, bool)) *Handler {
	return &Handler{svc: svc, logo: logo, limit: limit}
}

// spend charges the request to the client's budget, answering 429 when it
// is used up.
func (h *Handler) spend(w http.ResponseWriter, r *http.Request) bool {
	if h.limit == nil {
		return true
	}
	if retry, ok := h.limit(r); !ok {
		httpx.RateLimited(w, r, retry, "swap requests per IP")
		return false
	}
	return true
}

// params reads bounded query parameters.
func params(r *http.Request, names ...string) ([]string, error) {
	out := make([]string, len(names))
	for i, n := range names {
		v, err := httpx.Query(r, n, maxParam)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

func caip10(n *Network, a common.Address) string { return n.ID + ":" + a.Hex() }

func respond(w http.ResponseWriter, v any) {
	w.Header().Set("Cache-Control", "no-store")
	httpx.JSON(w, http.StatusOK, v)
}

// Wire shapes (api-shapes §3.4).
type (
	tokenJSON struct {
		Name     string `json:"name"`
		Symbol   string `json:"symbol"`
		Address  string `json:"address"`
		Decimals uint8  `json:"decimals"`
		LogoURI  string `json:"logoUri"`
		EIP2612  bool   `json:"eip2612"`
	}
	quoteJSON struct {
		ID          *string  `json:"id"`
		FromAmount  string   `json:"fromAmount"`
		FromAccount string   `json:"fromAccount"`
		ToAmount    string   `json:"toAmount"`
		ToAccount   string   `json:"toAccount"`
		Path        []string `json:"path"`
		PriceImpact float64  `json:"priceImpact"`
	}
	approveTxJSON struct {
		From   string `json:"from"`
		To     string `json:"to"`
		Data   string `json:"data"`
		Value  string `json:"value"`
		EIP155 struct {
			Gas      uint64 `json:"gas"`
			GasPrice string `json:"gasPrice"`
		} `json:"eip155"`
	}
	swapTxJSON struct {
		From   string `json:"from"`
		To     string `json:"to"`
		Data   string `json:"data"`
		Amount string `json:"amount"`
		EIP155 struct {
			Gas      string `json:"gas"`
			GasPrice string `json:"gasPrice"`
		} `json:"eip155"`
	}
)

// Tokens serves GET /v1/convert/tokens?chainId=<caip2>.
func (h *Handler) Tokens(w http.ResponseWriter, r *http.Request) {
	p, err := params(r, "chainId")
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	tokens, err := h.svc.Tokens(p[0])
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	n := h.svc.networks[p[0]]
	out := make([]tokenJSON, len(tokens))
	for i, t := range tokens {
		out[i] = tokenJSON{Name: t.Name, Symbol: t.Symbol, Address: caip10(n, t.Address), Decimals: t.Decimals, LogoURI: h.logo(r, t.Symbol)}
	}
	respond(w, map[string]any{"tokens": out})
}

// Quotes serves GET /v1/convert/quotes?amount&userAddress&from&to&gasPrice.
// gasPrice is accepted for AppKit's client and not used: quotes are the
// tokens out, not net of gas.
func (h *Handler) Quotes(w http.ResponseWriter, r *http.Request) {
	p, err := params(r, "from", "to", "userAddress", "amount")
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	pair, err := h.svc.ParsePair(p[0], p[1], p[2], p[3])
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	if !h.spend(w, r) {
		return
	}
	q, err := h.svc.Quote(r.Context(), pair)
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	n := pair.Network
	path := make([]string, len(q.Route.Path))
	for i, a := range q.Route.Path {
		path[i] = caip10(n, a)
	}
	respond(w, map[string]any{"quotes": []quoteJSON{{
		FromAmount: pair.Amount.String(), FromAccount: caip10(n, pair.From.Address),
		ToAmount: q.Route.AmountOut().String(), ToAccount: caip10(n, pair.To.Address),
		Path: path, PriceImpact: q.Route.PriceImpact,
	}}})
}

// Allowance serves GET /v1/convert/allowance?tokenAddress&userAddress.
func (h *Handler) Allowance(w http.ResponseWriter, r *http.Request) {
	p, err := params(r, "tokenAddress", "userAddress")
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	if !h.spend(w, r) {
		return
	}
	a, err := h.svc.Allowance(r.Context(), p[0], p[1])
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	respond(w, map[string]string{"allowance": a.String()})
}

// GasPrice serves GET /v1/convert/gas-price?chainId=<caip2>.
func (h *Handler) GasPrice(w http.ResponseWriter, r *http.Request) {
	p, err := params(r, "chainId")
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	if _, ok := h.svc.networks[p[0]]; ok && !h.spend(w, r) {
		return
	}
	g, err := h.svc.GasPrice(r.Context(), p[0])
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	respond(w, map[string]string{"standard": g.Standard.String(), "fast": g.Fast.String(), "instant": g.Instant.String()})
}

// BuildApprove serves GET /v1/convert/build-approve?userAddress&from&to[&amount].
func (h *Handler) BuildApprove(w http.ResponseWriter, r *http.Request) {
	p, err := params(r, "userAddress", "from", "to", "amount")
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	if !h.spend(w, r) {
		return
	}
	tx, err := h.svc.BuildApprove(r.Context(), p[0], p[1], p[2], p[3])
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	var out approveTxJSON
	out.From, out.To = caip10(tx.Network, tx.From), caip10(tx.Network, tx.To)
	out.Data, out.Value = hexutil.Encode(tx.Data), tx.Value.String()
	out.EIP155.Gas, out.EIP155.GasPrice = tx.Gas, tx.GasPrice.String()
	respond(w, map[string]any{"tx": out})
}

// buildRequest is POST /v1/convert/build-transaction's body.
type buildRequest struct {
	Amount      json.RawMessage `json:"amount"`
	From        string          `json:"from"`
	To          string          `json:"to"`
	UserAddress string          `json:"userAddress"`
	ProjectID   string          `json:"projectId"`
	EIP155      *struct {
		Slippage *json.Number `json:"slippage"`
		Permit   *string      `json:"permit"`
	} `json:"eip155"`
	DisableEstimate bool `json:"disableEstimate"`
}

// BuildTransaction serves POST /v1/convert/build-transaction.
func (h *Handler) BuildTransaction(w http.ResponseWriter, r *http.Request) {
	var body buildRequest
	if err := httpx.DecodeJSON(w, r, maxBuildBody, &body); err != nil {
		httpx.Error(w, r, err)
		return
	}
	req := SwapRequest{From: body.From, To: body.To, User: body.UserAddress, DisableEstimate: body.DisableEstimate}
	// AppKit sends the amount as a string; a JSON number is read the same way.
	var amount string
	if err := json.Unmarshal(body.Amount, &amount); err != nil {
		var num json.Number
		if len(body.Amount) > 0 && json.Unmarshal(body.Amount, &num) == nil {
			amount = num.String()
		} else if len(body.Amount) > 0 {
			httpx.Error(w, r, apperr.Fieldf(apperr.Invalid, "amount", "amount must be a string of base units"))
			return
		}
	}
	req.Amount = amount
	if body.EIP155 != nil {
		if body.EIP155.Permit != nil && *body.EIP155.Permit != "" {
			httpx.Error(w, r, apperr.Fieldf(apperr.Unsupported, "eip155.permit", "Permit signatures are not supported: approve the router instead (GET /v1/convert/build-approve)"))
			return
		}
		if s := body.EIP155.Slippage; s != nil {
			v, err := strconv.ParseFloat(s.String(), 64)
			if err != nil {
				httpx.Error(w, r, apperr.Fieldf(apperr.Invalid, "eip155.slippage", "slippage must be a percentage from 0 to %g", MaxSlippage))
				return
			}
			req.Slippage = &v
		}
	}
	if _, _, err := h.svc.parseAccount("from", req.From); err == nil && !h.spend(w, r) {
		return
	}
	b, err := h.svc.BuildSwap(r.Context(), req)
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	var out swapTxJSON
	out.From, out.To = caip10(b.Network, b.From), caip10(b.Network, b.To)
	out.Data, out.Amount = hexutil.Encode(b.Data), b.Value.String()
	out.EIP155.Gas, out.EIP155.GasPrice = strconv.FormatUint(b.Gas, 10), b.GasPrice.String()
	respond(w, map[string]any{"tx": out, "quote": map[string]string{"toAmount": b.Route.AmountOut().String(), "minimumOut": b.MinOut.String()}})
}
