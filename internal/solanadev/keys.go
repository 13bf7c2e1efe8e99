package solanadev

import (
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/binary"
	"strings"

	"github.com/latchkit/latch/internal/solana"
)

// TestMnemonic is the dev mnemonic whose accounts the EVM dev chains fund
// too; the Solana dev network funds its first AccountCount Solana accounts.
const TestMnemonic = "test test test test test test test test test test test junk"

// AccountCount is how many of TestMnemonic's Solana accounts the network funds.
const AccountCount = 10

// Genesis funding of each dev account (the Node package's GENESIS).
const (
	AccountLamports = 1000 * 1_000_000_000 // 1000 SOL
	AccountUSDC     = 10_000 * 1_000_000   // 10,000 USDC, 6 decimals
)

// Key is a dev account's ed25519 key.
type Key struct {
	Address solana.Address
	Private ed25519.PrivateKey
}

// DevKey derives account i of mnemonic at m/44'/501'/i'/0' (SLIP-0010
// ed25519, the path Phantom and Solflare use).
func DevKey(mnemonic string, i uint32) Key {
	seed, err := pbkdf2.Key(sha512.New, strings.Join(strings.Fields(mnemonic), " "), []byte("mnemonic"), 2048, 64)
	if err != nil {
		panic(err) // only for invalid parameters, and ours are fixed
	}
	mac := hmac.New(sha512.New, []byte("ed25519 seed"))
	mac.Write(seed)
	I := mac.Sum(nil)
	key, chain := I[:32], I[32:]
	for _, index := range []uint32{44, 501, i, 0} {
		data := make([]byte, 37)
		copy(data[1:], key)
		binary.BigEndian.PutUint32(data[33:], index|1<<31)
		mac := hmac.New(sha512.New, chain)
		mac.Write(data)
		I = mac.Sum(nil)
		key, chain = I[:32], I[32:]
	}
	return keyFromSeed(key)
}

// LabelKey is the key whose seed is sha256(label): the network's own fixed
// accounts (the dev USDC mint is LabelKey(USDCMintLabel)).
func LabelKey(label string) Key {
	seed := sha256.Sum256([]byte(label))
	return keyFromSeed(seed[:])
}

// USDCMintLabel names the dev USDC mint's key.
const USDCMintLabel = "latch solana devnet USDC mint v1"

func keyFromSeed(seed []byte) Key {
	priv := ed25519.NewKeyFromSeed(seed)
	var k Key
	copy(k.Address[:], priv.Public().(ed25519.PublicKey))
	k.Private = priv
	return k
}
