package siwx_test

import (
	"context"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/latchkit/latch/pkg/siwx"
)

// A backend verifies the message and signature a wallet sent it, against
// the nonce it issued for this sign-in.
func Example() {
	// The wallet's side (a fixed test key).
	key, _ := crypto.HexToECDSA("ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80")
	message := "app.example.com wants you to sign in with your Ethereum account:\n" +
		crypto.PubkeyToAddress(key.PublicKey).Hex() + "\n\n" +
		"Sign in to Example\n\n" +
		"URI: https://app.example.com\nVersion: 1\nChain ID: 1\nNonce: k8DgbtvT4qWa\n" +
		"Issued At: 2025-05-01T12:00:00Z\nExpiration Time: 2025-05-01T12:05:00Z"
	sig, _ := crypto.Sign(accounts.TextHash([]byte(message)), key)
	sig[64] += 27

	// The backend's side.
	v := &siwx.Verifier{Now: func() time.Time { return time.Date(2025, 5, 1, 12, 1, 0, 0, time.UTC) }}
	signIn, err := v.Verify(context.Background(), message, hexutil.Encode(sig), siwx.Expect{
		Domain:   func(d string) bool { return d == "app.example.com" },
		Nonce:    "k8DgbtvT4qWa", // the one this backend issued, now spent
		ChainIDs: []string{"eip155:1"},
	})
	if err != nil {
		fmt.Println("refused:", err)
		return
	}
	fmt.Println(signIn.Message.Address, signIn.Message.ChainID, signIn.Kind)

	// A replayed message with another nonce is refused, with its reason.
	_, err = v.Verify(context.Background(), message, hexutil.Encode(sig), siwx.Expect{
		Domain: func(d string) bool { return d == "app.example.com" }, Nonce: "another0nce1",
	})
	fmt.Println(siwx.ReasonOf(err))
	// Output:
	// 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266 eip155:1 eip191
	// nonce
}
