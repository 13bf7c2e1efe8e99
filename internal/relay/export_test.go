package relay

// WithoutPoll makes a server serve every socket with a goroutine, as it does
// with a shared broker or on other systems.
func WithoutPoll(cfg *Config) { cfg.noPoll = true }

// Polls reports whether this system serves sockets from poll loops.
func Polls() bool { return pollSupported }
