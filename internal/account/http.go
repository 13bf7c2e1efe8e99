package account

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/caip"
	"github.com/latchkit/latch/internal/httpx"
	"github.com/latchkit/latch/internal/project"
)

// RateLimitError is what a Spend returns when the client is over its budget
// of upstream-costing requests.
type RateLimitError struct{ RetryAfter time.Duration }

func (e *RateLimitError) Error() string {
	return fmt.Sprintf("rate limited; retry in %s", e.RetryAfter)
}

// Handler serves the account-data routes.
type Handler struct {
	svc *Service
	// BaseURL is the public base URL of the API as the client reached it,
	// for token icon URLs.
	baseURL func(*http.Request) string
	// limit spends one unit of the client's budget for upstream calls and
	// reports when to retry if it is used up; nil: no limit.
	limit func(*http.Request) (retryAfter time.Duration, ok bool)
}

// NewHandler returns the HTTP handlers of svc. baseURL gives the API's
// public base URL for a request; limit (may be nil) is consulted before
// each request that costs upstream calls (a cache miss, forceUpdate).
func NewHandler(svc *Service, baseURL func(*http.Request) string, limit func(*http.Request) (time.Duration, bool)) *Handler {
	return &Handler{svc: svc, baseURL: baseURL, limit: limit}
}

// spend turns the limit into a Spend for one request.
func (h *Handler) spend(r *http.Request) Spend {
	return func(context.Context) error {
		if h.limit == nil {
			return nil
		}
		if retry, ok := h.limit(r); !ok {
			return &RateLimitError{RetryAfter: retry}
		}
		return nil
	}
}

func (h *Handler) fail(w http.ResponseWriter, r *http.Request, err error) {
	var limited *RateLimitError
	if errors.As(err, &limited) {
		httpx.RateLimited(w, r, limited.RetryAfter, "uncached account data requests per IP")
		return
	}
	httpx.Error(w, r, err)
}

// icons returns the token image URL builder of a request.
func (h *Handler) icons(r *http.Request) icons {
	base := strings.TrimRight(h.baseURL(r), "/")
	q := ""
	if p := project.FromContext(r.Context()); p != nil {
		q = "?projectId=" + url.QueryEscape(p.ID)
	}
	return func(symbol string) string {
		return base + "/public/getTokenImage/" + url.PathEscape(symbol) + q
	}
}

// query reads a query parameter with a length bound.
func query(r *http.Request, name string, max int) (string, error) {
	return httpx.Query(r, name, max)
}

// evmHistory serves the history route for an EVM network (namespace.go).
func (h *Handler) evmHistory(w http.ResponseWriter, r *http.Request) {
	raw := r.PathValue("address")
	if isMissingAddress(raw) {
		httpx.Error(w, r, apperr.Fieldf(apperr.Invalid, "address", "Transactions can't be fetched without an accountAddress"))
		return
	}
	addr, err := ParseAddress("address", raw)
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	chainID, err := query(r, "chainId", 64)
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	cursor, err := query(r, "cursor", 64)
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
	page, err := h.svc.History(r.Context(), chainID, addr, cursor, limit)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, r, page.render(h.icons(r)))
}

// Wire shapes of GET /v1/account/{address}/balance (api-shapes §3.1).
type (
	balanceResponse struct {
		Balances []balanceItem `json:"balances"`
	}
	balanceItem struct {
		Name     string   `json:"name"`
		Symbol   string   `json:"symbol"`
		ChainID  string   `json:"chainId"`
		Address  string   `json:"address,omitempty"`
		Value    *float64 `json:"value,omitempty"`
		Price    float64  `json:"price"`
		Quantity struct {
			Decimals string `json:"decimals"`
			Numeric  string `json:"numeric"`
		} `json:"quantity"`
		IconURL string `json:"iconUrl"`
	}
)

