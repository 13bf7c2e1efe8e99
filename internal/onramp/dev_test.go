package onramp

import (
	"context"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/latchkit/latch/internal/apperr"
)

type funding struct{ network, address, symbol, amount string }

// newTestDev is the dev provider over two assets of one dev network, with
// ETH at 2500 USD, and a Fund that records what it sends.
func newTestDev(t *testing.T, fundErr error) (*Service, *Dev, string, *[]funding, *httptest.Server) {
	t.Helper()
	var mu sync.Mutex
	var funded []funding
	var dev *Dev
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	db, pid := MustOpenDB(t)
	st := NewStore(db)
	dev = NewDev(DevConfig{
		Networks: []DevNetwork{{CAIPNetworkID: "eip155:31337", ChainID: 31337, Name: "Latch Dev", Assets: []DevAsset{
			{Symbol: "ETH", Name: "Ether", Decimals: 18},
			{Symbol: "USDC", Name: "USD Coin", Decimals: 6, Address: "0x00000000000000000000000000000000000000c1"},
		}}},
		Price: func(ctx context.Context, network, asset string) (*big.Rat, error) {
			if asset == "" {
				return big.NewRat(2500, 1), nil
			}
			return big.NewRat(1, 1), nil
		},
		Fund: func(ctx context.Context, network, address, symbol, amount string) (string, error) {
			mu.Lock()
			defer mu.Unlock()
			funded = append(funded, funding{network, address, symbol, amount})
			return "0x" + strings.Repeat("ab", 32), fundErr
		},
		CheckoutURL: func(id string) string { return DevCheckoutURL(srv.URL, id) },
		Store:       st,
	})
	mux.HandleFunc("GET "+DevCheckoutPath, dev.ServeCheckout)
	mux.HandleFunc("POST "+DevCheckoutPath, dev.Pay)
	svc := NewService(Config{Providers: []Provider{dev}, Store: st})
	return svc, dev, pid, &funded, srv
}

func TestDev_OptionsAndQuote(t *testing.T) {
	svc, _, _, _, _ := newTestDev(t, nil)
	ctx := context.Background()
	opts, fallback, err := svc.Options(ctx, "")
	if err != nil || fallback || len(opts.PaymentCurrencies) != 1 || opts.PaymentCurrencies[0].ID != "USD" || len(opts.PurchaseCurrencies) != 2 {
		t.Fatalf("options %+v %v %v", opts, fallback, err)
	}
	if n := opts.PurchaseCurrencies[1].Networks[0]; n.Name != "eip155:31337" || n.ChainID != "31337" || n.DisplayName != "Latch Dev" || n.ContractAddress == "" {
		t.Fatalf("network %+v", n)
	}
	q, err := svc.Quote(ctx, QuoteInput{Amount: "50"})
	if err != nil {
		t.Fatal(err)
	}
	if q.PaymentTotal.Amount != "50.00" || q.Fees.Amount != "0.50" || q.PaymentSubtotal.Amount != "49.50" || q.PurchaseAmount != (Amount{"49.500000", "USDC"}) || q.NetworkFee.Amount != "0.00" || !strings.HasPrefix(q.QuoteID, "dev-") {
		t.Fatalf("USDC quote %+v", q)
	}
	// 100 USD of ETH at 2500: 1% fee, 99 / 2500 = 0.0396.
	q, err = svc.Quote(ctx, QuoteInput{Amount: "100", PurchaseCurrency: "ETH", Network: "31337"})
	if err != nil || q.PurchaseAmount != (Amount{"0.03960000", "ETH"}) {
		t.Fatalf("ETH quote %+v %v", q, err)
	}
	// The dev provider sells in USD only; EUR is not among its options.
	_, err = svc.Quote(ctx, QuoteInput{Amount: "50", PaymentCurrency: "EUR"})
	wantError(t, err, apperr.Invalid, "paymentCurrency", `Unknown payment currency "EUR"`)
	_, err = svc.Quote(ctx, QuoteInput{Amount: "50", Network: "eip155:1"})
	wantError(t, err, apperr.Invalid, "network", `Unknown network "eip155:1" for USDC`)
}

func postCard(t *testing.T, link, card string) (int, string) {
	t.Helper()
	resp, err := http.PostForm(link, url.Values{"card": {card}})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	// same-origin: the form's own POST then carries the page's Origin (no-referrer would send Origin: null).
	if resp.Header.Get("Content-Security-Policy") == "" || resp.Header.Get("Cache-Control") != "no-store" || resp.Header.Get("Referrer-Policy") != "same-origin" {
		t.Fatalf("page headers %v", resp.Header)
	}
	return resp.StatusCode, string(b)
}

