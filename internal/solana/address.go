// Package solana holds what latchd needs to talk to Solana networks: address
// parsing (spec §5: 32 to 44 base58 characters) and a small JSON-RPC client
// with failover across a network's upstreams.
package solana

import (
	"strings"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/base58"
)

// Address is a Solana account address: a 32-byte public key (or program
// derived address), written in base58.
type Address [32]byte

// String is the base58 form.
func (a Address) String() string { return base58.Encode(a[:]) }

// IsBase58Address reports whether s has the form of a Solana address: 32 to
// 44 characters of the base58 alphabet (spec §5). It does not decode s.
func IsBase58Address(s string) bool {
	if len(s) < 32 || len(s) > 44 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '1' && c <= '9' || c >= 'A' && c <= 'H' || c >= 'J' && c <= 'N' || c >= 'P' && c <= 'Z' || c >= 'a' && c <= 'k' || c >= 'm' && c <= 'z') {
			return false
		}
	}
	return true
}

// ParseAddress parses a Solana address. Errors: apperr.Invalid naming
// field, "Invalid address: … is not a Solana address (32 to 44 base58
// characters)" when the form is wrong, "… does not decode to 32 bytes" when
// it decodes to another length.
func ParseAddress(field, s string) (Address, error) {
	if !IsBase58Address(s) {
		return Address{}, apperr.Fieldf(apperr.Invalid, field, "Invalid address: %s is not a Solana address (32 to 44 base58 characters)", clip(s))
	}
	b, err := base58.Decode(s)
	if err != nil || len(b) != 32 {
		return Address{}, apperr.Fieldf(apperr.Invalid, field, "Invalid address: %s does not decode to a 32-byte Solana address", clip(s))
	}
	var a Address
	copy(a[:], b)
	return a, nil
}

// MustParseAddress is ParseAddress for constants; it panics on a bad address.
func MustParseAddress(s string) Address {
	a, err := ParseAddress("address", s)
	if err != nil {
		panic(err)
	}
	return a
}

// clip bounds user input echoed in messages.
func clip(s string) string {
	const n = 64
	if len(s) > n {
		s = s[:n] + "…"
	}
	return strings.ToValidUTF8(s, "?")
}
