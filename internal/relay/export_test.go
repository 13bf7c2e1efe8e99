package relay

import "time"

// WithoutPoll makes a server serve every socket with a goroutine, as it does
// on other systems.
func WithoutPoll(cfg *Config) { cfg.noPoll = true }

// Offloaded makes a server hand polled sockets' messages to workers, as it
// does with a shared broker.
func Offloaded(cfg *Config) { cfg.offload = true }

// Polls reports whether this system serves sockets from poll loops.
func Polls() bool { return pollSupported }

// Maintenance runs a server's maintenance loop every period and calls
// after at the end of each round.
func Maintenance(cfg *Config, every time.Duration, after func()) {
	cfg.maintainEvery, cfg.maintained = every, after
}

// WritesWaiting counts the sockets with a write waiting for the peer: a
// reply, deliveries, or bytes left in the socket's own buffer.
func (s *Server) WritesWaiting() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for c := range s.conns {
		if c.replySince.Load() != 0 || c.deliverFrom.Load() != 0 || c.sock.stuckSince() != 0 {
			n++
		}
	}
	return n
}

// MaxBuffered is the most framed bytes any socket holds for its peer.
func (s *Server) MaxBuffered() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for c := range s.conns {
		n = max(n, c.sock.buffered())
	}
	return n
}

// UnfinishedBytes is what polled sockets hold in unfinished messages.
func (s *Server) UnfinishedBytes() int64 { return s.unfinished.Load() }

// Unfinished counts the sockets whose client is in the middle of a message.
func (s *Server) Unfinished() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for c := range s.conns {
		if c.readSince.Load() != 0 || c.sock.unfinishedSince() != 0 {
			n++
		}
	}
	return n
}

// CloseReason is a reason as the relay cuts it for a close frame.
func CloseReason(reason string) string { return closeReason(reason) }
