package bundler

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

// ORIGIN in validation (OP-011) is allowed in one place: the code of
// latchd's own paymaster, in its own validation phase. Not when no
// paymaster is latchd's, not in another paymaster, not in a contract the
// paymaster calls or delegates to, not in another entity's phase (even
// when that entity calls latchd's paymaster).
func TestCheckRules_Origin(t *testing.T) {
	ep := common.Address{0xe0}
	own, other, lib := common.Address{0xa1}, common.Address{0xa2}, common.Address{0xa3}
	sender := common.Address{0x5e}
	origin := map[hexutil.Uint64]uint64{0x32: 1}
	call := func(typ string, from, to common.Address, opcodes map[hexutil.Uint64]uint64, calls ...frame) *frame {
		return &frame{Type: typ, From: from, To: &to, UsedOpcodes: opcodes, Calls: calls}
	}
	notStaked := func(common.Address) (bool, error) { return false, nil }
	for _, tt := range []struct {
		name         string
		paymaster    common.Address
		ownPaymaster common.Address
		ph           phases
		rule, entity string
		address      common.Address
	}{
		{"OwnPaymaster", own, own, phases{paymaster: call("CALL", ep, own, origin)}, "", "", common.Address{}},
		{"NoPaymasterOfLatchd", own, common.Address{}, phases{paymaster: call("CALL", ep, own, origin)}, "OP-011", entityPaymaster, own},
		{"OtherPaymaster", other, own, phases{paymaster: call("CALL", ep, other, origin)}, "OP-011", entityPaymaster, other},
		{"CalledByOwnPaymaster", own, own, phases{paymaster: call("CALL", ep, own, nil, *call("STATICCALL", own, lib, origin))}, "OP-011", entityPaymaster, own},
		{"DelegatedByOwnPaymaster", own, own, phases{paymaster: call("CALL", ep, own, nil, *call("DELEGATECALL", own, lib, origin))}, "OP-011", entityPaymaster, own},
		{"Account", own, own, phases{account: call("CALL", ep, sender, origin), paymaster: call("CALL", ep, own, origin)}, "OP-011", entityAccount, sender},
		{"AccountCallsOwnPaymaster", own, own, phases{account: call("CALL", ep, sender, nil, *call("STATICCALL", sender, own, origin))}, "OP-011", entityAccount, sender},
	} {
		t.Run(tt.name, func(t *testing.T) {
			pm := tt.paymaster
			op := &UserOperation{Sender: sender, Nonce: new(big.Int), Paymaster: &pm}
			v, err := checkRules(op, tt.ph, nil, ep, tt.ownPaymaster, notStaked)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tt.rule == "" && v != nil:
				t.Fatalf("refused: %v", v)
			case tt.rule != "" && (v == nil || v.Rule != tt.rule || v.Entity != tt.entity || v.Address != tt.address || v.Detail != "used ORIGIN"):
				t.Fatalf("violation %+v, want %s by the %s %s for ORIGIN", v, tt.rule, tt.entity, tt.address.Hex())
			}
		})
	}
}
