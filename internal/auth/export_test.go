package auth

// SetAfterReserve sets a hook run after a right code's try is taken and
// before the code is consumed.
func SetAfterReserve(s *Service, f func()) { s.afterReserve = f }

// SetAfterTOTPCheck sets a hook run after a right TOTP code is checked and
// before its step is spent.
func SetAfterTOTPCheck(s *Service, f func()) { s.afterTOTPCheck = f }
