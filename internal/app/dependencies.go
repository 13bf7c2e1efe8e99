package app

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/latchkit/latch/internal/breaker"
	"github.com/latchkit/latch/internal/httpx"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/ratelimit"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/telemetry"
)

// DependencyConfig is how latchd waits on Postgres and Redis, and what it
// keeps serving while one is away (docs/operations.md). Zero values get the
// defaults.
type DependencyConfig struct {
	DatabaseConnectTimeout   time.Duration // a new Postgres connection: dial, TLS, start-up
	DatabaseStatementTimeout time.Duration // one statement with its rows (each of a transaction's too)
	DatabasePoolTimeout      time.Duration // waiting for a free database connection

	RedisDialTimeout  time.Duration // a new Redis connection
	RedisReadTimeout  time.Duration // one Redis answer
	RedisWriteTimeout time.Duration // sending one Redis command
	RedisPoolTimeout  time.Duration // waiting for a free Redis connection

	// RateLimitNodes is what limits are divided by while Redis is away; 0:
	// the live nodes Redis's heartbeats counted last.
	RateLimitNodes int
	// ProjectMaxStale is how long after its cache entry expired a project
	// is still served while the database is away.
	ProjectMaxStale time.Duration
	// TelemetryBufferBytes bounds the telemetry events held in memory
	// while the database is away.
	TelemetryBufferBytes int64
}

// Defaults of DependencyConfig not owned by a package.
const (
	// defaultRedisTimeout: Redis answers latchd's commands in well under a
	// millisecond; a second is a stall, not load.
	defaultRedisTimeout = time.Second
)

// dependencyFlags binds DependencyConfig's flags and returns their check.
func dependencyFlags(fs *flag.FlagSet, cfg *Config) func() error {
	d := &cfg.Dependencies
	fs.DurationVar(&d.DatabaseConnectTimeout, "database-connect-timeout", store.DefaultConnectTimeout, "longest a new Postgres connection may take to open (dial, TLS, start-up)")
	fs.DurationVar(&d.DatabaseStatementTimeout, "database-statement-timeout", store.DefaultStatementTimeout, "longest one database statement (its rows read included; in a transaction, BEGIN, each statement and COMMIT each) may take; then the request is answered 503 (migrations are not bounded)")
	fs.DurationVar(&d.DatabasePoolTimeout, "database-pool-timeout", store.DefaultPoolTimeout, "longest a request waits for a free database connection when all are busy")
	fs.DurationVar(&d.RedisDialTimeout, "redis-dial-timeout", defaultRedisTimeout, "longest a new Redis connection may take to open")
	fs.DurationVar(&d.RedisReadTimeout, "redis-read-timeout", defaultRedisTimeout, "longest latchd waits for one Redis answer; then it does without Redis (local rate limits, no shared cache) or refuses (relay)")
	fs.DurationVar(&d.RedisWriteTimeout, "redis-write-timeout", defaultRedisTimeout, "longest sending one Redis command may take")
	fs.DurationVar(&d.RedisPoolTimeout, "redis-pool-timeout", defaultRedisTimeout, "longest a request waits for a free Redis connection when all are busy")
	fs.IntVar(&d.RateLimitNodes, "rate-limit-nodes", 0, "number of latchd nodes sharing the rate limits, by which each node divides a limit while Redis is away (0 = the live nodes counted by Redis heartbeats before the outage)")
	fs.DurationVar(&d.ProjectMaxStale, "project-max-stale", project.DefaultMaxStale, "how long a project's last known settings keep being served while the database is away (then its requests are answered 503)")
	fs.Int64Var(&d.TelemetryBufferBytes, "telemetry-buffer-bytes", telemetry.DefaultBufferBytes, "bytes of telemetry events held in memory while the database is away and written when it is back; events over it are refused (503)")
	return func() error {
		for name, v := range map[string]time.Duration{
			"--database-connect-timeout": d.DatabaseConnectTimeout, "--database-statement-timeout": d.DatabaseStatementTimeout, "--database-pool-timeout": d.DatabasePoolTimeout,
			"--redis-dial-timeout": d.RedisDialTimeout, "--redis-read-timeout": d.RedisReadTimeout, "--redis-write-timeout": d.RedisWriteTimeout, "--redis-pool-timeout": d.RedisPoolTimeout,
			"--project-max-stale": d.ProjectMaxStale,
		} {
			if v <= 0 {
				return fmt.Errorf("%s must be positive", name)
			}
		}
		if d.RateLimitNodes < 0 {
			return fmt.Errorf("--rate-limit-nodes must not be negative")
		}
		if d.TelemetryBufferBytes < 1<<20 {
			return fmt.Errorf("--telemetry-buffer-bytes must be at least 1048576 (1 MiB)")
		}
		if d.RedisReadTimeout >= time.Minute || d.RedisWriteTimeout >= time.Minute {
			return fmt.Errorf("--redis-read-timeout and --redis-write-timeout must be under 1m")
		}
		return nil
	}
}

// orDefault is d, or def when d is not positive.
func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// newBreaker is the circuit breaker of a dependency, which logs its changes
// and shows them in metrics: latch_dependency_up_<name> (1 while calls go
// through, 0 while they fail fast) and
// latch_dependency_breaker_opened_total{dependency}.
func (m *Main) newBreaker(name string) *breaker.Breaker {
	opened := m.Metrics.Counter("latch_dependency_breaker_opened_total", "Times a dependency's circuit breaker opened (its calls then fail fast until a probe succeeds).", "dependency")
	log := m.Logger.With("dependency", name)
	var b *breaker.Breaker
	b = breaker.New(breaker.Config{Name: name, OnChange: func(from, to breaker.State) {
		switch to {
		case breaker.Open:
			if from == breaker.Closed {
				opened.Inc(name)
				log.Warn("dependency unavailable: circuit breaker open; its calls fail fast (503 or a fallback) until a probe succeeds")
			}
		case breaker.Closed:
			log.Info("dependency back: circuit breaker closed")
		}
	}})
	m.Metrics.Gauge("latch_dependency_up_"+name, "1 while calls to "+name+" go through, 0 while its circuit breaker is open or probing.", func() float64 {
		if b.State() == breaker.Closed {
			return 1
		}
		return 0
	})
	return b
}

