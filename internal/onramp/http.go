package onramp

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/httpx"
	"github.com/latchkit/latch/internal/project"
)

// Handler serves the on-ramp routes.
type Handler struct {
	svc *Service
	// limit, when set, is asked before each quote and checkout: both may
	// cost a call to a provider. It returns whether to go on and, if not,
	// when to retry.
	limit    func(*http.Request) (time.Duration, bool)
	clientIP func(*http.Request) string
}

// NewHandler returns the HTTP handlers of svc. clientIP is the visitor's
// IP as latchd trusts it (Coinbase binds its session to it).
func NewHandler(svc *Service, limit func(*http.Request) (time.Duration, bool), clientIP func(*http.Request) string) *Handler {
	return &Handler{svc: svc, limit: limit, clientIP: clientIP}
}

// maxBody bounds a quote or checkout body.
const maxBody = 16 << 10

// optionsBody is GET /v1/onramp/options: the client's shape, and which
// providers this server offers (the default first) and whether these are
// the built-in options.
type optionsBody struct {
	*Options
	Providers []string `json:"providers"`
	Fallback  bool     `json:"fallback"`
}

// Options serves GET /v1/onramp/options[?provider=].
func (h *Handler) Options(w http.ResponseWriter, r *http.Request) {
	provider, err := httpx.Query(r, "provider", 32)
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	opts, fallback, err := h.svc.Options(r.Context(), provider)
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	httpx.JSON(w, http.StatusOK, optionsBody{Options: opts, Providers: h.svc.Providers(), Fallback: fallback})
}

// idField is a currency as the client sends it: its id, or the options'
// object holding it (AppKit posts the whole object).
type idField string

func (f *idField) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*f = idField(s)
		return nil
	}
	var o struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(b, &o); err != nil {
		return apperr.Errorf(apperr.Invalid, "expected a currency id or an object with an id")
	}
	*f = idField(o.ID)
	return nil
}

// decimalField is an amount sent as a string or a JSON number, kept as written.
type decimalField string

func (f *decimalField) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*f = decimalField(s)
		return nil
	}
	var n json.Number
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&n); err != nil {
		return apperr.Errorf(apperr.Invalid, "expected a decimal amount")
	}
	*f = decimalField(n.String())
	return nil
}

// quoteBody is POST /v1/onramp/quote (spec §7), with optional fields of ours.
type quoteBody struct {
	PurchaseCurrency idField      `json:"purchaseCurrency"`
	PaymentCurrency  idField      `json:"paymentCurrency"`
	Amount           decimalField `json:"amount"`
	Network          string       `json:"network"`
	PaymentMethod    string       `json:"paymentMethod"`
	Provider         string       `json:"provider"`
	Address          string       `json:"address"`
}

func (h *Handler) allow(w http.ResponseWriter, r *http.Request, what string) bool {
	if h.limit == nil {
		return true
	}
	if retry, ok := h.limit(r); !ok {
		httpx.RateLimited(w, r, retry, what)
		return false
	}
	return true
}

// Quote serves POST /v1/onramp/quote.
func (h *Handler) Quote(w http.ResponseWriter, r *http.Request) {
	if !h.allow(w, r, "on-ramp quotes") {
		return
	}
	var b quoteBody
	if err := httpx.DecodeJSON(w, r, maxBody, &b); err != nil {
		httpx.Error(w, r, err)
		return
	}
	q, err := h.svc.Quote(r.Context(), QuoteInput{
		Provider: b.Provider, PurchaseCurrency: string(b.PurchaseCurrency), PaymentCurrency: string(b.PaymentCurrency),
		PaymentMethod: b.PaymentMethod, Amount: string(b.Amount), Network: b.Network, Address: b.Address,
	})
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	httpx.JSON(w, http.StatusOK, q)
}

// destinationWallet is one entry of the generator's destinationWallets.
type destinationWallet struct {
	Address           string   `json:"address"`
	Blockchains       []string `json:"blockchains"`
	Assets            []string `json:"assets"`
	SupportedNetworks []string `json:"supportedNetworks"`
}