// evmBalance serves the balance route for an EVM network (namespace.go).
func (h *Handler) evmBalance(w http.ResponseWriter, r *http.Request) {
	addr, err := ParseAddress("address", r.PathValue("address"))
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
	var force []common.Address
	if forceRaw != "" {
		for _, s := range strings.Split(forceRaw, ",") {
			ref, err := parseTokenAddress("forceUpdate", strings.TrimSpace(s))
			if err != nil {
				httpx.Error(w, r, err)
				return
			}
			if ref.caipID != chainID {
				httpx.Error(w, r, apperr.Fieldf(apperr.Invalid, "forceUpdate", "forceUpdate token %s is not on chainId %s", clip(s), clip(chainID)))
				return
			}
			force = append(force, ref.token)
		}
	}
	balances, err := h.svc.Balances(r.Context(), chainID, addr, force, h.spend(r))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	n := h.svc.cfg.Networks.Get(chainID)
	icon := h.icons(r)
	out := balanceResponse{Balances: make([]balanceItem, 0, len(balances))}
	for _, b := range balances {
		var it balanceItem
		it.ChainID = chainID
		decimals := n.NativeCurrency.Decimals
		if b.Token == nil {
			it.Name, it.Symbol = n.NativeCurrency.Name, n.NativeCurrency.Symbol
		} else {
			it.Name, it.Symbol, decimals = b.Token.Name, b.Token.Symbol, b.Token.Decimals
			it.Address = chainID + ":" + b.Token.Address.Hex()
			if it.Symbol == "" {
				it.Symbol = shortAddress(b.Token.Address)
			}
			if it.Name == "" {
				it.Name = it.Symbol
			}
		}
		it.Quantity.Decimals = strconv.Itoa(decimals)
		it.Quantity.Numeric = formatUnits(b.Amount, decimals)
		if b.Price != nil {
			it.Price = *b.Price
			v := fiat(unitsFloat(b.Amount, decimals) * *b.Price)
			it.Value = &v
		}
		it.IconURL = icon(it.Symbol)
		out.Balances = append(out.Balances, it)
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, r, out)
}

// writeJSON answers 200 with v in one write with a Content-Length: a page
// of history is tens of kilobytes, which would otherwise go out chunked in
// several writes.
func writeJSON(w http.ResponseWriter, r *http.Request, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	body = append(body, '\n')
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	w.Write(body)
}

// checkCurrency: prices come from USD feeds, so only usd can be answered.
func checkCurrency(c string) error {
	if c == "" || strings.EqualFold(c, "usd") {
		return nil
	}
	return apperr.Fieldf(apperr.Invalid, "currency", "Only usd prices are available, not %q", clip(c))
}

// Identity serves GET /v1/account/{address}/identity and /v1/identity/{address}.
func (h *Handler) Identity(w http.ResponseWriter, r *http.Request) {
	raw := r.PathValue("address")
	if _, err := query(r, "sender", 128); err != nil {
		httpx.Error(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "private, max-age=300")
	if !strings.HasPrefix(raw, "0x") && isBase58Address(raw) {
		// Spec §5: name lookup is skipped for non-EVM accounts.
		writeJSON(w, r, Identity{})
		return
	}
	addr, err := ParseAddress("address", raw)
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	if chain := r.URL.Query().Get("chainId"); chain != "" {
		c, err := caip.ParseChainID(chain)
		if err != nil {
			httpx.Error(w, r, apperr.Fieldf(apperr.Invalid, "chainId", "%s", err.Error()))
			return
		}
		// Spec §5: skipped for non-EVM chains and test networks.
		if n := h.svc.cfg.Networks.Get(chain); c.Namespace != caip.EIP155 || (n != nil && n.Testnet) {
			writeJSON(w, r, Identity{})
			return
		}
	}
	id, err := h.svc.Identity(r.Context(), addr, h.spend(r))
	if err != nil {
		w.Header().Del("Cache-Control")
		h.fail(w, r, err)
		return
	}
	id.Avatar = h.proxiedAvatar(r, id.Avatar)
	writeJSON(w, r, id)
}

// ImageProxyPath is latchd's image proxy route (GET ImageProxyPath?url=&projectId=).
const ImageProxyPath = "/v1/image"

// proxiedAvatar is the URL the page loads an avatar from: latchd's image
// proxy, so the visitor's browser never contacts the avatar's host. data:
// images need no host and are returned as they are.
func (h *Handler) proxiedAvatar(r *http.Request, avatar *string) *string {
	if avatar == nil || strings.HasPrefix(*avatar, "data:") {
		return avatar
	}
	u := strings.TrimRight(h.baseURL(r), "/") + ImageProxyPath + "?url=" + url.QueryEscape(*avatar)
	if p := project.FromContext(r.Context()); p != nil {
		u += "&projectId=" + url.QueryEscape(p.ID)
	}
	return &u
}

// isBase58Address: a Solana address, 32 to 44 base58 characters (spec §5).
func isBase58Address(s string) bool {
	if len(s) < 32 || len(s) > 44 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '1' && c <= '9' || c >= 'A' && c <= 'H' || c >= 'J' && c <= 'N' || c >= 'P' && c <= 'Z' || c >= 'a' && c <= 'k' || c >= 'm' && c <= 'z') {
			return false
		}
	}
	return true
}

