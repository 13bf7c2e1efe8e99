package app_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/latchkit/latch/internal/app"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/store/storetest"
)

// callOnramp calls the on-ramp routes for the contract test: options,
// quotes accepted and refused, a checkout, its order, the dev checkout
// page and its payment, and the operator's listing.
func callOnramp(t *testing.T, c *contract, bases map[string]string, pid string, info app.DevInfo, bearer []string) {
	send := func(cl call, want int) []byte {
		t.Helper()
		status, _, b := c.do(t, bases, cl)
		if status != want {
			t.Fatalf("%s %s: %d, want %d: %s", cl.op, cl.url, status, want, b)
		}
		return b
	}
	send(call{op: "GET /v1/onramp/options", url: "/v1/onramp/options?" + pid}, 200)
	send(call{op: "GET /v1/onramp/options", url: "/v1/onramp/options?provider=nobody&" + pid}, 400)
	send(call{op: "GET /v1/onramp/options", url: "/v1/onramp/options"}, 401)
	quote := `{"purchaseCurrency":"USDC","paymentCurrency":"USD","amount":"50","network":"eip155:31337"}`
	send(call{op: "POST /v1/onramp/quote", url: "/v1/onramp/quote?" + pid, body: quote}, 200)
	send(call{op: "POST /v1/onramp/quote", url: "/v1/onramp/quote?" + pid, body: `{"purchaseCurrency":{"id":"USDC"},"paymentCurrency":{"id":"USD"},"amount":5,"network":"eip155:31337"}`}, 400)
	send(call{op: "POST /v1/onramp/quote", url: "/v1/onramp/quote?" + pid, body: `{"amount":`}, 400)
	send(call{op: "POST /v1/onramp/quote", url: "/v1/onramp/quote?" + pid, body: quote, hdr: []string{"Content-Type", "application/xml"}}, 415)
	gen := fmt.Sprintf(`{"destinationWallets":[{"address":%q,"assets":["USDC"],"blockchains":["eip155:31337"]}],"partnerUserId":"u1","defaultExperience":"buy","presetFiatAmount":20}`, info.Accounts[4])
	var co struct{ URL, OrderID string }
	json.Unmarshal(send(call{op: "POST /v1/generators/onrampurl", url: "/v1/generators/onrampurl?" + pid, body: gen}, 200), &co)
	send(call{op: "POST /v1/generators/onrampurl", url: "/v1/generators/onrampurl?" + pid, body: `{"destinationWallets":[],"presetFiatAmount":20}`}, 400)
	send(call{op: "GET /v1/onramp/orders/{id}", url: "/v1/onramp/orders/" + co.OrderID + "?" + pid}, 200)
	send(call{op: "GET /v1/onramp/orders/{id}", url: "/v1/onramp/orders/" + strings.Repeat("0", 32) + "?" + pid}, 404)
	page := "/dev/onramp/checkout/" + co.OrderID
	send(call{op: "GET /dev/onramp/checkout/{id}", url: page}, 200)
	send(call{op: "GET /dev/onramp/checkout/{id}", url: "/dev/onramp/checkout/nope"}, 400)
	send(call{op: "GET /dev/onramp/checkout/{id}", url: "/dev/onramp/checkout/" + strings.Repeat("0", 32)}, 404)
	form := []string{"Content-Type", "application/x-www-form-urlencoded"}
	send(call{op: "POST /dev/onramp/checkout/{id}", url: page, body: "card=1234", hdr: form}, 400)
	send(call{op: "POST /dev/onramp/checkout/{id}", url: page, body: "card=4242+4242+4242+4242", hdr: form}, 200)
	send(call{op: "POST /dev/onramp/checkout/{id}", url: page, body: "card=4242424242424242", hdr: form}, 409)
	send(call{op: "GET /v1/onramp/orders", url: "/v1/onramp/orders?limit=10&" + pid, hdr: bearer}, 200)
	send(call{op: "GET /v1/onramp/orders", url: "/v1/onramp/orders?limit=0&" + pid, hdr: bearer}, 400)
}

