package names

import (
	"context"
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/latchkit/latch/internal/evm"
	"github.com/latchkit/latch/pkg/siwx"
)

// Verifier checks that addr signed message with personal_sign (EIP-191) on
// chainID.
//
// Every implementation guarantees: nil means the signature is the account's
// (a key's for an externally owned account, the contract's isValidSignature
// for a deployed smart account, ERC-6492's universal validator for one not
// yet deployed); an error wrapping ErrBadSignature means it is not; any
// other error means the check could not be made (a node failure) and says
// nothing about the signature.
type Verifier interface {
	VerifyPersonal(ctx context.Context, chainID uint64, addr common.Address, message, signature []byte) error
}

// ErrBadSignature: the signature is not the account's.
var ErrBadSignature = errors.New("the signature is not the account's")

// SignatureVerifier is the Verifier of package siwx's signature checks
// (the ones sign-in uses): ecrecover, ERC-1271 isValidSignature and the
// ERC-6492 universal validator, the last two by eth_call on the chain.
type SignatureVerifier struct {
	// Client returns a node of the chain, nil when latchd has none; then
	// only EOA signatures can be verified.
	Client func(chainID uint64) *evm.Client
}

// VerifyPersonal implements Verifier.
func (v SignatureVerifier) VerifyPersonal(ctx context.Context, chainID uint64, addr common.Address, message, signature []byte) error {
	sv := siwx.Verifier{Chains: func(string) (siwx.EthCaller, error) {
		if v.Client == nil {
			return nil, nil
		}
		if c := v.Client(chainID); c != nil {
			return evmCaller{c}, nil
		}
		return nil, nil
	}}
	m := &siwx.Message{Namespace: siwx.EIP155, Address: addr.Hex(), ChainID: fmt.Sprintf("eip155:%d", chainID)}
	_, err := sv.VerifySignature(ctx, m, string(message), hexutil.Encode(signature))
	switch {
	case err == nil:
		return nil
	case siwx.ReasonOf(err) == siwx.ReasonSignature:
		return fmt.Errorf("%w: %v", ErrBadSignature, err)
	case siwx.ReasonOf(err) == siwx.ReasonUnverifiable && errors.Unwrap(err) == nil:
		// No node of the chain: the signature is not the address's as an
		// EOA, and nothing else can be checked.
		return fmt.Errorf("%w: %v", ErrBadSignature, err)
	}
	return err
}

// evmCaller is siwx.EthCaller over latchd's RPC client of a chain.
type evmCaller struct{ c *evm.Client }

func (e evmCaller) EthCall(ctx context.Context, to *common.Address, data []byte) ([]byte, error) {
	arg := map[string]any{"data": hexutil.Bytes(data)}
	if to != nil {
		arg["to"] = *to
	}
	var out hexutil.Bytes
	err := e.c.Call(ctx, &out, "eth_call", arg, "latest")
	return out, err
}
