package onramp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// MeldConfig configures Meld, a quotes API over many on-ramps.
type MeldConfig struct {
	APIKey string
	// APIURL is the API's origin; "" is https://api.meld.io (the sandbox is
	// https://api-sb.meld.io).
	APIURL string
	Client *http.Client
}

// meldVersion is the API version Meld's requests name (Meld-Version header).
const meldVersion = "2023-12-19"

// Meld asks Meld for the quotes of the on-ramps the operator's key is
// linked to, takes the one that delivers the most, and opens that
// on-ramp's widget through a Meld widget session. It has no options API
// of its own here: the built-in options are what it sells. Written to
// Meld's documented API; not tried against the live service.
type Meld struct{ cfg MeldConfig }

// NewMeld checks cfg.
func NewMeld(cfg MeldConfig) (*Meld, error) {
	if cfg.APIKey == "" {
		return nil, errors.New("the Meld API key is required")
	}
	if cfg.APIURL == "" {
		cfg.APIURL = "https://api.meld.io"
	}
	if u, err := url.Parse(cfg.APIURL); err != nil || u.Host == "" {
		return nil, fmt.Errorf("the Meld API URL %q is not an absolute URL", cfg.APIURL)
	}
	cfg.APIURL = strings.TrimRight(cfg.APIURL, "/")
	if cfg.Client == nil {
		cfg.Client = &http.Client{Timeout: 15 * time.Second}
	}
	return &Meld{cfg: cfg}, nil
}

// Name implements Provider.
func (m *Meld) Name() string { return "meld" }

func (m *Meld) do(ctx context.Context, method, path string, query url.Values, body, out any) error {
	u := m.cfg.APIURL + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	var rd *bytes.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	var req *http.Request
	var err error
	if rd != nil {
		req, err = http.NewRequestWithContext(ctx, method, u, rd)
	} else {
		req, err = http.NewRequestWithContext(ctx, method, u, nil)
	}
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "BASIC "+m.cfg.APIKey)
	req.Header.Set("Meld-Version", meldVersion)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return doJSON(m.cfg.Client, req, "meld", out)
}

// Options implements Provider: Meld is a quotes API; the built-in options apply.
func (m *Meld) Options(ctx context.Context) (*Options, error) { return nil, ErrUnsupported }

// meldCurrency is Meld's code of an asset on a network: the symbol on
// Ethereum, SYMBOL_CHAIN elsewhere (USDC_POLYGON).
func meldCurrency(symbol string, n Network) string {
	chain := strings.ToUpper(strings.TrimSuffix(n.Name, "-mainnet"))
	if chain == "" || chain == "ETHEREUM" {
		return strings.ToUpper(symbol)
	}
	return strings.ToUpper(symbol) + "_" + chain
}

// meldMethod is Meld's payment method type of ours.
func meldMethod(method string) string {
	if method == MethodACH {
		return "ACH"
	}
	return "CREDIT_DEBIT_CARD"
}

type meldQuote struct {
	ServiceProvider         string   `json:"serviceProvider"`
	SourceAmount            *float64 `json:"sourceAmount"`
	SourceAmountWithoutFees *float64 `json:"sourceAmountWithoutFees"`
	SourceCurrencyCode      string   `json:"sourceCurrencyCode"`
	DestinationAmount       *float64 `json:"destinationAmount"`
	DestinationCurrencyCode string   `json:"destinationCurrencyCode"`
	TransactionFee          *float64 `json:"transactionFee"`
	NetworkFee              *float64 `json:"networkFee"`
}

// best asks Meld's quotes and returns the one delivering the most.
func (m *Meld) best(ctx context.Context, req QuoteRequest) (*meldQuote, error) {
	amount, err := parseDecimal("amount", req.Amount)
	if err != nil {
		return nil, err
	}
	f, _ := amount.Float64()
	in := map[string]any{
		"countryCode":             req.Country,
		"sourceCurrencyCode":      req.PaymentID,
		"sourceAmount":            f,
		"destinationCurrencyCode": meldCurrency(req.Purchase.Symbol, req.Network),
		"paymentMethodType":       meldMethod(req.PaymentMethod),
	}
	if req.Address != "" {
		in["walletAddress"] = req.Address
	}
	var out struct {
		Quotes []meldQuote `json:"quotes"`
	}
	if err := m.do(ctx, http.MethodPost, "/payments/crypto/quote", nil, in, &out); err != nil {
		return nil, err
	}
	var best *meldQuote
	for i := range out.Quotes {
		q := &out.Quotes[i]
		if q.DestinationAmount == nil || q.SourceAmount == nil || q.ServiceProvider == "" {
			continue
		}
		if best == nil || *q.DestinationAmount > *best.DestinationAmount {
			best = q
		}
	}
	if best == nil {
		return nil, errors.New("meld: no usable quote in the answer")
	}
	return best, nil
}

