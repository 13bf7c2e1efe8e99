package onramp

import (
	"context"
	"fmt"
	"html/template"
	"log/slog"
	"math/big"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/i18n"
)

// DevAsset is an asset the dev provider sells on a dev network.
type DevAsset struct {
	Symbol   string
	Name     string
	Decimals uint8
	Address  string // token contract; "" for the native coin
}

// DevNetwork is a dev chain and the assets sold on it.
type DevNetwork struct {
	CAIPNetworkID string // eip155:31337
	ChainID       uint64
	Name          string // Latch Dev
	Assets        []DevAsset
}

// DevConfig configures the dev provider.
type DevConfig struct {
	Networks []DevNetwork
	// Price is an asset's USD price on a dev network (its dev price feed);
	// asset is the token address or "" for the native coin.
	Price func(ctx context.Context, caipNetworkID, asset string) (*big.Rat, error)
	// Fund sends amount (a decimal in whole units) of the asset symbol to
	// address on the dev network and returns the mined transaction's hash.
	Fund func(ctx context.Context, caipNetworkID, address, symbol, amount string) (txHash string, err error)
	// CheckoutURL is the URL of an order's checkout page.
	CheckoutURL func(orderID string) string
	Store       *Store
	Now         func() time.Time
	Logger      *slog.Logger
}

// Dev is latchd dev's provider: real quotes from the dev price feeds, a
// checkout page latchd serves that takes a test card, and the bought asset
// credited on the dev chain. latchd serve never configures it.
type Dev struct{ cfg DevConfig }

// NewDev returns the dev provider.
func NewDev(cfg DevConfig) *Dev {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	return &Dev{cfg: cfg}
}

// DevProviderName is the dev provider's id.
const DevProviderName = "dev"

// Name implements Provider.
func (d *Dev) Name() string { return DevProviderName }

// devFeeRate is the dev provider's fee, 1% (spec §9: providers charge 1-2%).
var devFeeRate = big.NewRat(1, 100)

// Test cards of the dev checkout: one pays, one is declined.
const (
	devCardOK       = "4242424242424242"
	devCardDeclined = "4000000000000002"
)

// Options implements Provider: USD by card or ACH bank account within
// spec §9's limits, and every asset of every dev network.
func (d *Dev) Options(ctx context.Context) (*Options, error) {
	def := DefaultOptions()
	opts := &Options{PaymentCurrencies: def.PaymentCurrencies[:1]}
	bySymbol := map[string]int{}
	for _, n := range d.cfg.Networks {
		for _, a := range n.Assets {
			i, ok := bySymbol[a.Symbol]
			if !ok {
				i = len(opts.PurchaseCurrencies)
				bySymbol[a.Symbol] = i
				opts.PurchaseCurrencies = append(opts.PurchaseCurrencies, PurchaseCurrency{ID: a.Symbol, Name: a.Name, Symbol: a.Symbol})
			}
			c := &opts.PurchaseCurrencies[i]
			c.Networks = append(c.Networks, Network{Name: n.CAIPNetworkID, DisplayName: n.Name, ChainID: strconv.FormatUint(n.ChainID, 10), ContractAddress: a.Address})
		}
	}
	return opts, nil
}

// asset finds what a validated request buys.
func (d *Dev) asset(network, symbol string) (*DevNetwork, *DevAsset, error) {
	for i := range d.cfg.Networks {
		n := &d.cfg.Networks[i]
		if n.CAIPNetworkID != network {
			continue
		}
		for j := range n.Assets {
			if n.Assets[j].Symbol == symbol {
				return n, &n.Assets[j], nil
			}
		}
	}
	return nil, nil, apperr.Fieldf(apperr.Invalid, "network", "Unknown network %q for %s", clip(network), symbol)
}

