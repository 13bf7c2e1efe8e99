package bundler

import "context"

// Leads reports whether s bundles network now (tests).
func (s *Service) Leads(ctx context.Context, network string) bool {
	return s.nets[network].leader.lead(ctx)
}

// The EntryPoint storage slots the simulation overrides (tests).
var (
	NonceStorageSlot   = nonceStorageSlot
	DepositStorageSlot = depositStorageSlot
)
