// Package caip parses and validates CAIP-2 chain ids ("eip155:1") and CAIP-10
// account ids ("eip155:1:0xab…"), with the messages of spec §5.
package caip

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Namespaces are the chain namespaces the product supports (spec §1).
var Namespaces = []string{"eip155", "solana", "polkadot", "bip122", "cosmos"}

// KnownNamespace reports whether ns is one of Namespaces.
func KnownNamespace(ns string) bool {
	for _, n := range Namespaces {
		if n == ns {
			return true
		}
	}
	return false
}

// ChainID is a CAIP-2 chain id.
type ChainID struct {
	Namespace string
	Reference string
}

func (c ChainID) String() string { return c.Namespace + ":" + c.Reference }

// AccountID is a CAIP-10 account id.
type AccountID struct {
	Chain   ChainID
	Address string
}

func (a AccountID) String() string { return a.Chain.String() + ":" + a.Address }

// Error is a parse failure; its message is the spec's ("Invalid CAIP-2 network
// id: …", "Invalid CAIP-10 address: …").
type Error struct {
	Kind  string // "CAIP-2 network id" or "CAIP-10 address"
	Input string
}

func (e *Error) Error() string {
	return fmt.Sprintf("Invalid %s: %s", e.Kind, quote(e.Input))
}

// quote bounds and cleans the echoed input so an error message never carries
// a huge or control-character-laden string back to a client or a log.
func quote(s string) string {
	const max = 80
	var b strings.Builder
	for i, r := range s {
		if i >= max {
			b.WriteString("…")
			break
		}
		if r < 0x20 || r == 0x7f {
			r = '?'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// ParseChainID parses a CAIP-2 id: namespace [-a-z0-9]{3,8}, a colon and a
// reference [-_a-zA-Z0-9]{1,32}. The namespace must be one of Namespaces.
func ParseChainID(s string) (ChainID, error) {
	ns, ref, ok := strings.Cut(s, ":")
	if !ok || strings.Contains(ref, ":") || !validNamespace(ns) || !KnownNamespace(ns) || !validReference(ref) {
		return ChainID{}, &Error{Kind: "CAIP-2 network id", Input: s}
	}
	if ns == "eip155" && !validEIP155Reference(ref) {
		return ChainID{}, &Error{Kind: "CAIP-2 network id", Input: s}
	}
	return ChainID{Namespace: ns, Reference: ref}, nil
}

// EIP155 is the namespace of EVM networks.
const EIP155 = "eip155"

// ErrNotEVM is returned by EVMChainID for a valid CAIP-2 id of a namespace
// other than eip155.
var ErrNotEVM = errors.New("not an EVM (eip155) network id")

// EVMChainID parses an EVM network's CAIP-2 id ("eip155:1") into its chain
// id. A malformed id (or one whose chain id overflows 64 bits) is an *Error;
// a valid id of another namespace wraps ErrNotEVM.
func EVMChainID(s string) (uint64, error) {
	c, err := ParseChainID(s)
	if err != nil {
		return 0, err
	}
	return c.EVMChainID()
}

// EVMChainID is c's chain id when c is an EVM network (see the function EVMChainID).
func (c ChainID) EVMChainID() (uint64, error) {
	if c.Namespace != EIP155 {
		return 0, fmt.Errorf("%s: %w", quote(c.String()), ErrNotEVM)
	}
	n, err := strconv.ParseUint(c.Reference, 10, 64)
	if err != nil {
		return 0, &Error{Kind: "CAIP-2 network id", Input: c.String()}
	}
	return n, nil
}

// EVMNetworkID is the CAIP-2 id of the EVM network with chainID ("eip155:1").
func EVMNetworkID(chainID uint64) string {
	return EIP155 + ":" + strconv.FormatUint(chainID, 10)
}

// ParseAccountID parses a CAIP-10 id: three non-empty colon-separated parts,
// a known namespace, a valid reference and an address [-.%a-zA-Z0-9]{1,128}.
func ParseAccountID(s string) (AccountID, error) {
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return AccountID{}, &Error{Kind: "CAIP-10 address", Input: s}
	}
	chain, err := ParseChainID(parts[0] + ":" + parts[1])
	if err != nil || !validAddress(parts[2]) {
		return AccountID{}, &Error{Kind: "CAIP-10 address", Input: s}
	}
	return AccountID{Chain: chain, Address: parts[2]}, nil
}

func validNamespace(s string) bool {
	if len(s) < 3 || len(s) > 8 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

func validReference(s string) bool {
	if len(s) < 1 || len(s) > 32 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isAlnum(s[i]) && s[i] != '-' && s[i] != '_' {
			return false
		}
	}
	return true
}

// validEIP155Reference: an EVM chain id is a decimal without leading zeros.
func validEIP155Reference(s string) bool {
	if s[0] == '0' && len(s) > 1 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func validAddress(s string) bool {
	if len(s) < 1 || len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isAlnum(s[i]) && s[i] != '-' && s[i] != '.' && s[i] != '%' {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
