package names

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/latchkit/latch/internal/evm"
)

// Verifier checks that addr signed message with personal_sign (EIP-191) on
// chainID.
//
// Every implementation guarantees: nil means the signature is the account's
// (a key's for an externally owned account, the contract's isValidSignature
// for a smart account); ErrBadSignature means it is not; any other error
// means the check could not be made (no node for the chain, a node failure)
// and says nothing about the signature.
type Verifier interface {
	VerifyPersonal(ctx context.Context, chainID uint64, addr common.Address, message, signature []byte) error
}

// ErrBadSignature: the signature is not the account's.
var ErrBadSignature = errors.New("the signature is not the account's")

// ErrUnsupportedSignature: an ERC-6492 signature (of a smart account not yet
// deployed), which SignatureVerifier does not check.
var ErrUnsupportedSignature = errors.New("signatures of undeployed smart accounts (ERC-6492) are not supported")

// erc1271Magic is what isValidSignature returns for a valid signature (ERC-1271).
var erc1271Magic = [4]byte{0x16, 0x26, 0xba, 0x7e}

// erc6492Suffix ends an ERC-6492 wrapped signature.
var erc6492Suffix = common.FromHex("0x6492649264926492649264926492649264926492649264926492649264926492")

var erc1271ABI = func() abi.ABI {
	a, err := abi.JSON(strings.NewReader(`[{"name":"isValidSignature","type":"function","stateMutability":"view","inputs":[{"name":"hash","type":"bytes32"},{"name":"signature","type":"bytes"}],"outputs":[{"name":"","type":"bytes4"}]}]`))
	if err != nil {
		panic(err)
	}
	return a
}()

// SignatureVerifier verifies signatures of externally owned accounts by
// recovering the key, and of deployed smart accounts with ERC-1271
// isValidSignature through an eth_call on the chain.
type SignatureVerifier struct {
	// Client returns a node of the chain, nil when latchd has none; then
	// only EOA signatures can be verified.
	Client func(chainID uint64) *evm.Client
}

// VerifyPersonal implements Verifier.
func (v SignatureVerifier) VerifyPersonal(ctx context.Context, chainID uint64, addr common.Address, message, signature []byte) error {
	if bytes.HasSuffix(signature, erc6492Suffix) {
		return ErrUnsupportedSignature
	}
	hash := accounts.TextHash(message)
	if len(signature) == 65 {
		sig := append([]byte{}, signature...)
		if sig[64] >= 27 {
			sig[64] -= 27
		}
		if pub, err := crypto.SigToPub(hash, sig); err == nil && crypto.PubkeyToAddress(*pub) == addr {
			return nil
		}
	}
	var client *evm.Client
	if v.Client != nil {
		client = v.Client(chainID)
	}
	if client == nil {
		return ErrBadSignature // no node: only a key's signature could have been verified
	}
	data, err := erc1271ABI.Pack("isValidSignature", common.BytesToHash(hash), signature)
	if err != nil {
		return err
	}
	out, err := client.CallContract(ctx, addr, data)
	if err != nil {
		if strings.Contains(strings.ToLower(err.Error()), "revert") {
			return ErrBadSignature
		}
		return fmt.Errorf("isValidSignature: %w", err)
	}
	// A call to an account without code succeeds with no output: not a signer.
	if len(out) < 4 || [4]byte(out[:4]) != erc1271Magic {
		return ErrBadSignature
	}
	return nil
}
