package onramp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/latchkit/latch/internal/apperr"
)

// Config configures a Service.
type Config struct {
	// Providers in order of preference: the first answers requests that
	// name none. May be empty: options then answer DefaultOptions and
	// quotes and checkouts are refused.
	Providers []Provider
	Store     *Store
	// Country is the buyer's country the providers quote for (ISO 3166-1
	// alpha-2); "" is US.
	Country string
	// OptionsTTL is how long a provider's options are reused; 0 is 5 minutes.
	OptionsTTL time.Duration
	Now        func() time.Time
	Logger     *slog.Logger
}

// Service validates on-ramp requests, asks the providers and records orders.
type Service struct {
	cfg       Config
	providers map[string]Provider

	mu      sync.Mutex
	options map[string]cachedOptions
	asked   map[string]time.Time // order id → when its provider was last asked
}

type cachedOptions struct {
	opts  *Options
	until time.Time
}

// defaultOptionsTTL: options change rarely; a quote should not cost a
// call to the provider's options API each time.
const defaultOptionsTTL = 5 * time.Minute

// statusRefreshInterval is how often a pending order's provider is asked
// how it stands, however often the widget polls.
const statusRefreshInterval = 5 * time.Second

// NewService returns a Service over cfg's providers.
func NewService(cfg Config) *Service {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.OptionsTTL <= 0 {
		cfg.OptionsTTL = defaultOptionsTTL
	}
	if cfg.Country == "" {
		cfg.Country = "US"
	}
	s := &Service{cfg: cfg, providers: map[string]Provider{}, options: map[string]cachedOptions{}, asked: map[string]time.Time{}}
	for _, p := range cfg.Providers {
		s.providers[p.Name()] = p
	}
	return s
}

// Providers names the configured providers, the default first.
func (s *Service) Providers() []string {
	out := make([]string, 0, len(s.cfg.Providers))
	for _, p := range s.cfg.Providers {
		out = append(out, p.Name())
	}
	return out
}

// provider resolves a provider name; "" is the default. Errors:
// apperr.Invalid for an unknown name, apperr.Unavailable when none is configured.
func (s *Service) provider(name string) (Provider, error) {
	if name == "" {
		if len(s.cfg.Providers) == 0 {
			return nil, apperr.Errorf(apperr.Unavailable, "No on-ramp provider is configured on this server")
		}
		return s.cfg.Providers[0], nil
	}
	p, ok := s.providers[strings.ToLower(name)]
	if !ok {
		return nil, apperr.Fieldf(apperr.Invalid, "provider", "Unknown on-ramp provider %q (this server offers: %s)", clip(name), strings.Join(s.Providers(), ", "))
	}
	return p, nil
}

// Options returns what provider (or the default one) sells. When it fails,
// or no provider is configured, it returns DefaultOptions and fallback true
// (spec §7). Errors: apperr.Invalid for an unknown provider.
func (s *Service) Options(ctx context.Context, provider string) (opts *Options, fallback bool, err error) {
	if provider == "" && len(s.cfg.Providers) == 0 {
		return DefaultOptions(), true, nil
	}
	p, err := s.provider(provider)
	if err != nil {
		return nil, false, err
	}
	opts, fallback = s.optionsOf(ctx, p)
	return opts, fallback, nil
}

// optionsOf returns p's options, cached, or DefaultOptions when p fails.
func (s *Service) optionsOf(ctx context.Context, p Provider) (*Options, bool) {
	now := s.cfg.Now()
	s.mu.Lock()
	c, ok := s.options[p.Name()]
	s.mu.Unlock()
	if ok && now.Before(c.until) {
		return c.opts, false
	}
	opts, err := p.Options(ctx)
	if err == nil && (opts == nil || len(opts.PaymentCurrencies) == 0 || len(opts.PurchaseCurrencies) == 0) {
		err = errors.New("empty options")
	}
	if err != nil {
		if errors.Is(err, ErrUnsupported) {
			// A quotes-only provider (Meld): the built-in options are its own.
			s.cfg.Logger.DebugContext(ctx, "onramp: provider has no options API; built-in options", "provider", p.Name())
		} else {
			s.cfg.Logger.WarnContext(ctx, "onramp: options failed; built-in options", "provider", p.Name(), "err", err)
		}
		return DefaultOptions(), !errors.Is(err, ErrUnsupported)
	}
	s.mu.Lock()
	s.options[p.Name()] = cachedOptions{opts: opts, until: now.Add(s.cfg.OptionsTTL)}
	s.mu.Unlock()
	return opts, false
}

