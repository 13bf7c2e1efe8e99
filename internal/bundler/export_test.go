package bundler

import "context"

// Leads reports whether s bundles network now (tests).
func (s *Service) Leads(ctx context.Context, network string) bool {
	return s.nets[network].leader.lead(ctx)
}
