package relay

// WithoutPoll makes a server serve every socket with a goroutine, as it does
// on other systems.
func WithoutPoll(cfg *Config) { cfg.noPoll = true }

// Offloaded makes a server hand polled sockets' messages to workers, as it
// does with a shared broker.
func Offloaded(cfg *Config) { cfg.offload = true }

// Polls reports whether this system serves sockets from poll loops.
func Polls() bool { return pollSupported }
