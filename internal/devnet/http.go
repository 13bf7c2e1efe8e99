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
