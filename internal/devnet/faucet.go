package devnet

import (
	"context"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/decimal"
)

// FaucetRequest asks a dev chain for funds.
type FaucetRequest struct {
	Address       string // recipient: 0x + 40 hex; mixed case must be a valid EIP-55 checksum
	CAIPNetworkID string // e.g. "eip155:31337"
	Token         string // "" or "ETH" for ether; else a token symbol (any case) or address
	Amount        string // a positive decimal in whole units of the asset, e.g. "1.5"
}

// FaucetResult reports a completed faucet transfer.
type FaucetResult struct {
	TxHash string // the transaction that credited the recipient
	Amount string // the amount in base units (wei, or the token's smallest unit)
	Token  string // the asset's symbol, "ETH" for ether
}

// Per-request faucet caps in whole units: generous for testing, yet bounded so
// a looping script cannot mint absurd balances that break UI formatting.
const (
	maxFaucetEther  = 1_000     // ETH and WETH
	maxFaucetTokens = 1_000_000 // USDC, DAI
)

// nativeSymbol names ether in requests and results.
const nativeSymbol = "ETH"

// faucetAsset is what a request resolved its token to.
type faucetAsset struct {
	symbol   string
	decimals uint8
	token    *devToken // nil for ether
	max      int64     // cap in whole units
}

// Faucet sends funds from the deployer to req.Address and waits until the
// transfer is mined. Ether is a plain transfer, USDC and DAI are minted, and
// WETH is wrapped by the deployer and then transferred.
//
// Errors: apperr.Invalid for a malformed address, amount or network id, or an
// amount over the cap; apperr.NotFound for an unknown network or token. The
// deployer's transactions are serialised per chain, so concurrent requests are
// safe; a cancelled ctx stops the wait but not a transfer already sent.
func (d *Devnet) Faucet(ctx context.Context, req FaucetRequest) (FaucetResult, error) {
	to, err := parseAddress(req.Address)
	if err != nil {
		return FaucetResult{}, err
	}
	c, err := d.chainFor(req.CAIPNetworkID)
	if err != nil {
		return FaucetResult{}, err
	}
	asset, err := resolveAsset(req.Token)
	if err != nil {
		return FaucetResult{}, err
	}
	amount, err := decimal.Parse(decimal.Amount, req.Amount, int(asset.decimals))
	if err != nil {
		return FaucetResult{}, err
	}
	if limit := new(big.Int).Mul(big.NewInt(asset.max), pow10(asset.decimals)); amount.Cmp(limit) > 0 {
		return FaucetResult{}, apperr.Fieldf(apperr.Invalid, "amount", "Amount must be at most %d %s per request", asset.max, asset.symbol)
	}

	var hash common.Hash
	switch {
	case asset.token == nil:
		hash, err = c.sendEther(ctx, to, amount)
	case asset.token.wrapped:
		hash, err = c.sendWrapped(ctx, asset.token, to, amount)
	default:
		hash, err = c.mint(ctx, asset.token, to, amount)
	}
	if err != nil {
		return FaucetResult{}, err
	}
	return FaucetResult{TxHash: hash.Hex(), Amount: amount.String(), Token: asset.symbol}, nil
}

func (d *Devnet) chainFor(networkID string) (*chain, error) {
	if networkID == "" {
		return nil, apperr.Fieldf(apperr.Invalid, "caipNetworkId", "caipNetworkId is required")
	}
	c, ok := d.byNetwork[networkID]
	if !ok {
		return nil, apperr.Fieldf(apperr.NotFound, "caipNetworkId", "Unknown dev network %q", decimal.Clip(networkID))
	}
	return c, nil
}

func (c *chain) sendEther(ctx context.Context, to common.Address, amount *big.Int) (common.Hash, error) {
	// Estimated rather than fixed at 21000: the recipient may be a contract
	// (a smart account) whose receive function costs more.
	gas, err := c.client.EstimateGas(ctx, ethereum.CallMsg{From: deployer.Address, To: &to, Value: amount})
	if err != nil {
		return common.Hash{}, apperr.Fieldf(apperr.Invalid, "address", "Address cannot receive ETH: %v", err)
	}
	c.mu.Lock()
	tx, err := c.sendLocked(ctx, &to, amount, nil, gas)
	c.mu.Unlock()
	if err != nil {
		return common.Hash{}, fmt.Errorf("devnet: faucet ETH: %w", err)
	}
	return c.confirm(ctx, tx.Hash())
}