// checkoutBody is POST /v1/generators/onrampurl (api-shapes §3.7), with
// optional fields of ours: the provider, payment currency and method.
type checkoutBody struct {
	DestinationWallets []destinationWallet `json:"destinationWallets"`
	PartnerUserID      string              `json:"partnerUserId"`
	DefaultNetwork     string              `json:"defaultNetwork"`
	DefaultExperience  string              `json:"defaultExperience"`
	PresetCryptoAmount *decimalField       `json:"presetCryptoAmount"`
	PresetFiatAmount   *decimalField       `json:"presetFiatAmount"`
	Provider           string              `json:"provider"`
	PaymentCurrency    idField             `json:"paymentCurrency"`
	PaymentMethod      string              `json:"paymentMethod"`
}

// checkoutAnswer is the generator's answer: the URL, and our order's id
// for GET /v1/onramp/orders/{id}.
type checkoutAnswer struct {
	URL     string `json:"url"`
	OrderID string `json:"orderId"`
}

// GenerateURL serves POST /v1/generators/onrampurl: it records an order and
// answers the URL of its checkout.
func (h *Handler) GenerateURL(w http.ResponseWriter, r *http.Request) {
	if !h.allow(w, r, "on-ramp checkouts") {
		return
	}
	var b checkoutBody
	if err := httpx.DecodeJSON(w, r, maxBody, &b); err != nil {
		httpx.Error(w, r, err)
		return
	}
	in, err := b.input()
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	if h.clientIP != nil {
		in.ClientIP = h.clientIP(r)
	}
	p := project.FromContext(r.Context())
	o, url, err := h.svc.Checkout(r.Context(), p.ID, in)
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	httpx.JSON(w, http.StatusOK, checkoutAnswer{URL: url, OrderID: o.ID})
}

// input reads the generator's body as a checkout of one address.
func (b *checkoutBody) input() (CheckoutInput, error) {
	if len(b.DestinationWallets) != 1 {
		return CheckoutInput{}, apperr.Fieldf(apperr.Invalid, "destinationWallets", "destinationWallets must hold exactly one wallet")
	}
	dw := b.DestinationWallets[0]
	if b.DefaultExperience != "" && b.DefaultExperience != "buy" {
		return CheckoutInput{}, apperr.Fieldf(apperr.Invalid, "defaultExperience", "Only the buy experience is offered")
	}
	if b.PresetCryptoAmount != nil {
		return CheckoutInput{}, apperr.Fieldf(apperr.Invalid, "presetCryptoAmount", "presetCryptoAmount is not supported: give presetFiatAmount")
	}
	if b.PresetFiatAmount == nil {
		return CheckoutInput{}, apperr.Fieldf(apperr.Invalid, "presetFiatAmount", "An amount is required")
	}
	if len(dw.Assets) > 1 {
		return CheckoutInput{}, apperr.Fieldf(apperr.Invalid, "assets", "Give at most one asset")
	}
	network := b.DefaultNetwork
	if network == "" && len(dw.Blockchains) > 0 {
		network = dw.Blockchains[0]
	}
	in := CheckoutInput{QuoteInput: QuoteInput{
		Provider: b.Provider, PaymentCurrency: string(b.PaymentCurrency), PaymentMethod: b.PaymentMethod,
		Amount: string(*b.PresetFiatAmount), Network: network, Address: dw.Address,
	}}
	if len(dw.Assets) == 1 {
		in.PurchaseCurrency = dw.Assets[0]
	}
	return in, nil
}

// Order serves GET /v1/onramp/orders/{id}: the order's status, asked of
// its provider when not final.
func (h *Handler) Order(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if !validOrderID(id) {
		httpx.Error(w, r, apperr.Fieldf(apperr.NotFound, "id", "No such order"))
		return
	}
	o, err := h.svc.Order(r.Context(), project.FromContext(r.Context()).ID, id)
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	httpx.JSON(w, http.StatusOK, o)
}

// ordersBody is the operator's listing.
type ordersBody struct {
	Orders []*Order `json:"orders"`
}

// Orders serves GET /v1/onramp/orders[?limit=] to the operator: the
// project's orders, newest first.
func (h *Handler) Orders(w http.ResponseWriter, r *http.Request) {
	limit, err := parseLimit(strings.TrimSpace(r.URL.Query().Get("limit")))
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	orders, err := h.svc.Orders(r.Context(), project.FromContext(r.Context()).ID, limit)
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	httpx.JSON(w, http.StatusOK, ordersBody{Orders: orders})
}
