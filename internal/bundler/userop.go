package bundler

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
)

// UserOperation is an ERC-4337 v0.7 user operation in the unpacked form of
// the ERC-7769 JSON-RPC methods. Gas limits are uint64 (the EntryPoint takes
// up to 120 bits, far beyond any block); fees are at most 120 bits.
type UserOperation struct {
	Sender                        common.Address
	Nonce                         *big.Int
	Factory                       *common.Address // nil: the account exists
	FactoryData                   []byte
	CallData                      []byte
	CallGasLimit                  uint64
	VerificationGasLimit          uint64
	PreVerificationGas            uint64
	MaxFeePerGas                  *big.Int
	MaxPriorityFeePerGas          *big.Int
	Paymaster                     *common.Address // nil: the account pays
	PaymasterVerificationGasLimit uint64
	PaymasterPostOpGasLimit       uint64
	PaymasterData                 []byte
	Signature                     []byte
}

// PackedUserOperation is the EntryPoint's on-chain form; its field names are
// the ABI tuple's, so go-ethereum's abi package packs it as is.
type PackedUserOperation struct {
	Sender             common.Address
	Nonce              *big.Int
	InitCode           []byte
	CallData           []byte
	AccountGasLimits   [32]byte
	PreVerificationGas *big.Int
	GasFees            [32]byte
	PaymasterAndData   []byte
	Signature          []byte
}

// maxFee is the largest fee the EntryPoint accepts (it refuses gas values
// over 120 bits with AA94).
var maxFee = new(big.Int).Lsh(big.NewInt(1), 120)

// rpcUserOperation is the JSON form. Pointers tell a missing field from zero.
type rpcUserOperation struct {
	Sender                        *common.Address `json:"sender"`
	Nonce                         *hexutil.Big    `json:"nonce"`
	Factory                       *common.Address `json:"factory,omitempty"`
	FactoryData                   *hexutil.Bytes  `json:"factoryData,omitempty"`
	CallData                      *hexutil.Bytes  `json:"callData"`
	CallGasLimit                  *hexutil.Big    `json:"callGasLimit"`
	VerificationGasLimit          *hexutil.Big    `json:"verificationGasLimit"`
	PreVerificationGas            *hexutil.Big    `json:"preVerificationGas"`
	MaxFeePerGas                  *hexutil.Big    `json:"maxFeePerGas"`
	MaxPriorityFeePerGas          *hexutil.Big    `json:"maxPriorityFeePerGas"`
	Paymaster                     *common.Address `json:"paymaster,omitempty"`
	PaymasterVerificationGasLimit *hexutil.Big    `json:"paymasterVerificationGasLimit,omitempty"`
	PaymasterPostOpGasLimit       *hexutil.Big    `json:"paymasterPostOpGasLimit,omitempty"`
	PaymasterData                 *hexutil.Bytes  `json:"paymasterData,omitempty"`
	Signature                     *hexutil.Bytes  `json:"signature"`
}