func (c *chain) mint(ctx context.Context, t *devToken, to common.Address, amount *big.Int) (common.Hash, error) {
	data, err := devTokenArtifact.ABI.Pack("mint", to, amount)
	if err != nil {
		return common.Hash{}, err
	}
	c.mu.Lock()
	tx, err := c.sendLocked(ctx, &t.Address, nil, data, tokenGas)
	c.mu.Unlock()
	if err != nil {
		return common.Hash{}, fmt.Errorf("devnet: faucet mint %s: %w", t.Symbol, err)
	}
	return c.confirm(ctx, tx.Hash())
}

// sendWrapped deposits ether into WETH for the deployer and transfers it on.
// Both go out under one lock so they take consecutive nonces.
func (c *chain) sendWrapped(ctx context.Context, t *devToken, to common.Address, amount *big.Int) (common.Hash, error) {
	deposit, err := wethArtifact.ABI.Pack("deposit")
	if err != nil {
		return common.Hash{}, err
	}
	transfer, err := wethArtifact.ABI.Pack("transfer", to, amount)
	if err != nil {
		return common.Hash{}, err
	}
	c.mu.Lock()
	depositTx, err := c.sendLocked(ctx, &t.Address, amount, deposit, tokenGas)
	var transferTx *types.Transaction
	if err == nil {
		transferTx, err = c.sendLocked(ctx, &t.Address, nil, transfer, tokenGas)
	}
	c.mu.Unlock()
	if err != nil {
		return common.Hash{}, fmt.Errorf("devnet: faucet %s: %w", t.Symbol, err)
	}
	if _, err := c.confirm(ctx, depositTx.Hash()); err != nil {
		return common.Hash{}, err
	}
	return c.confirm(ctx, transferTx.Hash())
}

// confirm waits for one transaction and fails if it reverted.
func (c *chain) confirm(ctx context.Context, hash common.Hash) (common.Hash, error) {
	receipts, err := c.waitMined(ctx, hash)
	if err != nil {
		return common.Hash{}, fmt.Errorf("devnet: faucet: %w", err)
	}
	if receipts[0].Status != types.ReceiptStatusSuccessful {
		return common.Hash{}, fmt.Errorf("devnet: faucet transaction %s reverted", hash.Hex())
	}
	// The receipt is there as soon as the block is; the pool takes the new
	// state a moment later. Until it has, a transaction from the funded
	// address is refused for insufficient funds, so wait for it.
	if err := c.syncPool(); err != nil {
		return common.Hash{}, fmt.Errorf("devnet: faucet: %w", err)
	}
	return hash, nil
}

// parseAddress accepts 0x + 40 hex digits. All-lower or all-upper case is
// taken as is; mixed case must be the EIP-55 checksum, which catches typos.
func parseAddress(s string) (common.Address, error) {
	if s == "" {
		return common.Address{}, apperr.Fieldf(apperr.Invalid, "address", "Address is required")
	}
	if !isHexAddress(s) {
		return common.Address{}, apperr.Fieldf(apperr.Invalid, "address", "Address must be 0x followed by 40 hexadecimal characters")
	}
	addr := common.HexToAddress(s)
	digits := s[2:]
	if digits != strings.ToLower(digits) && digits != strings.ToUpper(digits) && addr.Hex() != s {
		return common.Address{}, apperr.Fieldf(apperr.Invalid, "address", "Address has an invalid EIP-55 checksum")
	}
	if addr == (common.Address{}) {
		return common.Address{}, apperr.Fieldf(apperr.Invalid, "address", "Address must not be the zero address")
	}
	return addr, nil
}

func isHexAddress(s string) bool {
	if len(s) != 42 || s[0] != '0' || s[1] != 'x' {
		return false
	}
	for i := 2; i < len(s); i++ {
		ch := s[i]
		if !('0' <= ch && ch <= '9' || 'a' <= ch && ch <= 'f' || 'A' <= ch && ch <= 'F') {
			return false
		}
	}
	return true
}

// resolveAsset maps the request's token ("" or ETH, a symbol, or a token
// address) to what the faucet sends.
func resolveAsset(token string) (faucetAsset, error) {
	if token == "" || strings.EqualFold(token, nativeSymbol) {
		return faucetAsset{symbol: nativeSymbol, decimals: 18, max: maxFaucetEther}, nil
	}
	for i := range devTokens {
		t := &devTokens[i]
		if strings.EqualFold(token, t.Symbol) || strings.EqualFold(token, t.Address.Hex()) {
			max := int64(maxFaucetTokens)
			if t.wrapped {
				max = maxFaucetEther
			}
			return faucetAsset{symbol: t.Symbol, decimals: t.Decimals, token: t, max: max}, nil
		}
	}
	return faucetAsset{}, apperr.Fieldf(apperr.NotFound, "token", "Unknown token %q: use ETH, USDC, DAI, WETH or a token address", decimal.Clip(token))
}