func TestDev_Checkout(t *testing.T) {
	svc, _, pid, funded, srv := newTestDev(t, nil)
	ctx := context.Background()
	addr := "0x" + strings.Repeat("12", 20)
	o, link, err := svc.Checkout(ctx, pid, CheckoutInput{QuoteInput: QuoteInput{Amount: "20", Address: addr}})
	if err != nil {
		t.Fatal(err)
	}
	if link != srv.URL+"/dev/onramp/checkout/"+o.ID {
		t.Fatalf("link %s", link)
	}
	resp, err := http.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(page), "Buy 19.800000 USDC for 20.00 USD (card)") || !strings.Contains(string(page), "on Latch Dev") {
		t.Fatalf("page %d %s", resp.StatusCode, page)
	}
	if status, body := postCard(t, link, "1111 2222 3333 4444"); status != 400 || !strings.Contains(body, "Use the test card 4242 4242 4242 4242") {
		t.Fatalf("other card: %d %s", status, body)
	}
	if len(*funded) != 0 {
		t.Fatalf("an unpaid order was funded")
	}
	// Two payments at once: one credits, the other is refused.
	var wg sync.WaitGroup
	statuses := make([]int, 2)
	for i := range statuses {
		wg.Go(func() { statuses[i], _ = postCard(t, link, "4242-4242-4242-4242") })
	}
	wg.Wait()
	if statuses[0]+statuses[1] != 200+409 {
		t.Fatalf("concurrent payments: %v, want one 200 and one 409", statuses)
	}
	if len(*funded) != 1 || (*funded)[0] != (funding{"eip155:31337", addr, "USDC", "19.800000"}) {
		t.Fatalf("funded %+v", *funded)
	}
	got, _ := svc.Order(ctx, pid, o.ID)
	if got.Status != StatusCompleted || got.TxHash != "0x"+strings.Repeat("ab", 32) {
		t.Fatalf("order %+v", got)
	}

	// The decline card fails the order.
	o2, link2, _ := svc.Checkout(ctx, pid, CheckoutInput{QuoteInput: QuoteInput{Amount: "20", Address: addr}})
	if status, body := postCard(t, link2, "4000 0000 0000 0002"); status != http.StatusPaymentRequired || !strings.Contains(body, "Your card was declined") {
		t.Fatalf("decline: %d %s", status, body)
	}
	if got, _ := svc.Order(ctx, pid, o2.ID); got.Status != StatusFailed || got.Error != "Your card was declined" || len(*funded) != 1 {
		t.Fatalf("declined order %+v", got)
	}
	// An unknown order.
	if resp, _ := http.Get(srv.URL + "/dev/onramp/checkout/" + strings.Repeat("0", 32)); resp.StatusCode != 404 {
		t.Fatalf("unknown order: %d", resp.StatusCode)
	}
}

// The faucet failing fails the order with its reason, and says so.
func TestDev_FundFails(t *testing.T) {
	svc, _, pid, _, _ := newTestDev(t, apperr.Fieldf(apperr.Invalid, "amount", "Amount must be at most 1000 ETH per request"))
	o, link, _ := svc.Checkout(context.Background(), pid, CheckoutInput{QuoteInput: QuoteInput{Amount: "20", Address: "0x" + strings.Repeat("12", 20)}})
	if status, body := postCard(t, link, "4242424242424242"); status != http.StatusBadGateway || !strings.Contains(body, "The dev chain could not send the asset: Amount must be at most 1000 ETH per request") {
		t.Fatalf("pay: %d %s", status, body)
	}
	got, _ := svc.Order(context.Background(), pid, o.ID)
	if got.Status != StatusFailed {
		t.Fatalf("order %+v", got)
	}
}

// The checkout page is in its locale parameter (the widget adds it), else the
// browser's languages; the form posts back with it.
func TestDev_CheckoutLocale(t *testing.T) {
	svc, _, pid, _, _ := newTestDev(t, nil)
	o, link, err := svc.Checkout(context.Background(), pid, CheckoutInput{QuoteInput: QuoteInput{Amount: "20", Address: "0x" + strings.Repeat("12", 20)}})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(link + "?locale=de")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{`<html lang="de" dir="ltr">`, "19.800000 USDC für 20.00 USD kaufen (Karte)", "Mit einer Testkarte bezahlen", `action="/dev/onramp/checkout/` + o.ID + `?locale=de"`, `data-testid="latch-dev-checkout-pay">20.00 USD bezahlen<`} {
		if !strings.Contains(string(page), want) {
			t.Fatalf("no %q in %s", want, page)
		}
	}
	req, _ := http.NewRequest("GET", link, nil)
	req.Header.Set("Accept-Language", "fa-IR")
	if resp, err = http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	}
	page, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(page), `<html lang="fa" dir="rtl">`) {
		t.Fatalf("Accept-Language: %s", page)
	}
	if status, body := postCard(t, link+"?locale=ar", "1111"); status != 400 || !strings.Contains(body, `dir="rtl"`) || !strings.Contains(body, "استخدم بطاقة الاختبار 4242 4242 4242 4242") {
		t.Fatalf("other card: %d %s", status, body)
	}
	if status, body := postCard(t, link+"?locale=fr", devCardDeclined); status != http.StatusPaymentRequired || !strings.Contains(body, "Votre carte a été refusée") {
		t.Fatalf("declined: %d %s", status, body)
	}
	if status, body := postCard(t, link+"?locale=nope", devCardOK); status != http.StatusConflict || !strings.Contains(body, `lang="en"`) || !strings.Contains(body, "Payment failed") {
		t.Fatalf("a bad locale: %d %s", status, body)
	}
}
