// Package ens holds the ENS encodings latchd needs in several places: the
// name hash of EIP-137 (identity lookups, the names gateway, the dev chains'
// registry) and the DNS wire format ENSIP-10 resolvers take names in.
package ens

import (
	"bytes"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// Namehash is ENS's recursive name hash (EIP-137) of a normalised name.
func Namehash(name string) common.Hash {
	var node common.Hash
	if name == "" {
		return node
	}
	labels := strings.Split(name, ".")
	for i := len(labels) - 1; i >= 0; i-- {
		node = crypto.Keccak256Hash(node.Bytes(), crypto.Keccak256([]byte(labels[i])))
	}
	return node
}

// EncodeDNSName is name in DNS wire format, as ENS clients send it to a
// wildcard (ENSIP-10) resolver.
func EncodeDNSName(name string) []byte {
	var b bytes.Buffer
	for _, l := range strings.Split(name, ".") {
		b.WriteByte(byte(len(l)))
		b.WriteString(l)
	}
	b.WriteByte(0)
	return b.Bytes()
}
