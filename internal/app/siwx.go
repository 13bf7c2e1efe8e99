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
	"github.com/latchkit/latch/internal/httpx"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/siwx"
	pkgsiwx "github.com/latchkit/latch/pkg/siwx"
)

// siwxService is Sign-in with X's state in Main.
type siwxService struct {
	svc  *siwx.Service
	http *siwx.Handler
}

// SIWX is the sign-in service; nil before Run.
func (m *Main) SIWX() *siwx.Service { return m.siwx.svc }

// siwxPruneInterval is how often ended sign-in sessions are deleted.
const siwxPruneInterval = time.Hour

// defaultSIWXRateLimit is the default of --siwx-rate-limit: a person signs
// in a few times a day; a page retrying a declined signature a few times a minute.
const defaultSIWXRateLimit = 60

// siwxFlags binds the sign-in flags and returns their check.
func siwxFlags(fs *flag.FlagSet, cfg *Config) func() error {
	fs.DurationVar(&cfg.SIWXSessionLifetime, "siwx-session-lifetime", siwx.DefaultSessionLifetime, "longest a Sign-in with X session lasts (a message's own expirationTime ends it sooner)")
	fs.IntVar(&cfg.SIWXRateLimit, "siwx-rate-limit", defaultSIWXRateLimit, "Sign-in with X nonce, authenticate and verify requests (a smart-account signature costs an upstream eth_call) per client IP per minute (0 = no limit)")
	return func() error {
		if cfg.SIWXSessionLifetime < time.Minute {
			return fmt.Errorf("--siwx-session-lifetime must be at least 1m")
		}
		if cfg.SIWXRateLimit < 0 {
			return fmt.Errorf("--siwx-rate-limit must not be negative")
		}
		return nil
	}
}

// startSIWX builds Sign-in with X. It runs after startAccount: smart-account
// signatures are checked through the account data's EVM clients (each
// network's upstreams, or the dev chain's node). Nonces live in Redis when
// latchd has one, so any node can spend a nonce another node issued.
func (m *Main) startSIWX(ctx context.Context) error {
	var nonces siwx.NonceStore = siwx.NewMemoryNonces(time.Now)
	if m.Redis != nil {
		nonces = siwx.NewRedisNonces(m.Redis, m.RedisPrefix+"siwx-nonce:", time.Now)
	}
	dev := m.Config.Dev
	m.siwx.svc = siwx.NewService(siwx.Config{
		Nonces:   nonces,
		Store:    siwx.NewStore(m.DB),
		Verifier: &pkgsiwx.Verifier{Chains: m.siwxChain},
		AllowDomain: func(p *project.Project, domain string) bool {
			return p.AllowsOrigin("https://"+domain, dev) || p.AllowsOrigin("http://"+domain, dev)
		},
		KnownChain:      func(id string) bool { return m.Networks.Get(id) != nil },
		SessionLifetime: m.Config.SIWXSessionLifetime,
		Logger:          m.Logger.With("component", "siwx"),
	})
	var limit func(*http.Request) (time.Duration, bool)
	if n := m.Config.SIWXRateLimit; n > 0 {
		limiter := m.newLimiter("siwx-ip", n, time.Minute)
		limit = func(r *http.Request) (time.Duration, bool) {
			d, err := limiter.Allow(r.Context(), m.clientIP(r))
			if err != nil {
				// A limiter that cannot answer (Redis down) does not lock sign-in out.
				m.Logger.Warn("siwx: rate limit unavailable", "err", err)
				return 0, true
			}
			return d.RetryAfter, d.Allowed
		}
	}
	m.siwx.http = siwx.NewHandler(m.siwx.svc, limit)
	return nil
}

// siwxChain is the eth_call of an EVM network, for ERC-1271 and ERC-6492 signatures.
func (m *Main) siwxChain(id string) (pkgsiwx.EthCaller, error) {
	if !strings.HasPrefix(id, "eip155:") {
		return nil, fmt.Errorf("%s is not an EVM network", id)
	}
	c := m.account.clients.For(id)
	if c == nil {
		return nil, fmt.Errorf("no RPC upstream for %s", id)
	}
	return siwx.EVMCaller{Client: c}, nil
}

// runSIWXPrune deletes ended sign-in sessions every siwxPruneInterval until ctx ends.
func (m *Main) runSIWXPrune(ctx context.Context) {
	t := time.NewTicker(siwxPruneInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if n, err := m.siwx.svc.Prune(ctx); err != nil && !errors.Is(err, context.Canceled) {
				m.Logger.Warn("siwx: prune sessions", "err", err)
			} else if n > 0 {
				m.Logger.Debug("siwx: pruned sessions", "count", n)
			}
		}
	}
}

// siwxRoute serves a sign-in route.
func siwxRoute(f func(*siwx.Handler, http.ResponseWriter, *http.Request)) func(*Main) http.Handler {
	return func(m *Main) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if m.siwx.http == nil {
				httpx.Error(w, r, apperr.Errorf(apperr.Unavailable, "Sign-in is not ready"))
				return
			}
			f(m.siwx.http, w, r)
		})
	}
}

// siwxPaths are the sign-in routes under /auth/v1: the dapp's page calls
// them (guard class project), unlike the rest of /auth/v1, which only the
// embedded-wallet frame calls, so their CORS preflight is the project's.
var siwxPaths = []string{"/auth/v1/nonce", "/auth/v1/authenticate", "/auth/v1/me", "/auth/v1/sign-out", "/auth/v1/siwx/"}

func isSIWXPath(path string) bool {
	for _, p := range siwxPaths {
		if path == p || strings.HasSuffix(p, "/") && strings.HasPrefix(path, p) {
			return true
		}
	}
	return false
}