// The dev provider end to end: options of the dev chains, a quote from the
// dev price feed, a checkout, the test card paying on latchd's page, the
// address credited on the dev chain with the quoted amount, and the
// order completed with that transaction.
func TestOnramp_DevCheckoutCreditsAddress(t *testing.T) {
	m := MustRunMain(t, "")
	c := &client{t: t, base: m.APIURL()}
	var info app.DevInfo
	c.do("GET", "/dev/info", "").json(t, &info)
	pid := "projectId=" + info.ProjectID
	buyer := info.Accounts[5]
	usdc := common.HexToAddress(info.Tokens["eip155:31338"]["USDC"].Address)

	var opts struct {
		Providers          []string
		Fallback           bool
		PurchaseCurrencies []struct {
			ID       string
			Networks []struct {
				Name            string `json:"name"`
				ChainID         string `json:"chain_id"`
				ContractAddress string `json:"contract_address"`
			}
		}
	}
	c.do("GET", "/v1/onramp/options?"+pid, "").json(t, &opts)
	if len(opts.Providers) != 1 || opts.Providers[0] != "dev" || opts.Fallback {
		t.Fatalf("providers %v, fallback %v; want [dev], false", opts.Providers, opts.Fallback)
	}
	found := false
	for _, pc := range opts.PurchaseCurrencies {
		for _, n := range pc.Networks {
			found = found || pc.ID == "USDC" && n.Name == "eip155:31338" && common.HexToAddress(n.ContractAddress) == usdc
		}
	}
	if !found {
		t.Fatalf("USDC on eip155:31338 is not among the options: %+v", opts.PurchaseCurrencies)
	}

	var q struct {
		PurchaseAmount struct{ Amount, Currency string }
		Fees           struct{ Amount string }
	}
	r := c.do("POST", "/v1/onramp/quote?"+pid, `{"purchaseCurrency":"USDC","amount":"50","network":"eip155:31338"}`)
	if r.status != 200 {
		t.Fatalf("quote: %d %s", r.status, r.body)
	}
	r.json(t, &q)
	// The dev USDC feed is 1.00 USD; the dev fee is 1%.
	if q.PurchaseAmount.Amount != "49.500000" || q.PurchaseAmount.Currency != "USDC" || q.Fees.Amount != "0.50" {
		t.Fatalf("quote %+v, want 49.500000 USDC after a 0.50 fee", q)
	}

	rpc := info.Networks[1].RPCURL
	before := erc20Balance(t, rpc, usdc, common.HexToAddress(buyer))
	var co struct{ URL, OrderID string }
	r = c.do("POST", "/v1/generators/onrampurl?"+pid, fmt.Sprintf(`{"destinationWallets":[{"address":%q,"assets":["USDC"]}],"defaultNetwork":"eip155:31338","presetFiatAmount":"50"}`, buyer))
	if r.status != 200 {
		t.Fatalf("checkout: %d %s", r.status, r.body)
	}
	r.json(t, &co)
	if !strings.HasPrefix(co.URL, m.APIURL()+"/dev/onramp/checkout/") {
		t.Fatalf("checkout URL %q is not this latchd's dev page", co.URL)
	}
	order := func() map[string]any {
		var o map[string]any
		c.do("GET", "/v1/onramp/orders/"+co.OrderID+"?"+pid, "").json(t, &o)
		return o
	}
	if o := order(); o["status"] != "pending" || o["purchaseAmount"] != "49.500000" || o["paymentAmount"] != "50.00" {
		t.Fatalf("new order: %v", o)
	}
	// As the page's own form posts it: with the page's Origin.
	req, _ := http.NewRequest("POST", co.URL, strings.NewReader(url.Values{"card": {"4242 4242 4242 4242"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", m.APIURL())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(page), "Payment complete") {
		t.Fatalf("pay: %d %s", resp.StatusCode, page)
	}
	o := order()
	if o["status"] != "completed" || !regexp.MustCompile(`^0x[0-9a-f]{64}$`).MatchString(fmt.Sprint(o["txHash"])) {
		t.Fatalf("paid order: %v", o)
	}
	after := erc20Balance(t, rpc, usdc, common.HexToAddress(buyer))
	if got := new(big.Int).Sub(after, before); got.Cmp(big.NewInt(49_500_000)) != 0 {
		t.Fatalf("balance grew by %s base units, want 49500000 (49.5 USDC)", got)
	}
	ec, _ := ethclient.Dial(rpc)
	defer ec.Close()
	rcpt, err := ec.TransactionReceipt(context.Background(), common.HexToHash(fmt.Sprint(o["txHash"])))
	if err != nil || rcpt.Status != 1 {
		t.Fatalf("the order's transaction is not mined: %v %v", rcpt, err)
	}

	// The operator's listing has it; without the token it is refused.
	var list struct{ Orders []map[string]any }
	c.do("GET", "/v1/onramp/orders?"+pid, "", "Authorization", "Bearer "+adminToken).json(t, &list)
	if len(list.Orders) == 0 || list.Orders[0]["id"] != co.OrderID || list.Orders[0]["status"] != "completed" {
		t.Fatalf("listing: %v", list.Orders)
	}
	if r := c.do("GET", "/v1/onramp/orders?"+pid, ""); r.status != 401 && r.status != 403 {
		t.Fatalf("listing without the admin token: %d", r.status)
	}

	// The decline card fails a second order, and nothing is credited.
	r = c.do("POST", "/v1/generators/onrampurl?"+pid, fmt.Sprintf(`{"destinationWallets":[{"address":%q}],"defaultNetwork":"eip155:31338","presetFiatAmount":20}`, buyer))
	r.json(t, &co)
	resp, err = http.PostForm(co.URL, url.Values{"card": {"4000000000000002"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if o := order(); resp.StatusCode != http.StatusPaymentRequired || o["status"] != "failed" || o["error"] != "Your card was declined" {
		t.Fatalf("declined: %d %v", resp.StatusCode, o)
	}
	if b := erc20Balance(t, rpc, usdc, common.HexToAddress(buyer)); b.Cmp(after) != 0 {
		t.Fatalf("a declined order credited %s", new(big.Int).Sub(b, after))
	}
}

// The operator's providers: the key flags turn Coinbase and Meld on (in
// that order), their URL flags point them at fakes speaking the documented
// shapes, --onramp-country is the country they quote for, and
// --onramp-rate-limit caps quotes and checkouts per client IP.
func TestOnramp_OperatorProviders(t *testing.T) {
	var meldCountry, meldAuth string
	meld := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in map[string]any
		json.NewDecoder(r.Body).Decode(&in)
		meldCountry, meldAuth = fmt.Sprint(in["countryCode"]), r.Header.Get("Authorization")
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"quotes":[{"serviceProvider":"TRANSAK","sourceAmount":50,"sourceAmountWithoutFees":48.5,"sourceCurrencyCode":"USD","destinationAmount":48.4,"destinationCurrencyCode":"USDC","transactionFee":1.5,"networkFee":0.1}]}`)
	}))
	defer meld.Close()
	coinbase := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusBadGateway)
	}))
	defer coinbase.Close()
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	der, _ := x509.MarshalECPrivateKey(key)
	pemKey := string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der}))

	cfg := app.Config{Addr: "127.0.0.1:0", FrameAddr: "127.0.0.1:0", DataDir: storetest.SQLiteDir(t), ShutdownTimeout: 5 * time.Second,
		RelayURL: "ws://127.0.0.1/relay",
		Onramp: app.OnrampConfig{Country: "DE", RateLimit: 2, CoinbaseKeyName: "organizations/o/apiKeys/k", CoinbaseKey: pemKey, CoinbaseAPIURL: coinbase.URL,
			MeldAPIKey: "meld-secret", MeldAPIURL: meld.URL}}
	m := app.NewMain(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	p := &project.Project{Name: "shop", Features: project.DefaultFeatures()}
	if err := m.Projects.Create(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	c := &client{t: t, base: m.APIURL()}
	pid := "projectId=" + p.ID

	var opts struct {
		Providers []string
		Fallback  bool
	}
	c.do("GET", "/v1/onramp/options?"+pid, "").json(t, &opts)
	// Coinbase (first) fails: the built-in options, said so.
	if strings.Join(opts.Providers, ",") != "coinbase,meld" || !opts.Fallback {
		t.Fatalf("options: %+v; want providers coinbase,meld and the fallback", opts)
	}
	c.want(c.do("POST", "/v1/onramp/quote?"+pid, `{"amount":"50"}`), 503, "The on-ramp provider coinbase could not give a quote; try again later")
	r := c.do("POST", "/v1/onramp/quote?"+pid, `{"amount":"50","provider":"meld","network":"Polygon"}`)
	c.want(r, 200, `"purchaseAmount":{"amount":"48.4","currency":"USDC"}`, `"quoteId":"meld:TRANSAK"`)
	if meldCountry != "DE" || meldAuth != "BASIC meld-secret" {
		t.Fatalf("Meld was asked for country %q with %q; want DE and the key", meldCountry, meldAuth)
	}
	c.want(c.do("POST", "/v1/onramp/quote?"+pid, `{"amount":"50","provider":"meld"}`), 429)
	c.want(c.do("POST", "/v1/generators/onrampurl?"+pid, `{}`), 429)
}

// erc20Balance reads balanceOf(owner) of token.
func erc20Balance(t *testing.T, rpc string, token, owner common.Address) *big.Int {
	t.Helper()
	ec, err := ethclient.Dial(rpc)
	if err != nil {
		t.Fatal(err)
	}
	defer ec.Close()
	data := append(common.FromHex("0x70a08231"), common.LeftPadBytes(owner.Bytes(), 32)...)
	out, err := ec.CallContract(context.Background(), ethereum.CallMsg{To: &token, Data: data}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return new(big.Int).SetBytes(out)
}