// ParseUserOperation decodes an ERC-7769 user operation. With partial
// (eth_estimateUserOperationGas, pm_getPaymasterStubData) missing gas
// fields and signature are taken as zero; otherwise every field is required.
// Errors name the offending field and are meant for the caller.
func ParseUserOperation(raw json.RawMessage, partial bool) (*UserOperation, error) {
	var r rpcUserOperation
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("invalid UserOperation: %v", err)
	}
	if r.Sender == nil {
		return nil, fmt.Errorf("invalid UserOperation: sender is required")
	}
	if r.Nonce == nil {
		return nil, fmt.Errorf("invalid UserOperation: nonce is required")
	}
	if r.CallData == nil {
		return nil, fmt.Errorf("invalid UserOperation: callData is required")
	}
	op := &UserOperation{Sender: *r.Sender, Nonce: r.Nonce.ToInt(), CallData: *r.CallData}
	if op.Nonce.Sign() < 0 || op.Nonce.BitLen() > 256 {
		return nil, fmt.Errorf("invalid UserOperation: nonce out of range")
	}
	gas := []struct {
		name string
		v    *hexutil.Big
		dst  *uint64
	}{
		{"callGasLimit", r.CallGasLimit, &op.CallGasLimit},
		{"verificationGasLimit", r.VerificationGasLimit, &op.VerificationGasLimit},
		{"preVerificationGas", r.PreVerificationGas, &op.PreVerificationGas},
	}
	for _, g := range gas {
		if g.v == nil {
			if partial {
				continue
			}
			return nil, fmt.Errorf("invalid UserOperation: %s is required", g.name)
		}
		if !g.v.ToInt().IsUint64() {
			return nil, fmt.Errorf("invalid UserOperation: %s out of range", g.name)
		}
		*g.dst = g.v.ToInt().Uint64()
	}
	for _, f := range []struct {
		name string
		v    *hexutil.Big
		dst  **big.Int
	}{{"maxFeePerGas", r.MaxFeePerGas, &op.MaxFeePerGas}, {"maxPriorityFeePerGas", r.MaxPriorityFeePerGas, &op.MaxPriorityFeePerGas}} {
		if f.v == nil {
			if !partial {
				return nil, fmt.Errorf("invalid UserOperation: %s is required", f.name)
			}
			*f.dst = new(big.Int)
			continue
		}
		if f.v.ToInt().Sign() < 0 || f.v.ToInt().Cmp(maxFee) >= 0 {
			return nil, fmt.Errorf("invalid UserOperation: %s out of range", f.name)
		}
		*f.dst = new(big.Int).Set(f.v.ToInt())
	}
	if op.MaxPriorityFeePerGas.Cmp(op.MaxFeePerGas) > 0 {
		return nil, fmt.Errorf("invalid UserOperation: maxPriorityFeePerGas is above maxFeePerGas")
	}
	// ERC-7769: factory and factoryData come together or not at all, and so
	// do the paymaster fields.
	switch {
	case r.Factory != nil && r.FactoryData != nil:
		f := *r.Factory
		op.Factory, op.FactoryData = &f, *r.FactoryData
	case r.Factory != nil || r.FactoryData != nil:
		return nil, fmt.Errorf("invalid UserOperation: factory and factoryData must both be set or both be absent")
	}
	pmSet := r.Paymaster != nil
	if !pmSet && (r.PaymasterVerificationGasLimit != nil || r.PaymasterPostOpGasLimit != nil || (r.PaymasterData != nil && len(*r.PaymasterData) > 0)) {
		return nil, fmt.Errorf("invalid UserOperation: paymaster fields without a paymaster")
	}
	if pmSet {
		p := *r.Paymaster
		op.Paymaster = &p
		for _, g := range []struct {
			name string
			v    *hexutil.Big
			dst  *uint64
		}{{"paymasterVerificationGasLimit", r.PaymasterVerificationGasLimit, &op.PaymasterVerificationGasLimit}, {"paymasterPostOpGasLimit", r.PaymasterPostOpGasLimit, &op.PaymasterPostOpGasLimit}} {
			if g.v == nil {
				if partial {
					continue
				}
				return nil, fmt.Errorf("invalid UserOperation: %s is required with a paymaster", g.name)
			}
			if !g.v.ToInt().IsUint64() {
				return nil, fmt.Errorf("invalid UserOperation: %s out of range", g.name)
			}
			*g.dst = g.v.ToInt().Uint64()
		}
		if r.PaymasterData != nil {
			op.PaymasterData = *r.PaymasterData
		}
	}
	if r.Signature == nil {
		if !partial {
			return nil, fmt.Errorf("invalid UserOperation: signature is required")
		}
	} else {
		op.Signature = *r.Signature
	}
	return op, nil
}

// UnmarshalJSON reads the ERC-7769 form with every field required.
func (op *UserOperation) UnmarshalJSON(b []byte) error {
	parsed, err := ParseUserOperation(b, false)
	if err != nil {
		return err
	}
	*op = *parsed
	return nil
}

// MarshalJSON writes the ERC-7769 form.
func (op *UserOperation) MarshalJSON() ([]byte, error) {
	r := rpcUserOperation{
		Sender:               &op.Sender,
		Nonce:                (*hexutil.Big)(op.Nonce),
		CallData:             (*hexutil.Bytes)(&op.CallData),
		CallGasLimit:         u64(op.CallGasLimit),
		VerificationGasLimit: u64(op.VerificationGasLimit),
		PreVerificationGas:   u64(op.PreVerificationGas),
		MaxFeePerGas:         (*hexutil.Big)(op.MaxFeePerGas),
		MaxPriorityFeePerGas: (*hexutil.Big)(op.MaxPriorityFeePerGas),
		Signature:            (*hexutil.Bytes)(&op.Signature),
	}
	if op.Factory != nil {
		r.Factory, r.FactoryData = op.Factory, (*hexutil.Bytes)(&op.FactoryData)
	}
	if op.Paymaster != nil {
		r.Paymaster = op.Paymaster
		r.PaymasterVerificationGasLimit = u64(op.PaymasterVerificationGasLimit)
		r.PaymasterPostOpGasLimit = u64(op.PaymasterPostOpGasLimit)
		data := hexutil.Bytes(op.PaymasterData)
		if data == nil {
			data = hexutil.Bytes{}
		}
		r.PaymasterData = &data
	}
	return json.Marshal(r)
}

