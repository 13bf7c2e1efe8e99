// Package app wires every latchd service from a Config. Main{Run, Close} is
// what cmd/latchd and the end-to-end tests start.
package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/latchkit/latch/data"
	"github.com/latchkit/latch/internal/breaker"
	"github.com/latchkit/latch/internal/devchain"
	"github.com/latchkit/latch/internal/explorer"
	"github.com/latchkit/latch/internal/httpx"
	"github.com/latchkit/latch/internal/metrics"
	"github.com/latchkit/latch/internal/network"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/ratelimit"
	"github.com/latchkit/latch/internal/rpcproxy"
	"github.com/latchkit/latch/internal/solanadev"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/telemetry"
	"github.com/redis/go-redis/v9"
)

// Main is a running latchd: its storage, services and listeners.
type Main struct {
	Config Config
	Logger *slog.Logger

	DB       *store.DB
	Projects *project.Service
	Networks *network.Registry
	Explorer *explorer.Service
	Devnet   devchain.Chains // nil unless Config.Dev
	Metrics  *metrics.Registry
	// Redis holds the rate limits and the RPC cache shared by all nodes; nil
	// unless Config.RedisURL is set.
	Redis redis.UniversalClient
	// limits makes the rate limiters shared through Redis; nil without it.
	limits *ratelimit.Shared
	// RedisPrefix starts every Redis key latchd uses (default "latch:");
	// nodes sharing budgets and cache entries must agree on it. Set before Run.
	RedisPrefix string

	// DevProjectID is the project latchd dev created or found.
	DevProjectID string
	// StartupTime is how long Run took.
	StartupTime time.Duration

	// relay, account: wired in relay.go and account.go.
	relay   relayService
	account accountService
	auth    authService   // e-mail login, wired in auth.go
	names   namesService  // account names and their ENS gateway, wired in names.go
	siwx    siwxService   // Sign-in with X, wired in siwx.go
	social  socialService // social login, wired in social.go
	onramp  onrampService // on-ramp providers and orders, wired in onramp.go

	swap swapService // swaps (the convert API), wired in swap.go

	// solanaDev: latchd dev's Solana network, wired in solana.go.
	solanaDev     *solanadev.Network
	solanaStart   *solanaDevStart
	solanaClosing atomic.Bool

	bundler bundlerService // ERC-4337 bundler and paymaster, wired in bundler.go

	rpc *rpcproxy.Proxy
	// frameFiles replaces the embedded frame build (tests); nil: embedded.
	frameFiles fs.FS
	// http: the handlers the route table mounts, built by Run.
	http apiServices
	// stopBackground ends the background loops (RPC health probes); bg waits for them.
	stopBackground context.CancelFunc
	bg             sync.WaitGroup

	api, frame, demo, admin         *http.Server
	apiLn, frameLn, demoLn, adminLn net.Listener
	closeOnce                       sync.Once
	closeErr                        error
}

// NewMain returns a Main for cfg; Run starts it.
func NewMain(cfg Config, logger *slog.Logger) *Main {
	if logger == nil {
		logger = slog.Default()
	}
	return &Main{Config: cfg, Logger: logger, Metrics: metrics.NewRegistry(), RedisPrefix: "latch:"}
}

