package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/big"
	"net/http"
	"regexp"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/caip"
	"github.com/latchkit/latch/internal/httpx"
	"github.com/latchkit/latch/internal/onramp"
)

// OnrampConfig configures the on-ramp providers (internal/onramp). A real
// provider is on when its key is given, and is contacted only then.
type OnrampConfig struct {
	Country         string // --onramp-country: the buyers' country the providers quote for
	RateLimit       int    // --onramp-rate-limit: quotes and checkouts per client IP per minute; 0 = off
	CoinbaseKeyName string // --onramp-coinbase-key-name
	CoinbaseKey     string // --onramp-coinbase-key (secret)
	CoinbaseAPIURL  string // --onramp-coinbase-api-url
	MeldAPIKey      string // --onramp-meld-api-key (secret)
	MeldAPIURL      string // --onramp-meld-api-url
}

// onrampService is the on-ramp state in Main.
type onrampService struct {
	svc  *onramp.Service
	http *onramp.Handler
	dev  *onramp.Dev // latchd dev only
}

// defaultOnrampRateLimit is the default of --onramp-rate-limit: a visitor
// typing an amount asks a quote per pause; a checkout is rarer still.
const defaultOnrampRateLimit = 30

var countryCode = regexp.MustCompile(`^[A-Z]{2}$`)

// onrampFlags binds the on-ramp flags and returns their check.
func onrampFlags(fs *flag.FlagSet, cfg *Config) func() error {
	o := &cfg.Onramp
	fs.StringVar(&o.Country, "onramp-country", "US", "two-letter country (ISO 3166-1) the on-ramp providers quote for")
	fs.IntVar(&o.RateLimit, "onramp-rate-limit", defaultOnrampRateLimit, "on-ramp quotes and checkouts (each may cost a provider call) per client IP per minute (0 = no limit)")
	fs.StringVar(&o.CoinbaseKeyName, "onramp-coinbase-key-name", "", "name of the CDP secret API key for Coinbase Onramp; with --onramp-coinbase-key it turns Coinbase on")
	fs.StringVar(&o.CoinbaseKey, "onramp-coinbase-key", "", "private key of the CDP secret API key (EC PEM or base64 Ed25519) (secret; prefer LATCH_ONRAMP_COINBASE_KEY)")
	fs.StringVar(&o.CoinbaseAPIURL, "onramp-coinbase-api-url", "", "Coinbase Onramp API origin (default https://api.developer.coinbase.com)")
	fs.StringVar(&o.MeldAPIKey, "onramp-meld-api-key", "", "Meld API key; turns the Meld quotes provider on (secret; prefer LATCH_ONRAMP_MELD_API_KEY)")
	fs.StringVar(&o.MeldAPIURL, "onramp-meld-api-url", "", "Meld API origin (default https://api.meld.io; sandbox https://api-sb.meld.io)")
	return func() error {
		if !countryCode.MatchString(o.Country) {
			return fmt.Errorf("--onramp-country must be a two-letter upper-case country code such as US")
		}
		if o.RateLimit < 0 {
			return fmt.Errorf("--onramp-rate-limit must not be negative")
		}
		if (o.CoinbaseKeyName == "") != (o.CoinbaseKey == "") {
			return fmt.Errorf("--onramp-coinbase-key-name and --onramp-coinbase-key go together")
		}
		if o.CoinbaseAPIURL != "" && o.CoinbaseKey == "" {
			return fmt.Errorf("--onramp-coinbase-api-url needs --onramp-coinbase-key")
		}
		if o.MeldAPIURL != "" && o.MeldAPIKey == "" {
			return fmt.Errorf("--onramp-meld-api-url needs --onramp-meld-api-key")
		}
		if _, err := o.providers(nil); err != nil {
			return err
		}
		return nil
	}
}

// providers builds the configured real providers, in order coinbase, meld.
// Errors name the flag, never the secret.
func (o *OnrampConfig) providers(client *http.Client) ([]onramp.Provider, error) {
	var out []onramp.Provider
	if o.CoinbaseKey != "" {
		p, err := onramp.NewCoinbase(onramp.CoinbaseConfig{KeyName: o.CoinbaseKeyName, Key: o.CoinbaseKey, APIURL: o.CoinbaseAPIURL, Country: o.Country, Client: client})
		if err != nil {
			return nil, fmt.Errorf("--onramp-coinbase-key: %w", err)
		}
		out = append(out, p)
	}
	if o.MeldAPIKey != "" {
		p, err := onramp.NewMeld(onramp.MeldConfig{APIKey: o.MeldAPIKey, APIURL: o.MeldAPIURL, Client: client})
		if err != nil {
			return nil, fmt.Errorf("--onramp-meld-api-key: %w", err)
		}
		out = append(out, p)
	}
	return out, nil
}

// Onramp is the on-ramp service; nil before Run.
func (m *Main) Onramp() *onramp.Service { return m.onramp.svc }