// Quote implements Provider: a 1% fee, no network fee (latchd pays the dev
// chain's gas), and the rest converted at the dev price feed.
func (d *Dev) Quote(ctx context.Context, req QuoteRequest) (*Quote, error) {
	if req.PaymentID != DefaultPaymentCurrency {
		return nil, apperr.Fieldf(apperr.Invalid, "paymentCurrency", "Unknown payment currency %q", req.PaymentID)
	}
	n, a, err := d.asset(req.Network.Name, req.Purchase.Symbol)
	if err != nil {
		return nil, err
	}
	price, err := d.cfg.Price(ctx, n.CAIPNetworkID, a.Address)
	if err != nil {
		return nil, fmt.Errorf("price of %s on %s: %w", a.Symbol, n.CAIPNetworkID, err)
	}
	if price == nil || price.Sign() <= 0 {
		return nil, apperr.Errorf(apperr.Unavailable, "%s has no price on %s", a.Symbol, n.Name)
	}
	total, err := parseDecimal("amount", req.Amount)
	if err != nil {
		return nil, err
	}
	fee, _ := new(big.Rat).SetString(formatDecimal(new(big.Rat).Mul(total, devFeeRate), fiatPlaces))
	subtotal := new(big.Rat).Sub(total, fee)
	places := int(a.Decimals)
	if places > 8 {
		places = 8 // finer than a visitor reads; the faucet takes any precision up to the token's
	}
	bought := formatDecimal(new(big.Rat).Quo(subtotal, price), places)
	return &Quote{
		PaymentTotal:    Amount{Amount: formatDecimal(total, fiatPlaces), Currency: req.PaymentID},
		PaymentSubtotal: Amount{Amount: formatDecimal(subtotal, fiatPlaces), Currency: req.PaymentID},
		PurchaseAmount:  Amount{Amount: bought, Currency: a.Symbol},
		Fees:            Amount{Amount: formatDecimal(fee, fiatPlaces), Currency: req.PaymentID},
		NetworkFee:      Amount{Amount: formatDecimal(new(big.Rat), fiatPlaces), Currency: req.PaymentID},
		QuoteID:         "dev-" + newOrderID(),
	}, nil
}

// Checkout implements Provider: the order's page on this latchd.
func (d *Dev) Checkout(ctx context.Context, req CheckoutRequest) (Checkout, error) {
	if req.Quote.Address == "" {
		return Checkout{}, apperr.Fieldf(apperr.Invalid, "address", "A destination address is required")
	}
	return Checkout{URL: d.cfg.CheckoutURL(req.Order.ID)}, nil
}

// OrderStatus implements Provider: the dev checkout records the outcome
// itself, so the order as stored is its status.
func (d *Dev) OrderStatus(ctx context.Context, o *Order) (OrderUpdate, error) {
	cur, err := d.cfg.Store.byID(ctx, o.ID)
	if err != nil {
		return OrderUpdate{}, err
	}
	return OrderUpdate{Status: cur.Status, TxHash: cur.TxHash, Error: cur.Error}, nil
}

// devPage is the dev checkout page: no script, posts only to itself.
var devPage = template.Must(template.New("checkout").Parse(`<!doctype html>
<html lang="{{.Locale}}" dir="{{.Dir}}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>{{.Title}}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#111}label{display:block;margin:1rem 0 .3rem}input{font-size:1rem;padding:.5rem;width:100%;box-sizing:border-box}button{margin-top:1rem;font-size:1rem;padding:.6rem 1.2rem;border-radius:.4rem;border:0;background:#111;color:#fff;cursor:pointer}.error{color:#b00020}.small{color:#555;font-size:.9rem;word-break:break-all}</style>
</head><body>
<h1>{{.Title}}</h1>
{{if .Order}}<p data-testid="latch-dev-checkout-summary">{{.Summary}}</p>
<p class="small">{{.To}}</p>{{end}}
{{if .Error}}<p class="error" role="alert" data-testid="latch-dev-checkout-error">{{.Error}}</p>{{end}}
{{if .Message}}<p data-testid="latch-dev-checkout-message">{{.Message}}</p>{{end}}
{{if .TxHash}}<p class="small" data-testid="latch-dev-checkout-tx">{{.Tx}}</p>{{end}}
{{if .Form}}<form method="post" action="{{.Action}}">
<label for="card">{{.CardLabel}}</label>
<input id="card" name="card" inputmode="numeric" autocomplete="off" required data-testid="latch-dev-checkout-card">
<button type="submit" data-testid="latch-dev-checkout-pay">{{.Pay}}</button>
</form>{{end}}
<p class="small">{{.Footer}}</p>
</body></html>
`))