// Run opens storage (and Redis when configured), starts the dev networks
// (dev mode), loads the registries and starts both listeners. It returns
// once latchd serves; Close stops it.
func (m *Main) Run(ctx context.Context) (err error) {
	start := time.Now()
	defer func() {
		if err != nil {
			m.Close()
		}
	}()
	cfg := m.Config

	// The dev chains take the longest to start; start them while storage opens.
	type devResult struct {
		d   devchain.Chains
		err error
	}
	devCh := make(chan devResult, 1)
	if cfg.Dev {
		start := devChains
		if start == nil {
			return errNoDevChains
		}
		go func() {
			d, err := start(ctx, cfg.DevChains, m.Logger.With("component", "devnet"))
			devCh <- devResult{d, err}
		}()
	}
	solanaStart := m.beginSolanaDev(ctx)

	if m.DB, err = m.openStore(ctx); err != nil {
		if cfg.Dev {
			if r := <-devCh; r.d != nil {
				r.d.Close()
			}
		}
		return fmt.Errorf("open storage: %w", err)
	}
	if cfg.RedisURL != "" {
		if err := m.openRedis(ctx); err != nil {
			return err
		}
	}
	m.Projects = project.NewService(m.DB)
	m.Projects.MaxStale = orDefault(cfg.Dependencies.ProjectMaxStale, project.DefaultMaxStale)
	stale := m.Metrics.Counter("latch_project_stale_lookups_total", "Project lookups answered with the project's last known settings because the database was away.")
	m.Projects.OnStale = func() { stale.Inc() }
	// A project row with an origin today's rules refuse stops latchd: it
	// would reach the frame's CSP (README, Commands: the origin rules).
	if err := m.Projects.CheckStored(ctx); err != nil {
		return err
	}
	if m.Networks, err = network.Load(data.Networks); err != nil {
		return err
	}
	for _, u := range cfg.RPCUpstreams {
		id, urls, _ := network.ParseUpstreamFlag(u)
		if err := m.Networks.SetUpstreams(id, urls); err != nil {
			return err
		}
	}
	for _, u := range cfg.RPCWSUpstreams {
		id, urls, _ := network.ParseUpstreamFlag(u)
		if err := m.Networks.SetWSUpstreams(id, urls); err != nil {
			return err
		}
	}
	m.Explorer = explorer.New(m.DB)
	if err := m.Explorer.Load(ctx, data.Wallets); err != nil {
		return fmt.Errorf("load wallet registry: %w", err)
	}

	if cfg.Dev {
		r := <-devCh
		if r.err != nil {
			return fmt.Errorf("start dev networks: %w", r.err)
		}
		m.Devnet = r.d
		if err := m.addDevNetworks(); err != nil {
			return err
		}
		if err := m.addSolanaDev(solanaStart); err != nil {
			return err
		}
		if m.DevProjectID, err = m.ensureDevProject(ctx); err != nil {
			return err
		}
	}

	if err := m.startRelay(ctx); err != nil {
		return fmt.Errorf("start relay: %w", err)
	}
	// Before account data: identity falls back to names.
	if err := m.startNames(ctx); err != nil {
		return fmt.Errorf("start names: %w", err)
	}
	if err := m.startAccount(ctx); err != nil {
		return fmt.Errorf("start account data: %w", err)
	}
	if err := m.startAuth(ctx); err != nil {
		return fmt.Errorf("start e-mail login: %w", err)
	}
	if err := m.startSocial(ctx); err != nil {
		return fmt.Errorf("start social login: %w", err)
	}
	if err := m.startSIWX(ctx); err != nil {
		return fmt.Errorf("start sign-in: %w", err)
	}
	if err := m.startOnramp(ctx); err != nil {
		return fmt.Errorf("start on-ramp: %w", err)
	}
	if err := m.startSwap(ctx); err != nil {
		return fmt.Errorf("start swaps: %w", err)
	}
	if err := m.startBundler(ctx); err != nil {
		return fmt.Errorf("start bundler: %w", err)
	}
	m.buildAPI()

	if m.apiLn, err = net.Listen("tcp", cfg.Addr); err != nil {
		return fmt.Errorf("listen on --addr: %w", err)
	}
	if m.frameLn, err = net.Listen("tcp", cfg.FrameAddr); err != nil {
		return fmt.Errorf("listen on --frame-addr: %w", err)
	}
	if cfg.AdminAddr != "" {
		if m.adminLn, err = net.Listen("tcp", cfg.AdminAddr); err != nil {
			return fmt.Errorf("listen on --admin-addr: %w", err)
		}
		m.admin = m.newServer(m.adminHandler())
		go m.serve(m.admin, m.adminLn, "admin")
	}
	if cfg.Dev && cfg.DemoDir != "" {
		if _, err := os.Stat(filepath.Join(cfg.DemoDir, "index.html")); err != nil {
			return fmt.Errorf("--demo-dir: %w", err)
		}
		if m.demoLn, err = net.Listen("tcp", cfg.DemoAddr); err != nil {
			return fmt.Errorf("listen on --demo-addr: %w", err)
		}
		m.demo = m.newServer(m.demoHandler(cfg.DemoDir))
		go m.serve(m.demo, m.demoLn, "demo")
	}
	if err := m.startDevNames(ctx); err != nil {
		return err
	}
	m.api = m.newServer(m.apiHandler())
	m.frame = m.newServer(m.frameHandler())
	bgCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
	m.stopBackground = stop
	m.bg.Go(func() { m.rpc.RunProbes(bgCtx) })
	m.bg.Go(func() { m.runAuthPrune(bgCtx) })
	m.bg.Go(func() { m.runSIWXPrune(bgCtx) })
	m.bg.Go(func() { m.runBundler(bgCtx) })
	m.bg.Go(func() {
		t := time.NewTicker(telemetry.RetentionInterval)
		defer t.Stop()
		m.http.telemetry.RunRetention(bgCtx, t.C)
	})
	m.bg.Go(func() { m.http.telemetry.RunBuffer(bgCtx) })
	if m.limits != nil {
		m.bg.Go(func() { m.limits.Nodes().Run(bgCtx, m.Logger.With("component", "ratelimit")) })
	}
	go m.serve(m.api, m.apiLn, "api")
	go m.serve(m.frame, m.frameLn, "frame")
	m.StartupTime = time.Since(start)
	return nil
}

