package onramp

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// CoinbaseConfig configures Coinbase Onramp. KeyName and Key are a CDP
// Secret API key: its name ("organizations/…/apiKeys/…" or an id) and its
// private key, an EC key in PEM (ES256) or a base64 Ed25519 key (EdDSA).
type CoinbaseConfig struct {
	KeyName string
	Key     string
	// APIURL is the API's origin; "" is https://api.developer.coinbase.com.
	APIURL string
	// PayURL is the hosted checkout's origin; "" is https://pay.coinbase.com.
	PayURL string
	// Country is the buyer's country the options are asked for; "" is US.
	Country string
	Client  *http.Client
	Now     func() time.Time
}

// Coinbase is Coinbase Onramp: buy options and quotes from its API, and
// the checkout through a one-use session token (the session-token URL flow).
// Written to Coinbase's documented API; not tried against the live service.
type Coinbase struct {
	cfg    CoinbaseConfig
	signer crypto.Signer
	alg    string
	host   string
}

// NewCoinbase checks cfg's key. Its errors never hold the key.
func NewCoinbase(cfg CoinbaseConfig) (*Coinbase, error) {
	if cfg.KeyName == "" {
		return nil, errors.New("the Coinbase key name is required")
	}
	signer, alg, err := parseCDPKey(cfg.Key)
	if err != nil {
		return nil, err
	}
	if cfg.APIURL == "" {
		cfg.APIURL = "https://api.developer.coinbase.com"
	}
	if cfg.PayURL == "" {
		cfg.PayURL = "https://pay.coinbase.com"
	}
	u, err := url.Parse(cfg.APIURL)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("the Coinbase API URL %q is not an absolute URL", cfg.APIURL)
	}
	if cfg.Client == nil {
		cfg.Client = &http.Client{Timeout: 15 * time.Second}
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Country == "" {
		cfg.Country = "US"
	}
	cfg.APIURL = strings.TrimRight(cfg.APIURL, "/")
	return &Coinbase{cfg: cfg, signer: signer, alg: alg, host: u.Host}, nil
}

// parseCDPKey reads a CDP secret: PEM EC (SEC 1 or PKCS #8) or base64 Ed25519 (64 bytes).
func parseCDPKey(s string) (crypto.Signer, string, error) {
	s = strings.TrimSpace(strings.ReplaceAll(s, `\n`, "\n"))
	if block, _ := pem.Decode([]byte(s)); block != nil {
		if k, err := x509.ParseECPrivateKey(block.Bytes); err == nil {
			return k, "ES256", nil
		}
		if k, err := x509.ParsePKCS8PrivateKey(block.Bytes); err == nil {
			switch k := k.(type) {
			case *ecdsa.PrivateKey:
				return k, "ES256", nil
			case ed25519.PrivateKey:
				return k, "EdDSA", nil
			}
		}
		return nil, "", errors.New("the Coinbase key is PEM but not an EC or Ed25519 private key")
	}
	if b, err := base64.StdEncoding.DecodeString(s); err == nil && len(b) == ed25519.PrivateKeySize {
		return ed25519.PrivateKey(b), "EdDSA", nil
	}
	return nil, "", errors.New("the Coinbase key must be a CDP secret API key: an EC private key in PEM or a base64 Ed25519 key")
}

// Name implements Provider.
func (c *Coinbase) Name() string { return "coinbase" }

// jwt is the bearer token of one CDP request: it names the method, host
// and path it is for and lasts two minutes.
func (c *Coinbase) jwt(method, path string) (string, error) {
	var nonce [16]byte
	rand.Read(nonce[:])
	now := c.cfg.Now()
	header, _ := json.Marshal(map[string]string{"alg": c.alg, "kid": c.cfg.KeyName, "typ": "JWT", "nonce": hex.EncodeToString(nonce[:])})
	claims, _ := json.Marshal(map[string]any{
		"sub": c.cfg.KeyName, "iss": "cdp", "nbf": now.Unix(), "exp": now.Add(2 * time.Minute).Unix(),
		"uri": method + " " + c.host + path,
	})
	enc := base64.RawURLEncoding
	signing := enc.EncodeToString(header) + "." + enc.EncodeToString(claims)
	var sig []byte
	switch k := c.signer.(type) {
	case *ecdsa.PrivateKey:
		sum := sha256.Sum256([]byte(signing))
		r, s, err := ecdsa.Sign(rand.Reader, k, sum[:])
		if err != nil {
			return "", err
		}
		sig = make([]byte, 64)
		r.FillBytes(sig[:32])
		s.FillBytes(sig[32:])
	case ed25519.PrivateKey:
		sig = ed25519.Sign(k, []byte(signing))
	}
	return signing + "." + enc.EncodeToString(sig), nil
}