// openStore opens the database with the configured bounds and breaker.
func (m *Main) openStore(ctx context.Context) (*store.DB, error) {
	d := m.Config.Dependencies
	name := string(store.SQLite)
	if m.Config.DatabaseURL != "" {
		name = string(store.Postgres)
	}
	return store.OpenWith(ctx, m.Config.DatabaseURL, m.Config.DataDir, store.Options{
		ConnectTimeout:   d.DatabaseConnectTimeout,
		StatementTimeout: d.DatabaseStatementTimeout,
		PoolTimeout:      d.DatabasePoolTimeout,
		Breaker:          m.newBreaker(name),
	})
}

// redisOptions are Config.RedisURL's options with latchd's bounds: every
// wait bounded (the request's own deadline may be earlier: go-redis then
// uses it), and no retry, since a command that timed out may still run
// (the limits' and the relay's scripts are written for that) and a retry
// would double the wait. The URL may not set the bounds itself.
func (m *Main) redisOptions() (*redis.Options, error) {
	opts, err := redis.ParseURL(m.Config.RedisURL)
	if err != nil {
		return nil, fmt.Errorf("--redis-url: %s: %w", redactURL(m.Config.RedisURL), unwrapURLError(err))
	}
	if opts.DialTimeout != 0 || opts.ReadTimeout != 0 || opts.WriteTimeout != 0 || opts.PoolTimeout != 0 {
		return nil, errors.New("--redis-url sets a timeout (dial_timeout, read_timeout, write_timeout or pool_timeout); set them with --redis-dial-timeout, --redis-read-timeout, --redis-write-timeout and --redis-pool-timeout instead")
	}
	d := m.Config.Dependencies
	opts.DialTimeout = orDefault(d.RedisDialTimeout, defaultRedisTimeout)
	opts.ReadTimeout = orDefault(d.RedisReadTimeout, defaultRedisTimeout)
	opts.WriteTimeout = orDefault(d.RedisWriteTimeout, defaultRedisTimeout)
	opts.PoolTimeout = orDefault(d.RedisPoolTimeout, defaultRedisTimeout)
	opts.ContextTimeoutEnabled = true
	opts.MaxRetries = -1
	opts.DialerRetries = 1
	return opts, nil
}

// startLimits makes the rate limits shared through Redis (each falling
// back to its share of the limit while Redis is away) and starts this
// node's heartbeat, which counts the nodes sharing them.
func (m *Main) startLimits() {
	nodes := ratelimit.NewNodes(m.Redis, m.RedisPrefix+"ratelimit:", m.Config.Dependencies.RateLimitNodes)
	m.limits = ratelimit.NewShared(m.Redis, m.RedisPrefix+"ratelimit:", nodes, orDefault(m.Config.Dependencies.RedisReadTimeout, defaultRedisTimeout))
	local := m.Metrics.Counter("latch_ratelimit_local_decisions_total", "Rate-limit decisions made by this node alone, with its share of the limit, because Redis was away.", "limiter")
	m.limits.OnLocal = func(name string) { local.Inc(name) }
	m.Metrics.Gauge("latch_ratelimit_local", "1 while rate limits are decided locally (Redis away), each node allowing its share of the limit.", func() float64 {
		if m.limits.Local() {
			return 1
		}
		return 0
	})
	m.Metrics.Gauge("latch_ratelimit_nodes", "Nodes a limit is divided by while Redis is away (--rate-limit-nodes, else the live nodes of the last Redis heartbeat).", func() float64 {
		return float64(nodes.Count())
	})
	// The first beat now, so that an outage soon after start finds a count.
	ctx, cancel := context.WithTimeout(context.Background(), orDefault(m.Config.Dependencies.RedisReadTimeout, defaultRedisTimeout))
	if err := nodes.Beat(ctx); err != nil {
		m.Logger.Warn("rate limits: first Redis heartbeat failed", "err", err)
	}
	cancel()
}

// handleReady answers whether this node can reach its dependencies, naming
// each: {"status","storage": dialect|"unreachable", "redis": "ok"|
// "unreachable", "down": [...]}. Each is asked within 2 s; one whose
// breaker is open answers at once.
func (m *Main) handleReady(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	body := map[string]any{"status": "ready", "storage": string(m.DB.Dialect)}
	var down []string
	if err := m.DB.PingContext(ctx); err != nil {
		m.Logger.Warn("readiness: database unreachable", "err", err)
		body["storage"] = "unreachable"
		down = append(down, string(m.DB.Dialect))
	}
	if m.Redis != nil {
		// Rate limits, the RPC cache and the relay's mailbox live there: a node
		// that cannot reach Redis should leave the load balancer.
		body["redis"] = "ok"
		if err := m.Redis.Ping(ctx).Err(); err != nil {
			m.Logger.Warn("readiness: Redis unreachable", "err", err)
			body["redis"] = "unreachable"
			down = append(down, "redis")
		}
	}
	if len(down) > 0 {
		body["status"] = "unavailable"
		body["down"] = down
		w.Header().Set("Retry-After", "1")
		httpx.JSON(w, http.StatusServiceUnavailable, body)
		return
	}
	httpx.JSON(w, http.StatusOK, body)
}
