package project

// CacheLen returns the sizes of the caches of existing projects and of unknown ids.
func (s *Service) CacheLen() (known, unknown int) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.known), len(s.unknown)
}
