package onramp

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// cdpKey is a CDP-style EC secret key in PEM.
func cdpKey(t *testing.T) (*ecdsa.PrivateKey, string) {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, _ := x509.MarshalECPrivateKey(k)
	return k, string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der}))
}

// checkCDPJWT verifies a Coinbase bearer JWT as CDP does: ES256 over
// header.claims with the key's public half, naming the request's method,
// host and path, from cdp, for the key, valid now.
func checkCDPJWT(t *testing.T, r *http.Request, pub *ecdsa.PublicKey, keyName string) {
	t.Helper()
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	parts := strings.Split(tok, ".")
	if !ok || len(parts) != 3 {
		t.Errorf("Authorization %q is not a bearer JWT", r.Header.Get("Authorization"))
		return
	}
	enc := base64.RawURLEncoding
	sig, _ := enc.DecodeString(parts[2])
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if len(sig) != 64 || !ecdsa.Verify(pub, sum[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		t.Errorf("JWT signature does not verify")
	}
	var h, c map[string]any
	hb, _ := enc.DecodeString(parts[0])
	cb, _ := enc.DecodeString(parts[1])
	json.Unmarshal(hb, &h)
	json.Unmarshal(cb, &c)
	if h["alg"] != "ES256" || h["kid"] != keyName || h["nonce"] == "" {
		t.Errorf("JWT header %v", h)
	}
	wantURI := r.Method + " " + r.Host + r.URL.Path
	now := float64(time.Now().Unix())
	if c["iss"] != "cdp" || c["sub"] != keyName || c["uri"] != wantURI || c["nbf"].(float64) > now+1 || c["exp"].(float64) < now {
		t.Errorf("JWT claims %v, want uri %q", c, wantURI)
	}
}

// fakeCoinbase speaks Coinbase Onramp's documented v1 shapes.
func fakeCoinbase(t *testing.T, pub *ecdsa.PublicKey, keyName string) (*httptest.Server, *sync.Map) {
	seen := &sync.Map{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		checkCDPJWT(t, r, pub, keyName)
		body, _ := io.ReadAll(r.Body)
		seen.Store(r.Method+" "+r.URL.Path, string(body)+"?"+r.URL.RawQuery)
		w.Header().Set("Content-Type", "application/json")
		switch r.Method + " " + r.URL.Path {
		case "GET /onramp/v1/buy/options":
			io.WriteString(w, `{"payment_currencies":[{"id":"USD","limits":[{"id":"CARD","min":"2","max":"500"},{"id":"ACH_BANK_ACCOUNT","min":"2","max":"25000"}]}],
				"purchase_currencies":[{"id":"2b92315d-eab7-5bef-84fa-089a131333f5","name":"USD Coin","symbol":"USDC","networks":[{"name":"base","display_name":"Base","chain_id":"8453","contract_address":"0x833589fcd6edb6e08f4c7c32d4f71b54bda02913"}]}]}`)
		case "POST /onramp/v1/buy/quote":
			io.WriteString(w, `{"payment_total":{"value":"100.00","currency":"USD"},"payment_subtotal":{"value":"97.51","currency":"USD"},"purchase_amount":{"value":"97.510000","currency":"USDC"},"coinbase_fee":{"value":"2.49","currency":"USD"},"network_fee":{"value":"0.00","currency":"USD"},"quote_id":"cb-q-1"}`)
		case "POST /onramp/v1/token":
			io.WriteString(w, `{"token":"ZWJjZGVm","channel_id":""}`)
		default:
			if strings.HasPrefix(r.URL.Path, "/onramp/v1/buy/user/") {
				io.WriteString(w, `{"transactions":[{"status":"ONRAMP_TRANSACTION_STATUS_SUCCESS","purchase_amount":{"value":"97.51","currency":"USDC"},"tx_hash":"0xabc"}],"next_page_key":"","total_count":"1"}`)
				return
			}
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, seen
}

func TestCoinbase(t *testing.T) {
	key, pemKey := cdpKey(t)
	const keyName = "organizations/org-1/apiKeys/key-1"
	srv, seen := fakeCoinbase(t, &key.PublicKey, keyName)
	cb, err := NewCoinbase(CoinbaseConfig{KeyName: keyName, Key: pemKey, APIURL: srv.URL, PayURL: "https://pay.example", Country: "US"})
	if err != nil {
		t.Fatal(err)
	}
	svc, pid, _ := newTestService(t, cb)
	ctx := context.Background()

	opts, fallback, err := svc.Options(ctx, "")
	if err != nil || fallback {
		t.Fatalf("options: %v %v", err, fallback)
	}
	if l := opts.PaymentCurrencies[0].PaymentMethodLimits; l[0] != (MethodLimit{"card", "2", "500"}) || l[1].ID != "ach_bank_account" {
		t.Fatalf("limits %+v", l)
	}
	if n := opts.PurchaseCurrencies[0].Networks[0]; n.Name != "base" || n.ChainID != "8453" {
		t.Fatalf("network %+v", n)
	}
	if q, _ := seen.Load("GET /onramp/v1/buy/options"); !strings.HasSuffix(q.(string), "?country=US") {
		t.Fatalf("options query %v", q)
	}
	// Coinbase's own limits apply.
	_, err = svc.Quote(ctx, QuoteInput{Amount: "600"})
	wantError(t, err, "invalid", "amount", "Amount must be between 2 and 500 USD for card")

	q, err := svc.Quote(ctx, QuoteInput{Amount: "100", Network: "8453"})
	if err != nil {
		t.Fatal(err)
	}
	if q.PurchaseAmount != (Amount{"97.510000", "USDC"}) || q.Fees != (Amount{"2.49", "USD"}) || q.PaymentTotal.Amount != "100.00" || q.QuoteID != "cb-q-1" || q.Provider != "coinbase" {
		t.Fatalf("quote %+v", q)
	}
	body, _ := seen.Load("POST /onramp/v1/buy/quote")
	var in map[string]string
	json.Unmarshal([]byte(strings.TrimSuffix(body.(string), "?")), &in)
	if in["purchase_currency"] != "2b92315d-eab7-5bef-84fa-089a131333f5" || in["purchase_network"] != "base" || in["payment_amount"] != "100.00" || in["payment_method"] != "CARD" || in["country"] != "US" {
		t.Fatalf("quote request %v", in)
	}

	addr := "0x" + strings.Repeat("cd", 20)
	o, link, err := svc.Checkout(ctx, pid, CheckoutInput{QuoteInput: QuoteInput{Amount: "100", Address: addr}, ClientIP: "203.0.113.9"})
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(link)
	if u.Host != "pay.example" || u.Path != "/buy/select-asset" || u.Query().Get("sessionToken") != "ZWJjZGVm" || u.Query().Get("partnerUserId") != o.ID || u.Query().Get("presetFiatAmount") != "100.00" || u.Query().Get("defaultNetwork") != "base" {
		t.Fatalf("checkout URL %s", link)
	}
	body, _ = seen.Load("POST /onramp/v1/token")
	var tok struct {
		Addresses []struct {
			Address     string
			Blockchains []string
		}
		Assets   []string
		ClientIP string `json:"clientIp"`
	}
	json.Unmarshal([]byte(strings.TrimSuffix(body.(string), "?")), &tok)
	if len(tok.Addresses) != 1 || tok.Addresses[0].Address != addr || tok.Addresses[0].Blockchains[0] != "base" || tok.Assets[0] != "USDC" || tok.ClientIP != "203.0.113.9" {
		t.Fatalf("token request %s", body)
	}
	got, err := svc.Order(ctx, pid, o.ID)
	if err != nil || got.Status != StatusCompleted || got.TxHash != "0xabc" || got.PurchaseAmount != "97.51" {
		t.Fatalf("order %+v %v", got, err)
	}
	if _, ok := seen.Load("GET /onramp/v1/buy/user/" + o.ID + "/transactions"); !ok {
		t.Fatalf("the order's transactions were not asked by its partnerUserId")
	}
}

func TestNewCoinbase_Keys(t *testing.T) {
	_, pemKey := cdpKey(t)
	for _, tc := range []struct{ name, keyName, key, err string }{
		{"ErrNoName", "", pemKey, "the Coinbase key name is required"},
		{"ErrNotAKey", "k", "not-a-key", "the Coinbase key must be a CDP secret API key"},
		{"ErrRSA", "k", "-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----", "the Coinbase key is PEM but not an EC or Ed25519 private key"},
	} {
		_, err := NewCoinbase(CoinbaseConfig{KeyName: tc.keyName, Key: tc.key})
		if err == nil || !strings.Contains(err.Error(), tc.err) || strings.Contains(err.Error(), "MIIB") {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	// A key pasted with literal \n (an environment variable) is read.
	if _, err := NewCoinbase(CoinbaseConfig{KeyName: "k", Key: strings.ReplaceAll(pemKey, "\n", `\n`)}); err != nil {
		t.Errorf("escaped newlines: %v", err)
	}
	ed := base64.StdEncoding.EncodeToString(make([]byte, 64))
	if c, err := NewCoinbase(CoinbaseConfig{KeyName: "k", Key: ed}); err != nil || c.alg != "EdDSA" {
		t.Errorf("Ed25519: %v", err)
	}
}

// fakeMeld speaks Meld's documented quote, widget and transactions shapes.
func fakeMeld(t *testing.T) (*httptest.Server, *sync.Map) {
	seen := &sync.Map{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "BASIC meld-key" || r.Header.Get("Meld-Version") != meldVersion {
			http.Error(w, `{"code":"UNAUTHORIZED"}`, http.StatusUnauthorized)
			return
		}
		body, _ := io.ReadAll(r.Body)
		seen.Store(r.Method+" "+r.URL.Path, string(body)+"?"+r.URL.RawQuery)
		w.Header().Set("Content-Type", "application/json")
		switch r.Method + " " + r.URL.Path {
		case "POST /payments/crypto/quote":
			io.WriteString(w, `{"quotes":[
				{"transactionType":"CRYPTO_PURCHASE","sourceAmount":50,"sourceAmountWithoutFees":47.9,"fiatAmountWithoutFees":47.9,"destinationAmount":47.8,"destinationCurrencyCode":"USDC_POLYGON","sourceCurrencyCode":"USD","totalFee":2.1,"networkFee":0.01,"transactionFee":2.09,"exchangeRate":1.0,"paymentMethodType":"CREDIT_DEBIT_CARD","customerScore":20,"serviceProvider":"BANXA"},
				{"transactionType":"CRYPTO_PURCHASE","sourceAmount":50,"sourceAmountWithoutFees":48.5,"fiatAmountWithoutFees":48.5,"destinationAmount":48.45,"destinationCurrencyCode":"USDC_POLYGON","sourceCurrencyCode":"USD","totalFee":1.5,"networkFee":0.05,"transactionFee":1.45,"exchangeRate":1.0,"paymentMethodType":"CREDIT_DEBIT_CARD","customerScore":10,"serviceProvider":"TRANSAK"}],"message":null,"error":null}`)
		case "POST /crypto/session/widget":
			io.WriteString(w, `{"id":"WePzm7gRdUgis7VHQjMYYL","externalSessionId":"x","customerId":"c","widgetUrl":"https://sb.meldcrypto.com?token=abc","token":"abc"}`)
		case "GET /payments/transactions":
			io.WriteString(w, `{"transactions":[{"id":"t1","status":"DECLINED","destinationAmount":null,"cryptoDetails":{}}],"count":1}`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, seen
}

func TestMeld(t *testing.T) {
	srv, seen := fakeMeld(t)
	m, err := NewMeld(MeldConfig{APIKey: "meld-key", APIURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	svc, pid, _ := newTestService(t, m)
	ctx := context.Background()
	// No options API: the built-in options, not reported as a failure.
	if opts, fallback, err := svc.Options(ctx, ""); err != nil || fallback || opts.PaymentCurrencies[0].ID != "USD" {
		t.Fatalf("options %v %v", fallback, err)
	}
	addr := "0x" + strings.Repeat("ef", 20)
	q, err := svc.Quote(ctx, QuoteInput{Amount: "50", Network: "polygon-mainnet", Address: addr})
	if err != nil {
		t.Fatal(err)
	}
	// The quote that delivers the most.
	if q.PurchaseAmount != (Amount{"48.45", "USDC"}) || q.PaymentSubtotal.Amount != "48.50" || q.Fees.Amount != "1.45" || q.NetworkFee.Amount != "0.05" || q.QuoteID != "meld:TRANSAK" {
		t.Fatalf("quote %+v", q)
	}
	body, _ := seen.Load("POST /payments/crypto/quote")
	var in map[string]any
	json.Unmarshal([]byte(strings.TrimSuffix(body.(string), "?")), &in)
	if in["destinationCurrencyCode"] != "USDC_POLYGON" || in["sourceCurrencyCode"] != "USD" || in["sourceAmount"] != 50.0 || in["countryCode"] != "US" || in["paymentMethodType"] != "CREDIT_DEBIT_CARD" || in["walletAddress"] != addr {
		t.Fatalf("quote request %v", in)
	}
	o, link, err := svc.Checkout(ctx, pid, CheckoutInput{QuoteInput: QuoteInput{Amount: "50", Address: addr}})
	if err != nil || link != "https://sb.meldcrypto.com?token=abc" {
		t.Fatalf("checkout %q %v", link, err)
	}
	body, _ = seen.Load("POST /crypto/session/widget")
	var w struct {
		SessionType        string
		ExternalSessionID  string `json:"externalSessionId"`
		ExternalCustomerID string `json:"externalCustomerId"`
		SessionData        map[string]any
	}
	json.Unmarshal([]byte(strings.TrimSuffix(body.(string), "?")), &w)
	if w.SessionType != "BUY" || w.ExternalSessionID != o.ID || w.ExternalCustomerID != pid || w.SessionData["serviceProvider"] != "TRANSAK" || w.SessionData["destinationCurrencyCode"] != "USDC" || w.SessionData["walletAddress"] != addr {
		t.Fatalf("widget request %s", body)
	}
	got, err := svc.Order(ctx, pid, o.ID)
	if err != nil || got.Status != StatusFailed || got.ProviderRef != "WePzm7gRdUgis7VHQjMYYL" || got.Error != "The on-ramp could not complete the purchase (declined)" {
		t.Fatalf("order %+v %v", got, err)
	}
	if q, _ := seen.Load("GET /payments/transactions"); !strings.HasSuffix(q.(string), "?externalSessionIds="+o.ID) {
		t.Fatalf("transactions query %v", q)
	}

	// A wrong key: Meld refuses; the view gets an error, not a quote, and
	// the key is in no message.
	bad, _ := NewMeld(MeldConfig{APIKey: "wrong", APIURL: srv.URL})
	svc2, _, _ := newTestService(t, bad)
	_, err = svc2.Quote(ctx, QuoteInput{Amount: "50"})
	wantError(t, err, "unavailable", "", "The on-ramp provider meld could not give a quote; try again later")
	if _, err := bad.Quote(ctx, QuoteRequest{Amount: "50.00", PaymentID: "USD", Purchase: PurchaseCurrency{Symbol: "USDC"}}); err == nil || strings.Contains(err.Error(), "wrong") || !strings.Contains(err.Error(), "401") {
		t.Fatalf("provider error %v", err)
	}
}
