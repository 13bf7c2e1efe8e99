package app

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/relay"
)

// relayService is the WalletConnect relay's state in Main.
type relayService struct {
	server *relay.Server
	broker relay.Broker
}

// startRelay builds the WalletConnect relay: its mailboxes and fan-out in
// Redis when latchd has one (every node then serves the same relay), in
// memory otherwise.
func (m *Main) startRelay(ctx context.Context) error {
	cfg := m.Config
	bcfg, limits := relaySettings(cfg)
	log := m.Logger.With("component", "relay")
	if m.Redis != nil {
		b, err := relay.NewRedis(ctx, m.Redis, m.RedisPrefix+"relay:", bcfg, func(msg string, args ...any) { log.Warn(msg, args...) })
		if err != nil {
			return err
		}
		m.relay.broker = b
	} else {
		m.relay.broker = relay.NewMemory(bcfg)
	}
	s, err := relay.New(relay.Config{
		Broker:    m.relay.broker,
		Authorize: m.authorizeRelay,
		ClientIP:  m.clientIP,
		PublicURL: cfg.RelayURL,
		// latchd dev (and tests): the API listener's own URL, never a
		// request's Host header. latchd serve requires --relay-url.
		ListenerURL:      func() string { return "ws://" + m.apiLn.Addr().String() },
		TokenMaxLifetime: cfg.RelayTokenLifetime,
		Limits:           limits,
		Metrics:          m.Metrics,
		Logger:           log,
	})
	if err != nil {
		m.relay.broker.Close()
		m.relay.broker = nil
		return err
	}
	m.relay.server = s
	return nil
}

// relaySettings is what the relay's flags set: the broker's bounds and
// each socket's limits.
func relaySettings(cfg Config) (relay.BrokerConfig, relay.Limits) {
	return relay.BrokerConfig{
			MaxMessagesPerTopic: cfg.RelayMailboxSize,
			MaxBytes:            cfg.RelayBrokerMaxBytes,
			MaxTopics:           cfg.RelayBrokerMaxTopics,
			MaxOwnerBytes:       cfg.RelayMaxClientBytes,
			StoreTimeout:        orDefault(cfg.Dependencies.RedisReadTimeout, defaultRedisTimeout),
		}, relay.Limits{
			MaxMessageBytes:     cfg.RelayMaxMessageBytes,
			MaxTTL:              cfg.RelayMaxTTL,
			MaxTopicsPerConn:    cfg.RelayMaxTopics,
			PublishRate:         orOff(cfg.RelayPublishRate),
			MaxConnsPerIP:       orOff(cfg.RelayMaxConnsPerIP),
			MaxMessagesPerTopic: cfg.RelayMailboxSize,
			MaxSocketBuffer:     cfg.RelayMaxSocketBuffer,
			FragmentTimeout:     cfg.RelayFragmentTimeout,
			MaxUnfinishedBytes:  cfg.RelayMaxUnfinished,
		}
}

// errRelayURLRequired: latchd serve must know the relay's public URL, the
// audience its clients' tokens name.
var errRelayURLRequired = errors.New("--relay-url is required: the public ws(s):// URL of the relay that clients sign as their auth token's audience, e.g. --relay-url wss://latch.example.com (or LATCH_RELAY_URL)")