// QuoteInput is a quote request as the client sends it.
type QuoteInput struct {
	Provider         string
	PurchaseCurrency string // id or symbol; "" is USDC (spec §9)
	PaymentCurrency  string // id; "" is USD (spec §9)
	PaymentMethod    string // "" is card
	Amount           string // fiat decimal
	Network          string // name, display name, chain id or CAIP-2; "" is the currency's first
	Address          string
}

// defaultPurchaseCurrency is what a request without one buys (spec §9).
const defaultPurchaseCurrency = "USDC"

// resolve validates in against p's options (or the built-in ones when p
// fails). Errors: apperr.Invalid with the field and a message for the visitor.
func (s *Service) resolve(ctx context.Context, p Provider, in QuoteInput) (QuoteRequest, error) {
	if strings.TrimSpace(in.Amount) == "" {
		return QuoteRequest{}, apperr.Fieldf(apperr.Invalid, "amount", "An amount is required")
	}
	amount, err := parseDecimal("amount", strings.TrimSpace(in.Amount))
	if err != nil {
		return QuoteRequest{}, err
	}
	// Extra fraction digits are rounded (spec §5): to the cent, half up.
	amount = roundCents(amount)
	opts, _ := s.optionsOf(ctx, p)

	payID := strings.ToUpper(strings.TrimSpace(in.PaymentCurrency))
	if payID == "" {
		payID = DefaultPaymentCurrency
	}
	var pay *PaymentCurrency
	for i := range opts.PaymentCurrencies {
		if strings.EqualFold(opts.PaymentCurrencies[i].ID, payID) {
			pay = &opts.PaymentCurrencies[i]
		}
	}
	if pay == nil {
		return QuoteRequest{}, apperr.Fieldf(apperr.Invalid, "paymentCurrency", "Unknown payment currency %q", clip(payID))
	}
	method := strings.ToLower(strings.TrimSpace(in.PaymentMethod))
	if method == "" {
		method = MethodCard
	}
	var limit *MethodLimit
	for i := range pay.PaymentMethodLimits {
		if strings.EqualFold(pay.PaymentMethodLimits[i].ID, method) {
			limit = &pay.PaymentMethodLimits[i]
		}
	}
	if limit == nil {
		return QuoteRequest{}, apperr.Fieldf(apperr.Invalid, "paymentMethod", "Payment method %q is not available for %s", clip(method), pay.ID)
	}
	if err := checkLimit(amount, pay.ID, *limit); err != nil {
		return QuoteRequest{}, err
	}

	want := strings.TrimSpace(in.PurchaseCurrency)
	if want == "" {
		want = defaultPurchaseCurrency
	}
	var cur *PurchaseCurrency
	for i := range opts.PurchaseCurrencies {
		c := &opts.PurchaseCurrencies[i]
		if strings.EqualFold(c.ID, want) || strings.EqualFold(c.Symbol, want) {
			cur = c
			break
		}
	}
	if cur == nil {
		return QuoteRequest{}, apperr.Fieldf(apperr.Invalid, "purchaseCurrency", "Unknown purchase currency %q", clip(want))
	}
	net, err := findNetwork(cur, strings.TrimSpace(in.Network))
	if err != nil {
		return QuoteRequest{}, err
	}
	addr := strings.TrimSpace(in.Address)
	if addr != "" && net.ChainID != "" && !evmAddress.MatchString(addr) {
		return QuoteRequest{}, apperr.Fieldf(apperr.Invalid, "address", "Address must be 0x followed by 40 hexadecimal characters")
	}
	return QuoteRequest{
		Purchase: *cur, Network: net, PaymentID: pay.ID, PaymentMethod: limit.ID,
		Amount: formatDecimal(amount, fiatPlaces), Address: addr, Country: s.cfg.Country,
	}, nil
}

