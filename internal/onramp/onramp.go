// Package onramp sells crypto for fiat through on-ramp providers behind one
// interface: the options a provider offers, quotes, a checkout URL the
// widget opens in a popup, and the status of the order that checkout made.
// Orders are recorded per project so the operator can list them.
//
// latchd dev has a provider of its own (Dev): a checkout page served by
// latchd that takes a test card and credits the address on the dev chain.
// Real providers (Coinbase Onramp, Meld) are configured by the operator
// with their keys; none is contacted unless configured.
package onramp

import (
	"context"
	"errors"
	"time"
)

// Options is the body of GET /v1/onramp/options (spec §3, api-shapes §3.7):
// what can be bought and with what.
type Options struct {
	PaymentCurrencies  []PaymentCurrency  `json:"paymentCurrencies"`
	PurchaseCurrencies []PurchaseCurrency `json:"purchaseCurrencies"`
}

// PaymentCurrency is a fiat currency and the limits of each payment method in it.
type PaymentCurrency struct {
	ID                  string        `json:"id"` // ISO 4217, e.g. USD
	PaymentMethodLimits []MethodLimit `json:"payment_method_limits"`
}

// MethodLimit bounds one payment method: min and max are decimals in the
// currency, e.g. card 10.00 to 7500.00.
type MethodLimit struct {
	ID  string `json:"id"` // card, ach_bank_account
	Min string `json:"min"`
	Max string `json:"max"`
}

// PurchaseCurrency is an asset that can be bought, with the networks it is bought on.
type PurchaseCurrency struct {
	ID       string    `json:"id"`
	Name     string    `json:"name"`
	Symbol   string    `json:"symbol"`
	Networks []Network `json:"networks"`
}

// Network is a network a purchase currency is delivered on.
type Network struct {
	Name            string `json:"name"` // e.g. ethereum-mainnet
	DisplayName     string `json:"display_name"`
	ChainID         string `json:"chain_id"`         // decimal EVM chain id
	ContractAddress string `json:"contract_address"` // "" for a native coin
}

// Amount is a decimal amount of a currency or asset.
type Amount struct {
	Amount   string `json:"amount"`
	Currency string `json:"currency"`
}

// Quote is the body of POST /v1/onramp/quote (spec §3): what the visitor
// pays and what they get.
type Quote struct {
	PaymentTotal    Amount `json:"paymentTotal"`    // what the visitor pays
	PaymentSubtotal Amount `json:"paymentSubtotal"` // the part that buys the asset
	PurchaseAmount  Amount `json:"purchaseAmount"`  // what the visitor gets
	Fees            Amount `json:"fees"`            // the provider's fee
	NetworkFee      Amount `json:"networkFee"`
	QuoteID         string `json:"quoteId"`
	Provider        string `json:"provider"`
}

// QuoteRequest is a validated quote request: its currency and network are
// among the provider's options and its amount within the method's limits.
type QuoteRequest struct {
	Purchase      PurchaseCurrency
	Network       Network
	PaymentID     string // fiat currency id
	PaymentMethod string // card, ach_bank_account
	Amount        string // fiat decimal with two places
	Address       string // the buyer's address; "" when not known
	Country       string // ISO 3166-1 alpha-2
}

// CheckoutRequest asks a provider for the page where the visitor pays for order.
type CheckoutRequest struct {
	Order    *Order
	Quote    QuoteRequest
	ClientIP string // the visitor's IP (Coinbase binds its session token to it)
}

// Checkout is where the visitor pays: a URL, and the provider's reference
// of the session or order when it gives one.
type Checkout struct {
	URL string
	Ref string
}

// OrderUpdate is what a provider says of an order.
type OrderUpdate struct {
	Status         Status
	TxHash         string // "" until the asset was sent
	PurchaseAmount string // "" when the provider does not say
	Error          string // why it failed, for the visitor
}

