package relay

// OverBudget counts the polled sockets closed for going over their write
// buffer budget (their close frame is queued or sent).
func (s *Server) OverBudget() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for c := range s.conns {
		if p, ok := c.sock.(*pollSocket); ok && p.overBudget.Load() {
			n++
		}
	}
	return n
}
