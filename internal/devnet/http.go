package devnet

import (
	"net/http"

	"github.com/latchkit/latch/internal/httpx"
)

// maxFaucetBody bounds a faucet request body; the JSON has four short fields.
const maxFaucetBody = 4 << 10

// faucetRequestBody is the JSON body of POST /dev/faucet.
type faucetRequestBody struct {
	Address       string `json:"address"`
	CAIPNetworkID string `json:"caipNetworkId"`
	Token         string `json:"token"`
	Amount        string `json:"amount"`
}

// faucetResponseBody is the 200 answer of POST /dev/faucet.
type faucetResponseBody struct {
	TxHash        string `json:"txHash"`
	Amount        string `json:"amount"` // base units
	CAIPNetworkID string `json:"caipNetworkId"`
	Token         string `json:"token"` // symbol, "ETH" for ether
}

// HandleFaucet serves POST /dev/faucet with a JSON body
// {address, caipNetworkId, token?, amount} and answers
// {txHash, amount, caipNetworkId, token} once the transfer is mined.
// The app registers it only in dev mode.
func (d *Devnet) HandleFaucet(w http.ResponseWriter, r *http.Request) {
	var req faucetRequestBody
	if err := httpx.DecodeJSON(w, r, maxFaucetBody, &req); err != nil {
		httpx.Error(w, r, err)
		return
	}
	res, err := d.Faucet(r.Context(), FaucetRequest{
		Address:       req.Address,
		CAIPNetworkID: req.CAIPNetworkID,
		Token:         req.Token,
		Amount:        req.Amount,
	})
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	httpx.JSON(w, http.StatusOK, faucetResponseBody{
		TxHash:        res.TxHash,
		Amount:        res.Amount,
		CAIPNetworkID: req.CAIPNetworkID,
		Token:         res.Token,
	})
}

// maxPriceBody bounds a /dev/price request body; the JSON has three short fields.
const maxPriceBody = 4 << 10

// priceRequestBody is the JSON body of POST /dev/price.
type priceRequestBody struct {
	ChainID string `json:"chainId"`
	Token   string `json:"token"`
	USD     string `json:"usd"`
}

// priceResponseBody is the 200 answer of POST /dev/price.
type priceResponseBody struct {
	ChainID string `json:"chainId"`
	Token   string `json:"token"` // the feed's asset: "ETH" for native and WETH
	Feed    string `json:"feed"`
	USD     string `json:"usd"`
	TxHash  string `json:"txHash"`
}

// HandlePrice returns the handler of POST /dev/price with a JSON body
// {chainId, token, usd}; it answers {chainId, token, feed, usd, txHash} once
// the update is mined and then calls changed (if not nil) with the network
// id, so price caches can drop the old answer. The app registers it only in
// dev mode.
func (d *Devnet) HandlePrice(changed func(networkID string)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req priceRequestBody
		if err := httpx.DecodeJSON(w, r, maxPriceBody, &req); err != nil {
			httpx.Error(w, r, err)
			return
		}
		res, err := d.SetPrice(r.Context(), PriceRequest{CAIPNetworkID: req.ChainID, Token: req.Token, USD: req.USD})
		if err != nil {
			httpx.Error(w, r, err)
			return
		}
		if changed != nil {
			changed(req.ChainID)
		}
		httpx.JSON(w, http.StatusOK, priceResponseBody{
			ChainID: req.ChainID,
			Token:   res.Symbol,
			Feed:    res.Feed.Hex(),
			USD:     formatPrice(res.Answer),
			TxHash:  res.TxHash,
		})
	})
}