// Quote implements Provider: POST /payments/crypto/quote, the best quote.
func (m *Meld) Quote(ctx context.Context, req QuoteRequest) (*Quote, error) {
	q, err := m.best(ctx, req)
	if err != nil {
		return nil, err
	}
	fiat := func(v *float64) Amount {
		if v == nil {
			return Amount{Amount: "0.00", Currency: req.PaymentID}
		}
		return Amount{Amount: formatDecimal(decimalOf(*v), fiatPlaces), Currency: req.PaymentID}
	}
	sub := q.SourceAmountWithoutFees
	if sub == nil {
		sub = q.SourceAmount
	}
	return &Quote{
		PaymentTotal:    fiat(q.SourceAmount),
		PaymentSubtotal: fiat(sub),
		PurchaseAmount:  Amount{Amount: strconv.FormatFloat(*q.DestinationAmount, 'f', -1, 64), Currency: req.Purchase.Symbol},
		Fees:            fiat(q.TransactionFee),
		NetworkFee:      fiat(q.NetworkFee),
		QuoteID:         "meld:" + q.ServiceProvider,
	}, nil
}

// decimalOf is the decimal Meld meant by a JSON number: its shortest text
// (1.45, not the binary 1.4499999…).
func decimalOf(v float64) *big.Rat {
	r, _ := new(big.Rat).SetString(strconv.FormatFloat(v, 'f', -1, 64))
	return r
}

// Checkout implements Provider: a BUY widget session (POST
// /crypto/session/widget) with the best quote's on-ramp, the order's id as
// externalSessionId and the project as externalCustomerId.
func (m *Meld) Checkout(ctx context.Context, req CheckoutRequest) (Checkout, error) {
	q, err := m.best(ctx, req.Quote)
	if err != nil {
		return Checkout{}, err
	}
	in := map[string]any{
		"sessionType":        "BUY",
		"externalSessionId":  req.Order.ID,
		"externalCustomerId": req.Order.ProjectID,
		"sessionData": map[string]any{
			"walletAddress":           req.Order.Address,
			"countryCode":             req.Quote.Country,
			"sourceCurrencyCode":      req.Quote.PaymentID,
			"sourceAmount":            req.Quote.Amount,
			"destinationCurrencyCode": meldCurrency(req.Quote.Purchase.Symbol, req.Quote.Network),
			"serviceProvider":         q.ServiceProvider,
			"paymentMethodType":       meldMethod(req.Quote.PaymentMethod),
		},
	}
	var out struct {
		ID        string `json:"id"`
		WidgetURL string `json:"widgetUrl"`
	}
	if err := m.do(ctx, http.MethodPost, "/crypto/session/widget", nil, in, &out); err != nil {
		return Checkout{}, err
	}
	if out.WidgetURL == "" {
		return Checkout{}, errors.New("meld: widget answer without widgetUrl")
	}
	return Checkout{URL: out.WidgetURL, Ref: out.ID}, nil
}

// OrderStatus implements Provider: the transaction of the order's session
// (GET /payments/transactions?externalSessionIds=).
func (m *Meld) OrderStatus(ctx context.Context, o *Order) (OrderUpdate, error) {
	var out struct {
		Transactions []struct {
			Status            string   `json:"status"`
			DestinationAmount *float64 `json:"destinationAmount"`
			CryptoDetails     struct {
				BlockchainTransactionID string `json:"blockchainTransactionId"`
			} `json:"cryptoDetails"`
		} `json:"transactions"`
	}
	if err := m.do(ctx, http.MethodGet, "/payments/transactions", url.Values{"externalSessionIds": {o.ID}}, nil, &out); err != nil {
		return OrderUpdate{}, err
	}
	if len(out.Transactions) == 0 {
		return OrderUpdate{Status: StatusPending}, nil
	}
	t := out.Transactions[0]
	up := OrderUpdate{Status: StatusPending, TxHash: t.CryptoDetails.BlockchainTransactionID}
	if t.DestinationAmount != nil {
		up.PurchaseAmount = strconv.FormatFloat(*t.DestinationAmount, 'f', -1, 64)
	}
	switch t.Status {
	case "SETTLED", "COMPLETED":
		up.Status = StatusCompleted
	case "FAILED", "DECLINED", "CANCELLED", "REFUNDED", "ERROR", "VOIDED":
		up.Status, up.Error = StatusFailed, "The on-ramp could not complete the purchase ("+strings.ToLower(t.Status)+")"
	}
	return up, nil
}
