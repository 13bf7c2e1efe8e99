package names

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

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

// erc6492Suffix ends an ERC-6492 signature: abi.encode(factory,
// factoryCalldata, innerSignature) followed by these 32 bytes.
var erc6492Suffix = bytes.Repeat([]byte{0x64, 0x92}, 16)

var erc6492Wrap = func() abi.Arguments {
	address, _ := abi.NewType("address", "", nil)
	data, _ := abi.NewType("bytes", "", nil)
	return abi.Arguments{{Type: address}, {Type: data}, {Type: data}}
}()

// signerOf returns the key whose personal_sign (EIP-191) of message sig is,
// looking inside an ERC-6492 wrap (a smart account not deployed yet): for an
// externally owned account its own address, for a smart account that checks
// its owner's signature (LatchSmartAccount) the owner's. ok is false when no
// key recovers from sig.
func signerOf(message, sig []byte) (common.Address, bool) {
	if len(sig) > len(erc6492Suffix) && bytes.HasSuffix(sig, erc6492Suffix) {
		vals, err := erc6492Wrap.Unpack(sig[:len(sig)-len(erc6492Suffix)])
		if err != nil || len(vals) != 3 {
			return common.Address{}, false
		}
		sig = vals[2].([]byte)
	}
	if len(sig) != crypto.SignatureLength {
		return common.Address{}, false
	}
	rsv := bytes.Clone(sig)
	if rsv[64] >= 27 {
		rsv[64] -= 27
	}
	pub, err := crypto.SigToPub(accounts.TextHash(message), rsv)
	if err != nil {
		return common.Address{}, false
	}
	return crypto.PubkeyToAddress(*pub), true
}