var evmAddress = regexp.MustCompile(`^0x[0-9a-fA-F]{40}$`)

// findNetwork picks the network of cur that want names: its name, display
// name, chain id or CAIP-2 id; "" is the first.
func findNetwork(cur *PurchaseCurrency, want string) (Network, error) {
	if len(cur.Networks) == 0 {
		return Network{}, apperr.Fieldf(apperr.Invalid, "network", "%s has no network to buy it on", cur.Symbol)
	}
	if want == "" {
		return cur.Networks[0], nil
	}
	chainID := strings.TrimPrefix(want, "eip155:")
	for _, n := range cur.Networks {
		if strings.EqualFold(n.Name, want) || strings.EqualFold(n.DisplayName, want) || n.ChainID != "" && n.ChainID == chainID {
			return n, nil
		}
	}
	return Network{}, apperr.Fieldf(apperr.Invalid, "network", "Unknown network %q for %s", clip(want), cur.Symbol)
}

// roundCents rounds a non-negative amount to the cent, half up.
func roundCents(r *big.Rat) *big.Rat {
	if r.Sign() < 0 {
		return r
	}
	half := big.NewRat(5, 1000)
	s := formatDecimal(new(big.Rat).Add(r, half), fiatPlaces)
	out, _ := new(big.Rat).SetString(s)
	return out
}

// Quote prices in with its provider. A provider that fails yields an
// error for the view, never a made-up quote. Errors: apperr.Invalid for a
// request outside the options or limits, apperr.Unavailable when the
// provider fails, and the provider's own apperr refusals.
func (s *Service) Quote(ctx context.Context, in QuoteInput) (*Quote, error) {
	p, err := s.provider(in.Provider)
	if err != nil {
		return nil, err
	}
	req, err := s.resolve(ctx, p, in)
	if err != nil {
		return nil, err
	}
	return s.quote(ctx, p, req)
}

func (s *Service) quote(ctx context.Context, p Provider, req QuoteRequest) (*Quote, error) {
	q, err := p.Quote(ctx, req)
	if err != nil {
		if apperr.As(err) != nil {
			return nil, err
		}
		s.cfg.Logger.WarnContext(ctx, "onramp: quote failed", "provider", p.Name(), "err", err)
		return nil, apperr.Errorf(apperr.Unavailable, "The on-ramp provider %s could not give a quote; try again later", p.Name())
	}
	q.Provider = p.Name()
	return q, nil
}

// CheckoutInput is a checkout request: a quote request for an address.
type CheckoutInput struct {
	QuoteInput
	ClientIP string
}

