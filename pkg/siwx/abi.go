package siwx

import (
	"math/big"
	"net/url"

	"github.com/ethereum/go-ethereum/common"
)

// A tiny ABI encoder for the two calls this package makes (bytes32 and
// bytes arguments), so that verifying needs no ABI JSON.
type abiArg struct {
	static []byte // a 32-byte word
	dyn    []byte // dynamic bytes
	isDyn  bool
}

func word(b []byte) abiArg     { return abiArg{static: common.LeftPadBytes(b, 32)} }
func dynBytes(b []byte) abiArg { return abiArg{dyn: b, isDyn: true} }

func abiEncode(args ...abiArg) []byte {
	head := make([]byte, 0, 32*len(args))
	var tail []byte
	for _, a := range args {
		if !a.isDyn {
			head = append(head, a.static...)
			continue
		}
		off := big.NewInt(int64(32*len(args) + len(tail)))
		head = append(head, common.LeftPadBytes(off.Bytes(), 32)...)
		n := big.NewInt(int64(len(a.dyn)))
		tail = append(tail, common.LeftPadBytes(n.Bytes(), 32)...)
		tail = append(tail, common.RightPadBytes(a.dyn, (len(a.dyn)+31)/32*32)...)
	}
	return append(head, tail...)
}

func parseURL(s string) (*url.URL, error) { return url.Parse(s) }