// do sends one authenticated call and decodes a 2xx answer into out.
func (c *Coinbase) do(ctx context.Context, method, path string, query url.Values, body, out any) error {
	token, err := c.jwt(method, path)
	if err != nil {
		return err
	}
	u := c.cfg.APIURL + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return doJSON(c.cfg.Client, req, "coinbase", out)
}

// doJSON runs req and decodes a 2xx JSON answer into out; other statuses
// are errors naming the provider and status (never the credentials).
func doJSON(client *http.Client, req *http.Request, name string, out any) error {
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("%s: %s %s: %w", name, req.Method, req.URL.Path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return fmt.Errorf("%s: %s %s: %w", name, req.Method, req.URL.Path, err)
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s: %s %s: HTTP status code: %d: %.200s", name, req.Method, req.URL.Path, resp.StatusCode, b)
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("%s: %s %s: answer is not the documented JSON: %w", name, req.Method, req.URL.Path, err)
	}
	return nil
}

type cbMoney struct {
	Value    string `json:"value"`
	Currency string `json:"currency"`
}

func (m cbMoney) amount() Amount { return Amount{Amount: m.Value, Currency: m.Currency} }

// Options implements Provider: GET /onramp/v1/buy/options?country.
func (c *Coinbase) Options(ctx context.Context) (*Options, error) {
	var body struct {
		PaymentCurrencies []struct {
			ID     string `json:"id"`
			Limits []struct {
				ID  string `json:"id"`
				Min string `json:"min"`
				Max string `json:"max"`
			} `json:"limits"`
		} `json:"payment_currencies"`
		PurchaseCurrencies []struct {
			ID       string `json:"id"`
			Name     string `json:"name"`
			Symbol   string `json:"symbol"`
			Networks []struct {
				Name            string `json:"name"`
				DisplayName     string `json:"display_name"`
				ChainID         string `json:"chain_id"`
				ContractAddress string `json:"contract_address"`
			} `json:"networks"`
		} `json:"purchase_currencies"`
	}
	if err := c.do(ctx, http.MethodGet, "/onramp/v1/buy/options", url.Values{"country": {c.cfg.Country}}, nil, &body); err != nil {
		return nil, err
	}
	opts := &Options{}
	for _, p := range body.PaymentCurrencies {
		pc := PaymentCurrency{ID: p.ID}
		for _, l := range p.Limits {
			pc.PaymentMethodLimits = append(pc.PaymentMethodLimits, MethodLimit{ID: strings.ToLower(l.ID), Min: l.Min, Max: l.Max})
		}
		opts.PaymentCurrencies = append(opts.PaymentCurrencies, pc)
	}
	for _, p := range body.PurchaseCurrencies {
		pc := PurchaseCurrency{ID: p.ID, Name: p.Name, Symbol: p.Symbol}
		for _, n := range p.Networks {
			pc.Networks = append(pc.Networks, Network(n))
		}
		opts.PurchaseCurrencies = append(opts.PurchaseCurrencies, pc)
	}
	return opts, nil
}

