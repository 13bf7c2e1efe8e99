package project

import "time"

// CacheLen returns the sizes of the caches of existing projects and of unknown ids.
func (s *Service) CacheLen() (known, unknown int) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.known), len(s.unknown)
}

// SetClock replaces the service's clock (for tests whose cache entries must not expire while they run).
func (s *Service) SetClock(now func() time.Time) { s.now = now }