// Checkout quotes in, records the order for projectID and returns it with
// the URL where the visitor pays. Errors: as Quote, and apperr.Invalid
// without an address.
func (s *Service) Checkout(ctx context.Context, projectID string, in CheckoutInput) (*Order, string, error) {
	p, err := s.provider(in.Provider)
	if err != nil {
		return nil, "", err
	}
	if strings.TrimSpace(in.Address) == "" {
		return nil, "", apperr.Fieldf(apperr.Invalid, "address", "A destination address is required")
	}
	req, err := s.resolve(ctx, p, in.QuoteInput)
	if err != nil {
		return nil, "", err
	}
	q, err := s.quote(ctx, p, req)
	if err != nil {
		return nil, "", err
	}
	now := s.cfg.Now()
	o := &Order{
		ID: newOrderID(), ProjectID: projectID, Provider: p.Name(), Status: StatusPending,
		Address: req.Address, Network: req.Network.Name, ChainID: req.Network.ChainID,
		PurchaseCurrency: req.Purchase.Symbol, PurchaseAmount: q.PurchaseAmount.Amount,
		PaymentCurrency: req.PaymentID, PaymentAmount: req.Amount, PaymentMethod: req.PaymentMethod,
		CreatedAt: now, UpdatedAt: now,
	}
	if err := s.cfg.Store.Create(ctx, o); err != nil {
		return nil, "", err
	}
	co, err := p.Checkout(ctx, CheckoutRequest{Order: o, Quote: req, ClientIP: in.ClientIP})
	if err != nil {
		msg := "The on-ramp provider " + p.Name() + " could not start the checkout; try again later"
		if e := apperr.As(err); e != nil {
			msg = e.Message
		} else {
			s.cfg.Logger.WarnContext(ctx, "onramp: checkout failed", "provider", p.Name(), "order", o.ID, "err", err)
		}
		if uerr := s.cfg.Store.Update(ctx, o.ID, OrderUpdate{Status: StatusFailed, Error: msg}, s.cfg.Now()); uerr != nil {
			s.cfg.Logger.ErrorContext(ctx, "onramp: record failed checkout", "order", o.ID, "err", uerr)
		}
		if apperr.As(err) != nil {
			return nil, "", err
		}
		return nil, "", apperr.Errorf(apperr.Unavailable, "%s", msg)
	}
	if co.Ref != "" {
		if err := s.cfg.Store.SetProviderRef(ctx, o.ID, co.Ref); err != nil {
			return nil, "", err
		}
		o.ProviderRef = co.Ref
	}
	return o, co.URL, nil
}

// Order returns an order of projectID, first asking its provider how it
// stands when it is not final (at most every statusRefreshInterval).
// Errors: apperr.NotFound for an unknown id or another project's order.
func (s *Service) Order(ctx context.Context, projectID, id string) (*Order, error) {
	o, err := s.cfg.Store.Get(ctx, projectID, id)
	if err != nil {
		return nil, err
	}
	if o.Status.Final() || !s.mayAsk(o.ID) {
		return o, nil
	}
	p, ok := s.providers[o.Provider]
	if !ok {
		return o, nil // a provider no longer configured: the record as it is
	}
	up, err := p.OrderStatus(ctx, o)
	if err != nil {
		if !errors.Is(err, ErrUnsupported) {
			s.cfg.Logger.WarnContext(ctx, "onramp: order status failed", "provider", o.Provider, "order", o.ID, "err", err)
		}
		return o, nil
	}
	if up.Status == "" || up.Status == o.Status && up.TxHash == o.TxHash {
		return o, nil
	}
	if err := s.cfg.Store.Update(ctx, o.ID, up, s.cfg.Now()); err != nil {
		return nil, err
	}
	return s.cfg.Store.Get(ctx, projectID, id)
}

// mayAsk reports whether order id's provider may be asked now, and if so
// notes the time; entries older than the interval are dropped on the way.
func (s *Service) mayAsk(id string) bool {
	now := s.cfg.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, ok := s.asked[id]; ok && now.Sub(t) < statusRefreshInterval {
		return false
	}
	for k, t := range s.asked {
		if now.Sub(t) >= statusRefreshInterval {
			delete(s.asked, k)
		}
	}
	s.asked[id] = now
	return true
}

// Orders lists a project's orders, newest first, at most limit.
func (s *Service) Orders(ctx context.Context, projectID string, limit int) ([]*Order, error) {
	return s.cfg.Store.List(ctx, projectID, limit)
}

// newOrderID is 128 random bits in hex: the dev checkout page's only guard.
func newOrderID() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// validOrderID reports whether id has newOrderID's form.
func validOrderID(id string) bool {
	if len(id) != 32 {
		return false
	}
	_, err := hex.DecodeString(id)
	return err == nil
}

// parseLimit reads a listing's limit parameter: 1 to maxList, default 50.
func parseLimit(s string) (int, error) {
	if s == "" {
		return 50, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > maxList {
		return 0, apperr.Fieldf(apperr.Invalid, "limit", "limit must be a whole number from 1 to %d", maxList)
	}
	return n, nil
}

const maxList = 500
