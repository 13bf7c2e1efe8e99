package auth

// SetAfterReserve sets a hook run after a right code's try is taken and
// before the code is consumed.
func SetAfterReserve(s *Service, f func()) { s.afterReserve = f }
