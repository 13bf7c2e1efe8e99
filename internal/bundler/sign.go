package bundler

import (
	"crypto/ecdsa"
	"encoding/binary"
	"math/big"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// PaymasterApprovalLength is the length of LatchVerifyingPaymaster's
// paymasterData: validUntil and validAfter (6 bytes each), the bundler
// (20) and the signature (65).
const PaymasterApprovalLength = 6 + 6 + common.AddressLength + 65

// PaymasterHash is what LatchVerifyingPaymaster.getHash returns for op on
// chainID: the operation without signatures, bound to the chain, the
// paymaster, the validity window and the bundler whose transactions may
// use it (zero: any). op.Paymaster and its gas limits must be set;
// op.PaymasterData is not part of it.
func PaymasterHash(op *UserOperation, chainID uint64, validUntil, validAfter uint64, bundler common.Address) common.Hash {
	p := op.Pack()
	word := func(b []byte) []byte { return common.LeftPadBytes(b, 32) }
	var pmGas []byte
	if len(p.PaymasterAndData) >= 52 {
		pmGas = p.PaymasterAndData[20:52]
	} else {
		pmGas = make([]byte, 32)
	}
	var paymaster common.Address
	if op.Paymaster != nil {
		paymaster = *op.Paymaster
	}
	return crypto.Keccak256Hash(
		word(p.Sender.Bytes()),
		word(p.Nonce.Bytes()),
		crypto.Keccak256(p.InitCode),
		crypto.Keccak256(p.CallData),
		p.AccountGasLimits[:],
		pmGas,
		word(p.PreVerificationGas.Bytes()),
		p.GasFees[:],
		word(new(big.Int).SetUint64(chainID).Bytes()),
		word(paymaster.Bytes()),
		word(new(big.Int).SetUint64(validUntil).Bytes()),
		word(new(big.Int).SetUint64(validAfter).Bytes()),
		word(bundler.Bytes()),
	)
}

// PaymasterData is LatchVerifyingPaymaster's paymasterData: validUntil and
// validAfter (6 bytes each), bundler (20), and the signer's personal_sign
// of PaymasterHash. The paymaster honours it only in a transaction sent
// by bundler (tx.origin), or in any when bundler is zero. With a nil key
// the signature is a 65-byte placeholder of the right shape
// (pm_getPaymasterStubData).
func PaymasterData(op *UserOperation, chainID uint64, validUntil, validAfter uint64, bundler common.Address, key *ecdsa.PrivateKey) ([]byte, error) {
	out := make([]byte, 12, PaymasterApprovalLength)
	var w [8]byte
	binary.BigEndian.PutUint64(w[:], validUntil)
	copy(out[0:6], w[2:])
	binary.BigEndian.PutUint64(w[:], validAfter)
	copy(out[6:12], w[2:])
	out = append(out, bundler.Bytes()...)
	if key == nil {
		return append(out, stubSignature...), nil
	}
	sig, err := SignHash(PaymasterHash(op, chainID, validUntil, validAfter, bundler), key)
	if err != nil {
		return nil, err
	}
	return append(out, sig...), nil
}

// SignHash is personal_sign of a 32-byte hash, with v as 27 or 28: how
// LatchSmartAccount's owner signs a userOpHash and how the paymaster signer
// signs its approvals.
func SignHash(hash common.Hash, key *ecdsa.PrivateKey) ([]byte, error) {
	sig, err := crypto.Sign(accounts.TextHash(hash[:]), key)
	if err != nil {
		return nil, err
	}
	sig[64] += 27
	return sig, nil
}

// stubSignature has a valid signature's shape (65 bytes, low s, v 27) but
// signs nothing; gas estimated with it matches a real signature's.
var stubSignature = func() []byte {
	sig := make([]byte, 65)
	for i := 0; i < 64; i++ {
		sig[i] = 0x11
	}
	sig[64] = 27
	return sig
}()

// StubSignature returns a copy of the placeholder signature used for estimates.
func StubSignature() []byte { return append([]byte(nil), stubSignature...) }
