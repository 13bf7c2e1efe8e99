package bundler

import (
	"context"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// Leads reports whether s bundles network now (tests).
func (s *Service) Leads(ctx context.Context, network string) bool {
	return s.nets[network].leader.lead(ctx)
}

// The EntryPoint storage slots the simulation overrides (tests).
var (
	NonceStorageSlot   = nonceStorageSlot
	DepositStorageSlot = depositStorageSlot
)

// SeeForTest counts one operation seen of addr (reputation.go), as
// accepting an operation does.
func (s *Store) SeeForTest(ctx context.Context, network string, addr common.Address, now time.Time) error {
	return s.changeReputation(ctx, network, []common.Address{addr}, reputationChange{seen: 1}, now)
}

// SponsoredPreVerificationGas is the preVerificationGas latchd computes
// for op once it carries the paymaster's fields (tests).
func SponsoredPreVerificationGas(op *UserOperation, paymaster common.Address) uint64 {
	c := op.Copy()
	c.Paymaster = &paymaster
	if c.PaymasterVerificationGasLimit == 0 {
		c.PaymasterVerificationGasLimit = paymasterVerificationGas
	}
	if c.PaymasterPostOpGasLimit == 0 {
		c.PaymasterPostOpGasLimit = paymasterPostOpGas
	}
	c.PaymasterData = make([]byte, PaymasterApprovalLength)
	return estimatedPreVerificationGas(c)
}