// Provider is one on-ramp service.
//
// Every implementation must be safe for concurrent use and must contact
// nothing until a method is called. Errors that are *apperr.Error carry a
// message for the visitor; any other error is the provider failing (down,
// refusing our credentials, answering nonsense) and is logged, never shown.
// A capability a provider lacks returns ErrUnsupported.
type Provider interface {
	// Name is the provider's id: dev, coinbase, meld.
	Name() string
	// Options lists what the provider sells. The service caches a success
	// and falls back to DefaultOptions when it fails.
	Options(ctx context.Context) (*Options, error)
	// Quote prices a request the service validated against Options.
	Quote(ctx context.Context, req QuoteRequest) (*Quote, error)
	// Checkout returns the page where the visitor pays for req.Order.
	Checkout(ctx context.Context, req CheckoutRequest) (Checkout, error)
	// OrderStatus asks the provider how an order it checked out stands.
	OrderStatus(ctx context.Context, o *Order) (OrderUpdate, error)
}

// ErrUnsupported is what a provider returns for a capability it lacks.
var ErrUnsupported = errors.New("onramp: not supported by this provider")

// Status is an order's state.
type Status string

// Order states. An order starts pending; the dev provider's checkout moves
// it to processing while it credits the address.
const (
	StatusPending    Status = "pending"
	StatusProcessing Status = "processing"
	StatusCompleted  Status = "completed"
	StatusFailed     Status = "failed"
)

// Final reports whether no provider will change s again.
func (s Status) Final() bool { return s == StatusCompleted || s == StatusFailed }

// Order is one checkout of a project, as recorded for the operator.
type Order struct {
	ID               string    `json:"id"`
	ProjectID        string    `json:"projectId"`
	Provider         string    `json:"provider"`
	ProviderRef      string    `json:"providerRef,omitempty"`
	Status           Status    `json:"status"`
	Address          string    `json:"address"`
	Network          string    `json:"network"` // the options' network name
	ChainID          string    `json:"chainId"`
	PurchaseCurrency string    `json:"purchaseCurrency"` // symbol
	PurchaseAmount   string    `json:"purchaseAmount"`   // as quoted, then as delivered
	PaymentCurrency  string    `json:"paymentCurrency"`
	PaymentAmount    string    `json:"paymentAmount"`
	PaymentMethod    string    `json:"paymentMethod"`
	TxHash           string    `json:"txHash,omitempty"`
	Error            string    `json:"error,omitempty"`
	CreatedAt        time.Time `json:"createdAt"`
	UpdatedAt        time.Time `json:"updatedAt"`
}

// Payment methods (spec §9).
const (
	MethodCard = "card"
	MethodACH  = "ach_bank_account"
)

// DefaultPaymentCurrency is the payment currency a request without one uses (spec §9).
const DefaultPaymentCurrency = "USD"

// Limits of spec §9, in USD.
const (
	cardMin = "10.00"
	cardMax = "7500.00"
	achMin  = "10.00"
	achMax  = "25000.00"
)

// DefaultOptions are the built-in options the options call answers when
// the provider fails (spec §7): USD (card and ACH bank account, spec §9)
// and EUR (card only: ACH is a US bank transfer), and USDC on Ethereum and
// Polygon. A new copy each call, so callers may modify it.
func DefaultOptions() *Options {
	return &Options{
		PaymentCurrencies: []PaymentCurrency{
			{ID: "USD", PaymentMethodLimits: []MethodLimit{{ID: MethodCard, Min: cardMin, Max: cardMax}, {ID: MethodACH, Min: achMin, Max: achMax}}},
			{ID: "EUR", PaymentMethodLimits: []MethodLimit{{ID: MethodCard, Min: cardMin, Max: cardMax}}},
		},
		PurchaseCurrencies: []PurchaseCurrency{{
			ID: "USDC", Name: "USD Coin", Symbol: "USDC",
			Networks: []Network{
				{Name: "ethereum-mainnet", DisplayName: "Ethereum", ChainID: "1", ContractAddress: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"},
				{Name: "polygon-mainnet", DisplayName: "Polygon", ChainID: "137", ContractAddress: "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359"},
			},
		}},
	}
}
