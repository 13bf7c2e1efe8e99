package app

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/latchkit/latch/internal/faulttest"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/redistest"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/store/storetest"
	"github.com/latchkit/latch/internal/telemetry"
)

func TestParseFlags_Dependencies(t *testing.T) {
	parse := func(args ...string) (Config, error) {
		var cfg Config
		fs, finish := flagSet("t", &cfg, &bytes.Buffer{})
		err := parseFlags(fs, args, func(string) string { return "" })
		if err == nil {
			err = finish()
		}
		return cfg, err
	}
	cfg, err := parse()
	if err != nil {
		t.Fatal(err)
	}
	d := cfg.Dependencies
	if d.DatabaseStatementTimeout != store.DefaultStatementTimeout || d.RedisReadTimeout != time.Second || d.ProjectMaxStale != project.DefaultMaxStale ||
		d.TelemetryBufferBytes != telemetry.DefaultBufferBytes || d.RateLimitNodes != 0 {
		t.Fatalf("defaults: %+v", d)
	}
	cfg, err = parse("--database-connect-timeout", "1s", "--database-statement-timeout", "2s", "--database-pool-timeout", "3s",
		"--redis-dial-timeout", "100ms", "--redis-read-timeout", "200ms", "--redis-write-timeout", "300ms", "--redis-pool-timeout", "400ms",
		"--rate-limit-nodes", "4", "--project-max-stale", "1h", "--telemetry-buffer-bytes", "2097152")
	if err != nil {
		t.Fatal(err)
	}
	want := DependencyConfig{time.Second, 2 * time.Second, 3 * time.Second, 100 * time.Millisecond, 200 * time.Millisecond, 300 * time.Millisecond, 400 * time.Millisecond, 4, time.Hour, 2 << 20}
	if cfg.Dependencies != want {
		t.Fatalf("parsed %+v, want %+v", cfg.Dependencies, want)
	}
	for _, args := range [][]string{
		{"--database-statement-timeout", "0s"}, {"--redis-read-timeout", "-1s"}, {"--redis-read-timeout", "2m"},
		{"--rate-limit-nodes", "-1"}, {"--project-max-stale", "0s"}, {"--telemetry-buffer-bytes", "1000"},
	} {
		if _, err := parse(args...); err == nil {
			t.Errorf("%v: accepted", args)
		}
	}
}

// Each bound reaches what it bounds. (What the bounds do is tested where
// they live: internal/store, internal/relay, internal/ratelimit, and the
// fault suite in internal/faulttest.)
func TestMain_DependencyWiring(t *testing.T) {
	cfg := Config{Addr: "127.0.0.1:0", FrameAddr: "127.0.0.1:0", DataDir: storetest.SQLiteDir(t), Dependencies: DependencyConfig{
		DatabaseConnectTimeout: 1100 * time.Millisecond, DatabaseStatementTimeout: 1200 * time.Millisecond, DatabasePoolTimeout: 1300 * time.Millisecond,
		RedisDialTimeout: 100 * time.Millisecond, RedisReadTimeout: 200 * time.Millisecond, RedisWriteTimeout: 300 * time.Millisecond, RedisPoolTimeout: 400 * time.Millisecond,
		RateLimitNodes: 3, ProjectMaxStale: 7 * time.Minute, TelemetryBufferBytes: 3 << 20,
	}}
	redisURL := os.Getenv("LATCH_TEST_REDIS")
	cfg.RedisURL = redisURL
	m := NewMain(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if redisURL != "" {
		m.RedisPrefix = redistest.Prefix(t)
	}
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if o := m.DB.Options(); o.ConnectTimeout != 1100*time.Millisecond || o.StatementTimeout != 1200*time.Millisecond || o.PoolTimeout != 1300*time.Millisecond {
		t.Errorf("database bounds %+v", o)
	}
	if m.Projects.MaxStale != 7*time.Minute {
		t.Errorf("project max stale %v", m.Projects.MaxStale)
	}
	if got := m.http.telemetry.BufferMax(); got != 3<<20 {
		t.Errorf("telemetry buffer %d", got)
	}
	if redisURL == "" {
		return
	}
	o := m.Redis.(*redis.Client).Options()
	if o.DialTimeout != 100*time.Millisecond || o.ReadTimeout != 200*time.Millisecond || o.WriteTimeout != 300*time.Millisecond || o.PoolTimeout != 400*time.Millisecond ||
		!o.ContextTimeoutEnabled || o.MaxRetries != 0 {
		t.Errorf("redis options: dial %v read %v write %v pool %v context %v retries %d", o.DialTimeout, o.ReadTimeout, o.WriteTimeout, o.PoolTimeout, o.ContextTimeoutEnabled, o.MaxRetries)
	}
	if n := m.limits.Nodes().Count(); n != 3 {
		t.Errorf("rate-limit nodes %d, want the configured 3", n)
	}
	if got := m.relay.broker; got == nil {
		t.Fatal("no relay broker")
	}
}

// A timeout in --redis-url would fight the --redis-*-timeout flags: refused.
func TestMain_RedisURLTimeoutRefused(t *testing.T) {
	cfg := Config{Addr: "127.0.0.1:0", FrameAddr: "127.0.0.1:0", DataDir: storetest.SQLiteDir(t), RedisURL: "redis://127.0.0.1:6379/0?read_timeout=5s"}
	m := NewMain(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	err := m.Run(context.Background())
	if err == nil {
		m.Close()
		t.Fatal("Run with read_timeout in --redis-url: no error")
	}
	if !strings.Contains(err.Error(), "--redis-read-timeout") {
		t.Fatalf("error %q, want it to name the flag", err)
	}
}

// /readyz names the dependency that is down, and recovers by itself.
func TestMain_ReadyNamesDependency(t *testing.T) {
	raw := os.Getenv("LATCH_TEST_REDIS")
	if raw == "" {
		t.Skip("LATCH_TEST_REDIS is not set")
	}
	u, _ := url.Parse(raw)
	p := faulttest.Start(t, u.Host)
	u.Host = p.Addr()
	cfg := Config{Addr: "127.0.0.1:0", FrameAddr: "127.0.0.1:0", DataDir: storetest.SQLiteDir(t), RedisURL: u.String(),
		Dependencies: DependencyConfig{RedisDialTimeout: 200 * time.Millisecond, RedisReadTimeout: 200 * time.Millisecond, RedisWriteTimeout: 200 * time.Millisecond, RedisPoolTimeout: 200 * time.Millisecond}}
	m := NewMain(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	m.RedisPrefix = redistest.Prefix(t)
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	ready := func() (int, string) {
		resp, err := http.Get(m.APIURL() + "/readyz")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := ready(); code != 200 || !strings.Contains(body, `"redis":"ok"`) {
		t.Fatalf("ready: %d %s", code, body)
	}
	p.Cut()
	if code, body := ready(); code != 503 || !strings.Contains(body, `"down":["redis"]`) || !strings.Contains(body, `"storage":"sqlite"`) {
		t.Fatalf("Redis cut: %d %s, want 503 naming redis (and storage fine)", code, body)
	}
	p.Restore()
	deadline := time.Now().Add(2 * time.Second)
	for {
		code, body := ready()
		if code == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Redis back, still %d %s after 2 s", code, body)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