// openRedis connects to Config.RedisURL; an unreachable Redis fails the
// start rather than every request later. Messages never show the password.
func (m *Main) openRedis(ctx context.Context) error {
	opts, err := m.redisOptions()
	if err != nil {
		return err
	}
	redisLogOnce.Do(func() { redis.SetLogger(redisLogger{m.Logger.With("component", "redis")}) })
	client := redis.NewClient(opts)
	m.Redis = client
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := m.Redis.Ping(pctx).Err(); err != nil {
		return fmt.Errorf("connect to Redis at %s: %w", redactURL(m.Config.RedisURL), err)
	}
	// Gated from here: a Redis that was reachable at start and stops
	// answering fails its calls fast once the breaker opens.
	client.AddHook(breaker.RedisHook(m.newBreaker("redis")))
	m.startLimits()
	return nil
}

// redisLogOnce: go-redis has one process-wide logger; the first Main's wins.
var redisLogOnce sync.Once

// redisLogger sends go-redis's own messages (pool dial failures and the
// like) to latchd's structured log instead of stderr.
type redisLogger struct{ l *slog.Logger }

func (r redisLogger) Printf(ctx context.Context, format string, v ...any) {
	r.l.WarnContext(ctx, fmt.Sprintf(format, v...))
}

// newLimiter is a limiter shared through Redis when latchd has one (which
// falls back to this node's share of the limit while Redis is away), else
// in memory. name keeps each limiter's keys apart.
func (m *Main) newLimiter(name string, limit int, window time.Duration) ratelimit.Limiter {
	if m.limits != nil {
		return m.limits.Limiter(name, limit, window)
	}
	return ratelimit.NewMemory(limit, window)
}

func (m *Main) newServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(m.Logger.Handler(), slog.LevelWarn),
	}
}

func (m *Main) serve(s *http.Server, ln net.Listener, name string) {
	if err := s.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		m.Logger.Error("server stopped", "server", name, "err", err)
	}
}

// APIURL is the base URL of the API listener.
func (m *Main) APIURL() string { return "http://" + m.apiLn.Addr().String() }

// PublicAPIURL is the API's URL as browsers reach it (--api-url), which
// latchd gives its clients (the frame); without --api-url, APIURL.
func (m *Main) PublicAPIURL() string {
	if m.Config.APIURL != "" {
		return strings.TrimRight(m.Config.APIURL, "/")
	}
	return m.APIURL()
}

// FrameURL is the public URL of the frame origin.
func (m *Main) FrameURL() string {
	if m.Config.FrameURL != "" {
		return strings.TrimRight(m.Config.FrameURL, "/")
	}
	return "http://" + m.frameLn.Addr().String()
}

// AdminURL is the base URL of the admin listener (metrics), or "" when
// latchd has none (--admin-addr empty).
func (m *Main) AdminURL() string {
	if m.adminLn == nil {
		return ""
	}
	return "http://" + m.adminLn.Addr().String()
}

// DemoURL is the demo dapp's URL, or "" when latchd serves none.
func (m *Main) DemoURL() string {
	if m.demoLn == nil {
		return ""
	}
	return "http://" + m.demoLn.Addr().String()
}

// Close stops accepting connections, lets in-flight requests finish (up to
// Config.ShutdownTimeout), then stops the dev networks and closes storage.
func (m *Main) Close() error {
	m.closeOnce.Do(func() {
		timeout := m.Config.ShutdownTimeout
		if timeout <= 0 {
			timeout = 15 * time.Second
		}
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		var errs []error
		for _, s := range []*http.Server{m.api, m.frame, m.demo, m.admin} {
			if s != nil {
				errs = append(errs, s.Shutdown(ctx))
			}
		}
		if m.api == nil && m.apiLn != nil {
			m.apiLn.Close()
		}
		if m.frame == nil && m.frameLn != nil {
			m.frameLn.Close()
		}
		if m.demo == nil && m.demoLn != nil {
			m.demoLn.Close()
		}
		if m.admin == nil && m.adminLn != nil {
			m.adminLn.Close()
		}
		if m.stopBackground != nil {
			m.stopBackground()
			m.bg.Wait()
		}
		if m.rpc != nil {
			m.rpc.Close()
		}
		m.closeSwap()
		errs = append(errs, m.closeRelay(), m.closeAccount())
		m.closeSolanaDev()
		if m.Devnet != nil {
			errs = append(errs, m.Devnet.Close())
		}
		if m.DB != nil {
			errs = append(errs, m.DB.Close())
		}
		if m.Redis != nil {
			errs = append(errs, m.Redis.Close())
		}
		m.closeErr = errors.Join(errs...)
	})
	return m.closeErr
}

