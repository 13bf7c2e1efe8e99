package solanadev

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/big"
	"strings"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/decimal"
	"github.com/latchkit/latch/internal/solana"
)

// USDCMintAuthorityLabel names the key that may mint the dev USDC (the Node
// package's GENESIS.usdc.authorityLabel).
const USDCMintAuthorityLabel = "latch solana devnet USDC mint authority v1"

// Per-request faucet caps in whole units: SOL as the network's
// requestAirdrop bounds it, USDC as the EVM dev chains' faucet does.
const (
	MaxFaucetSOL  = 1_000
	MaxFaucetUSDC = 1_000_000
)

// authorityFloor is the least the mint authority keeps to pay fees; below it the faucet airdrops it 1 SOL.
const authorityFloor = 10_000_000 // 0.01 SOL

// FaucetRequest asks the Solana dev network for funds.
type FaucetRequest struct {
	Address string // recipient: a base58 Solana address
	Token   string // "" or "SOL" for SOL; "USDC" or the dev USDC mint's address
	Amount  string // a positive decimal in whole units, e.g. "1.5"
}

// FaucetResult reports a completed faucet transfer.
type FaucetResult struct {
	Signature string // the transaction that credited the recipient
	Amount    string // base units: lamports, or the token's smallest unit
	Token     string // "SOL" or "USDC"
}

// Faucet credits req.Address on the network behind c: SOL by
// requestAirdrop, dev USDC by a MintToChecked of the mint authority into
// the recipient's associated token account (created when missing). usdcMint
// is the dev USDC mint (Info.USDCMint). It answers once the transaction has
// executed (the dev network executes on receipt).
//
// Errors: apperr.Invalid for a malformed address or amount, or an amount
// over the cap; apperr.NotFound for an unknown token; the node's errors.
func Faucet(ctx context.Context, c *solana.Client, usdcMint string, req FaucetRequest) (FaucetResult, error) {
	to, err := solana.ParseAddress("address", req.Address)
	if err != nil {
		return FaucetResult{}, err
	}
	var symbol string
	var decimals uint8
	var max int64
	switch {
	case req.Token == "" || strings.EqualFold(req.Token, "SOL"):
		symbol, decimals, max = "SOL", 9, MaxFaucetSOL
	case strings.EqualFold(req.Token, "USDC") || req.Token == usdcMint:
		symbol, decimals, max = "USDC", 6, MaxFaucetUSDC
	default:
		return FaucetResult{}, apperr.Fieldf(apperr.NotFound, "token", "Unknown token %q: use SOL, USDC or the dev USDC mint's address", decimal.Clip(req.Token))
	}
	amount, err := decimal.Parse(decimal.Amount, req.Amount, int(decimals))
	if err != nil {
		return FaucetResult{}, err
	}
	if limit := new(big.Int).Mul(big.NewInt(max), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil)); amount.Cmp(limit) > 0 {
		return FaucetResult{}, apperr.Fieldf(apperr.Invalid, "amount", "Amount must be at most %d %s per request", max, symbol)
	}
	var sig string
	if symbol == "SOL" {
		sig, err = airdrop(ctx, c, to, amount.Uint64())
	} else {
		sig, err = mintUSDC(ctx, c, solana.MustParseAddress(usdcMint), to, amount.Uint64(), decimals)
	}
	if err != nil {
		return FaucetResult{}, err
	}
	return FaucetResult{Signature: sig, Amount: amount.String(), Token: symbol}, nil
}

func airdrop(ctx context.Context, c *solana.Client, to solana.Address, lamports uint64) (string, error) {
	var sig string
	if err := c.Do(ctx, &sig, "requestAirdrop", to.String(), lamports, map[string]any{"commitment": "confirmed"}); err != nil {
		return "", fmt.Errorf("solana faucet: requestAirdrop: %w", err)
	}
	return sig, nil
}

// mintUSDC mints amount of the dev USDC to owner's associated token account,
// paid and signed by the mint authority (airdropped SOL for fees when low).
func mintUSDC(ctx context.Context, c *solana.Client, mint, owner solana.Address, amount uint64, decimals uint8) (string, error) {
	authority := LabelKey(USDCMintAuthorityLabel)
	var balance struct {
		Value uint64 `json:"value"`
	}
	if err := c.Do(ctx, &balance, "getBalance", authority.Address.String(), map[string]any{"commitment": "confirmed"}); err != nil {
		return "", fmt.Errorf("solana faucet: getBalance: %w", err)
	}
	if balance.Value < authorityFloor {
		if _, err := airdrop(ctx, c, authority.Address, 1_000_000_000); err != nil {
			return "", err
		}
	}
	ata, err := AssociatedTokenAddress(owner, mint)
	if err != nil {
		return "", err
	}
	var latest struct {
		Value struct {
			Blockhash string `json:"blockhash"`
		} `json:"value"`
	}
	if err := c.Do(ctx, &latest, "getLatestBlockhash", map[string]any{"commitment": "confirmed"}); err != nil {
		return "", fmt.Errorf("solana faucet: getLatestBlockhash: %w", err)
	}
	blockhash, err := solana.ParseAddress("blockhash", latest.Value.Blockhash)
	if err != nil {
		return "", err
	}
	wire, _ := SignTransaction(authority, nil, blockhash,
		CreateAssociatedTokenAccountIdempotent(authority.Address, ata, owner, mint),
		MintToChecked(mint, ata, authority.Address, amount, decimals))
	var sig string
	if err := c.Do(ctx, &sig, "sendTransaction", wire, map[string]any{"encoding": "base64", "preflightCommitment": "confirmed"}); err != nil {
		return "", fmt.Errorf("solana faucet: sendTransaction: %w", err)
	}
	return sig, nil
}

// CreateAssociatedTokenAccountIdempotent is the associated token program's
// CreateIdempotent: owner's token account of mint at ata, paid by payer; a
// no-op when it exists.
func CreateAssociatedTokenAccountIdempotent(payer, ata, owner, mint solana.Address) Instruction {
	return Instruction{Program: solana.AssociatedTokenProgram, Data: []byte{1}, Accounts: []AccountMeta{
		{payer, true, true}, {ata, false, true}, {owner, false, false}, {mint, false, false},
		{solana.SystemProgram, false, false}, {solana.TokenProgram, false, false},
	}}
}

// MintToChecked is the token program's MintToChecked of amount into
// destination, signed by the mint authority.
func MintToChecked(mint, destination, authority solana.Address, amount uint64, decimals uint8) Instruction {
	data := make([]byte, 10)
	data[0] = 14
	binary.LittleEndian.PutUint64(data[1:], amount)
	data[9] = decimals
	return Instruction{Program: solana.TokenProgram, Data: data, Accounts: []AccountMeta{{mint, false, true}, {destination, false, true}, {authority, true, false}}}
}
