package onramp

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/store"
)

// MustOpenDB opens a fresh SQLite database with one project, or Postgres
// when LATCH_TEST_POSTGRES_URL is set.
func MustOpenDB(tb testing.TB) (*store.DB, string) {
	tb.Helper()
	db, err := store.Open(context.Background(), "", "")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	p := &project.Project{Name: "shop", Features: project.DefaultFeatures()}
	if err := project.NewService(db).Create(context.Background(), p); err != nil {
		tb.Fatal(err)
	}
	return db, p.ID
}

// fakeProvider answers from its fields and counts its calls.
type fakeProvider struct {
	name       string
	opts       *Options
	optsErr    error
	quote      *Quote
	quoteErr   error
	checkout   Checkout
	coErr      error
	status     OrderUpdate
	statusErr  error
	mu         sync.Mutex
	optsCalls  int
	quotes     []QuoteRequest
	statusAsks int
}

func (f *fakeProvider) Name() string { return f.name }
func (f *fakeProvider) Options(ctx context.Context) (*Options, error) {
	f.mu.Lock()
	f.optsCalls++
	f.mu.Unlock()
	return f.opts, f.optsErr
}
func (f *fakeProvider) Quote(ctx context.Context, req QuoteRequest) (*Quote, error) {
	f.mu.Lock()
	f.quotes = append(f.quotes, req)
	f.mu.Unlock()
	if f.quoteErr != nil {
		return nil, f.quoteErr
	}
	q := *f.quote
	return &q, nil
}
func (f *fakeProvider) Checkout(ctx context.Context, req CheckoutRequest) (Checkout, error) {
	return f.checkout, f.coErr
}
func (f *fakeProvider) OrderStatus(ctx context.Context, o *Order) (OrderUpdate, error) {
	f.mu.Lock()
	f.statusAsks++
	f.mu.Unlock()
	return f.status, f.statusErr
}

var testQuote = &Quote{
	PaymentTotal: Amount{"50.00", "USD"}, PaymentSubtotal: Amount{"49.00", "USD"}, PurchaseAmount: Amount{"49.000000", "USDC"},
	Fees: Amount{"1.00", "USD"}, NetworkFee: Amount{"0.00", "USD"}, QuoteID: "q1",
}