// Quote implements Provider: POST /onramp/v1/buy/quote.
func (c *Coinbase) Quote(ctx context.Context, req QuoteRequest) (*Quote, error) {
	in := map[string]string{
		"purchase_currency": req.Purchase.ID,
		"purchase_network":  req.Network.Name,
		"payment_amount":    req.Amount,
		"payment_currency":  req.PaymentID,
		"payment_method":    strings.ToUpper(req.PaymentMethod),
		"country":           req.Country,
	}
	var out struct {
		PaymentTotal    cbMoney `json:"payment_total"`
		PaymentSubtotal cbMoney `json:"payment_subtotal"`
		PurchaseAmount  cbMoney `json:"purchase_amount"`
		CoinbaseFee     cbMoney `json:"coinbase_fee"`
		NetworkFee      cbMoney `json:"network_fee"`
		QuoteID         string  `json:"quote_id"`
	}
	if err := c.do(ctx, http.MethodPost, "/onramp/v1/buy/quote", nil, in, &out); err != nil {
		return nil, err
	}
	if out.PurchaseAmount.Value == "" || out.PaymentTotal.Value == "" {
		return nil, errors.New("coinbase: quote without purchase_amount or payment_total")
	}
	return &Quote{
		PaymentTotal: out.PaymentTotal.amount(), PaymentSubtotal: out.PaymentSubtotal.amount(),
		PurchaseAmount: out.PurchaseAmount.amount(), Fees: out.CoinbaseFee.amount(), NetworkFee: out.NetworkFee.amount(),
		QuoteID: out.QuoteID,
	}, nil
}

// Checkout implements Provider: a session token for the order's address
// and asset (POST /onramp/v1/token), then the hosted checkout's URL with
// the order id as partnerUserId, by which OrderStatus finds it.
func (c *Coinbase) Checkout(ctx context.Context, req CheckoutRequest) (Checkout, error) {
	type address struct {
		Address     string   `json:"address"`
		Blockchains []string `json:"blockchains"`
	}
	in := struct {
		Addresses []address `json:"addresses"`
		Assets    []string  `json:"assets"`
		ClientIP  string    `json:"clientIp,omitempty"`
	}{
		Addresses: []address{{Address: req.Order.Address, Blockchains: []string{req.Quote.Network.Name}}},
		Assets:    []string{req.Quote.Purchase.Symbol},
		ClientIP:  req.ClientIP,
	}
	var out struct {
		Token string `json:"token"`
	}
	if err := c.do(ctx, http.MethodPost, "/onramp/v1/token", nil, in, &out); err != nil {
		return Checkout{}, err
	}
	if out.Token == "" {
		return Checkout{}, errors.New("coinbase: session token answer without a token")
	}
	q := url.Values{
		"sessionToken":     {out.Token},
		"defaultAsset":     {req.Quote.Purchase.Symbol},
		"defaultNetwork":   {req.Quote.Network.Name},
		"presetFiatAmount": {req.Quote.Amount},
		"fiatCurrency":     {req.Quote.PaymentID},
		"partnerUserId":    {req.Order.ID},
	}
	return Checkout{URL: strings.TrimRight(c.cfg.PayURL, "/") + "/buy/select-asset?" + q.Encode()}, nil
}

// OrderStatus implements Provider: the newest transaction of the order's
// partnerUserId (GET /onramp/v1/buy/user/{id}/transactions).
func (c *Coinbase) OrderStatus(ctx context.Context, o *Order) (OrderUpdate, error) {
	var out struct {
		Transactions []struct {
			Status         string  `json:"status"`
			PurchaseAmount cbMoney `json:"purchase_amount"`
			TxHash         string  `json:"tx_hash"`
		} `json:"transactions"`
	}
	path := "/onramp/v1/buy/user/" + url.PathEscape(o.ID) + "/transactions"
	if err := c.do(ctx, http.MethodGet, path, url.Values{"page_size": {strconv.Itoa(1)}}, nil, &out); err != nil {
		return OrderUpdate{}, err
	}
	if len(out.Transactions) == 0 {
		return OrderUpdate{Status: StatusPending}, nil
	}
	t := out.Transactions[0]
	up := OrderUpdate{Status: StatusPending, TxHash: t.TxHash, PurchaseAmount: t.PurchaseAmount.Value}
	switch t.Status {
	case "ONRAMP_TRANSACTION_STATUS_SUCCESS":
		up.Status = StatusCompleted
	case "ONRAMP_TRANSACTION_STATUS_FAILED":
		up.Status, up.Error = StatusFailed, "Coinbase could not complete the purchase"
	}
	return up, nil
}
