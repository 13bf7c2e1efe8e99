package app

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/siwx"
)

func TestConfig_SIWXFlags(t *testing.T) {
	cfg, err := parseConfig("latchd dev", nil, io.Discard)
	if err != nil || cfg.SIWXSessionLifetime != siwx.DefaultSessionLifetime {
		t.Fatalf("default: %v, %v", cfg.SIWXSessionLifetime, err)
	}
	cfg, err = parseConfig("latchd dev", []string{"--siwx-session-lifetime", "1h"}, io.Discard)
	if err != nil || cfg.SIWXSessionLifetime != time.Hour {
		t.Fatalf("1h: %v, %v", cfg.SIWXSessionLifetime, err)
	}
	if _, err := parseConfig("latchd dev", []string{"--siwx-session-lifetime", "10s"}, io.Discard); err == nil || !strings.Contains(err.Error(), "--siwx-session-lifetime must be at least 1m") {
		t.Fatalf("10s: %v", err)
	}
	if cfg.SIWXRateLimit != defaultSIWXRateLimit {
		t.Fatalf("--siwx-rate-limit default: %d", cfg.SIWXRateLimit)
	}
	if cfg, err := parseConfig("latchd dev", []string{"--siwx-rate-limit", "0"}, io.Discard); err != nil || cfg.SIWXRateLimit != 0 {
		t.Fatalf("--siwx-rate-limit 0: %v, %v", cfg.SIWXRateLimit, err)
	}
	if _, err := parseConfig("latchd dev", []string{"--siwx-rate-limit", "-1"}, io.Discard); err == nil || !strings.Contains(err.Error(), "--siwx-rate-limit must not be negative") {
		t.Fatalf("-1: %v", err)
	}
}