func newTestService(t *testing.T, providers ...Provider) (*Service, string, *time.Time) {
	t.Helper()
	db, pid := MustOpenDB(t)
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	svc := NewService(Config{Providers: providers, Store: NewStore(db), Now: func() time.Time { return now }, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	return svc, pid, &now
}

func wantError(t *testing.T, err error, code, field, msg string) {
	t.Helper()
	e := apperr.As(err)
	if e == nil || e.Code != code || e.Field != field || e.Message != msg {
		t.Fatalf("error %v, want %s %s %q", err, code, field, msg)
	}
}

// Each refusal of a quote request, with its message; the provider is not
// asked for a refused one.
func TestService_QuoteValidation(t *testing.T) {
	p := &fakeProvider{name: "fake", opts: DefaultOptions(), quote: testQuote}
	svc, _, _ := newTestService(t, p)
	ctx := context.Background()
	for _, tc := range []struct {
		name             string
		in               QuoteInput
		code, field, msg string
	}{
		{"ErrAmountRequired", QuoteInput{}, apperr.Invalid, "amount", "An amount is required"},
		{"ErrAmountNotDecimal", QuoteInput{Amount: "12,5"}, apperr.Invalid, "amount", "Number `12,5` is not a valid decimal number."},
		{"ErrAmountExponent", QuoteInput{Amount: "1e3"}, apperr.Invalid, "amount", "Number `1e3` is not a valid decimal number."},
		{"ErrCardBelowMin", QuoteInput{Amount: "9.99"}, apperr.Invalid, "amount", "Amount must be between 10.00 and 7500.00 USD for card"},
		{"ErrCardAboveMax", QuoteInput{Amount: "7500.01"}, apperr.Invalid, "amount", "Amount must be between 10.00 and 7500.00 USD for card"},
		{"ErrNegative", QuoteInput{Amount: "-20"}, apperr.Invalid, "amount", "Amount must be between 10.00 and 7500.00 USD for card"},
		{"ErrACHBelowMin", QuoteInput{Amount: "9", PaymentMethod: "ach_bank_account"}, apperr.Invalid, "amount", "Amount must be between 10.00 and 25000.00 USD for ACH bank account"},
		{"ErrACHAboveMax", QuoteInput{Amount: "25000.01", PaymentMethod: "ach_bank_account"}, apperr.Invalid, "amount", "Amount must be between 10.00 and 25000.00 USD for ACH bank account"},
		{"ErrACHInEUR", QuoteInput{Amount: "20", PaymentCurrency: "EUR", PaymentMethod: "ach_bank_account"}, apperr.Invalid, "paymentMethod", `Payment method "ach_bank_account" is not available for EUR`},
		{"ErrUnknownMethod", QuoteInput{Amount: "20", PaymentMethod: "cash"}, apperr.Invalid, "paymentMethod", `Payment method "cash" is not available for USD`},
		{"ErrUnknownPaymentCurrency", QuoteInput{Amount: "20", PaymentCurrency: "GBP"}, apperr.Invalid, "paymentCurrency", `Unknown payment currency "GBP"`},
		{"ErrUnknownPurchaseCurrency", QuoteInput{Amount: "20", PurchaseCurrency: "DOGE"}, apperr.Invalid, "purchaseCurrency", `Unknown purchase currency "DOGE"`},
		{"ErrUnknownNetwork", QuoteInput{Amount: "20", Network: "solana"}, apperr.Invalid, "network", `Unknown network "solana" for USDC`},
		{"ErrUnknownChain", QuoteInput{Amount: "20", Network: "eip155:10"}, apperr.Invalid, "network", `Unknown network "eip155:10" for USDC`},
		{"ErrAddress", QuoteInput{Amount: "20", Address: "0x12"}, apperr.Invalid, "address", "Address must be 0x followed by 40 hexadecimal characters"},
		{"ErrUnknownProvider", QuoteInput{Amount: "20", Provider: "moonpay"}, apperr.Invalid, "provider", `Unknown on-ramp provider "moonpay" (this server offers: fake)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := svc.Quote(ctx, tc.in)
			wantError(t, err, tc.code, tc.field, tc.msg)
		})
	}
	if len(p.quotes) != 0 {
		t.Fatalf("the provider was asked %d refused quotes", len(p.quotes))
	}

	t.Run("OK", func(t *testing.T) {
		for _, tc := range []struct {
			in               QuoteInput
			amount, net, cur string
		}{
			{QuoteInput{Amount: "10"}, "10.00", "ethereum-mainnet", "USD"},                                                         // limits inclusive; defaults USDC, USD, card
			{QuoteInput{Amount: "7500.004", Network: "Polygon"}, "7500.00", "polygon-mainnet", "USD"},                              // rounded to the cent, display name
			{QuoteInput{Amount: "25000", PaymentMethod: "ACH_BANK_ACCOUNT", Network: "137"}, "25000.00", "polygon-mainnet", "USD"}, // chain id
			{QuoteInput{Amount: "12.345", PaymentCurrency: "eur", Network: "eip155:1"}, "12.35", "ethereum-mainnet", "EUR"},        // half up, CAIP-2
		} {
			q, err := svc.Quote(ctx, tc.in)
			if err != nil {
				t.Fatalf("%+v: %v", tc.in, err)
			}
			got := p.quotes[len(p.quotes)-1]
			if got.Amount != tc.amount || got.Network.Name != tc.net || got.PaymentID != tc.cur || got.Purchase.Symbol != "USDC" || got.Country != "US" {
				t.Fatalf("%+v: the provider got %+v", tc.in, got)
			}
			if q.Provider != "fake" || q.PurchaseAmount != testQuote.PurchaseAmount || q.QuoteID != "q1" {
				t.Fatalf("quote %+v", q)
			}
		}
	})
}

// A provider whose options fail: the options call answers the built-in
// USD/EUR options with fallback set, and requests are validated against
// them; its quote failing is an error for the view, never a made-up quote.
func TestService_ProviderFailure(t *testing.T) {
	p := &fakeProvider{name: "flaky", optsErr: errors.New("connection refused"), quoteErr: errors.New("HTTP status code: 500")}
	svc, _, _ := newTestService(t, p)
	ctx := context.Background()
	opts, fallback, err := svc.Options(ctx, "")
	if err != nil || !fallback {
		t.Fatalf("options: %v, fallback %v", err, fallback)
	}
	if len(opts.PaymentCurrencies) != 2 || opts.PaymentCurrencies[0].ID != "USD" || opts.PaymentCurrencies[1].ID != "EUR" {
		t.Fatalf("fallback payment currencies: %+v", opts.PaymentCurrencies)
	}
	usd := opts.PaymentCurrencies[0].PaymentMethodLimits
	if len(usd) != 2 || usd[0] != (MethodLimit{"card", "10.00", "7500.00"}) || usd[1] != (MethodLimit{"ach_bank_account", "10.00", "25000.00"}) {
		t.Fatalf("USD limits: %+v", usd)
	}
	usdc := opts.PurchaseCurrencies[0]
	if usdc.Symbol != "USDC" || len(usdc.Networks) != 2 || usdc.Networks[0].ChainID != "1" || usdc.Networks[1].ChainID != "137" {
		t.Fatalf("fallback purchase currency: %+v", usdc)
	}
	q, err := svc.Quote(ctx, QuoteInput{Amount: "20", PaymentCurrency: "EUR"})
	if q != nil {
		t.Fatalf("a failing provider gave a quote: %+v", q)
	}
	wantError(t, err, apperr.Unavailable, "", "The on-ramp provider flaky could not give a quote; try again later")
	// A failure is not cached: the next call asks again.
	svc.Options(ctx, "")
	if p.optsCalls < 3 {
		t.Fatalf("options asked %d times; a failure must not be cached", p.optsCalls)
	}
	// A provider's own refusal reaches the view as it is.
	p.quoteErr = apperr.Fieldf(apperr.Invalid, "amount", "Amount too small for this provider")
	_, err = svc.Quote(ctx, QuoteInput{Amount: "20"})
	wantError(t, err, apperr.Invalid, "amount", "Amount too small for this provider")
}

// No provider at all: built-in options, and quotes refused.
func TestService_NoProvider(t *testing.T) {
	svc, pid, _ := newTestService(t)
	opts, fallback, err := svc.Options(context.Background(), "")
	if err != nil || !fallback || len(opts.PaymentCurrencies) != 2 {
		t.Fatalf("options: %+v %v %v", opts, fallback, err)
	}
	_, err = svc.Quote(context.Background(), QuoteInput{Amount: "20"})
	wantError(t, err, apperr.Unavailable, "", "No on-ramp provider is configured on this server")
	_, _, err = svc.Checkout(context.Background(), pid, CheckoutInput{QuoteInput: QuoteInput{Amount: "20", Address: "0x" + strings.Repeat("ab", 20)}})
	wantError(t, err, apperr.Unavailable, "", "No on-ramp provider is configured on this server")
}

// A provider's own options are used, and cached for OptionsTTL.
func TestService_OptionsCached(t *testing.T) {
	own := &Options{
		PaymentCurrencies:  []PaymentCurrency{{ID: "USD", PaymentMethodLimits: []MethodLimit{{ID: "card", Min: "1.00", Max: "100.00"}}}},
		PurchaseCurrencies: []PurchaseCurrency{{ID: "ETH", Name: "Ether", Symbol: "ETH", Networks: []Network{{Name: "base", DisplayName: "Base", ChainID: "8453"}}}},
	}
	p := &fakeProvider{name: "own", opts: own, quote: testQuote}
	svc, _, now := newTestService(t, p)
	ctx := context.Background()
	opts, fallback, _ := svc.Options(ctx, "own")
	if fallback || opts.PurchaseCurrencies[0].ID != "ETH" {
		t.Fatalf("options: %+v", opts)
	}
	// The provider's limits, not the built-in ones.
	_, err := svc.Quote(ctx, QuoteInput{Amount: "150", PurchaseCurrency: "ETH"})
	wantError(t, err, apperr.Invalid, "amount", "Amount must be between 1.00 and 100.00 USD for card")
	if _, err := svc.Quote(ctx, QuoteInput{Amount: "5", PurchaseCurrency: "eth", Network: "base"}); err != nil {
		t.Fatal(err)
	}
	if p.optsCalls != 1 {
		t.Fatalf("options asked %d times within the TTL", p.optsCalls)
	}
	*now = now.Add(defaultOptionsTTL)
	svc.Options(ctx, "")
	if p.optsCalls != 2 {
		t.Fatalf("options asked %d times after the TTL", p.optsCalls)
	}
}

// A checkout records the order with the quote's amounts; its status comes
// from the provider (at most every statusRefreshInterval) and a final one
// is never changed; orders are the project's own.
func TestService_CheckoutAndOrderStatus(t *testing.T) {
	p := &fakeProvider{name: "fake", opts: DefaultOptions(), quote: testQuote, checkout: Checkout{URL: "https://pay.example/s/1", Ref: "sess-1"}, status: OrderUpdate{Status: StatusPending}}
	svc, pid, now := newTestService(t, p)
	ctx := context.Background()
	addr := "0x" + strings.Repeat("ab", 20)

	_, _, err := svc.Checkout(ctx, pid, CheckoutInput{QuoteInput: QuoteInput{Amount: "50"}})
	wantError(t, err, apperr.Invalid, "address", "A destination address is required")
	_, _, err = svc.Checkout(ctx, pid, CheckoutInput{QuoteInput: QuoteInput{Amount: "5", Address: addr}})
	wantError(t, err, apperr.Invalid, "amount", "Amount must be between 10.00 and 7500.00 USD for card")
	if list, _ := svc.Orders(ctx, pid, 10); len(list) != 0 {
		t.Fatalf("a refused checkout was recorded: %+v", list)
	}

	o, url, err := svc.Checkout(ctx, pid, CheckoutInput{QuoteInput: QuoteInput{Amount: "50", Address: addr, Network: "polygon-mainnet"}})
	if err != nil || url != "https://pay.example/s/1" {
		t.Fatalf("checkout: %v %q", err, url)
	}
	got, err := svc.Order(ctx, pid, o.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := Order{ID: o.ID, ProjectID: pid, Provider: "fake", ProviderRef: "sess-1", Status: StatusPending, Address: addr, Network: "polygon-mainnet", ChainID: "137",
		PurchaseCurrency: "USDC", PurchaseAmount: "49.000000", PaymentCurrency: "USD", PaymentAmount: "50.00", PaymentMethod: "card", CreatedAt: *now, UpdatedAt: *now}
	if *got != want {
		t.Fatalf("order\n got %+v\nwant %+v", *got, want)
	}
	if p.statusAsks != 1 {
		t.Fatalf("provider asked %d times", p.statusAsks)
	}
	p.status = OrderUpdate{Status: StatusCompleted, TxHash: "0xfeed", PurchaseAmount: "48.990000"}
	svc.Order(ctx, pid, o.ID) // within the interval: not asked
	if p.statusAsks != 1 {
		t.Fatalf("provider asked %d times within the interval", p.statusAsks)
	}
	*now = now.Add(statusRefreshInterval)
	got, _ = svc.Order(ctx, pid, o.ID)
	if got.Status != StatusCompleted || got.TxHash != "0xfeed" || got.PurchaseAmount != "48.990000" || !got.UpdatedAt.Equal(*now) {
		t.Fatalf("completed order: %+v", got)
	}
	*now = now.Add(statusRefreshInterval)
	p.status = OrderUpdate{Status: StatusFailed, Error: "late"}
	got, _ = svc.Order(ctx, pid, o.ID)
	if got.Status != StatusCompleted || p.statusAsks != 2 {
		t.Fatalf("a final order changed or its provider was asked again: %+v, %d asks", got, p.statusAsks)
	}
	if _, err := svc.Order(ctx, "0123456789abcdef0123456789abcdef", o.ID); apperr.Code(err) != apperr.NotFound {
		t.Fatalf("another project's order: %v", err)
	}

	// A checkout the provider refuses is recorded as failed, and its error answered.
	p.coErr = errors.New("coinbase: HTTP status code: 401")
	_, _, err = svc.Checkout(ctx, pid, CheckoutInput{QuoteInput: QuoteInput{Amount: "20", Address: addr}})
	wantError(t, err, apperr.Unavailable, "", "The on-ramp provider fake could not start the checkout; try again later")
	list, _ := svc.Orders(ctx, pid, 10)
	if len(list) != 2 || list[0].Status != StatusFailed || list[0].Error == "" || strings.Contains(list[0].Error, "401") {
		t.Fatalf("orders: %+v", list)
	}
	if _, err := parseLimit("501"); apperr.Code(err) != apperr.Invalid {
		t.Fatalf("limit 501: %v", err)
	}
}

func TestFormatDecimal(t *testing.T) {
	for _, tc := range []struct {
		in     string
		places int
		want   string
	}{
		{"49.5", 6, "49.500000"}, {"1/3", 2, "0.33"}, {"2/3", 2, "0.66"}, {"0.001", 2, "0.00"}, {"-1.239", 2, "-1.23"}, {"12", 0, "12"},
	} {
		r, _ := new(big.Rat).SetString(tc.in)
		if got := formatDecimal(r, tc.places); got != tc.want {
			t.Errorf("formatDecimal(%s, %d) = %s, want %s", tc.in, tc.places, got, tc.want)
		}
	}
}
