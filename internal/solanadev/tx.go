package solanadev

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"math/big"

	"github.com/latchkit/latch/internal/solana"
)

// Instruction is one instruction of a transaction.
type Instruction struct {
	Program  solana.Address
	Accounts []AccountMeta
	Data     []byte
}

// AccountMeta is an account an instruction uses.
type AccountMeta struct {
	Address  solana.Address
	Signer   bool
	Writable bool
}

// TransferSOL is the system program's transfer of lamports.
func TransferSOL(from, to solana.Address, lamports uint64) Instruction {
	data := make([]byte, 12)
	binary.LittleEndian.PutUint32(data, 2)
	binary.LittleEndian.PutUint64(data[4:], lamports)
	return Instruction{Program: solana.SystemProgram, Data: data, Accounts: []AccountMeta{{from, true, true}, {to, false, true}}}
}

// TransferChecked is the token program's TransferChecked from one token
// account to another, signed by the source's owner.
func TransferChecked(source, mint, destination, owner solana.Address, amount uint64, decimals uint8) Instruction {
	data := make([]byte, 10)
	data[0] = 12
	binary.LittleEndian.PutUint64(data[1:], amount)
	data[9] = decimals
	return Instruction{Program: solana.TokenProgram, Data: data, Accounts: []AccountMeta{{source, false, true}, {mint, false, false}, {destination, false, true}, {owner, true, false}}}
}

// AssociatedTokenAddress derives owner's associated token account of mint
// (classic token program): the program-derived address of [owner, token
// program, mint] under the associated token program.
func AssociatedTokenAddress(owner, mint solana.Address) (solana.Address, error) {
	for bump := 255; bump >= 0; bump-- {
		h := sha256.New()
		h.Write(owner[:])
		h.Write(solana.TokenProgram[:])
		h.Write(mint[:])
		h.Write([]byte{byte(bump)})
		h.Write(solana.AssociatedTokenProgram[:])
		h.Write([]byte("ProgramDerivedAddress"))
		var a solana.Address
		copy(a[:], h.Sum(nil))
		if !onCurve(a) {
			return a, nil
		}
	}
	return solana.Address{}, errors.New("solanadev: no program-derived address")
}

// Curve25519's field prime and Edwards d, for onCurve.
var (
	fieldP = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 255), big.NewInt(19))
	edD    = func() *big.Int {
		d, _ := new(big.Int).SetString("37095705934669439343138083508754565189542113879843219016388785533085940283555", 10)
		return d
	}()
)

// onCurve reports whether a decodes to a point of the ed25519 curve (RFC
// 8032 §5.1.3 decoding): a program-derived address must not.
func onCurve(a solana.Address) bool {
	b := make([]byte, 32)
	for i := range b {
		b[i] = a[31-i]
	}
	sign := b[0] >> 7
	b[0] &= 0x7f
	y := new(big.Int).SetBytes(b)
	if y.Cmp(fieldP) >= 0 {
		return false
	}
	y2 := new(big.Int).Mul(y, y)
	y2.Mod(y2, fieldP)
	u := new(big.Int).Sub(y2, big.NewInt(1))
	u.Mod(u, fieldP)
	v := new(big.Int).Mul(edD, y2)
	v.Add(v, big.NewInt(1))
	v.Mod(v, fieldP)
	x2 := new(big.Int).Mul(u, new(big.Int).ModInverse(v, fieldP))
	x2.Mod(x2, fieldP)
	if x2.Sign() == 0 {
		return sign == 0
	}
	// x² must be a square: Euler's criterion.
	e := new(big.Int).Rsh(new(big.Int).Sub(fieldP, big.NewInt(1)), 1)
	return new(big.Int).Exp(x2, e, fieldP).Cmp(big.NewInt(1)) == 0
}

// SignTransaction builds a legacy transaction of instructions paid by
// payer with blockhash, signs it with the signers (payer first) and
// returns it base64-encoded for sendTransaction, with its signature.
func SignTransaction(payer Key, others []Key, blockhash solana.Address, ixs ...Instruction) (wire string, signature []byte) {
	type meta struct {
		addr             solana.Address
		signer, writable bool
	}
	var keys []meta
	index := map[solana.Address]int{}
	add := func(a solana.Address, signer, writable bool) {
		if i, ok := index[a]; ok {
			keys[i].signer = keys[i].signer || signer
			keys[i].writable = keys[i].writable || writable
			return
		}
		index[a] = len(keys)
		keys = append(keys, meta{a, signer, writable})
	}
	add(payer.Address, true, true)
	for _, ix := range ixs {
		for _, m := range ix.Accounts {
			add(m.Address, m.Signer, m.Writable)
		}
		add(ix.Program, false, false)
	}
	// Order: writable signers, read-only signers, writable others, read-only others (payer stays first).
	rank := func(m meta) int {
		switch {
		case m.signer && m.writable:
			return 0
		case m.signer:
			return 1
		case m.writable:
			return 2
		}
		return 3
	}
	ordered := []meta{keys[0]}
	for r := 0; r < 4; r++ {
		for _, m := range keys[1:] {
			if rank(m) == r {
				ordered = append(ordered, m)
			}
		}
	}
	index = map[solana.Address]int{}
	var numSigners, roSigners, roOthers byte
	for i, m := range ordered {
		index[m.addr] = i
		switch rank(m) {
		case 0:
			numSigners++
		case 1:
			numSigners++
			roSigners++
		case 3:
			roOthers++
		}
	}
	msg := []byte{numSigners, roSigners, roOthers}
	msg = appendCompactU16(msg, len(ordered))
	for _, m := range ordered {
		msg = append(msg, m.addr[:]...)
	}
	msg = append(msg, blockhash[:]...)
	msg = appendCompactU16(msg, len(ixs))
	for _, ix := range ixs {
		msg = append(msg, byte(index[ix.Program]))
		msg = appendCompactU16(msg, len(ix.Accounts))
		for _, m := range ix.Accounts {
			msg = append(msg, byte(index[m.Address]))
		}
		msg = appendCompactU16(msg, len(ix.Data))
		msg = append(msg, ix.Data...)
	}
	byAddr := map[solana.Address]Key{payer.Address: payer}
	for _, k := range others {
		byAddr[k.Address] = k
	}
	tx := appendCompactU16(nil, int(numSigners))
	for _, m := range ordered[:numSigners] {
		sig := ed25519.Sign(byAddr[m.addr].Private, msg)
		if signature == nil {
			signature = sig
		}
		tx = append(tx, sig...)
	}
	tx = append(tx, msg...)
	return base64.StdEncoding.EncodeToString(tx), signature
}

func appendCompactU16(b []byte, n int) []byte {
	for {
		c := byte(n & 0x7f)
		n >>= 7
		if n == 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