// maxPriceBody bounds POST /v1/fungible/price: 50 CAIP-10 addresses and change.
const maxPriceBody = 16 << 10

type priceRequest struct {
	Currency  string   `json:"currency"`
	Addresses []string `json:"addresses"`
	ProjectID string   `json:"projectId"`
}

type (
	priceResponse struct {
		Fungibles []fungible `json:"fungibles"`
	}
	fungible struct {
		Address  string  `json:"address"`
		Name     string  `json:"name"`
		Symbol   string  `json:"symbol"`
		IconURL  string  `json:"iconUrl"`
		Price    float64 `json:"price"`
		Decimals *int    `json:"decimals,omitempty"`
	}
)

// Price serves POST /v1/fungible/price, behind ProjectFromBody and the project guard.
func (h *Handler) Price(w http.ResponseWriter, r *http.Request) {
	var req priceRequest
	if err := httpx.DecodeJSON(w, r, maxPriceBody, &req); err != nil {
		httpx.Error(w, r, err)
		return
	}
	if req.Currency == "" {
		httpx.Error(w, r, apperr.Fieldf(apperr.Invalid, "currency", "currency is required (usd)"))
		return
	}
	if err := checkCurrency(req.Currency); err != nil {
		httpx.Error(w, r, err)
		return
	}
	prices, err := h.svc.FungiblePrices(r.Context(), req.Addresses, h.spend(r))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	icon := h.icons(r)
	out := priceResponse{Fungibles: make([]fungible, 0, len(prices))}
	for _, p := range prices {
		f := fungible{Address: p.Address, Name: p.Name, Symbol: p.Symbol, IconURL: icon(p.Symbol), Price: p.USD}
		if p.Decimals >= 0 {
			d := p.Decimals
			f.Decimals = &d
		}
		out.Fungibles = append(out.Fungibles, f)
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, r, out)
}

// ProjectFromBody lets POST /v1/fungible/price carry its projectId in the
// JSON body, as AppKit's client sends it, for the project guard that reads
// the query: it wraps the guard. A body projectId that contradicts the query
// one is refused.
func ProjectFromBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxPriceBody))
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				httpx.Error(w, r, apperr.Fieldf(apperr.TooLarge, "body", "Request body is larger than %d bytes", maxPriceBody))
				return
			}
			httpx.Error(w, r, apperr.Fieldf(apperr.Invalid, "body", "Request body could not be read"))
			return
		}
		var p struct {
			ProjectID string `json:"projectId"`
		}
		if json.Unmarshal(body, &p) == nil && p.ProjectID != "" {
			q := r.URL.Query()
			switch have := q.Get("projectId"); {
			case have == "":
				q.Set("projectId", p.ProjectID)
				r.URL.RawQuery = q.Encode()
			case have != p.ProjectID:
				httpx.Error(w, r, apperr.Fieldf(apperr.Invalid, "projectId", "projectId in the body differs from the one in the query"))
				return
			}
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	})
}