// relayFlags binds the relay's hardening flags (the older relay flags are
// bound in flagSet) and returns their check.
func relayFlags(fs *flag.FlagSet, cfg *Config) func() error {
	fs.IntVar(&cfg.RelayMaxSocketBuffer, "relay-max-socket-buffer", relay.DefaultMaxSocketBuffer, "bytes framed for one relay websocket that its client has not read yet; a socket over it is closed (1008); at least --relay-max-message-bytes + 65536")
	fs.Int64Var(&cfg.RelayBrokerMaxBytes, "relay-broker-max-bytes", relay.DefaultBrokerMaxBytes, "bytes of messages the in-memory relay broker holds; a publish over it is refused (with Redis: bound Redis with maxmemory instead)")
	fs.IntVar(&cfg.RelayBrokerMaxTopics, "relay-broker-max-topics", relay.DefaultBrokerMaxTopics, "relay topics holding messages in the in-memory broker; a publish to a new topic over it is refused")
	fs.Int64Var(&cfg.RelayMaxClientBytes, "relay-max-client-bytes", relay.DefaultMaxOwnerBytes, "bytes of relay messages one client address may have stored that no peer has received yet (in-memory broker)")
	fs.DurationVar(&cfg.RelayFragmentTimeout, "relay-fragment-timeout", relay.DefaultFragmentTimeout, "how long a relay client may take to send one message once it has started it (fragments, or a frame still arriving); then its socket is closed (1008)")
	fs.Int64Var(&cfg.RelayMaxUnfinished, "relay-max-unfinished-bytes", relay.DefaultMaxUnfinishedBytes, "bytes of unfinished messages all relay websockets of this node may hold together; a socket taking it over is closed (1013); at least --relay-max-message-bytes + 65536")
	fs.DurationVar(&cfg.RelayTokenLifetime, "relay-token-max-lifetime", relay.DefaultTokenMaxLifetime, "longest lifetime (exp - iat) of a relay auth token; WalletConnect clients sign for 24h")
	return func() error {
		if cfg.RelayTokenLifetime < time.Minute || cfg.RelayTokenLifetime > 7*24*time.Hour {
			return fmt.Errorf("--relay-token-max-lifetime must be between 1m and 168h")
		}
		if cfg.RelayFragmentTimeout < time.Second {
			return fmt.Errorf("--relay-fragment-timeout must be at least 1s")
		}
		if min := int64(cfg.RelayMaxMessageBytes) + 64<<10; cfg.RelayMaxUnfinished < min {
			return fmt.Errorf("--relay-max-unfinished-bytes must be at least --relay-max-message-bytes + 65536 (%d)", min)
		}
		if cfg.RelayBrokerMaxBytes <= 0 || cfg.RelayBrokerMaxTopics <= 0 || cfg.RelayMaxClientBytes <= 0 {
			return fmt.Errorf("--relay-broker-max-bytes, --relay-broker-max-topics and --relay-max-client-bytes must be positive")
		}
		if cfg.RelayMaxClientBytes > cfg.RelayBrokerMaxBytes {
			return fmt.Errorf("--relay-max-client-bytes must not be more than --relay-broker-max-bytes")
		}
		if min := cfg.RelayMaxMessageBytes + 64<<10; cfg.RelayMaxSocketBuffer < min {
			return fmt.Errorf("--relay-max-socket-buffer must be at least --relay-max-message-bytes + 65536 (%d)", min)
		}
		return nil
	}
}

// orOff maps a configured 0 ("no limit") to the relay's "off" (-1); the
// relay reads 0 as "default".
func orOff(n int) int {
	if n == 0 {
		return -1
	}
	return n
}

// authorizeRelay admits a relay connection for a configured project and,
// from a browser, an origin on that project's allowlist (localhost too in
// dev mode), like the HTTP API's project guard.
func (m *Main) authorizeRelay(ctx context.Context, projectID, origin string) error {
	p, err := m.Projects.Lookup(ctx, projectID)
	if err != nil {
		switch apperr.Code(err) {
		case apperr.Unauthorized, apperr.Forbidden:
			if projectID == "" {
				return &relay.AuthError{Reason: "project id is required (projectId query parameter)"}
			}
			return &relay.AuthError{Reason: "invalid project id"}
		}
		return err
	}
	if origin != "" && !p.AllowsOrigin(origin, m.Config.Dev) {
		return &relay.AuthError{Reason: "origin not allowed"}
	}
	return nil
}

// closeRelay closes every relay socket (1001, going away), then the broker.
func (m *Main) closeRelay() error {
	var errs []error
	if m.relay.server != nil {
		errs = append(errs, m.relay.server.Close())
	}
	if m.relay.broker != nil {
		errs = append(errs, m.relay.broker.Close())
	}
	return errors.Join(errs...)
}

// isWebSocketUpgrade reports whether r asks to become a websocket.
func isWebSocketUpgrade(r *http.Request) bool {
	return r.Method == http.MethodGet && strings.EqualFold(r.Header.Get("Upgrade"), "websocket")
}
