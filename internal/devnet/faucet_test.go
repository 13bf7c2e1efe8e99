package devnet

import (
	"context"
	"encoding/json"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/latchkit/latch/internal/apperr"
)

func TestDevnet_Faucet(t *testing.T) {
	ctx := context.Background()
	c := shared.Chains()[0]
	client := MustDial(t, c)

	t.Run("OKNative", func(t *testing.T) {
		to := newRecipient(t)
		res, err := shared.Faucet(ctx, FaucetRequest{Address: to.Hex(), CAIPNetworkID: c.CAIPNetworkID, Amount: "0.5"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Amount != "500000000000000000" || res.Token != "ETH" {
			t.Fatalf("result = %+v", res)
		}
		bal, err := client.BalanceAt(ctx, to, nil)
		if err != nil {
			t.Fatal(err)
		}
		if bal.String() != res.Amount {
			t.Fatalf("balance = %s, want %s", bal, res.Amount)
		}
		receipt, err := client.TransactionReceipt(ctx, common.HexToHash(res.TxHash))
		if err != nil || receipt.Status != types.ReceiptStatusSuccessful {
			t.Fatalf("receipt = %+v, err %v", receipt, err)
		}
	})

	t.Run("OKUSDC", func(t *testing.T) {
		to := newRecipient(t)
		// Lower-case address and symbol are accepted.
		res, err := shared.Faucet(ctx, FaucetRequest{Address: strings.ToLower(to.Hex()), CAIPNetworkID: c.CAIPNetworkID, Token: "usdc", Amount: "1.5"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Amount != "1500000" || res.Token != "USDC" {
			t.Fatalf("result = %+v", res)
		}
		if got := balanceOf(t, client, tokenBySymbol(t, c, "USDC").Address, to); got.Int64() != 1_500_000 {
			t.Fatalf("USDC balance = %s, want 1500000", got)
		}
	})

	t.Run("OKTokenAddress", func(t *testing.T) {
		to := newRecipient(t)
		dai := tokenBySymbol(t, c, "DAI")
		res, err := shared.Faucet(ctx, FaucetRequest{Address: to.Hex(), CAIPNetworkID: c.CAIPNetworkID, Token: strings.ToLower(dai.Address.Hex()), Amount: "2"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Token != "DAI" || balanceOf(t, client, dai.Address, to).Cmp(units(2, 18)) != 0 {
			t.Fatalf("result = %+v", res)
		}
	})

	t.Run("OKWETH", func(t *testing.T) {
		to := newRecipient(t)
		res, err := shared.Faucet(ctx, FaucetRequest{Address: to.Hex(), CAIPNetworkID: c.CAIPNetworkID, Token: "WETH", Amount: "0.25"})
		if err != nil {
			t.Fatal(err)
		}
		if got := balanceOf(t, client, tokenBySymbol(t, c, "WETH").Address, to); got.String() != "250000000000000000" || res.Amount != got.String() {
			t.Fatalf("WETH balance = %s, result %+v", got, res)
		}
	})

	t.Run("OKSecondChain", func(t *testing.T) {
		c2 := shared.Chains()[1]
		to := newRecipient(t)
		if _, err := shared.Faucet(ctx, FaucetRequest{Address: to.Hex(), CAIPNetworkID: c2.CAIPNetworkID, Amount: "3"}); err != nil {
			t.Fatal(err)
		}
		bal, err := MustDial(t, c2).BalanceAt(ctx, to, nil)
		if err != nil || bal.Cmp(ether(3)) != 0 {
			t.Fatalf("balance on %s = %v, err %v", c2.CAIPNetworkID, bal, err)
		}
	})

	valid := newRecipient(t).Hex()
	const badChecksum = "0xF39fd6e51aad88F6F4ce6aB8827279cffFb92266" // account 0 with two letters' case swapped
	tests := []struct {
		name  string
		req   FaucetRequest
		code  string
		field string
	}{
		{"ErrAddressRequired", FaucetRequest{CAIPNetworkID: c.CAIPNetworkID, Amount: "1"}, apperr.Invalid, "address"},
		{"ErrAddressShort", FaucetRequest{Address: "0x1234", CAIPNetworkID: c.CAIPNetworkID, Amount: "1"}, apperr.Invalid, "address"},
		{"ErrAddressNoPrefix", FaucetRequest{Address: valid[2:] + "00", CAIPNetworkID: c.CAIPNetworkID, Amount: "1"}, apperr.Invalid, "address"},
		{"ErrAddressNotHex", FaucetRequest{Address: "0x" + strings.Repeat("g", 40), CAIPNetworkID: c.CAIPNetworkID, Amount: "1"}, apperr.Invalid, "address"},
		{"ErrAddressChecksum", FaucetRequest{Address: badChecksum, CAIPNetworkID: c.CAIPNetworkID, Amount: "1"}, apperr.Invalid, "address"},
		{"ErrAddressZero", FaucetRequest{Address: "0x" + strings.Repeat("0", 40), CAIPNetworkID: c.CAIPNetworkID, Amount: "1"}, apperr.Invalid, "address"},
		{"ErrNetworkRequired", FaucetRequest{Address: valid, Amount: "1"}, apperr.Invalid, "caipNetworkId"},
		{"ErrNetworkUnknown", FaucetRequest{Address: valid, CAIPNetworkID: "eip155:1", Amount: "1"}, apperr.NotFound, "caipNetworkId"},
		{"ErrNetworkSolana", FaucetRequest{Address: valid, CAIPNetworkID: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", Amount: "1"}, apperr.NotFound, "caipNetworkId"},
		{"ErrTokenUnknown", FaucetRequest{Address: valid, CAIPNetworkID: c.CAIPNetworkID, Token: "DOGE", Amount: "1"}, apperr.NotFound, "token"},
		{"ErrTokenUnknownAddress", FaucetRequest{Address: valid, CAIPNetworkID: c.CAIPNetworkID, Token: valid, Amount: "1"}, apperr.NotFound, "token"},
		{"ErrAmountRequired", FaucetRequest{Address: valid, CAIPNetworkID: c.CAIPNetworkID}, apperr.Invalid, "amount"},
		{"ErrAmountZero", FaucetRequest{Address: valid, CAIPNetworkID: c.CAIPNetworkID, Amount: "0.000"}, apperr.Invalid, "amount"},
		{"ErrAmountNegative", FaucetRequest{Address: valid, CAIPNetworkID: c.CAIPNetworkID, Amount: "-1"}, apperr.Invalid, "amount"},
		{"ErrAmountExponent", FaucetRequest{Address: valid, CAIPNetworkID: c.CAIPNetworkID, Amount: "1e3"}, apperr.Invalid, "amount"},
		{"ErrAmountBareDot", FaucetRequest{Address: valid, CAIPNetworkID: c.CAIPNetworkID, Amount: "1."}, apperr.Invalid, "amount"},
		{"ErrAmountTooPrecise", FaucetRequest{Address: valid, CAIPNetworkID: c.CAIPNetworkID, Token: "USDC", Amount: "0.0000001"}, apperr.Invalid, "amount"},
		{"ErrAmountOverNativeCap", FaucetRequest{Address: valid, CAIPNetworkID: c.CAIPNetworkID, Amount: "1000.000000000000000001"}, apperr.Invalid, "amount"},
		{"ErrAmountOverTokenCap", FaucetRequest{Address: valid, CAIPNetworkID: c.CAIPNetworkID, Token: "DAI", Amount: "1000001"}, apperr.Invalid, "amount"},
		{"ErrAmountTooLong", FaucetRequest{Address: valid, CAIPNetworkID: c.CAIPNetworkID, Amount: strings.Repeat("1", 100)}, apperr.Invalid, "amount"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := shared.Faucet(ctx, tt.req)
			e := apperr.As(err)
			if e == nil {
				t.Fatalf("err = %v, want an *apperr.Error", err)
			}
			if e.Code != tt.code || e.Field != tt.field {
				t.Fatalf("err = %v, want code %s field %s", e, tt.code, tt.field)
			}
		})
	}
}

// Concurrent requests share the deployer's nonce; each must still land.
func TestDevnet_Faucet_Concurrent(t *testing.T) {
	ctx := context.Background()
	chains := shared.Chains()
	const n = 10
	recipients := make([]common.Address, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		recipients[i] = newRecipient(t)
		wg.Go(func() {
			req := FaucetRequest{Address: recipients[i].Hex(), CAIPNetworkID: chains[i%2].CAIPNetworkID, Amount: "1"}
			if i%3 == 0 {
				req.Token = "USDC"
			}
			_, errs[i] = shared.Faucet(ctx, req)
		})
	}
	wg.Wait()
	clients := []*ethclient.Client{MustDial(t, chains[0]), MustDial(t, chains[1])}
	for i, err := range errs {
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		c, client := chains[i%2], clients[i%2]
		var got, want *big.Int
		if i%3 == 0 {
			got, want = balanceOf(t, client, tokenBySymbol(t, c, "USDC").Address, recipients[i]), units(1, 6)
		} else {
			bal, err := client.BalanceAt(ctx, recipients[i], nil)
			if err != nil {
				t.Fatal(err)
			}
			got, want = bal, ether(1)
		}
		if got.Cmp(want) != 0 {
			t.Errorf("request %d: balance %s, want %s", i, got, want)
		}
	}
}

func TestDevnet_HandleFaucet(t *testing.T) {
	c := shared.Chains()[0]
	post := func(t *testing.T, contentType, body string) (*httptest.ResponseRecorder, map[string]any) {
		t.Helper()
		req := httptest.NewRequest(http.MethodPost, "/dev/faucet", strings.NewReader(body))
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		rec := httptest.NewRecorder()
		shared.HandleFaucet(rec, req)
		var out map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
			t.Fatalf("response %q is not JSON: %v", rec.Body.String(), err)
		}
		return rec, out
	}

	t.Run("OK", func(t *testing.T) {
		to := newRecipient(t)
		rec, out := post(t, "application/json", `{"address":"`+to.Hex()+`","caipNetworkId":"`+c.CAIPNetworkID+`","token":"USDC","amount":"1.5"}`)
		if rec.Code != http.StatusOK {
			t.Fatalf("status = %d, body %v", rec.Code, out)
		}
		if out["amount"] != "1500000" || out["caipNetworkId"] != c.CAIPNetworkID || out["token"] != "USDC" || !strings.HasPrefix(out["txHash"].(string), "0x") {
			t.Fatalf("body = %v", out)
		}
	})

	errTests := []struct {
		name, contentType, body string
		status                  int
		code                    string
	}{
		{"ErrBadJSON", "application/json", `{"address":`, http.StatusBadRequest, apperr.Invalid},
		{"ErrWrongType", "application/json", `{"amount":1}`, http.StatusBadRequest, apperr.Invalid},
		{"ErrContentType", "application/x-www-form-urlencoded", `address=0x`, http.StatusUnsupportedMediaType, apperr.Unsupported},
		{"ErrEmptyBody", "application/json", ``, http.StatusBadRequest, apperr.Invalid},
		{"ErrTooLarge", "application/json", `{"address":"` + strings.Repeat("a", maxFaucetBody) + `"}`, http.StatusRequestEntityTooLarge, apperr.TooLarge},
		{"ErrUnknownNetwork", "application/json", `{"address":"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266","caipNetworkId":"eip155:1","amount":"1"}`, http.StatusNotFound, apperr.NotFound},
	}
	for _, tt := range errTests {
		t.Run(tt.name, func(t *testing.T) {
			rec, out := post(t, tt.contentType, tt.body)
			if rec.Code != tt.status || out["code"] != tt.code || out["status"] != "FAILED" {
				t.Fatalf("status = %d, body %v; want %d %s", rec.Code, out, tt.status, tt.code)
			}
		})
	}
}
