package bundler

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

// pick bundles a sender's operations in nonce order, several in one
// bundle, each only after every live one of its nonce key with a lower
// nonce, none after one whose fee is below the base fee, and no more of a
// throttled entity's than ERC-7562 allows.
func TestPick(t *testing.T) {
	a, b := common.Address{0xa}, common.Address{0xb}
	rec := func(sender common.Address, nonce int64, fee int64) *Record {
		return &Record{
			Hash: common.BigToHash(big.NewInt(int64(sender[0])<<32 | nonce)),
			Op:   &UserOperation{Sender: sender, Nonce: big.NewInt(nonce), MaxFeePerGas: big.NewInt(fee), VerificationGasLimit: 100_000},
		}
	}
	lives := func(recs ...*Record) []LiveNonce {
		out := make([]LiveNonce, len(recs))
		for i, r := range recs {
			out[i] = LiveNonce{Sender: r.Op.Sender, Nonce: r.Op.Nonce, Hash: r.Hash}
		}
		return out
	}
	names := func(recs []*Record) string {
		s := ""
		for _, r := range recs {
			s += string(rune('a'-0xa+int(r.Op.Sender[0]))) + r.Op.Nonce.String() + " "
		}
		return s
	}
	n := &netState{svc: &Service{cfg: Config{MaxBundleOps: 32, MaxBundleGas: DefaultMaxBundleGas}}}
	baseFee := big.NewInt(10)
	a0, a1, a2, b0, b1 := rec(a, 0, 20), rec(a, 1, 20), rec(a, 2, 20), rec(b, 0, 20), rec(b, 1, 20)

	// Oldest first as the store answers, a replacement of a0 being newest.
	if got := names(n.pick([]*Record{a1, b0, a2, a0, b1}, lives(a0, a1, a2, b0, b1), baseFee, nil)); got != "a0 a1 a2 b0 b1 " {
		t.Fatalf("pick = %q", got)
	}
	// a0 is in a bundle being mined (live, not pending): a1 and a2 wait.
	if got := names(n.pick([]*Record{a1, a2, b0}, lives(a0, a1, a2, b0), baseFee, nil)); got != "b0 " {
		t.Fatalf("pick with a0 submitted = %q", got)
	}
	// a1's fee is below the base fee: it and a2 wait.
	low := rec(a, 1, 5)
	if got := names(n.pick([]*Record{a0, low, a2, b0}, lives(a0, low, a2, b0), baseFee, nil)); got != "a0 b0 " {
		t.Fatalf("pick with a1 underpriced = %q", got)
	}
	// The bundle's operation limit, and one operation after a reverted bundle.
	n.svc.cfg.MaxBundleOps = 2
	if got := names(n.pick([]*Record{a0, a1, a2}, lives(a0, a1, a2), baseFee, nil)); got != "a0 a1 " {
		t.Fatalf("pick with 2 a bundle = %q", got)
	}
	// A throttled entity (here the sender a) has at most
	// THROTTLED_ENTITY_BUNDLE_COUNT operations in a bundle.
	n.svc.cfg.MaxBundleOps = 32
	a3, a4, a5 := rec(a, 3, 20), rec(a, 4, 20), rec(a, 5, 20)
	all := []*Record{a0, a1, a2, a3, a4, a5, b0}
	if got := names(n.pick(all, lives(all...), baseFee, map[common.Address]bool{a: true})); got != "a0 a1 a2 a3 b0 " {
		t.Fatalf("pick with a throttled = %q", got)
	}
	n.svc.cfg.MaxBundleOps = 2
	n.singles = true
	if got := names(n.pick([]*Record{a0, a1, b0}, lives(a0, a1, b0), baseFee, nil)); got != "a0 " {
		t.Fatalf("pick of singles = %q", got)
	}
}