type devPageView struct {
	Title, Error, Message, TxHash, Action string
	Order                                 *Order
	Form                                  bool
	// Set by writeDevPage from the order and the locale.
	Locale, Dir, Summary, To, Tx, CardLabel, Pay, Footer string
	// Network is the order's network's name.
	Network string
}

// pageText is the checkout page's text in the request's locale: the locale
// parameter (the widget adds it to the checkout URL it opens; the form
// posts back to the same URL), else the browser's languages.
func pageText(r *http.Request) i18n.Printer {
	return i18n.For(i18n.FromRequest(r, ""))
}

// devMethodLabel names a payment method on the page.
func devMethodLabel(p i18n.Printer, id string) string {
	switch id {
	case MethodCard:
		return p.T(i18n.CheckoutMethodCard)
	case MethodACH:
		return p.T(i18n.CheckoutMethodACH)
	}
	return id
}

func writeDevPage(w http.ResponseWriter, p i18n.Printer, status int, v devPageView) {
	v.Locale, v.Dir = p.Locale(), p.Dir()
	v.CardLabel, v.Footer = p.T(i18n.CheckoutCardLabel), p.T(i18n.CheckoutFooter)
	if o := v.Order; o != nil {
		v.Summary = p.T(i18n.CheckoutSummary, "amount", o.PurchaseAmount, "asset", o.PurchaseCurrency, "price", o.PaymentAmount, "currency", o.PaymentCurrency, "method", devMethodLabel(p, o.PaymentMethod))
		v.To = p.T(i18n.CheckoutTo, "address", o.Address, "network", v.Network)
		v.Pay = p.T(i18n.CheckoutPay, "price", o.PaymentAmount, "currency", o.PaymentCurrency)
	}
	v.Tx = p.T(i18n.CheckoutTx, "hash", v.TxHash)
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	// same-origin, not no-referrer: under no-referrer the browser sends the
	// form's POST with Origin: null, which latchd dev's guard refuses.
	h.Set("Referrer-Policy", "same-origin")
	h.Set("X-Content-Type-Options", "nosniff")
	// No script; it may post only to itself and never be framed.
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	w.WriteHeader(status)
	devPage.Execute(w, v)
}

// DevCheckoutPath is the dev checkout page's route; {id} is the order.
const DevCheckoutPath = "/dev/onramp/checkout/{id}"

// devCheckoutPath is an order's page path.
func devCheckoutPath(id string) string { return strings.Replace(DevCheckoutPath, "{id}", id, 1) }

// DevCheckoutURL is the URL of an order's page under base (the API's public URL).
func DevCheckoutURL(base, id string) string {
	return strings.TrimRight(base, "/") + devCheckoutPath(id)
}

// view describes order o as the page shows it.
func (d *Dev) view(p i18n.Printer, o *Order) devPageView {
	v := devPageView{Order: o, Network: o.Network, Action: devCheckoutPath(o.ID) + "?locale=" + url.QueryEscape(p.Locale()), TxHash: o.TxHash}
	for _, n := range d.cfg.Networks {
		if n.CAIPNetworkID == o.Network {
			v.Network = n.Name
		}
	}
	switch o.Status {
	case StatusPending:
		v.Title, v.Form = p.T(i18n.CheckoutPayTitle), true
	case StatusProcessing:
		v.Title, v.Message = p.T(i18n.CheckoutProcessingTitle), p.T(i18n.CheckoutProcessing)
	case StatusCompleted:
		v.Title, v.Message = p.T(i18n.CheckoutCompleteTitle), p.T(i18n.CheckoutComplete, "amount", o.PurchaseAmount, "asset", o.PurchaseCurrency)
	case StatusFailed:
		v.Title, v.Error = p.T(i18n.CheckoutFailedTitle), o.Error
		if o.Error == devDeclined {
			// The order keeps the English reason (the widget shows its own); the page shows the visitor's.
			v.Error = p.T(i18n.CheckoutDeclined)
		}
	}
	return v
}