// clientIP is the rate-limit key of a request, for every per-IP limit (the
// IP limit, the RPC proxy, account, telemetry, the relay's connection cap):
// its client address, an IPv6 one as its network of --ipv6-prefix bits
// (httpx.RateKey), so a client cannot escape a limit by rotating addresses
// within its /64.
func (m *Main) clientIP(r *http.Request) string {
	bits := m.Config.IPv6Prefix
	if bits == 0 {
		bits = httpx.DefaultIPv6Prefix
	}
	return httpx.RateKey(httpx.ClientIP(r, m.trustedProxy), bits)
}

// publicBaseURL is the API's base URL for links in answers: --api-url, or
// the URL the client reached it at.
func (m *Main) publicBaseURL(r *http.Request) string {
	if m.Config.APIURL != "" {
		return strings.TrimRight(m.Config.APIURL, "/")
	}
	return httpx.BaseURL(r, m.trustedProxy)
}

// trustedProxy reports whether ip is one of --trusted-proxy's networks.
func (m *Main) trustedProxy(ip net.IP) bool {
	for _, n := range m.Config.TrustedProxies {
		if n.Contains(ip) {
			return true
		}
	}
	return false
}

// buildAPI builds the API's own services (the RPC proxy, telemetry) and
// the handlers of the others, for apiHandler to mount.
func (m *Main) buildAPI() {
	m.http.guard = &project.Guard{Projects: m.Projects, DevOrigins: m.Config.Dev, AdminToken: m.Config.AdminToken}
	m.http.explorer = explorer.NewHandler(m.Explorer, m.assetName)
	bufDropped := m.Metrics.Counter("latch_telemetry_buffer_dropped_total", "Telemetry events refused (503) because the database was away and the memory buffer was full.")
	bufFlushed := m.Metrics.Counter("latch_telemetry_buffer_flushed_total", "Telemetry events held in memory while the database was away and written once it was back.")
	telemetryCfg := telemetry.Config{
		AdminToken: m.Config.AdminToken, ClientIP: m.clientIP, Retention: m.Config.TelemetryRetention,
		BufferBytes:   m.Config.Dependencies.TelemetryBufferBytes,
		OnBufferDrop:  func(n int) { bufDropped.Add(uint64(n)) },
		OnBufferFlush: func(n int) { bufFlushed.Add(uint64(n)) },
	}
	if m.Redis != nil {
		telemetryCfg.RequestLimiter = m.newLimiter("telemetry-request", telemetry.DefaultRequestLimit, telemetry.DefaultRequestWindow)
		telemetryCfg.ErrorLimiter = m.newLimiter("telemetry-error", telemetry.ErrorLimit, telemetry.ErrorWindow)
	}
	m.http.telemetry = telemetry.New(m.DB, telemetryCfg)
	m.Metrics.Gauge("latch_telemetry_buffered_events", "Telemetry events held in memory while the database is away, to be written when it is back.", func() float64 {
		n, _ := m.http.telemetry.Buffered()
		return float64(n)
	})
	if m.Config.IPRateLimit > 0 {
		m.http.ipLimiter = m.newLimiter("ip", m.Config.IPRateLimit, time.Minute)
	}
	rpcCfg := rpcproxy.Config{
		Networks: m.Networks,
		Metrics:  m.Metrics,
		ClientIP: m.clientIP,
		// limitIP charges every request one event of the IP budget before
		// the project guard; the proxy charges a batch's further entries.
		IPLimiter:      m.http.ipLimiter,
		IPChargedAhead: true,
		// One budget of 10 s per request (spec §9); a single attempt may use 4 s of
		// it, so a hung upstream still leaves time to fail over to the next one.
		AttemptTimeout: 4 * time.Second,
		ProbeInterval:  m.Config.RPCProbeInterval,
		Logger:         m.Logger.With("component", "rpcproxy"),
		Local:          m.bundlerLocal(), // the ERC-4337 bundler's methods
	}
	if m.Config.RPCProjectLimit > 0 {
		rpcCfg.ProjectLimiter = m.newLimiter("rpc-project", m.Config.RPCProjectLimit, time.Minute)
	}
	if m.Redis != nil {
		rpcCfg.Cache = rpcproxy.NewRedisCache(m.Redis, m.RedisPrefix+"rpc-cache:")
	}
	m.rpc = rpcproxy.New(rpcCfg)
}

// assetName names network assets for image monograms.
func (m *Main) assetName(kind, id string) (string, bool) {
	if kind != explorer.KindAsset {
		return "", false
	}
	if n := m.Networks.Find(id); n != nil {
		return n.Name, true
	}
	return "", false
}