// startOnramp builds the on-ramp: the dev provider first under latchd dev,
// then the operator's providers. It runs after startAccount (the dev
// quotes read the dev price feeds through the account data's price cache).
func (m *Main) startOnramp(ctx context.Context) error {
	operator, err := m.Config.Onramp.providers(nil)
	if err != nil {
		return err
	}
	st := onramp.NewStore(m.DB)
	var providers []onramp.Provider
	if m.Devnet != nil {
		m.onramp.dev = onramp.NewDev(onramp.DevConfig{
			Networks:    devOnrampNetworks(m),
			Price:       m.devOnrampPrice,
			Fund:        m.devOnrampFund,
			CheckoutURL: func(id string) string { return onramp.DevCheckoutURL(m.PublicAPIURL(), id) },
			Store:       st,
			Logger:      m.Logger.With("component", "onramp"),
		})
		providers = append(providers, m.onramp.dev)
	}
	providers = append(providers, operator...)
	m.onramp.svc = onramp.NewService(onramp.Config{
		Providers: providers, Store: st, Country: m.Config.Onramp.Country,
		Logger: m.Logger.With("component", "onramp"),
	})
	var limit func(*http.Request) (time.Duration, bool)
	if n := m.Config.Onramp.RateLimit; n > 0 {
		limiter := m.newLimiter("onramp", n, time.Minute)
		limit = func(r *http.Request) (time.Duration, bool) {
			d, err := limiter.Allow(r.Context(), m.clientIP(r))
			if err != nil {
				m.Logger.Warn("onramp: rate limit unavailable", "err", err)
				return 0, true
			}
			return d.RetryAfter, d.Allowed
		}
	}
	m.onramp.http = onramp.NewHandler(m.onramp.svc, limit, func(r *http.Request) string {
		return httpx.ClientIP(r, m.trustedProxy)
	})
	return nil
}

// devOnrampNetworks lists what the dev provider sells: on every dev chain,
// each asset with a USD price feed.
func devOnrampNetworks(m *Main) []onramp.DevNetwork {
	var out []onramp.DevNetwork
	for _, c := range m.Devnet.Chains() {
		n := onramp.DevNetwork{CAIPNetworkID: c.CAIPNetworkID, ChainID: c.ChainID, Name: c.Name}
		for _, f := range c.PriceFeeds {
			if f.Token == nil {
				n.Assets = append(n.Assets, onramp.DevAsset{Symbol: "ETH", Name: "Ether", Decimals: 18})
				continue
			}
			for _, t := range c.Tokens {
				if t.Address == *f.Token && t.Symbol == f.Symbol {
					n.Assets = append(n.Assets, onramp.DevAsset{Symbol: t.Symbol, Name: t.Name, Decimals: t.Decimals, Address: t.Address.Hex()})
				}
			}
		}
		out = append(out, n)
	}
	return out
}

// devOnrampPrice reads an asset's USD price from the dev chain's feed.
func (m *Main) devOnrampPrice(ctx context.Context, network, asset string) (*big.Rat, error) {
	id, err := caip.EVMChainID(network)
	if err != nil {
		return nil, err
	}
	var token common.Address
	if asset != "" {
		token = common.HexToAddress(asset)
	}
	usd, ok := m.account.prices.Price(ctx, id, token)
	if !ok {
		return nil, nil
	}
	return new(big.Rat).SetFloat64(usd), nil
}

// devOnrampFund credits an address through the dev chains' faucet
// (POST /dev/faucet's handler, called in process).
func (m *Main) devOnrampFund(ctx context.Context, network, address, symbol, amount string) (string, error) {
	body, _ := json.Marshal(map[string]string{"address": address, "caipNetworkId": network, "token": symbol, "amount": amount})
	r, err := http.NewRequestWithContext(ctx, http.MethodPost, "/dev/faucet", bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	r.Header.Set("Content-Type", "application/json")
	w := &bufferedResponse{header: http.Header{}, status: http.StatusOK}
	m.Devnet.HandleFaucet(w, r)
	if w.status != http.StatusOK {
		var e httpx.ErrorBody
		if json.Unmarshal(w.body.Bytes(), &e) == nil && len(e.Reasons) > 0 && e.Code != apperr.Internal {
			return "", apperr.Errorf(e.Code, "%s", e.Reasons[0].Description)
		}
		return "", fmt.Errorf("dev faucet: status %d: %.200s", w.status, w.body.String())
	}
	var out struct {
		TxHash string `json:"txHash"`
	}
	if err := json.Unmarshal(w.body.Bytes(), &out); err != nil || out.TxHash == "" {
		return "", errors.New("dev faucet: answer without txHash")
	}
	return out.TxHash, nil
}

// bufferedResponse is an http.ResponseWriter kept in memory.
type bufferedResponse struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (b *bufferedResponse) Header() http.Header         { return b.header }
func (b *bufferedResponse) Write(p []byte) (int, error) { return b.body.Write(p) }
func (b *bufferedResponse) WriteHeader(status int)      { b.status = status }

// onrampRoute serves an on-ramp route.
func onrampRoute(f func(*onramp.Handler, http.ResponseWriter, *http.Request)) func(*Main) http.Handler {
	return func(m *Main) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if m.onramp.http == nil {
				httpx.Error(w, r, apperr.Errorf(apperr.Unavailable, "The on-ramp is not ready"))
				return
			}
			f(m.onramp.http, w, r)
		})
	}
}

// devCheckoutRoute serves the dev provider's checkout page (latchd dev only).
func devCheckoutRoute(f func(*onramp.Dev, http.ResponseWriter, *http.Request)) func(*Main) http.Handler {
	return func(m *Main) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if m.onramp.dev == nil {
				httpx.Error(w, r, notFound(r))
				return
			}
			f(m.onramp.dev, w, r)
		})
	}
}