func u64(v uint64) *hexutil.Big { return (*hexutil.Big)(new(big.Int).SetUint64(v)) }

// InitCode is factory followed by factoryData, or empty.
func (op *UserOperation) InitCode() []byte {
	if op.Factory == nil {
		return []byte{}
	}
	return append(op.Factory.Bytes(), op.FactoryData...)
}

// PaymasterAndData is the packed paymaster field, or empty.
func (op *UserOperation) PaymasterAndData() []byte {
	if op.Paymaster == nil {
		return []byte{}
	}
	out := make([]byte, 0, 52+len(op.PaymasterData))
	out = append(out, op.Paymaster.Bytes()...)
	out = append(out, uint128(new(big.Int).SetUint64(op.PaymasterVerificationGasLimit))...)
	out = append(out, uint128(new(big.Int).SetUint64(op.PaymasterPostOpGasLimit))...)
	return append(out, op.PaymasterData...)
}

// Pack returns the EntryPoint's PackedUserOperation.
func (op *UserOperation) Pack() PackedUserOperation {
	p := PackedUserOperation{
		Sender:             op.Sender,
		Nonce:              new(big.Int).Set(op.Nonce),
		InitCode:           op.InitCode(),
		CallData:           nonNil(op.CallData),
		PreVerificationGas: new(big.Int).SetUint64(op.PreVerificationGas),
		PaymasterAndData:   op.PaymasterAndData(),
		Signature:          nonNil(op.Signature),
	}
	copy(p.AccountGasLimits[:16], uint128(new(big.Int).SetUint64(op.VerificationGasLimit)))
	copy(p.AccountGasLimits[16:], uint128(new(big.Int).SetUint64(op.CallGasLimit)))
	copy(p.GasFees[:16], uint128(op.MaxPriorityFeePerGas))
	copy(p.GasFees[16:], uint128(op.MaxFeePerGas))
	return p
}

func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// uint128 is v as 16 big-endian bytes; v is below 2^120 by construction.
func uint128(v *big.Int) []byte {
	out := make([]byte, 16)
	if v != nil {
		v.FillBytes(out)
	}
	return out
}

// Hash is the userOpHash: what the EntryPoint's getUserOpHash returns on
// the chain chainID for the EntryPoint at entryPoint, and what the account
// owner signs.
func (op *UserOperation) Hash(entryPoint common.Address, chainID uint64) common.Hash {
	p := op.Pack()
	word := func(b []byte) []byte { return common.LeftPadBytes(b, 32) }
	inner := crypto.Keccak256(
		word(p.Sender.Bytes()),
		word(p.Nonce.Bytes()),
		crypto.Keccak256(p.InitCode),
		crypto.Keccak256(p.CallData),
		p.AccountGasLimits[:],
		word(p.PreVerificationGas.Bytes()),
		p.GasFees[:],
		crypto.Keccak256(p.PaymasterAndData),
	)
	return crypto.Keccak256Hash(inner, word(entryPoint.Bytes()), word(new(big.Int).SetUint64(chainID).Bytes()))
}

// RequiredPrefund is what the EntryPoint takes up front: every gas limit at
// maxFeePerGas.
func (op *UserOperation) RequiredPrefund() *big.Int {
	gas := new(big.Int).SetUint64(op.VerificationGasLimit)
	for _, g := range []uint64{op.CallGasLimit, op.PaymasterVerificationGasLimit, op.PaymasterPostOpGasLimit, op.PreVerificationGas} {
		gas.Add(gas, new(big.Int).SetUint64(g))
	}
	return gas.Mul(gas, op.MaxFeePerGas)
}

// Copy returns a deep copy.
func (op *UserOperation) Copy() *UserOperation {
	c := *op
	c.Nonce = new(big.Int).Set(op.Nonce)
	c.MaxFeePerGas = new(big.Int).Set(op.MaxFeePerGas)
	c.MaxPriorityFeePerGas = new(big.Int).Set(op.MaxPriorityFeePerGas)
	c.FactoryData = append([]byte(nil), op.FactoryData...)
	c.CallData = append([]byte(nil), op.CallData...)
	c.PaymasterData = append([]byte(nil), op.PaymasterData...)
	c.Signature = append([]byte(nil), op.Signature...)
	if op.Factory != nil {
		f := *op.Factory
		c.Factory = &f
	}
	if op.Paymaster != nil {
		p := *op.Paymaster
		c.Paymaster = &p
	}
	return &c
}
