package app_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/app"
	"github.com/latchkit/latch/internal/redistest"
	"github.com/latchkit/latch/internal/store/storetest"
)

// TestMain_RedisSharedIPLimit runs two nodes on one Redis: the per-IP budget
// is shared, so 5 requests spread over both exhaust it on both.
func TestMain_RedisSharedIPLimit(t *testing.T) {
	url := redistest.URL(t)
	prefix := redistest.Prefix(t)
	nodes := make([]client, 2)
	for i := range nodes {
		cfg := app.Config{Addr: "127.0.0.1:0", FrameAddr: "127.0.0.1:0", DataDir: storetest.SQLiteDir(t), IPRateLimit: 5, RedisURL: url}
		m := app.NewMain(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
		m.RedisPrefix = prefix
		if err := m.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { m.Close() })
		if m.Redis == nil {
			t.Fatal("Main.Redis is nil with RedisURL set")
		}
		nodes[i] = client{t: t, base: m.APIURL()}
	}
	a, b := nodes[0], nodes[1]
	a.want(a.do("GET", "/readyz", ""), 200, `"redis":"ok"`) // exempt from the IP limit
	for _, c := range []client{a, b, a, b, a} {
		c.want(c.do("GET", "/getWallets", ""), 401)
	}
	for _, c := range []client{a, b} {
		r := c.do("GET", "/getWallets", "")
		c.want(r, 429, `"rate_limited"`)
		if r.header.Get("Retry-After") == "" {
			t.Fatal("429 without Retry-After")
		}
	}
}

func TestMain_RedisUnreachable(t *testing.T) {
	cfg := app.Config{Addr: "127.0.0.1:0", FrameAddr: "127.0.0.1:0", DataDir: storetest.SQLiteDir(t), RedisURL: "redis://user:s3cret@127.0.0.1:1/0"}
	m := app.NewMain(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	err := m.Run(context.Background())
	if err == nil {
		m.Close()
		t.Fatal("Run with an unreachable Redis: no error")
	}
	if msg := err.Error(); !strings.Contains(msg, "127.0.0.1:1") || strings.Contains(msg, "s3cret") {
		t.Fatalf("error %q, want the Redis address without its password", msg)
	}
}

// TestMain_RedisServices checks that the RPC proxy's cache and project
// limiter and telemetry's limiters live in Redis when latchd has one.
func TestMain_RedisServices(t *testing.T) {
	url := redistest.URL(t)
	prefix := redistest.Prefix(t)
	cfg := app.Config{
		Dev: true, Addr: "127.0.0.1:0", FrameAddr: "127.0.0.1:0", DataDir: storetest.SQLiteDir(t), DevChains: []uint64{31337},
		RPCProjectLimit: 100, RedisURL: url, ShutdownTimeout: 5 * time.Second,
	}
	m := app.NewMain(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	m.RedisPrefix = prefix
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	c := client{t: t, base: m.APIURL()}
	c.want(c.do("POST", "/v1?chainId=eip155:31337&projectId="+m.DevProjectID, `{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}`), 200, `"result":"0x7a69"`)
	c.want(c.do("POST", "/e?projectId="+m.DevProjectID, fmt.Sprintf(`{"eventId":"8f1c2a4e-8d3b-4c5a-9e7f-0a1b2c3d4e5f","url":"http://localhost/","domain":"localhost","timestamp":%q,"props":{"type":"error","event":"INVALID_APP_CONFIGURATION","errorType":"x","errorMessage":"y"}}`, time.Now().UTC().Format(time.RFC3339))), 204)
	for _, pattern := range []string{prefix + "rpc-cache:*", prefix + "ratelimit:rpc-project:*", prefix + "ratelimit:telemetry-request:*", prefix + "ratelimit:telemetry-error:*"} {
		keys, err := m.Redis.Keys(context.Background(), pattern).Result()
		if err != nil {
			t.Fatal(err)
		}
		if len(keys) == 0 {
			t.Errorf("no Redis key matches %s", pattern)
		}
	}
}