// order reads the page's order; an unknown id gets a 404 page.
func (d *Dev) order(w http.ResponseWriter, r *http.Request, p i18n.Printer) *Order {
	id := r.PathValue("id")
	var o *Order
	var err error
	if validOrderID(id) {
		o, err = d.cfg.Store.byID(r.Context(), id)
	}
	if o != nil && o.Provider == DevProviderName {
		return o
	}
	if err != nil && apperr.Code(err) != apperr.NotFound {
		d.cfg.Logger.ErrorContext(r.Context(), "onramp: dev checkout", "err", err)
		writeDevPage(w, p, http.StatusInternalServerError, devPageView{Title: p.T(i18n.ErrorTitle), Error: p.T(i18n.CheckoutRetry)})
		return nil
	}
	status := http.StatusNotFound
	if !validOrderID(id) {
		status = http.StatusBadRequest // not a link this server made
	}
	writeDevPage(w, p, status, devPageView{Title: p.T(i18n.CheckoutNoOrderTitle), Error: p.T(i18n.CheckoutNoOrder)})
	return nil
}

// ServeCheckout serves GET DevCheckoutPath: the order and the card form.
func (d *Dev) ServeCheckout(w http.ResponseWriter, r *http.Request) {
	p := pageText(r)
	if o := d.order(w, r, p); o != nil {
		writeDevPage(w, p, http.StatusOK, d.view(p, o))
	}
}

// Pay serves POST DevCheckoutPath (form field card): the test card pays
// and the asset is credited; the decline card fails the order; any other
// number is refused and the form shown again. An order is paid once.
func (d *Dev) Pay(w http.ResponseWriter, r *http.Request) {
	p := pageText(r)
	o := d.order(w, r, p)
	if o == nil {
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 4<<10)
	card := strings.NewReplacer(" ", "", "-", "").Replace(r.PostFormValue("card"))
	if o.Status != StatusPending {
		writeDevPage(w, p, http.StatusConflict, d.view(p, o))
		return
	}
	ctx := r.Context()
	switch card {
	case devCardOK:
	case devCardDeclined:
		if err := d.cfg.Store.Update(ctx, o.ID, OrderUpdate{Status: StatusFailed, Error: devDeclined}, d.cfg.Now()); err != nil {
			d.cfg.Logger.ErrorContext(ctx, "onramp: dev checkout decline", "err", err)
		}
		d.rerender(w, r, p, o.ID, http.StatusPaymentRequired)
		return
	default:
		v := d.view(p, o)
		v.Error = p.T(i18n.CheckoutUseTestCard)
		writeDevPage(w, p, http.StatusBadRequest, v)
		return
	}
	won, err := d.cfg.Store.claim(ctx, o.ID, d.cfg.Now())
	if err != nil || !won {
		if err != nil {
			d.cfg.Logger.ErrorContext(ctx, "onramp: dev checkout claim", "err", err)
		}
		d.rerender(w, r, p, o.ID, http.StatusConflict)
		return
	}
	// The visitor leaving the page must not leave the order half done.
	fundCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	hash, err := d.cfg.Fund(fundCtx, o.Network, o.Address, o.PurchaseCurrency, o.PurchaseAmount)
	up := OrderUpdate{Status: StatusCompleted, TxHash: hash}
	status := http.StatusOK
	if err != nil {
		d.cfg.Logger.ErrorContext(ctx, "onramp: dev checkout fund", "order", o.ID, "err", err)
		up = OrderUpdate{Status: StatusFailed, Error: "The dev chain could not send the asset"}
		if e := apperr.As(err); e != nil {
			up.Error = "The dev chain could not send the asset: " + e.Message
		}
		status = http.StatusBadGateway
	}
	if err := d.cfg.Store.Update(fundCtx, o.ID, up, d.cfg.Now()); err != nil {
		d.cfg.Logger.ErrorContext(ctx, "onramp: dev checkout record", "order", o.ID, "err", err)
	}
	d.rerender(w, r, p, o.ID, status)
}

func (d *Dev) rerender(w http.ResponseWriter, r *http.Request, p i18n.Printer, id string, status int) {
	o, err := d.cfg.Store.byID(r.Context(), id)
	if err != nil {
		d.cfg.Logger.ErrorContext(r.Context(), "onramp: dev checkout", "err", err)
		writeDevPage(w, p, http.StatusInternalServerError, devPageView{Title: p.T(i18n.ErrorTitle), Error: p.T(i18n.CheckoutRetry)})
		return
	}
	writeDevPage(w, p, status, d.view(p, o))
}

// devDeclined is the reason a declined test card's order records.
const devDeclined = "Your card was declined"
