package siwx

import (
	"errors"
	"math/big"
)

const base58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

var base58Index = func() (idx [256]int8) {
	for i := range idx {
		idx[i] = -1
	}
	for i, c := range base58Alphabet {
		idx[c] = int8(i)
	}
	return idx
}()

// decodeBase58 decodes Bitcoin-alphabet base58 (Solana addresses and signatures).
func decodeBase58(s string) ([]byte, error) {
	if s == "" || len(s) > 128 {
		return nil, errors.New("base58: bad length")
	}
	n := new(big.Int)
	fiftyEight := big.NewInt(58)
	zeros := 0
	for zeros < len(s) && s[zeros] == '1' {
		zeros++
	}
	for i := 0; i < len(s); i++ {
		d := base58Index[s[i]]
		if d < 0 {
			return nil, errors.New("base58: bad character")
		}
		n.Mul(n, fiftyEight)
		n.Add(n, big.NewInt(int64(d)))
	}
	return append(make([]byte, zeros), n.Bytes()...), nil
}

// encodeBase58 is decodeBase58's inverse.
func encodeBase58(b []byte) string {
	zeros := 0
	for zeros < len(b) && b[zeros] == 0 {
		zeros++
	}
	n := new(big.Int).SetBytes(b)
	var out []byte
	mod := new(big.Int)
	fiftyEight := big.NewInt(58)
	for n.Sign() > 0 {
		n.DivMod(n, fiftyEight, mod)
		out = append(out, base58Alphabet[mod.Int64()])
	}
	for i := 0; i < zeros; i++ {
		out = append(out, '1')
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return string(out)
}
