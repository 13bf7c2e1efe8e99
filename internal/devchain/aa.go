package devchain

import (
	"crypto/ecdsa"

	"github.com/ethereum/go-ethereum/crypto"
)

// The dev chains' ERC-4337 keys come from fixed labels, so latchd dev and
// the chains agree on them without passing secrets around: they sign only
// on the dev chains, and anyone can derive them.
var (
	devBundlerLabel         = "latch devnet aa bundler v1"
	devPaymasterSignerLabel = "latch devnet aa paymaster signer v1"
)

// DevBundlerKey is the key latchd dev's bundler sends handleOps from; the dev
// chains fund it at start.
func DevBundlerKey() *ecdsa.PrivateKey { return labelKey(devBundlerLabel) }

// DevPaymasterSignerKey is the key whose approvals the dev chains'
// LatchVerifyingPaymaster accepts; latchd dev's paymaster signs with it.
func DevPaymasterSignerKey() *ecdsa.PrivateKey { return labelKey(devPaymasterSignerLabel) }

func labelKey(label string) *ecdsa.PrivateKey {
	key, err := crypto.ToECDSA(crypto.Keccak256([]byte(label)))
	if err != nil {
		panic(err) // a fixed 32-byte hash below the curve order
	}
	return key
}
